//! A checked position: pieces, side to move, rule options and an incremental Zobrist hash.
//! It has no history; [`Game`](crate::Game) adds the history that J-REPEAT and J-DRAW need.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::moves::Move;
use crate::outcome::{Outcome, WinReason};
use crate::role::{Piece, Role};
use crate::rules::{Rules, RulesError};
use crate::setup::{ParseSetupError, Setup};
use crate::square::{SQUARES, Square};
use crate::tables::{ZOBRIST_PIECES, ZOBRIST_YELLOW};
use crate::terrain::{WATER, den};

/// A legal arrangement of pieces with the side to move and the rule options in force.
///
/// Built only through [`Position::from_setup`] (or parsing), which refuses arrangements that
/// cannot arise in a game; every move played from it keeps it valid.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    board: [Option<Piece>; SQUARES],
    by_color: [Bitboard; 2],
    by_role: [Bitboard; 8],
    turn: Color,
    rules: Rules,
    hash: u64,
}

/// Why a [`Setup`] is not a possible position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A side has more than one piece of an animal (J-PIECES: one of each).
    #[error("{color} has {count} {role}s; each side has one piece of each animal")]
    Duplicate {
        /// The side.
        color: Color,
        /// The animal.
        role: Role,
        /// How many there are.
        count: u8,
    },
    /// A piece stands in its own den, which it may never enter (J-DEN).
    #[error("the {piece} on {square} stands in its own den")]
    InOwnDen {
        /// The piece.
        piece: Piece,
        /// The den.
        square: Square,
    },
    /// A piece other than a rat stands in the water (J-WATER).
    #[error("the {piece} on {square} stands in the water; only rats swim")]
    InWater {
        /// The piece.
        piece: Piece,
        /// The water square.
        square: Square,
    },
    /// The side to move already stands in the enemy den: the game would have ended.
    #[error("{color} is to move but already stands in the enemy den {square}")]
    MoverInEnemyDen {
        /// The side to move.
        color: Color,
        /// The den.
        square: Square,
    },
    /// No piece stands on the board at all.
    #[error("the board is empty")]
    Empty,
    /// The side that moved last has no pieces: it lost when its last piece was taken
    /// (J-WIN-WIPE), so it cannot have moved. (The side to move without pieces is a finished
    /// game, which [`Position::outcome`] reports.)
    #[error("{color} has no pieces, yet {} is to move: {color} lost when its last piece was taken", color.other())]
    NoPieces {
        /// The side without pieces.
        color: Color,
    },
}

