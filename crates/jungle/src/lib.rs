//! Jungle (斗兽棋) rules, as specified in `shared/spec/jungle.md`.
//!
//! The shape follows shakmaty: one file per concept; small `Copy` types ([`Square`],
//! [`Color`], [`Role`], [`Move`]) whose text forms round-trip; an unchecked [`Setup`] turned
//! into a checked [`Position`] only through [`Position::from_setup`]; `play` that checks and
//! `play_unchecked` that does not. A [`Position`] has no history and is what perft and search
//! use; a [`Game`] adds the history for J-REPEAT and J-DRAW and knows the result.
//!
//! ```
//! use hangar_jungle::{Game, Move, Position, Rules, perft};
//!
//! let start = Position::start(Rules::default());
//! assert_eq!(perft(&start, 2), 576);
//! let mut game = Game::new(Rules::default());
//! let m: Move = "e3e2".parse().unwrap();
//! game.play(m).unwrap();
//! assert_eq!(game.position().to_string(), "l5t/1d3c1/r1p1w1e/7/7/7/E1W3R/1C2PD1/T5L y");
//! ```

mod bitboard;
mod color;
mod game;
mod legality;
mod movegen;
mod moves;
mod outcome;
mod perft;
mod position;
mod role;
mod rules;
mod setup;
mod square;
mod tables;
mod terrain;

pub use bitboard::Bitboard;
pub use color::{Color, ParseColorError};
pub use game::{Game, GameError, GameRecord, Ply, ReplayError};
pub use moves::{MAX_MOVES, Move, MoveList, ParseMoveError};
pub use outcome::{DrawReason, Outcome, WinReason};
pub use perft::{perft, perft_divide};
pub use position::{IllegalMove, ParsePositionError, PlayError, Position, PositionError};
pub use role::{Piece, Role};
pub use rules::{Order, Rules, RulesError};
pub use setup::{ParseSetupError, START_SQUARES, START_TEXT, Setup};
pub use square::{FILES, ParseSquareError, RANKS, SQUARES, Square};
pub use terrain::{DENS, LAND, TRAPS, WATER, den, is_water, traps};

/// Plies without a capture after which the game is drawn: 100 moves of each side (J-DRAW).
pub const DRAW_PLIES: usize = 200;
