//! A learned evaluation: the chance that each side wins, fitted to the outcomes of self-play.
//!
//! Each colour's position is summed up by a few features (progress, planes launched, in the
//! home column, finished, on the pad, progress at risk of capture, stacked planes, the next
//! roll, and squared progress for the race's end); a side's score is a linear function of its
//! colours' features, and the chance that a side wins is the softmax of the sides' scores (a
//! conditional logit model). The weights are fitted by maximum likelihood to who won the
//! self-play games the positions came from, by `cargo run --release -p hangar-bots --example
//! train_flight` (docs/benchmarks.md), and kept in `crates/bots/data/flight_eval.json`.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::eval::{danger, stack_size};
use super::geometry::LAST_TRACK;
use super::snapshot::{At, Snapshot};

/// Number of features per colour.
pub const FEATURES: usize = 9;
/// Names of the features, in order (as in the data file).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "progress",
    "launched",
    "home",
    "finished",
    "pad",
    "at_risk",
    "stacked",
    "to_roll",
    "progress2",
];

/// Full route of a plane, launch pad (0) to finish (56).
const ROUTE: f32 = 56.0;

/// The fitted weights of the learned evaluation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LearnedEval {
    /// How the weights were made (the command), for the record.
    pub trained_by: String,
    /// One weight per feature, in the order of [`FEATURE_NAMES`].
    pub weights: Vec<f32>,
}

impl LearnedEval {
    /// The weights shipped in `crates/bots/data/flight_eval.json`.
    pub fn shipped() -> &'static LearnedEval {
        static SHIPPED: OnceLock<LearnedEval> = OnceLock::new();
        SHIPPED.get_or_init(|| {
            let eval: LearnedEval =
                serde_json::from_str(include_str!("../../data/flight_eval.json"))
                    .expect("the shipped flight_eval.json parses");
            assert_eq!(eval.weights.len(), FEATURES, "one weight per feature");
            eval
        })
    }

    /// The score of a feature vector.
    pub fn score(&self, features: &[f32; FEATURES]) -> f32 {
        features.iter().zip(&self.weights).map(|(f, w)| f * w).sum()
    }

    /// The chance that the side of `colour` wins from `snapshot`; a finished game is 1 or 0.
    pub fn win_chance(&self, snapshot: &Snapshot, colour: usize) -> f32 {
        let me = snapshot.side[colour];
        if let Some(winner) = snapshot.winner_side {
            return if winner == me { 1.0 } else { 0.0 };
        }
        let scores = side_features(snapshot).map(|f| f.map(|f| self.score(&f)));
        let top = scores.iter().flatten().fold(f32::MIN, |a, &b| a.max(b));
        let mut total = 0.0;
        let mut mine = 0.0;
        for (side, score) in scores.iter().enumerate() {
            if let Some(score) = score {
                let weight = (score - top).exp();
                total += weight;
                if side == me {
                    mine = weight;
                }
            }
        }
        if total > 0.0 { mine / total } else { 0.0 }
    }
}

/// The features of one colour.
pub fn colour_features(snapshot: &Snapshot, colour: usize) -> [f32; FEATURES] {
    let mut f = [0.0; FEATURES];
    for &at in snapshot.planes_of(colour) {
        let progress = match at {
            At::Hangar => continue,
            At::Route(p) => f32::from(p),
            At::Loop(short) => ROUTE - f32::from(short),
            At::Finished => ROUTE,
        } / ROUTE;
        f[0] += progress;
        f[1] += 1.0;
        f[8] += progress * progress;
        match at {
            At::Route(0) => f[4] += 1.0,
            At::Route(p) if p <= LAST_TRACK => {
                let mut risk = danger(snapshot, colour, p);
                if stack_size(snapshot, colour, p) > 1 {
                    f[6] += 1.0;
                    if snapshot.stacks_block {
                        risk *= 0.5;
                    }
                }
                // What a capture costs: the progress and the take-off.
                f[5] += risk * (progress + 0.5);
            }
            At::Route(p) => {
                f[2] += 1.0;
                f[5] += danger(snapshot, colour, p) * (progress + 0.5);
            }
            At::Loop(_) => f[2] += 1.0,
            At::Finished => f[3] += 1.0,
            At::Hangar => {}
        }
    }
    if snapshot.to_roll == Some(colour) {
        f[7] = 1.0;
    }
    f
}

/// The summed features of each side (by side index), `None` for sides nobody plays.
pub fn side_features(snapshot: &Snapshot) -> [Option<[f32; FEATURES]>; 4] {
    let mut sides: [Option<[f32; FEATURES]>; 4] = [None; 4];
    for colour in 0..4 {
        if !snapshot.present[colour] {
            continue;
        }
        let f = colour_features(snapshot, colour);
        let slot = sides[snapshot.side[colour]].get_or_insert([0.0; FEATURES]);
        for (s, x) in slot.iter_mut().zip(f) {
            *s += x;
        }
    }
    sides
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flight::snapshot::two_player;

    #[test]
    fn shipped_weights_favour_the_side_ahead() {
        let eval = LearnedEval::shipped();
        let s = two_player([At::Route(45); 4], [At::Route(5); 4]);
        let red = eval.win_chance(&s, 0);
        let blue = eval.win_chance(&s, 2);
        assert!(red > 0.5 && blue < 0.5, "{red} {blue}");
        assert!((red + blue - 1.0).abs() < 1e-4);
    }

    #[test]
    fn features_count_planes_where_they_are() {
        let s = two_player(
            [At::Hangar, At::Route(0), At::Route(52), At::Finished],
            [At::Hangar; 4],
        );
        let f = colour_features(&s, 0);
        assert_eq!(f[1], 3.0); // launched
        assert_eq!(f[2], 1.0); // home column
        assert_eq!(f[3], 1.0); // finished
        assert_eq!(f[4], 1.0); // pad
    }
}