/// Why a text is not a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParsePositionError {
    /// The text is malformed.
    #[error(transparent)]
    Syntax(#[from] ParseSetupError),
    /// The optional rules field is malformed.
    #[error("bad rules field: {0}")]
    Rules(#[from] RulesError),
    /// The text is well formed but the position is impossible.
    #[error("impossible position: {0}")]
    Invalid(#[from] PositionError),
}

impl Position {
    /// The start position (J-SETUP) under `rules`.
    pub fn start(rules: Rules) -> Position {
        Position::from_setup(&Setup::start(), rules).expect("the start position is valid")
    }

    /// Checks `setup` and builds the position, or says why it is impossible.
    pub fn from_setup(setup: &Setup, rules: Rules) -> Result<Position, PositionError> {
        for color in Color::ALL {
            for role in Role::ALL {
                let count = setup.counts()[color.index()][role.index()];
                if count > 1 {
                    return Err(PositionError::Duplicate { color, role, count });
                }
            }
        }
        let mut any = false;
        for (square, piece) in setup.pieces() {
            any = true;
            if square == den(piece.color) {
                return Err(PositionError::InOwnDen { piece, square });
            }
            if WATER.contains(square) && piece.role != Role::Rat {
                return Err(PositionError::InWater { piece, square });
            }
            if square == den(piece.color.other()) && piece.color == setup.turn {
                return Err(PositionError::MoverInEnemyDen {
                    color: piece.color,
                    square,
                });
            }
        }
        if !any {
            return Err(PositionError::Empty);
        }
        let waiting = setup.turn.other();
        if setup.counts()[waiting.index()]
            .iter()
            .all(|&count| count == 0)
        {
            return Err(PositionError::NoPieces { color: waiting });
        }
        let mut pos = Position {
            board: [None; SQUARES],
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 8],
            turn: setup.turn,
            rules,
            hash: if setup.turn == Color::Yellow {
                ZOBRIST_YELLOW
            } else {
                0
            },
        };
        for (square, piece) in setup.pieces() {
            pos.put(square, piece);
        }
        Ok(pos)
    }

    #[inline]
    fn put(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = Some(piece);
        self.by_color[piece.color.index()] ^= Bitboard::from_square(sq);
        self.by_role[piece.role.index()] ^= Bitboard::from_square(sq);
        self.hash ^= ZOBRIST_PIECES[piece.color.index()][piece.role.index()][sq.index()];
    }

    #[inline]
    fn remove(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = None;
        self.by_color[piece.color.index()] ^= Bitboard::from_square(sq);
        self.by_role[piece.role.index()] ^= Bitboard::from_square(sq);
        self.hash ^= ZOBRIST_PIECES[piece.color.index()][piece.role.index()][sq.index()];
    }

    /// The unchecked arrangement (pieces and side to move) of this position.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
        }
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The rule options in force.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The Zobrist hash of the pieces and the side to move (not of the rules); updated
    /// incrementally by every move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The squares of `color`'s pieces.
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of every piece of animal `role`, both sides.
    #[inline]
    pub fn role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Where `color`'s `role` stands, if it is still on the board.
    #[inline]
    pub fn square_of(&self, color: Color, role: Role) -> Option<Square> {
        (self.by_color[color.index()] & self.by_role[role.index()]).first()
    }

    /// The side whose piece stands in the other side's den, if any (J-WIN-DEN).
    #[inline]
    pub fn den_winner(&self) -> Option<Color> {
        // Only the side that just moved can be there (checked by `from_setup`).
        let mover = self.turn.other();
        self.by_color[mover.index()]
            .contains(den(self.turn))
            .then_some(mover)
    }

    /// The result if the game is over without regard to history: a piece in the enemy den
    /// (J-WIN-DEN), or the side to move without pieces or moves (J-WIN-WIPE).
    pub fn outcome(&self) -> Option<Outcome> {
        let other = self.turn.other();
        if let Some(winner) = self.den_winner() {
            return Some(Outcome::Win {
                winner,
                reason: WinReason::Den,
            });
        }
        if self.pieces(self.turn).is_empty() {
            return Some(Outcome::Win {
                winner: other,
                reason: WinReason::NoPieces,
            });
        }
        if !self.has_moves() {
            return Some(Outcome::Win {
                winner: other,
                reason: WinReason::NoMoves,
            });
        }
        None
    }

    /// Whether `m` captures a piece (assuming it is legal).
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        self.board[m.to.index()].is_some()
    }

    /// Plays `m`, which must be legal ([`Position::is_legal`]); much faster than
    /// [`Position::play`] because nothing is checked. An illegal move leaves a position that
    /// may break the invariants (debug builds assert there is a piece to move).
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        let Some(piece) = self.board[m.from.index()] else {
            debug_assert!(false, "no piece on {} for {m}", m.from);
            return;
        };
        if let Some(captured) = self.board[m.to.index()] {
            self.remove(m.to, captured);
        }
        self.remove(m.from, piece);
        self.put(m.to, piece);
        self.turn = self.turn.other();
        self.hash ^= ZOBRIST_YELLOW;
    }

    /// The hash the position would have after `m` (legal), without playing it.
    #[inline]
    pub fn hash_after(&self, m: Move) -> u64 {
        let mut hash = self.hash ^ ZOBRIST_YELLOW;
        if let Some(piece) = self.board[m.from.index()] {
            let keys = &ZOBRIST_PIECES[piece.color.index()][piece.role.index()];
            hash ^= keys[m.from.index()] ^ keys[m.to.index()];
        }
        if let Some(captured) = self.board[m.to.index()] {
            hash ^= ZOBRIST_PIECES[captured.color.index()][captured.role.index()][m.to.index()];
        }
        hash
    }

    /// Checks `m` and returns the position after it, or why it is illegal. Consumes nothing
    /// on error: the original position is unchanged (it is `Copy`).
    pub fn play(self, m: Move) -> Result<Position, PlayError> {
        self.check_move(m)
            .map_err(|reason| PlayError { mv: m, reason })?;
        let mut next = self;
        next.play_unchecked(m);
        Ok(next)
    }

    /// Gives the move to the other side without moving (a timed-out turn, P-JUNGLE-TIMEOUT).
    pub fn pass_unchecked(&mut self) {
        self.turn = self.turn.other();
        self.hash ^= ZOBRIST_YELLOW;
    }

    /// The same pieces under other rule options.
    pub fn with_rules(mut self, rules: Rules) -> Position {
        self.rules = rules;
        self
    }
}

/// Why a move was refused by [`Position::play`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv}: {reason}")]
pub struct PlayError {
    /// The refused move.
    pub mv: Move,
    /// Why.
    pub reason: IllegalMove,
}

/// The rule a move breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The game is already over (a piece stands in a den, J-WIN-DEN).
    #[error("the game is over")]
    GameOver,
    /// No piece stands on the from-square.
    #[error("no piece on {0}")]
    NoPiece(Square),
    /// The piece belongs to the side not to move.
    #[error("the {0} is not the side to move's")]
    NotYourPiece(Piece),
    /// The squares are neither one step apart nor the ends of a leap (J-STEP, J-LEAP).
    #[error("a {0} moves one square orthogonally{1}")]
    NotAStep(Role, &'static str),
    /// The leap crosses a rat (J-LEAP).
    #[error("the leap is blocked by the rat on {0}")]
    LeapBlocked(Square),
    /// Only rats enter the water (J-WATER).
    #[error("only rats may enter the water")]
    Water,
    /// Nobody enters their own den (J-DEN).
    #[error("a piece may never enter its own den")]
    OwnDen,
    /// The target holds a piece of the same side.
    #[error("{0} is occupied by your own {1}")]
    OwnPiece(Square, Role),
    /// The target cannot be captured by this piece (J-RANK, J-RAT-ELEPHANT, J-TRAP).
    #[error("a {0} cannot capture a {1}")]
    Outranked(Role, Role),
    /// A capture between water and land (J-WATER-CAPTURE).
    #[error("no capture between water and land")]
    WaterCapture,
}

impl fmt::Display for Position {
    /// Position text (§5); a third field lists the rule options when they differ from the
    /// default, so the text round-trips.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_setup())?;
        if !self.rules.is_default() {
            write!(f, " {}", self.rules)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start(Rules::default())
    }
}

impl FromStr for Position {
    type Err = ParsePositionError;

    /// Position text: board, side to move and optionally the rules (`order=wolf-over-dog,…`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (setup, rest) = Setup::parse_prefix(s)?;
        let rules: Rules = rest.parse()?;
        Ok(Position::from_setup(&setup, rules)?)
    }
}

impl Serialize for Position {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Position {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}
