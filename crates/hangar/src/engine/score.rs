//! A match's score as an Elo difference with its 95 % interval (`hangar match`).
//!
//! Each game scores the engine 0..=1: a jungle win 1, a draw ½, a loss 0; a flight place
//! `p` of `n` counts as the share of the other players it finished ahead of,
//! `(n − p) / (n − 1)` (first 1, last 0): a four-seat game is three pairings at once. The
//! difference is the logistic Elo of the mean score; its interval is the Elo of the mean ±
//! 1.96 standard errors of the per-game scores (a match won or lost in every game has no
//! spread to measure: its open end is bounded by the rule of three, a score of 1 − 3/n).

use serde::Serialize;

/// The score of a match and its Elo difference.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    /// The mean score, 0..=1.
    pub score: f64,
    /// The standard error of the mean score.
    pub standard_error: f64,
    /// The Elo difference of the engine over the bots (±∞ at a score of 1 or 0).
    pub elo: f64,
    /// The lower end of the 95 % interval.
    pub low: f64,
    /// The upper end of the 95 % interval.
    pub high: f64,
}

/// The Elo difference that expects `score` (0..=1).
pub fn elo_of(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The estimate from per-game scores (none: a score of ½ with an unbounded interval).
pub fn estimate(scores: &[f64]) -> EloEstimate {
    let n = scores.len() as f64;
    if scores.is_empty() {
        return EloEstimate {
            score: 0.5,
            standard_error: f64::INFINITY,
            elo: 0.0,
            low: f64::NEG_INFINITY,
            high: f64::INFINITY,
        };
    }
    let mean = scores.iter().sum::<f64>() / n;
    let variance = if scores.len() > 1 {
        scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0)
    } else {
        0.25
    };
    let standard_error = (variance / n).sqrt();
    let (low, high) = if mean >= 1.0 {
        // Every game won: no spread to measure, so the rule of three bounds the score.
        (elo_of(1.0 - 3.0 / n), f64::INFINITY)
    } else if mean <= 0.0 {
        (f64::NEG_INFINITY, elo_of(3.0 / n))
    } else {
        (
            elo_of(mean - 1.96 * standard_error),
            elo_of(mean + 1.96 * standard_error),
        )
    };
    EloEstimate {
        score: mean,
        standard_error,
        elo: elo_of(mean),
        low,
        high,
    }
}

/// An Elo value for the table: `+35`, `-120`, `+inf`.
pub fn show(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_owned()
    } else {
        // Adding 0 turns a rounded -0 into 0, which prints as +0.
        format!("{:+.0}", elo.round() + 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_engine_even_scores_are_zero_elo_with_a_symmetric_interval() {
        let scores: Vec<f64> = (0..100).map(|i| f64::from(i % 2)).collect();
        let e = estimate(&scores);
        assert_eq!(e.score, 0.5);
        assert!(e.elo.abs() < 1e-9);
        assert!((e.low + e.high).abs() < 1e-6);
        // se = sqrt(0.2525 / 100) ≈ 0.05: ±0.098 in score is about ±69 Elo.
        assert!((e.high - 69.0).abs() < 2.0, "{e:?}");
    }

    #[test]
    fn p_engine_three_quarters_is_about_191_elo() {
        assert!((elo_of(0.75) - 190.85).abs() < 0.1);
        assert_eq!(show(elo_of(1.0)), "+inf");
        assert_eq!(show(elo_of(0.0)), "-inf");
        assert_eq!(show(elo_of(0.25)), "-191");
    }
}
