//! The offline measurements behind the review's numbers (docs/review.md), run by
//! `hangar review --calibrate jungle|flight`:
//!
//! - [`calibrate_jungle`]: self-play games of a Jungle bot (the hall's `hard` level by
//!   default), every position evaluated as the review evaluates it, the pairs (score, result)
//!   fitted by a one-parameter logistic regression: the slope [`super::JUNGLE_SCALE`].
//! - [`calibrate_flight`]: positions of simulated flight games, the value net's win chance
//!   for the player about to roll against the share of many rollouts played to the end that
//!   the player wins: the mean absolute error and Brier scores.

use hangar_bots::flight::search::greedy_index;
use hangar_bots::flight::td::net_chance;
use hangar_bots::flight::{Net, Weights};
use hangar_bots::jungle::{JungleBot, JunglePlayer, Searcher, WIN_BOUND};
use hangar_dice::{Dice, Seed};
use hangar_flight::{Game as FlightGame, NoEvents, Options, Seating};
use hangar_jungle::{Color, Game, Rules};
use serde::{Deserialize, Serialize};

use super::jungle::evaluate;

/// Plies a self-play game is cut after (J-DRAW ends every game long before).
const MAX_PLIES: usize = 2_000;

/// A score from the side to move's view and that side's result (1 won, ½ drawn, 0 lost).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoredResult {
    /// The review's score of the position for the side to move.
    pub score: f64,
    /// What the side to move scored in the end.
    pub result: f64,
}

/// What [`calibrate_jungle`] measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JungleCalibration {
    /// Self-play games played.
    pub games: usize,
    /// Red wins, yellow wins and draws among them.
    pub red_wins: usize,
    /// See `red_wins`.
    pub yellow_wins: usize,
    /// See `red_wins`.
    pub draws: usize,
    /// Positions fitted (forced results left out).
    pub positions: usize,
    /// The fitted slope.
    pub scale: f64,
    /// The mean log loss (nats) of the fitted curve on the positions.
    pub log_loss: f64,
    /// Calibration by bins of predicted chance: (mean predicted, mean result, positions).
    pub bins: Vec<(f64, f64, usize)>,
}

