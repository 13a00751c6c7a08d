//! Jungle through `hangar-jungle`: seat 0 plays red (moves first), seat 1 yellow.

use hangar_bots::jungle::{JungleBot, JungleLevel, choose_move};
use hangar_dice::{Dice, Seed};
use hangar_jungle::{Color, DrawReason, Game, Move, Outcome, WinReason};
use serde_json::{Value, json};

use super::{Act, Ending, Played, WireEvent, wire};
use crate::protocol::{ErrorCode, ProtoError};

/// A running jungle game.
#[derive(Clone, Debug)]
pub struct JungleSession {
    game: Game,
    last: Option<String>,
    bot_rng: Dice,
}

fn illegal(message: impl Into<String>) -> ProtoError {
    ProtoError::new(ErrorCode::Illegal, message)
}

fn seat_colour(seat: usize) -> Color {
    if seat == 0 { Color::Red } else { Color::Yellow }
}

impl JungleSession {
    /// A new game from the start position under the room's rules.
    pub fn start(rules: hangar_jungle::Rules) -> Self {
        JungleSession {
            game: Game::new(rules),
            last: None,
            bot_rng: Dice::new(Seed::random()),
        }
    }

    /// The colour name of a seat.
    pub fn colour_name(&self, seat: usize) -> &'static str {
        if seat == 0 { "red" } else { "yellow" }
    }

    /// The seat to move.
    pub fn turn(&self) -> Option<(usize, &'static str)> {
        if self.game.outcome().is_some() {
            return None;
        }
        Some((self.game.turn().index(), "move"))
    }

    /// The wire view (protocol §6).
    pub fn view(&self) -> Value {
        let moves: Vec<String> = self
            .game
            .legal_moves()
            .iter()
            .map(Move::to_string)
            .collect();
        json!({
            "kind": "jungle",
            "fen": self.game.position().to_string(),
            "to_move": self.turn().map(|(seat, _)| seat),
            "moves": moves,
            "last": self.last,
            "plies": self.game.plies().len(),
            "outcome": self.game.outcome(),
        })
    }

    /// Plays the move of the seat to move.
    pub fn play(&mut self, seat: usize, act: &Act) -> Result<Played, ProtoError> {
        let Act::Move {
            notation: Some(text),
            plane: None,
        } = act
        else {
            return Err(illegal("a jungle move is {\"move\": \"e3e4\"}"));
        };
        let m: Move = text.parse().map_err(|e| illegal(format!("{text}: {e}")))?;
        let captured = self.game.position().piece_at(m.to).map(|p| p.to_string());
        self.game
            .play(m)
            .map_err(|e| illegal(format!("{text}: {e}")))?;
        self.last = Some(m.to_string());
        Ok(Played {
            events: vec![wire(&json!({
                "kind": "jungle_moved", "seat": seat, "move": m.to_string(),
                "captured": captured, "game": self.view(),
            }))],
            roll: None,
            ack: json!({}),
        })
    }

    /// The seat to move passes (timeout).
    pub fn pass(&mut self) -> Result<Played, ProtoError> {
        let seat = self.game.turn().index();
        self.game.pass().map_err(|e| illegal(e.to_string()))?;
        self.last = None;
        Ok(Played {
            events: vec![wire(
                &json!({"kind": "passed", "seat": seat, "reason": "timeout", "game": self.view()}),
            )],
            roll: None,
            ack: json!({}),
        })
    }

    /// The move a bot of `level` plays.
    pub fn bot_act(&mut self, level: JungleLevel) -> Act {
        let pick = choose_move(&self.game, &JungleBot::level(level), &mut self.bot_rng);
        Act::Move {
            plane: None,
            notation: pick.map(|m| m.to_string()),
        }
    }

    /// A seat leaves: the other wins.
    pub fn remove(&mut self, seat: usize) -> Vec<WireEvent> {
        let _ = self.game.end(Outcome::Win {
            winner: seat_colour(1 - seat),
            reason: WinReason::Forfeit,
        });
        Vec::new()
    }

    /// Both agreed to a draw (P-JUNGLE-DRAW).
    pub fn agree_draw(&mut self) {
        let _ = self.game.end(Outcome::Draw {
            reason: DrawReason::Agreement,
        });
    }

    /// Completed turns (plies).
    pub fn turns(&self) -> u32 {
        self.game.plies().len() as u32
    }

    /// The result by seat.
    pub fn ending(&self) -> Ending {
        let outcome = self.game.outcome();
        let winner = outcome.and_then(Outcome::winner).map(Color::index);
        let ranks = match winner {
            Some(w) => (0..2).map(|s| Some(if s == w { 1 } else { 2 })).collect(),
            None => vec![Some(1), Some(1)],
        };
        let reason = match outcome {
            Some(Outcome::Win { reason, .. }) => match reason {
                WinReason::Den => "den",
                WinReason::NoPieces => "no_pieces",
                WinReason::NoMoves | WinReason::OnlyRepetitions => "no_move",
                WinReason::Resignation => "resigned",
                WinReason::Forfeit => "forfeit",
            },
            Some(Outcome::Draw { .. }) => "draw",
            None => "unfinished",
        };
        Ending {
            ranks,
            finished: vec![0, 0],
            captures: vec![0, 0],
            colours: vec![0, 1],
            jungle_winner: winner,
            reason: reason.to_owned(),
        }
    }
}
