//! An unchecked arrangement of pieces and the position text of §5 (like chess FEN).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::color::Color;
use crate::role::{Piece, Role};
use crate::square::{FILES, RANKS, SQUARES, Square};

/// The start position of J-SETUP in position text.
pub const START_TEXT: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r";

/// Pieces on squares and the side to move, not yet checked against the rules. Build a
/// [`Position`](crate::Position) from it to play.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The piece on each square, indexed like [`Square::index`].
    pub board: [Option<Piece>; SQUARES],
    /// Whose move it is.
    pub turn: Color,
}

/// Why a text is not a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseSetupError {
    /// The text does not have the board and the side to move.
    #[error("a position is the board, a space and the side to move (`r` or `y`)")]
    MissingTurn,
    /// The side to move is not `r` or `y`.
    #[error("the side to move is `r` or `y`, not {0:?}")]
    BadTurn(String),
    /// Extra text after the side to move.
    #[error("unexpected text after the side to move: {0:?}")]
    TrailingText(String),
    /// The board does not have 9 ranks.
    #[error("the board has 9 ranks separated by `/`, found {0}")]
    RankCount(usize),
    /// A rank does not describe exactly 7 squares.
    #[error("rank {rank} describes {squares} squares instead of 7")]
    RankLength {
        /// The rank, 1–9.
        rank: u8,
        /// How many squares its text covers.
        squares: usize,
    },
    /// A character is neither a piece letter nor a count of empty squares.
    #[error("{0:?} is neither a piece letter (ELTPDWCR, either case) nor a count 1–7")]
    BadChar(char),
}

impl Setup {
    /// An empty board with `turn` to move.
    pub const fn empty(turn: Color) -> Setup {
        Setup {
            board: [None; SQUARES],
            turn,
        }
    }

    /// The start position (J-SETUP).
    pub fn start() -> Setup {
        START_TEXT
            .parse()
            .expect("the start position text is valid")
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Puts `piece` on `sq` (or clears it with `None`).
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.board[sq.index()] = piece;
    }

    /// Parses only the board part of the text (ranks 9 to 1 separated by `/`).
    fn parse_board(text: &str) -> Result<[Option<Piece>; SQUARES], ParseSetupError> {
        let ranks: Vec<&str> = text.split('/').collect();
        if ranks.len() != RANKS as usize {
            return Err(ParseSetupError::RankCount(ranks.len()));
        }
        let mut board = [None; SQUARES];
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = RANKS - 1 - i as u8;
            let mut file = 0usize;
            for c in rank_text.chars() {
                if let Some(n) = c.to_digit(10).filter(|n| (1..=7).contains(n)) {
                    file += n as usize;
                } else if let Some(piece) = Piece::from_char(c) {
                    if let Some(sq) = Square::from_coords(file as u8, rank) {
                        board[sq.index()] = Some(piece);
                    }
                    file += 1;
                } else {
                    return Err(ParseSetupError::BadChar(c));
                }
                if file > FILES as usize {
                    break;
                }
            }
            if file != FILES as usize {
                return Err(ParseSetupError::RankLength {
                    rank: rank + 1,
                    squares: file,
                });
            }
        }
        Ok(board)
    }

    /// Parses the board and side-to-move fields, returning the rest of the text (trimmed).
    pub(crate) fn parse_prefix(text: &str) -> Result<(Setup, &str), ParseSetupError> {
        let text = text.trim();
        let (board_text, rest) = text.split_once(' ').ok_or(ParseSetupError::MissingTurn)?;
        let rest = rest.trim_start();
        let (turn_text, rest) = rest.split_once(' ').unwrap_or((rest, ""));
        let turn = match turn_text {
            "r" => Color::Red,
            "y" => Color::Yellow,
            _ => return Err(ParseSetupError::BadTurn(turn_text.to_owned())),
        };
        let board = Setup::parse_board(board_text)?;
        Ok((Setup { board, turn }, rest.trim()))
    }

    /// How many pieces of each side and animal stand on the board.
    pub(crate) fn counts(&self) -> [[u8; 8]; 2] {
        let mut counts = [[0u8; 8]; 2];
        for piece in self.board.iter().flatten() {
            counts[piece.color.index()][piece.role.index()] += 1;
        }
        counts
    }

    /// Every occupied square with its piece, a1 first.
    pub(crate) fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::ALL
            .iter()
            .filter_map(|&sq| self.piece_at(sq).map(|p| (sq, p)))
    }
}