/// Fits `k` in `p = 1 / (1 + exp(-k s))` to the pairs by maximum likelihood (Newton's
/// method on the log-likelihood, results of ½ counting as half a win and half a loss).
pub fn fit_logistic(pairs: &[ScoredResult]) -> f64 {
    let mut k = 0.003;
    for _ in 0..50 {
        let (mut gradient, mut curvature) = (0.0, 0.0);
        for p in pairs {
            let predicted = logistic(k * p.score);
            gradient += (p.result - predicted) * p.score;
            curvature += predicted * (1.0 - predicted) * p.score * p.score;
        }
        if curvature <= 0.0 {
            break;
        }
        let step = gradient / curvature;
        k += step;
        if step.abs() < 1e-12 {
            break;
        }
    }
    k
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean log loss of slope `k` on the pairs.
pub fn log_loss(pairs: &[ScoredResult], k: f64) -> f64 {
    let total: f64 = pairs
        .iter()
        .map(|p| {
            let q = logistic(k * p.score).clamp(1e-12, 1.0 - 1e-12);
            -(p.result * q.ln() + (1.0 - p.result) * (1.0 - q).ln())
        })
        .sum();
    total / pairs.len().max(1) as f64
}

/// Plays `games` self-play games of `bot` from `seed` (the first `opening` plies of each
/// random, drawn from the seed, so that the games differ), evaluates every later position as
/// the review does with `nodes` nodes, and fits the logistic slope. `progress` is called
/// after each game with its number and its pairs so far.
pub fn calibrate_jungle(
    games: usize,
    seed: Seed,
    bot: JungleBot,
    nodes: u64,
    opening: usize,
    mut progress: impl FnMut(usize, usize),
) -> JungleCalibration {
    let mut pairs = Vec::new();
    let mut searcher = Searcher::default();
    let (mut red_wins, mut yellow_wins, mut draws) = (0, 0, 0);
    for g in 0..games {
        let mut dice = Dice::new(seed.derive(g as u64));
        let mut game = Game::new(Rules::default());
        let mut player = JunglePlayer::new(bot);
        let mut scored: Vec<(Color, f64)> = Vec::new();
        while game.outcome().is_none() && game.plies().len() < MAX_PLIES {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = if game.plies().len() < opening {
                moves[dice.roll_below(moves.len() as u32) as usize]
            } else {
                let eval = evaluate(&mut searcher, &game, nodes);
                if eval.mate.is_none() && eval.score.abs() <= WIN_BOUND {
                    let turn = game.turn();
                    let mine = if turn == Color::Red {
                        eval.score
                    } else {
                        -eval.score
                    };
                    scored.push((turn, f64::from(mine)));
                }
                match player.choose(&game, &mut dice) {
                    Some(m) => m,
                    None => break,
                }
            };
            if game.play(m).is_err() {
                break;
            }
        }
        let winner = game.outcome().and_then(|o| o.winner());
        match winner {
            Some(Color::Red) => red_wins += 1,
            Some(Color::Yellow) => yellow_wins += 1,
            None => draws += 1,
        }
        for (side, score) in scored {
            let result = match winner {
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            pairs.push(ScoredResult { score, result });
        }
        progress(g + 1, pairs.len());
    }
    let scale = fit_logistic(&pairs);
    JungleCalibration {
        games,
        red_wins,
        yellow_wins,
        draws,
        positions: pairs.len(),
        scale,
        log_loss: log_loss(&pairs, scale),
        bins: bins(pairs.iter().map(|p| (logistic(scale * p.score), p.result))),
    }
}

/// Mean predicted and mean observed by tenths of the predicted chance (empty bins left out).
fn bins(pairs: impl Iterator<Item = (f64, f64)>) -> Vec<(f64, f64, usize)> {
    let mut sums = [(0.0, 0.0, 0usize); 10];
    for (predicted, observed) in pairs {
        let b = ((predicted * 10.0) as usize).min(9);
        sums[b].0 += predicted;
        sums[b].1 += observed;
        sums[b].2 += 1;
    }
    sums.iter()
        .filter(|s| s.2 > 0)
        .map(|&(p, o, n)| (p / n as f64, o / n as f64, n))
        .collect()
}

/// What [`calibrate_flight`] measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlightCalibration {
    /// Simulated games the positions come from.
    pub games: usize,
    /// Positions measured.
    pub positions: usize,
    /// Rollouts per position.
    pub rollouts: usize,
    /// Mean |net chance − share of rollouts won| of the player about to roll.
    pub mean_absolute_error: f64,
    /// The Brier score of the net's chance against the rollouts' outcomes.
    pub brier_net: f64,
    /// The Brier score the rollouts' own share would get (the floor: the outcomes' variance).
    pub brier_floor: f64,
    /// The Brier score of the constant `1 / players` (no judgement at all).
    pub brier_uniform: f64,
    /// Calibration by bins of the net's chance: (mean net chance, mean rollout share,
    /// positions).
    pub bins: Vec<(f64, f64, usize)>,
}

/// Plays `games` games of heuristic bots under `options` for `players` players from
/// `seed`; at every `every`-th roll, takes the player about to roll, its win chance by the
/// value net, and the share of `rollouts` continuations played to the end by the heuristic
/// (the hard level's rollout policy) that it wins. `None` when no net applies.
pub fn calibrate_flight(
    options: Options,
    players: usize,
    games: usize,
    rollouts: usize,
    every: usize,
    seed: Seed,
    mut progress: impl FnMut(usize, usize),
) -> Option<FlightCalibration> {
    let weights = Weights::default();
    let mut measured: Vec<(f64, f64)> = Vec::new();
    let mut net_for_game = None;
    for g in 0..games {
        let game_seed = seed.derive(g as u64);
        let mut dice = Dice::new(game_seed);
        let seating = Seating::draw(players, options.teams, |n| dice.roll_below(n)).ok()?;
        let mut game = FlightGame::new(options, &seating.seated(), seating.first).ok()?;
        let net = *net_for_game.get_or_insert(Net::for_game(&game)?);
        let mut rolls = 0usize;
        while !game.is_over() && rolls < 100_000 {
            game.draw_chances(&mut dice, &mut NoEvents);
            if rolls.is_multiple_of(every.max(1)) && !game.is_over() {
                let me = game.turn().index();
                let p = f64::from(net_chance(net, &game, me));
                let mut rollout_dice = Dice::new(game_seed.derive(1_000_000 + rolls as u64));
                let mut wins = 0usize;
                for _ in 0..rollouts {
                    let mut g2 = game;
                    let mut n = 0;
                    while !g2.is_over() && n < 100_000 {
                        g2.draw_chances(&mut rollout_dice, &mut NoEvents);
                        let value = rollout_dice.roll();
                        if g2
                            .roll_and_pick(value, |g, m| greedy_index(g, m, &weights))
                            .is_err()
                        {
                            break;
                        }
                        n += 1;
                    }
                    if g2.final_ranks()[me] == Some(1) {
                        wins += 1;
                    }
                }
                measured.push((p, wins as f64 / rollouts.max(1) as f64));
            }
            let value = dice.roll();
            rolls += 1;
            if game
                .roll_and_pick(value, |g, m| greedy_index(g, m, &weights))
                .is_err()
            {
                break;
            }
        }
        progress(g + 1, measured.len());
    }
    let n = measured.len().max(1) as f64;
    let uniform = 1.0 / players as f64;
    Some(FlightCalibration {
        games,
        positions: measured.len(),
        rollouts,
        mean_absolute_error: measured.iter().map(|(p, q)| (p - q).abs()).sum::<f64>() / n,
        // Over the rollouts' outcomes (a share q of wins): mean (p - o)² = (p - q)² + q(1 - q).
        brier_net: measured
            .iter()
            .map(|(p, q)| (p - q).powi(2) + q * (1.0 - q))
            .sum::<f64>()
            / n,
        brier_floor: measured.iter().map(|(_, q)| q * (1.0 - q)).sum::<f64>() / n,
        brier_uniform: measured
            .iter()
            .map(|(_, q)| (uniform - q).powi(2) + q * (1.0 - q))
            .sum::<f64>()
            / n,
        bins: bins(measured.iter().copied()),
    })
}
