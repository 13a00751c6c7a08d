//! Rollout search (Tesauro and Galperin's Monte Carlo policy improvement), the hard level.
//!
//! Measured (docs/benchmarks.md): whole-game rollouts are too noisy to separate moves whose
//! win chances differ by a point or two, so the rollouts stop after `horizon` rolls (8 by
//! default) and many of them are run; the count matters more than the length.
//!
//! Each candidate move is played on many times by the heuristic's greedy policy for every
//! player — which is exactly how the heuristic opponents play, and a fair model of others —
//! with sampled dice, to the end of the game or for `horizon` rolls, and judged by who wins
//! (a rollout cut short is judged by [`win_chance`], a calibrated guess from the evaluation,
//! or with [`RolloutLeaf::Net`] — the hard level — by the TD-trained net where one applies).
//! The move with the best mean wins: the value is the win probability, not a proxy in pips.
//!
//! - Common random numbers: rollout `k` of every candidate uses the same dice stream, so two
//!   moves are compared on the same luck and the noise of the difference is far below that
//!   of each estimate.
//! - Racing: the rollouts are run in rounds for all candidates still in the race; after each
//!   round a candidate whose paired difference to the leader is clearly negative (its upper
//!   confidence bound below zero) leaves the race, so the budget goes to the close calls.
//! - Limits: a number of rollouts per candidate (deterministic for a given seed) and
//!   optionally a time budget (the hall's hard level: wall clock; `hangar sim --clock cpu`:
//!   the thread's CPU time).

use std::time::Duration;

use hangar_dice::{Dice, Seed};
use hangar_flight::{Game, Moves, NoEvents};

use super::clock::Clock;
use super::eval::{Weights, win_chance};
use super::net::Net;
use super::search::greedy_index;
use super::snapshot::Snapshot;
use super::td::{net_chance, td_index};

/// No rollout goes past this many rolls (no game comes near it: a guard).
const ROLL_CAP: u32 = 5_000;
/// Rollouts per candidate before the first elimination, and between later ones.
const FIRST_ROUND: usize = 8;
/// Standard errors by which a candidate must trail the leader to leave the race.
const RACE_Z: f32 = 2.5;

/// Settings of a rollout search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RolloutLimits {
    /// Most rollouts per candidate move.
    pub rollouts: u32,
    /// Rolls per rollout before the estimate judges the position; 0 plays to the end.
    pub horizon: u32,
    /// Time budget per decision; `None` runs all rollouts (deterministic).
    pub time: Option<Duration>,
    /// The clock the budget is measured by (wall in the hall, thread CPU in `hangar sim`).
    pub clock: Clock,
    /// Temperature (in pips) of the win-chance estimate that judges cut-short rollouts.
    pub temperature: f32,
    /// What judges a cut-short rollout.
    pub leaf: RolloutLeaf,
}

/// What judges a rollout cut short at its horizon.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RolloutLeaf {
    /// A softmax of the sides' hand evaluations ([`win_chance`]).
    #[default]
    Softmax,
    /// The TD-trained net ([`super::net`]) where one applies to the game, else the softmax.
    Net,
    /// The net trained for one player against heuristic opponents
    /// ([`Net::versus_for_game`]) where one applies, the player's own moves in the rollouts
    /// greedy on it; else as `Net`.
    Versus,
}

impl Default for RolloutLimits {
    fn default() -> Self {
        RolloutLimits {
            rollouts: 64,
            horizon: 8,
            time: None,
            clock: Clock::Wall,
            temperature: 80.0,
            leaf: RolloutLeaf::Softmax,
        }
    }
}

/// What one finished or cut-short rollout is worth to `me`: 1 for a win, 0 for a loss; under
/// play-on, where places after the first count too, the place is scaled to 1..0.
fn outcome(game: &Game, me: usize, weights: &Weights, temperature: f32, net: Option<&Net>) -> f32 {
    let play_on = game.options().play_on && !game.options().teams;
    if game.is_over() {
        let rank = game.final_ranks()[me].unwrap_or(u8::MAX);
        if play_on {
            return place_worth(f32::from(rank), game.player_count());
        }
        return if rank == 1 { 1.0 } else { 0.0 };
    }
    if play_on {
        return play_on_value(game, me, weights, temperature, net.is_some());
    }
    match net {
        Some(net) => net_chance(net, game, me),
        None => win_chance(&Snapshot::of(game), me, weights, temperature),
    }
}

/// A place's worth under play-on: 1 for the first, 0 for the last, evenly between (and so the
/// mean worth of a run of places is the worth of their mean).
fn place_worth(rank: f32, players: usize) -> f32 {
    let players = players.max(2) as f32;
    ((players - rank) / (players - 1.0)).clamp(0.0, 1.0)
}

