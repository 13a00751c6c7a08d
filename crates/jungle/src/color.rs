//! The two sides: red (at the bottom, moves first) and yellow.

use std::fmt;
use std::ops::Not;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A side of the board (J-SETUP: red sits at the bottom, ranks 1–3, and moves first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// The side at the bottom (ranks 1–3), whose den is d1; moves first.
    Red = 0,
    /// The side at the top (ranks 7–9), whose den is d9.
    Yellow = 1,
}

impl Color {
    /// Both colours, red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Yellow];

    /// The index of the colour in arrays (red 0, yellow 1).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Yellow,
            Color::Yellow => Color::Red,
        }
    }

    /// The letter of the side in position text: `r` or `y`.
    pub const fn char(self) -> char {
        match self {
            Color::Red => 'r',
            Color::Yellow => 'y',
        }
    }

    /// The side named by a position-text letter.
    pub const fn from_char(c: char) -> Option<Color> {
        match c {
            'r' => Some(Color::Red),
            'y' => Some(Color::Yellow),
            _ => None,
        }
    }

    /// The full English name (`red`, `yellow`).
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Yellow => "yellow",
        }
    }
}

impl Not for Color {
    type Output = Color;

    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a text is not a colour.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a side is `r`/`red` or `y`/`yellow`, not {0:?}")]
pub struct ParseColorError(pub String);

impl FromStr for Color {
    type Err = ParseColorError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "r" | "red" => Ok(Color::Red),
            "y" | "yellow" => Ok(Color::Yellow),
            _ => Err(ParseColorError(s.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_round_trip() {
        for c in Color::ALL {
            assert_eq!(c.name().parse::<Color>().unwrap(), c);
            assert_eq!(Color::from_char(c.char()), Some(c));
            assert_eq!(!!c, c);
            assert_ne!(!c, c);
        }
        assert!("blue".parse::<Color>().is_err());
    }
}
