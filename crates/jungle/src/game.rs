//! A game: a position plus the history that J-REPEAT and J-DRAW need, and the result.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::DRAW_PLIES;
use crate::color::Color;
use crate::moves::{Move, ParseMoveError};
use crate::outcome::{DrawReason, Outcome, WinReason};
use crate::position::{PlayError, Position};
use crate::rules::Rules;

/// One turn of a game: a move, or a pass when the player's timer ran out (P-JUNGLE-TIMEOUT).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ply {
    /// A move.
    Move(Move),
    /// No move: the turn passed to the other side.
    Pass,
}

impl fmt::Display for Ply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ply::Move(m) => write!(f, "{m}"),
            Ply::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Ply {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "pass" {
            Ok(Ply::Pass)
        } else {
            s.parse().map(Ply::Move)
        }
    }
}

impl Serialize for Ply {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Ply {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Why a game refused a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game has ended.
    #[error("the game is over: {0}")]
    Over(Outcome),
    /// The move breaks a rule of the position.
    #[error(transparent)]
    Illegal(#[from] PlayError),
    /// The move would bring about the same position for the third time (J-REPEAT).
    #[error("{0} would repeat a position for the third time; the player must vary (J-REPEAT)")]
    Repetition(Move),
}

/// A game in progress or finished: start position, plies, the current position and result.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    plies: Vec<Ply>,
    /// `hashes[i]` is the hash of the position after `i` plies.
    hashes: Vec<u64>,
    /// Index in `hashes` of the first position after the last capture: earlier positions have
    /// more pieces, so they can never recur.
    since_capture: usize,
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game from the start position under `rules`.
    pub fn new(rules: Rules) -> Game {
        Game::from_position(Position::start(rules))
    }

    /// A game from any valid position (its result is checked at once).
    pub fn from_position(start: Position) -> Game {
        let mut game = Game {
            start,
            position: start,
            plies: Vec::new(),
            hashes: vec![start.hash()],
            since_capture: 0,
            outcome: None,
        };
        game.update_outcome();
        game
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The rule options.
    pub fn rules(&self) -> Rules {
        self.position.rules()
    }

    /// The plies played so far.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.position.turn()
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Plies since the last capture (or the start): the game is drawn at [`DRAW_PLIES`].
    pub fn quiet_plies(&self) -> usize {
        self.hashes.len() - 1 - self.since_capture
    }

    /// The hashes of every position since the last capture, oldest first (for search bots
    /// that avoid repetitions).
    pub fn recent_hashes(&self) -> &[u64] {
        &self.hashes[self.since_capture..]
    }

    /// How many times a position with `hash` has occurred in the game.
    fn occurrences(&self, hash: u64) -> usize {
        self.recent_hashes().iter().filter(|&&h| h == hash).count()
    }

    /// Whether J-REPEAT refuses `m` (a legal move): it would bring about a position that has
    /// already occurred twice. Captures never repeat a position.
    pub fn is_refused(&self, m: Move) -> bool {
        !self.position.is_capture(m) && self.occurrences(self.position.hash_after(m)) >= 2
    }

    /// The moves the side to move may play: legal and not refused by J-REPEAT. Empty once the
    /// game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.position
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| !self.is_refused(m))
            .collect()
    }

    /// Checks and plays `m`; returns the result if the game ended. A refused move changes
    /// nothing.
    pub fn play(&mut self, m: Move) -> Result<Option<Outcome>, GameError> {
        if let Some(outcome) = self.outcome {
            return Err(GameError::Over(outcome));
        }
        let next = self.position.play(m)?;
        if self.is_refused(m) {
            return Err(GameError::Repetition(m));
        }
        let capture = self.position.is_capture(m);
        self.position = next;
        self.plies.push(Ply::Move(m));
        self.hashes.push(next.hash());
        if capture {
            self.since_capture = self.hashes.len() - 1;
        }
        self.update_outcome();
        Ok(self.outcome)
    }