/// What a game still in play is worth to `me` under play-on. With the first places gone to
/// players already home, the race for the next place is the game of those still racing —
/// judged alone, since finished planes are off the board (by the net of that many players,
/// when `nets`): a chance `q` of the next place, worth that place, and `1 - q` of one of the
/// places after it, taken as their mean — on the same scale as a rollout that reaches the
/// end ([`place_worth`]). Judging the whole board instead would give the player already home
/// nearly every chance and squeeze the racers' values towards 0, below those of rollouts that
/// happen to finish.
fn play_on_value(game: &Game, me: usize, weights: &Weights, temperature: f32, nets: bool) -> f32 {
    let players = game.player_count();
    let mut racing = Snapshot::of(game);
    let mut home = 0;
    for colour in game.players().filter(|&c| game.is_done(c)) {
        racing.present[colour.index()] = false;
        home += 1;
    }
    if !racing.present[me] {
        // Home already (its place is taken), or resigned (last).
        let rank = game.final_ranks()[me].map_or(players as f32, f32::from);
        return place_worth(rank, players);
    }
    let racers = racing.present.iter().filter(|&&p| p).count();
    let next = home + 1;
    let q = match nets.then(|| Net::shipped(game.options(), racers)).flatten() {
        Some(net) => net.chance(&racing, me),
        None => win_chance(&racing, me, weights, temperature),
    };
    // The places after the next one that racers can take (the resigned rank last).
    let last = home + racers;
    let later_worth = if last > next {
        place_worth((next + 1 + last) as f32 / 2.0, players)
    } else {
        0.0
    };
    q * place_worth(next as f32, players) + (1.0 - q) * later_worth
}

/// Plays `game` (awaiting a roll) on with the greedy policy for everyone — `me` greedily on
/// `own` when given, the others (and `me` without it) as the heuristic —: `horizon` rolls, or
/// to the end when `horizon` is 0.
fn roll_out(
    mut game: Game,
    horizon: u32,
    dice: &mut Dice,
    weights: &Weights,
    me: usize,
    own: Option<&Net>,
) -> Game {
    let limit = if horizon == 0 { ROLL_CAP } else { horizon };
    for _ in 0..limit {
        if game.is_over() {
            break;
        }
        game.draw_chances(dice, &mut NoEvents);
        let moves = game
            .roll(dice.roll(), &mut NoEvents)
            .expect("a rollout position awaits a roll");
        if !moves.is_empty() {
            let index = match own {
                _ if moves.len() == 1 => 0,
                Some(net) if game.turn().index() == me => td_index(&game, &moves, net),
                _ => greedy_index(&game, &moves, weights),
            };
            game.play_unchecked(&moves[index], &mut NoEvents);
        }
    }
    game
}

/// The candidates of one decision and their rollout values so far.
struct Race {
    starts: Vec<Game>,
    /// `values[i][k]`: rollout `k` of candidate `i` (only for candidates still racing).
    values: Vec<Vec<f32>>,
    alive: Vec<bool>,
}

impl Race {
    fn mean(&self, i: usize) -> f32 {
        let v = &self.values[i];
        if v.is_empty() {
            f32::MIN
        } else {
            v.iter().sum::<f32>() / v.len() as f32
        }
    }

    /// The racing candidate with the best mean over the rollouts all racers share.
    fn leader(&self) -> usize {
        let mut best = (f32::MIN, 0);
        for i in 0..self.starts.len() {
            if self.alive[i] {
                let mean = self.mean(i);
                if mean > best.0 {
                    best = (mean, i);
                }
            }
        }
        best.1
    }

    /// Drops every racer whose paired difference to the leader is clearly below zero.
    fn eliminate(&mut self) {
        let lead = self.leader();
        let rounds = self.values[lead].len();
        if rounds < 2 {
            return;
        }
        for i in 0..self.starts.len() {
            if i == lead || !self.alive[i] {
                continue;
            }
            let diffs = self.values[i]
                .iter()
                .zip(&self.values[lead])
                .map(|(a, b)| a - b);
            let n = rounds as f32;
            let mean = diffs.clone().sum::<f32>() / n;
            let var = diffs.map(|d| (d - mean) * (d - mean)).sum::<f32>() / (n - 1.0);
            let stderr = (var / n).sqrt();
            if mean + RACE_Z * stderr < 0.0 {
                self.alive[i] = false;
            }
        }
    }

    fn racers(&self) -> usize {
        self.alive.iter().filter(|&&a| a).count()
    }
}

