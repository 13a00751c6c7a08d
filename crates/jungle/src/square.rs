//! Squares of the 7 × 9 board (J-BOARD): files `a`–`g`, ranks `1`–`9`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Number of files (columns), `a` to `g`.
pub const FILES: u8 = 7;
/// Number of ranks (rows), `1` to `9`.
pub const RANKS: u8 = 9;
/// Number of squares.
pub const SQUARES: usize = (FILES * RANKS) as usize;

/// One of the 63 squares, indexed `rank * 7 + file` from a1 = 0 to g9 = 62 (the bit of the
/// square in a [`Bitboard`](crate::Bitboard)).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Why a text is not a square.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a square is a file a–g then a rank 1–9 (like `e3`), not {0:?}")]
pub struct ParseSquareError(pub String);

impl Square {
    /// Every square, a1 first, rank by rank.
    pub const ALL: [Square; SQUARES] = {
        let mut all = [Square(0); SQUARES];
        let mut i = 0;
        while i < SQUARES {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square of an index 0..63, if in range.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with the given index; the caller guarantees `index < 63`.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!((index as usize) < SQUARES);
        Square(index)
    }

    /// The square at `file` (0 = a … 6 = g) and `rank` (0 = rank 1 … 8 = rank 9).
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// The index 0..63.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (a) to 6 (g).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// The rank, 0 (rank 1) to 8 (rank 9).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The neighbour `df` files and `dr` ranks away, if on the board.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || r < 0 {
            None
        } else {
            Square::from_coords(f as u8, r as u8)
        }
    }

    /// Manhattan distance (the number of steps on an empty board without water).
    pub const fn distance(self, other: Square) -> u8 {
        self.file().abs_diff(other.file()) + self.rank().abs_diff(other.rank())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ParseSquareError(s.to_owned());
        let bytes = s.as_bytes();
        if bytes.len() != 2 {
            return Err(err());
        }
        let file = bytes[0].wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        Square::from_coords(file, rank).ok_or_else(err)
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip_through_text() {
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
        }
        assert_eq!(Square::ALL[0].to_string(), "a1");
        assert_eq!(Square::ALL[62].to_string(), "g9");
        assert_eq!("d9".parse::<Square>().unwrap().index(), 8 * 7 + 3);
    }

    #[test]
    fn bad_squares_are_refused() {
        for text in ["", "h1", "a0", "a10", "A1", "e", "1e"] {
            assert!(text.parse::<Square>().is_err(), "{text}");
        }
    }

    #[test]
    fn offsets_stay_on_the_board() {
        let a1: Square = "a1".parse().unwrap();
        assert_eq!(a1.offset(-1, 0), None);
        assert_eq!(a1.offset(0, -1), None);
        assert_eq!(a1.offset(1, 1).unwrap().to_string(), "b2");
        let g9: Square = "g9".parse().unwrap();
        assert_eq!(g9.offset(1, 0), None);
        assert_eq!(g9.offset(0, 1), None);
        assert_eq!(a1.distance(g9), 14);
    }
}