    /// The side to move passes (its timer ran out, P-JUNGLE-TIMEOUT). A pass counts as a ply
    /// towards J-DRAW and is never refused.
    pub fn pass(&mut self) -> Result<Option<Outcome>, GameError> {
        if let Some(outcome) = self.outcome {
            return Err(GameError::Over(outcome));
        }
        self.position.pass_unchecked();
        self.plies.push(Ply::Pass);
        self.hashes.push(self.position.hash());
        self.update_outcome();
        Ok(self.outcome)
    }

    /// Ends the game for a reason outside the board: a resignation, a forfeit or a draw by
    /// agreement (P-JUNGLE-DRAW). Refused once the game is over.
    pub fn end(&mut self, outcome: Outcome) -> Result<(), GameError> {
        if let Some(existing) = self.outcome {
            return Err(GameError::Over(existing));
        }
        self.outcome = Some(outcome);
        Ok(())
    }

    /// `loser` resigns.
    pub fn resign(&mut self, loser: Color) -> Result<(), GameError> {
        self.end(Outcome::Win {
            winner: loser.other(),
            reason: WinReason::Resignation,
        })
    }

    /// The result after the last ply: J-WIN-DEN, J-WIN-WIPE, J-REPEAT, then J-DRAW.
    fn update_outcome(&mut self) {
        let pos = &self.position;
        let loser = pos.turn();
        let win = |reason| {
            Some(Outcome::Win {
                winner: loser.other(),
                reason,
            })
        };
        self.outcome = if let Some(winner) = pos.den_winner() {
            Some(Outcome::Win {
                winner,
                reason: WinReason::Den,
            })
        } else if pos.pieces(loser).is_empty() {
            win(WinReason::NoPieces)
        } else {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                win(WinReason::NoMoves)
            } else if moves.iter().all(|&m| self.is_refused(m)) {
                win(WinReason::OnlyRepetitions)
            } else if self.quiet_plies() >= DRAW_PLIES {
                Some(Outcome::Draw {
                    reason: DrawReason::NoCapture,
                })
            } else {
                None
            }
        };
    }

    /// The record of the game: enough to replay it exactly.
    pub fn record(&self) -> GameRecord {
        GameRecord {
            start: self.start,
            plies: self.plies.clone(),
            outcome: self.outcome,
        }
    }

    /// Replays a record, checking every ply.
    pub fn replay(record: &GameRecord) -> Result<Game, ReplayError> {
        let mut game = Game::from_position(record.start);
        for (index, &ply) in record.plies.iter().enumerate() {
            let result = match ply {
                Ply::Move(m) => game.play(m),
                Ply::Pass => game.pass(),
            };
            result.map_err(|error| ReplayError::Ply { index, error })?;
        }
        match (game.outcome, record.outcome) {
            (mine, theirs) if mine == theirs => {}
            (None, Some(outcome)) if is_external(outcome) => game.outcome = Some(outcome),
            (mine, theirs) => return Err(ReplayError::Outcome { mine, theirs }),
        }
        Ok(game)
    }
}

/// Whether an outcome comes from outside the board (so a replay cannot derive it).
fn is_external(outcome: Outcome) -> bool {
    matches!(
        outcome,
        Outcome::Win {
            reason: WinReason::Resignation | WinReason::Forfeit,
            ..
        } | Outcome::Draw {
            reason: DrawReason::Agreement
        }
    )
}

/// A game as stored: start position, plies and result (JSON:
/// `{"start": "<position text>", "plies": ["e3e4", "pass", …], "outcome": …}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The start position, with its rules.
    pub start: Position,
    /// The plies in order.
    pub plies: Vec<Ply>,
    /// The result, if the game ended.
    #[serde(default)]
    pub outcome: Option<Outcome>,
}

/// Why a record does not replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// A ply was refused.
    #[error("ply {index} refused: {error}")]
    Ply {
        /// Index of the ply, from 0.
        index: usize,
        /// Why.
        error: GameError,
    },
    /// The recorded result differs from the replayed one.
    #[error("the record says {theirs:?} but the plies give {mine:?}")]
    Outcome {
        /// The replayed result.
        mine: Option<Outcome>,
        /// The recorded result.
        theirs: Option<Outcome>,
    },
}
