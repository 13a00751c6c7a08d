//! Fits the learned evaluation (`crates/bots/data/flight_eval.json`) to self-play outcomes.
//!
//! Plays games between heuristic bots (4 and 2 players, traditional and improved rules),
//! records the sides' features (`hangar_bots::flight::learned`) at every `STRIDE`-th roll and
//! who won, and fits the conditional logit model by Newton's method (a small ridge keeps it
//! well posed). Prints the JSON to stdout:
//!
//! ```sh
//! cargo run --release -p hangar-bots --example train_flight -- 20000 1 > crates/bots/data/flight_eval.json
//! ```
//! Arguments: games per setting (default 20000) and seed (default 1).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::needless_range_loop)] // An example: fail loudly; index loops read as the maths.

use hangar_bots::flight::learned::{FEATURES, LearnedEval, side_features};
use hangar_bots::flight::snapshot::Snapshot;
use hangar_bots::flight::{FlightBot, HeuristicBot};
use hangar_dice::{Dice, Seed};
use hangar_flight::{Game, NoEvents, Options, Seating};

/// Rolls between recorded positions.
const STRIDE: u64 = 3;
/// Ridge penalty on the weights.
const RIDGE: f64 = 1e-6;

/// One recorded position: the feature vectors of the sides in play and which of them won.
struct Sample {
    sides: Vec<[f32; FEATURES]>,
    winner: usize,
}

fn play(options: Options, players: usize, seed: Seed, samples: &mut Vec<Sample>) {
    let bot = HeuristicBot::default();
    let mut dice = Dice::new(seed);
    let seating = Seating::draw(players, options.teams, |n| dice.roll_below(n)).unwrap();
    let mut game = Game::new(options, &seating.seated(), seating.first).unwrap();
    let mut rng = Dice::new(seed.derive(1));
    let mut recorded: Vec<[Option<[f32; FEATURES]>; 4]> = Vec::new();
    let mut rolls = 0u64;
    while !game.is_over() {
        if rolls.is_multiple_of(STRIDE) {
            recorded.push(side_features(&Snapshot::of(&game)));
        }
        rolls += 1;
        let moves = game.roll(dice.roll(), &mut NoEvents).unwrap();
        if !moves.is_empty() {
            let index = bot.pick(&game, &moves, &mut rng);
            game.play_unchecked(&moves[index], &mut NoEvents);
        }
    }
    let end = Snapshot::of(&game);
    let winner_side = end.winner_side.expect("a finished game has a winner");
    for sides in recorded {
        let mut kept = Vec::new();
        let mut winner = 0;
        for (side, f) in sides.iter().enumerate() {
            if let Some(f) = f {
                if side == winner_side {
                    winner = kept.len();
                }
                kept.push(*f);
            }
        }
        samples.push(Sample {
            sides: kept,
            winner,
        });
    }
}

/// Log-likelihood, gradient and Hessian of the conditional logit at `theta`.
fn derivatives(samples: &[Sample], theta: &[f64; FEATURES]) -> (f64, Vec<f64>, Vec<Vec<f64>>) {
    let mut loglik = 0.0;
    let mut grad = vec![0.0; FEATURES];
    let mut hess = vec![vec![0.0; FEATURES]; FEATURES];
    for s in samples {
        let scores: Vec<f64> = s
            .sides
            .iter()
            .map(|f| f.iter().zip(theta).map(|(x, t)| f64::from(*x) * t).sum())
            .collect();
        let top = scores.iter().cloned().fold(f64::MIN, f64::max);
        let weights: Vec<f64> = scores.iter().map(|z| (z - top).exp()).collect();
        let total: f64 = weights.iter().sum();
        loglik += scores[s.winner] - top - total.ln();
        let mut mean = [0.0; FEATURES];
        for (f, w) in s.sides.iter().zip(&weights) {
            for j in 0..FEATURES {
                mean[j] += w / total * f64::from(f[j]);
            }
        }
        for j in 0..FEATURES {
            grad[j] += f64::from(s.sides[s.winner][j]) - mean[j];
        }
        for (f, w) in s.sides.iter().zip(&weights) {
            let p = w / total;
            for a in 0..FEATURES {
                let da = f64::from(f[a]) - mean[a];
                for b in 0..FEATURES {
                    hess[a][b] -= p * da * (f64::from(f[b]) - mean[b]);
                }
            }
        }
    }
    (loglik, grad, hess)
}

/// Solves `m x = v` by Gaussian elimination with partial pivoting.
fn solve(mut m: Vec<Vec<f64>>, mut v: Vec<f64>) -> Vec<f64> {
    let n = v.len();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))
            .unwrap();
        m.swap(col, pivot);
        v.swap(col, pivot);
        for row in col + 1..n {
            let factor = m[row][col] / m[col][col];
            for k in col..n {
                m[row][k] -= factor * m[col][k];
            }
            v[row] -= factor * v[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let tail: f64 = (row + 1..n).map(|k| m[row][k] * x[k]).sum();
        x[row] = (v[row] - tail) / m[row][row];
    }
    x
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().map_or(20_000, |a| a.parse().unwrap());
    let seed: u64 = args.get(1).map_or(1, |a| a.parse().unwrap());
    let master = Seed::from_u64(seed);
    let settings = [
        (Options::traditional(), 4),
        (Options::traditional(), 2),
        (Options::improved(), 4),
        (Options::improved(), 2),
    ];
    let mut samples = Vec::new();
    for (i, (options, players)) in settings.iter().enumerate() {
        for g in 0..games {
            let seed = master.derive(i as u64).derive(g);
            play(*options, *players, seed, &mut samples);
        }
    }
    eprintln!("{} positions", samples.len());
    let mut theta = [0.0f64; FEATURES];
    for iteration in 0..12 {
        let (loglik, mut grad, mut hess) = derivatives(&samples, &theta);
        for j in 0..FEATURES {
            grad[j] -= RIDGE * samples.len() as f64 * theta[j];
            hess[j][j] -= RIDGE * samples.len() as f64;
        }
        let step = solve(hess, grad);
        for j in 0..FEATURES {
            theta[j] -= step[j];
        }
        eprintln!(
            "iteration {iteration}: mean log-likelihood {:.5}",
            loglik / samples.len() as f64
        );
    }
    let eval = LearnedEval {
        trained_by: format!(
            "cargo run --release -p hangar-bots --example train_flight -- {games} {seed}"
        ),
        weights: theta.iter().map(|&t| t as f32).collect(),
    };
    println!("{}", serde_json::to_string_pretty(&eval).unwrap());
}
