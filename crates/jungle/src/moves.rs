//! A move (from-square + to-square, §5) and a fixed-capacity list of moves.

use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::square::{ParseSquareError, Square};

/// A move of one piece, written from-square + to-square (`e3e4`; a leap names only where it
/// starts and ends, §5). Whether it is legal depends on the position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes.
    pub to: Square,
}

/// Why a text is not a move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// The text is not four characters long.
    #[error("a move is two squares like `e3e4`, not {0:?}")]
    Length(String),
    /// One of the two squares is not a square.
    #[error("bad square in move: {0}")]
    Square(#[from] ParseSquareError),
    /// The two squares are the same.
    #[error("a move must change square, not {0:?}")]
    Null(String),
}

impl Move {
    /// A move between two squares.
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// The move packed in 12 bits (`from * 64 + to`), for transposition tables.
    #[inline]
    pub const fn to_u16(self) -> u16 {
        (self.from.index() as u16) << 6 | self.to.index() as u16
    }

    /// The move packed by [`Move::to_u16`], if both squares are on the board.
    pub const fn from_u16(bits: u16) -> Option<Move> {
        let (Some(from), Some(to)) = (
            Square::new((bits >> 6) as u8 & 63),
            Square::new(bits as u8 & 63),
        ) else {
            return None;
        };
        Some(Move { from, to })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.len() != 4 || !s.is_ascii() {
            return Err(ParseMoveError::Length(s.to_owned()));
        }
        let from: Square = s[..2].parse()?;
        let to: Square = s[2..].parse()?;
        if from == to {
            return Err(ParseMoveError::Null(s.to_owned()));
        }
        Ok(Move { from, to })
    }
}

impl Serialize for Move {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Most moves a position can have: 8 pieces × 4 directions (a leap replaces the step into
/// the water it crosses, so a piece never has more than four moves).
pub const MAX_MOVES: usize = 32;

/// The legal moves of a position, without allocation.
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub const fn new() -> MoveList {
        let a1 = Square::ALL[0];
        MoveList {
            moves: [Move { from: a1, to: a1 }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move; the caller keeps within [`MAX_MOVES`].
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// The moves as a mutable slice (to reorder them).
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];

    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.moves[..self.len].iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_round_trip_through_text_json_and_bits() {
        let m: Move = "e3e4".parse().unwrap();
        assert_eq!(m.to_string(), "e3e4");
        assert_eq!(Move::from_u16(m.to_u16()), Some(m));
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(json, "\"e3e4\"");
        assert_eq!(serde_json::from_str::<Move>(&json).unwrap(), m);
    }

    #[test]
    fn bad_moves_are_refused_with_a_reason() {
        assert!(matches!(
            "e3".parse::<Move>(),
            Err(ParseMoveError::Length(_))
        ));
        assert!(matches!(
            "e3h4".parse::<Move>(),
            Err(ParseMoveError::Square(_))
        ));
        assert!(matches!(
            "e3e3".parse::<Move>(),
            Err(ParseMoveError::Null(_))
        ));
        assert!(matches!(
            "é3e4".parse::<Move>(),
            Err(ParseMoveError::Length(_))
        ));
    }
}