impl Default for Setup {
    fn default() -> Self {
        Setup::start()
    }
}

impl FromStr for Setup {
    type Err = ParseSetupError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (setup, rest) = Setup::parse_prefix(s)?;
        if !rest.is_empty() {
            return Err(ParseSetupError::TrailingText(rest.to_owned()));
        }
        Ok(setup)
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let sq = Square::from_coords(file, rank).expect("on the board");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", piece.char())?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {}", self.turn.char())
    }
}

impl fmt::Debug for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Setup({self})")
    }
}

impl Serialize for Setup {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Setup {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The J-SETUP squares of each animal, for documentation and tests: (red, yellow).
pub const START_SQUARES: [(Role, &str, &str); 8] = [
    (Role::Tiger, "a1", "g9"),
    (Role::Lion, "g1", "a9"),
    (Role::Cat, "b2", "f8"),
    (Role::Dog, "f2", "b8"),
    (Role::Elephant, "a3", "g7"),
    (Role::Wolf, "c3", "e7"),
    (Role::Leopard, "e3", "c7"),
    (Role::Rat, "g3", "a7"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn j_setup_start_text_puts_every_animal_where_the_spec_says() {
        let setup = Setup::start();
        assert_eq!(setup.turn, Color::Red, "J-SETUP decision: red moves first");
        assert_eq!(setup.pieces().count(), 16);
        for (role, red, yellow) in START_SQUARES {
            let red_sq: Square = red.parse().unwrap();
            let yellow_sq: Square = yellow.parse().unwrap();
            assert_eq!(
                setup.piece_at(red_sq),
                Some(Piece {
                    color: Color::Red,
                    role
                })
            );
            assert_eq!(
                setup.piece_at(yellow_sq),
                Some(Piece {
                    color: Color::Yellow,
                    role
                })
            );
        }
    }

    #[test]
    fn position_text_round_trips() {
        for text in [
            START_TEXT,
            "7/7/7/7/7/7/7/7/7 y",
            "3r3/7/7/1R5/7/7/7/7/e5L y",
        ] {
            let setup: Setup = text.parse().unwrap();
            assert_eq!(setup.to_string(), text);
            let json = serde_json::to_string(&setup).unwrap();
            assert_eq!(serde_json::from_str::<Setup>(&json).unwrap(), setup);
        }
    }

    #[test]
    fn bad_position_text_is_refused_with_a_reason() {
        use ParseSetupError::*;
        type Check = fn(&ParseSetupError) -> bool;
        let cases: [(&str, Check); 7] = [
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L", |e| {
                matches!(e, MissingTurn)
            }),
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L x", |e| {
                matches!(e, BadTurn(_))
            }),
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1 r", |e| {
                matches!(e, RankCount(8))
            }),
            ("l6t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r", |e| {
                matches!(e, RankLength { rank: 9, .. })
            }),
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T4L r", |e| {
                matches!(
                    e,
                    RankLength {
                        rank: 1,
                        squares: 6
                    }
                )
            }),
            ("l5x/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r", |e| {
                matches!(e, BadChar('x'))
            }),
            ("7/7/7/7/7/7/7/7/7 r extra", |e| {
                matches!(e, TrailingText(_))
            }),
        ];
        for (text, check) in cases {
            let err = text.parse::<Setup>().unwrap_err();
            assert!(check(&err), "{text}: {err}");
            assert!(!err.to_string().is_empty());
        }
        assert!("8/7/7/7/7/7/7/7/7 r".parse::<Setup>().is_err());
        assert!("0/7/7/7/7/7/7/7/7 r".parse::<Setup>().is_err());
    }
}
