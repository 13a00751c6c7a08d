//! How a game ends (§4 of jungle.md and the platform's draws and forfeits).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::color::Color;

/// Why a side won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WinReason {
    /// A piece entered the enemy den (J-WIN-DEN).
    Den,
    /// The loser has no pieces left (J-WIN-WIPE).
    NoPieces,
    /// The loser, to move, has no legal move (J-WIN-WIPE).
    NoMoves,
    /// The loser, to move, has moves but every one would repeat a position a third time
    /// (J-REPEAT).
    OnlyRepetitions,
    /// The loser resigned.
    Resignation,
    /// The loser forfeited under the platform's rules (timeouts, disconnection).
    Forfeit,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DrawReason {
    /// 100 moves of each side in a row without a capture (J-DRAW).
    NoCapture,
    /// Both players agreed (P-JUNGLE-DRAW).
    Agreement,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum Outcome {
    /// One side won.
    Win {
        /// The side that won.
        winner: Color,
        /// How.
        reason: WinReason,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

impl Outcome {
    /// The winner, if any.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { winner, reason } => {
                let how = match reason {
                    WinReason::Den => "entering the den",
                    WinReason::NoPieces => "capturing every piece",
                    WinReason::NoMoves => "leaving no legal move",
                    WinReason::OnlyRepetitions => "leaving only repeating moves",
                    WinReason::Resignation => "resignation",
                    WinReason::Forfeit => "forfeit",
                };
                write!(f, "{winner} wins by {how}")
            }
            Outcome::Draw { reason } => match reason {
                DrawReason::NoCapture => f.write_str("draw: 100 moves each without a capture"),
                DrawReason::Agreement => f.write_str("draw by agreement"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_serialize_with_a_tag() {
        let win = Outcome::Win {
            winner: Color::Red,
            reason: WinReason::Den,
        };
        let json = serde_json::to_string(&win).unwrap();
        assert_eq!(json, r#"{"result":"win","winner":"red","reason":"den"}"#);
        assert_eq!(serde_json::from_str::<Outcome>(&json).unwrap(), win);
        assert_eq!(win.winner(), Some(Color::Red));
        let draw = Outcome::Draw {
            reason: DrawReason::NoCapture,
        };
        assert_eq!(draw.winner(), None);
        assert!(draw.to_string().contains("100"));
    }
}
