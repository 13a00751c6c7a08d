//! How fair a die looks (P-DICE-STATS): the counts of each face and Pearson's χ²
//! goodness-of-fit test against a fair die (every face 1/6), with its p-value.
//!
//! The p-value is the chance that a fair die gives a χ² at least this large: a small one (say
//! below 0.01) means counts this uneven are rare for a fair die. With many players' profiles
//! shown, some small p-values are expected by chance alone.

use serde::{Deserialize, Serialize};

use crate::gamma::regularized_upper_gamma;

/// The faces of a die.
pub const FACES: usize = 6;

/// How often each face of a die came up: `counts()[i]` is the count of face `i + 1`.
/// Serialised as the array of six counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FaceCounts([u64; FACES]);

/// Pearson's χ² test of face counts against a fair die.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChiSquare {
    /// How many rolls were counted.
    pub rolls: u64,
    /// The count each face is expected to have: rolls / 6.
    pub expected: f64,
    /// Σ (observed − expected)² / expected over the six faces.
    pub statistic: f64,
    /// Faces − 1 = 5.
    pub degrees_of_freedom: u32,
    /// P(χ² with 5 degrees of freedom ≥ statistic) = Q(5/2, statistic/2).
    pub p_value: f64,
}

impl FaceCounts {
    /// Counts of faces 1..=6, in that order.
    pub const fn new(counts: [u64; FACES]) -> Self {
        FaceCounts(counts)
    }

    /// Counts one roll of `face`; returns whether it was a face of a die (1..=6): anything
    /// else is not counted.
    pub fn add(&mut self, face: u8) -> bool {
        match usize::from(face).checked_sub(1) {
            Some(index) if index < FACES => {
                self.0[index] += 1;
                true
            }
            _ => false,
        }
    }

    /// Adds another set of counts (another game's, another player's).
    pub fn merge(&mut self, other: &FaceCounts) {
        for (mine, theirs) in self.0.iter_mut().zip(other.0) {
            *mine += theirs;
        }
    }

    /// The counts of faces 1..=6.
    pub const fn counts(&self) -> &[u64; FACES] {
        &self.0
    }

    /// How many rolls were counted.
    pub fn rolls(&self) -> u64 {
        self.0.iter().sum()
    }

    /// The χ² test of these counts against a fair die; `None` before any roll (there is
    /// nothing to test).
    pub fn chi_square(&self) -> Option<ChiSquare> {
        let rolls = self.rolls();
        if rolls == 0 {
            return None;
        }
        let expected = rolls as f64 / FACES as f64;
        let statistic = self
            .0
            .iter()
            .map(|&observed| {
                let gap = observed as f64 - expected;
                gap * gap / expected
            })
            .sum();
        let degrees_of_freedom = FACES as u32 - 1;
        Some(ChiSquare {
            rolls,
            expected,
            statistic,
            degrees_of_freedom,
            p_value: chi_square_p_value(statistic, degrees_of_freedom),
        })
    }
}

impl FromIterator<u8> for FaceCounts {
    /// Counts the faces of these rolls (values outside 1..=6 are not counted).
    fn from_iter<I: IntoIterator<Item = u8>>(rolls: I) -> Self {
        let mut counts = FaceCounts::default();
        for face in rolls {
            counts.add(face);
        }
        counts
    }
}

/// The p-value of a χ² statistic with `degrees_of_freedom` (≥ 1): Q(df / 2, statistic / 2).
pub fn chi_square_p_value(statistic: f64, degrees_of_freedom: u32) -> f64 {
    regularized_upper_gamma(f64::from(degrees_of_freedom) / 2.0, statistic / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of docs/protocol.md and web/js/chisquare.js's test: 60 rolls,
    /// 10 expected per face; χ² = (4 + 1 + 81 + 25 + 4 + 1) / 10 = 11.6 by hand, and
    /// p = erfc(√5.8) + √(23.2/π)·e^−5.8·(1 + 11.6/3) = 0.0406993885040500 (the closed form
    /// for 5 degrees of freedom, evaluated with mpmath).
    #[test]
    fn the_hand_computed_example() {
        let test = FaceCounts::new([8, 9, 19, 5, 8, 11]).chi_square().unwrap();
        assert_eq!(test.rolls, 60);
        assert_eq!(test.expected, 10.0);
        assert!((test.statistic - 11.6).abs() < 1e-12, "{}", test.statistic);
        assert_eq!(test.degrees_of_freedom, 5);
        assert!(
            (test.p_value - 0.040_699_388_504_05).abs() < 1e-13,
            "{}",
            test.p_value
        );
    }

    #[test]
    fn the_critical_values_of_five_degrees_of_freedom() {
        // The table values: χ²(5) at 10 %, 5 % and 1 %.
        for (statistic, p) in [(9.236_357, 0.10), (11.070_498, 0.05), (15.086_272, 0.01)] {
            let q = chi_square_p_value(statistic, 5);
            assert!((q - p).abs() < 1e-6, "Q at {statistic} = {q}, not {p}");
        }
    }

    #[test]
    fn even_counts_fit_perfectly() {
        let test = FaceCounts::new([7; 6]).chi_square().unwrap();
        assert_eq!(test.statistic, 0.0);
        assert_eq!(test.p_value, 1.0);
    }

    #[test]
    fn nothing_to_test_before_a_roll() {
        assert_eq!(FaceCounts::default().chi_square(), None);
    }

    #[test]
    fn counting_faces() {
        let mut counts: FaceCounts = [1, 6, 6, 0, 7, 3].into_iter().collect();
        assert_eq!(counts.counts(), &[1, 0, 1, 0, 0, 2]);
        assert!(!counts.add(0));
        assert!(counts.add(2));
        counts.merge(&FaceCounts::new([1, 1, 1, 1, 1, 1]));
        assert_eq!(counts.counts(), &[2, 2, 2, 1, 1, 3]);
        assert_eq!(counts.rolls(), 11);
        assert_eq!(serde_json::to_string(&counts).unwrap(), "[2,2,2,1,1,3]");
    }
}
