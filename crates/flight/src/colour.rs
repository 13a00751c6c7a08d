//! The four colours (seats) of the board, in clockwise order (F-BOARD).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A colour, which is also a seat: red, yellow, blue and green sit clockwise (F-BOARD).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    /// 红, seat 0.
    Red = 0,
    /// 黄, seat 1.
    Yellow = 1,
    /// 蓝, seat 2.
    Blue = 2,
    /// 绿, seat 3.
    Green = 3,
}

impl Colour {
    /// All colours in seating (clockwise, turn) order.
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Yellow, Colour::Blue, Colour::Green];

    /// The seat number: red 0, yellow 1, blue 2, green 3.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour of seat `index % 4`.
    #[inline]
    pub const fn from_index(index: usize) -> Colour {
        Colour::ALL[index & 3]
    }

    /// The colour sitting opposite (red–blue, yellow–green): the partner in a team game and
    /// the colour whose home column this colour's shortcut crosses (F-CROSS).
    #[inline]
    pub const fn opposite(self) -> Colour {
        Colour::from_index(self.index() + 2)
    }

    /// The next seat clockwise.
    #[inline]
    pub const fn next(self) -> Colour {
        Colour::from_index(self.index() + 1)
    }

    /// The lower-case English name, as used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Yellow => "yellow",
            Colour::Blue => "blue",
            Colour::Green => "green",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that names no colour.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown colour {0:?} (expected red, yellow, blue or green)")]
pub struct UnknownColour(pub String);

impl FromStr for Colour {
    type Err = UnknownColour;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Colour::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownColour(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_opposites() {
        for c in Colour::ALL {
            assert_eq!(c.to_string().parse::<Colour>().unwrap(), c);
            assert_eq!(c.opposite().opposite(), c);
            assert_ne!(c.opposite(), c);
        }
        assert_eq!(Colour::Red.opposite(), Colour::Blue);
        assert_eq!(Colour::Green.next(), Colour::Red);
        assert!("purple".parse::<Colour>().is_err());
    }
}