/// The index (into `moves`) of the move with the best mean rollout value for the player on
/// turn. `seed` fixes the dice of the rollouts: without a clock the answer is deterministic.
pub fn rollout_index(
    game: &Game,
    moves: &Moves,
    weights: &Weights,
    limits: RolloutLimits,
    seed: Seed,
) -> usize {
    if moves.len() <= 1 {
        return 0;
    }
    let deadline = limits.time.map(|t| limits.clock.deadline(t));
    let me = game.turn().index();
    let net = match limits.leaf {
        RolloutLeaf::Net => Net::for_game(game),
        RolloutLeaf::Versus => Net::versus_for_game(game).or_else(|| Net::for_game(game)),
        RolloutLeaf::Softmax => None,
    };
    // Under `leaf=versus` the player's own later moves follow the policy that net was
    // trained for (greedy on it), so the rollouts estimate exactly what the net values.
    let own = match limits.leaf {
        RolloutLeaf::Versus => Net::versus_for_game(game),
        _ => None,
    };
    let starts: Vec<Game> = moves
        .iter()
        .map(|m| {
            let mut next = *game;
            next.play_unchecked(m, &mut NoEvents);
            next
        })
        .collect();
    let count = starts.len();
    let mut race = Race {
        starts,
        values: vec![Vec::new(); count],
        alive: vec![true; count],
    };
    let mut next_check = FIRST_ROUND;
    'rollouts: for k in 0..limits.rollouts.max(1) as usize {
        let stream = seed.derive(k as u64);
        for i in 0..count {
            if !race.alive[i] {
                continue;
            }
            if k > 0 && deadline.is_some_and(|d| d.passed()) {
                // Out of time: forget the unfinished round so all racers share rollouts.
                for values in race.values.iter_mut() {
                    values.truncate(k);
                }
                break 'rollouts;
            }
            let mut dice = Dice::new(stream);
            let end = roll_out(race.starts[i], limits.horizon, &mut dice, weights, me, own);
            let value = outcome(&end, me, weights, limits.temperature, net);
            race.values[i].push(value);
        }
        if k + 1 == next_check {
            race.eliminate();
            if race.racers() == 1 {
                break;
            }
            next_check += FIRST_ROUND.max(next_check / 2);
        }
    }
    race.leader()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hangar_flight::{Options, Seating};

    fn opening(seed: u64) -> Game {
        let mut dice = Dice::new(Seed::from_u64(seed));
        let seating = Seating::draw(4, false, |n| dice.roll_below(n)).unwrap();
        Game::new(Options::traditional(), &seating.seated(), seating.first).unwrap()
    }

    #[test]
    fn rollouts_without_a_clock_are_deterministic() {
        // Play a few rolls in until some decision has two moves.
        let mut game = opening(5);
        let mut dice = Dice::new(Seed::from_u64(9));
        let limits = RolloutLimits {
            rollouts: 12,
            horizon: 30,
            ..RolloutLimits::default()
        };
        let mut decisions = 0;
        while !game.is_over() && decisions < 6 {
            let moves = game.roll(dice.roll(), &mut NoEvents).unwrap();
            if moves.is_empty() {
                continue;
            }
            let seed = Seed::from_u64(decisions);
            let a = rollout_index(&game, &moves, &Weights::default(), limits, seed);
            let b = rollout_index(&game, &moves, &Weights::default(), limits, seed);
            assert_eq!(a, b);
            assert!(a < moves.len());
            if moves.len() > 1 {
                decisions += 1;
            }
            game.play_unchecked(&moves[a], &mut NoEvents);
        }
    }

    /// F-WIN, option play-on: once a player is home the others race for the next place, and
    /// that race is what a rollout cut short is judged by — the one ahead in it is worth
    /// more, and nobody can be worth more than the next place.
    #[test]
    fn under_play_on_the_race_for_the_next_place_counts() {
        let game: Game = serde_json::from_str(
            r#"{
                "options": {"play_on": true},
                "players": [
                    {"colour": "red", "planes": [56, 56, 56, 48]},
                    {"colour": "yellow", "planes": [-1, -1, -1, 3]},
                    {"colour": "blue", "planes": [56, 30, 20, 10]},
                    {"colour": "green", "planes": [56, 56, 56, 56], "rank": 1}
                ],
                "turn": "red"
            }"#,
        )
        .unwrap();
        assert!(!game.is_over());
        let (red, yellow, blue, green) = (0, 1, 2, 3);
        for nets in [false, true] {
            let value = |colour| play_on_value(&game, colour, &Weights::default(), 80.0, nets);
            assert_eq!(value(green), 1.0, "first place is taken");
            assert!(
                value(red) > value(blue) && value(blue) > value(yellow),
                "nets: {nets}"
            );
            assert!(value(red) <= place_worth(2.0, 4) && value(yellow) >= 0.0);
        }
        let softmax = play_on_value(&game, red, &Weights::default(), 80.0, false);
        assert_eq!(
            outcome(&game, red, &Weights::default(), 80.0, None),
            softmax
        );
    }

    #[test]
    fn a_finished_game_is_worth_its_result() {
        // Play one game to the end with greedy moves; the winner's outcome is 1, others 0.
        let mut game = opening(3);
        let mut dice = Dice::new(Seed::from_u64(4));
        game = roll_out(game, 0, &mut dice, &Weights::default(), 0, None);
        assert!(game.is_over());
        let ranks = game.final_ranks();
        for (colour, rank) in ranks.iter().enumerate() {
            let value = outcome(&game, colour, &Weights::default(), 40.0, None);
            assert_eq!(value, if *rank == Some(1) { 1.0 } else { 0.0 });
        }
    }
}
