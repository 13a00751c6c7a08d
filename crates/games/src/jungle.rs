//! Jungle through `hangar-jungle`: seat 0 plays red (moves first), seat 1 yellow.

use hangar_bots::jungle::{JungleBot, JungleLevel, choose_move};
use hangar_dice::{Dice, Seed};
use hangar_jungle::{Color, DrawReason, Game, GameRecord, Move, Outcome, Ply, WinReason};
use std::borrow::Cow;

use serde_json::Value;

use super::{Act, Ending, Played, WireEvent, wire};
use crate::act::JUNGLE_MOVE;
use crate::view::JungleView;
use hangar_protocol::{
    EndReason, ErrorCode, GameEvent, GameKind, PassReason, ProtoError, TurnNeed,
};

/// A running jungle game.
#[derive(Clone, Debug)]
pub struct JungleSession {
    game: Game,
    last: Option<String>,
    bot_rng: Dice,
}

/// Where a jungle game stands, to come back to (see [`JungleSession::undo`]): the plies
/// played and the result (an agreed draw or a forfeit has no ply).
#[derive(Clone, Copy, Debug)]
pub struct JungleMark {
    plies: usize,
    outcome: Option<Outcome>,
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
    pub fn turn(&self) -> Option<(usize, TurnNeed)> {
        if self.game.outcome().is_some() {
            return None;
        }
        Some((self.game.turn().index(), TurnNeed::Move))
    }

    /// The wire view (protocol §6) as a value (snapshots, game start, records).
    pub fn view(&self) -> Value {
        serde_json::to_value(self.wire_view()).expect("the view serialises")
    }

    /// The wire view (protocol §6).
    pub fn wire_view(&self) -> JungleView<'_> {
        JungleView {
            fen: self.game.position().to_string(),
            kind: GameKind::Jungle,
            last: self.last.as_deref().map(Cow::Borrowed),
            moves: self
                .game
                .legal_moves()
                .iter()
                .map(Move::to_string)
                .collect(),
            outcome: self.game.outcome(),
            plies: self.game.plies().len(),
            to_move: self.turn().map(|(seat, _)| seat),
        }
    }

    /// Plays the move of the seat to move.
    pub fn play(&mut self, seat: usize, act: &Act) -> Result<Played, ProtoError> {
        let Act::Step(m) = *act else {
            return Err(illegal(JUNGLE_MOVE));
        };
        let captured = self.game.position().piece_at(m.to);
        self.game
            .play(m)
            .map_err(|e| illegal(format!("{m}: {e}")))?;
        self.last = Some(m.to_string());
        Ok(Played::done(vec![wire(
            &GameEvent::<_, (), (), ()>::JungleMoved {
                captured: captured.map(|p| p.to_string()),
                game: self.wire_view(),
                notation: m.to_string(),
                seat,
            },
        )]))
    }

    /// The seat to move passes (timeout).
    pub fn pass(&mut self) -> Result<Played, ProtoError> {
        let seat = self.game.turn().index();
        self.game.pass().map_err(|e| illegal(e.to_string()))?;
        self.last = None;
        Ok(Played::done(vec![wire(
            &GameEvent::<_, (), (), ()>::Passed {
                game: self.wire_view(),
                reason: PassReason::Timeout,
                seat,
            },
        )]))
    }

    /// The move a bot of `level` plays; `None` when there is none (the game is then over).
    pub fn bot_act(&mut self, level: JungleLevel) -> Option<Act> {
        choose_move(&self.game, &JungleBot::level(level), &mut self.bot_rng).map(Act::Step)
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

    /// Where the game stands now, for [`JungleSession::undo`]: no copy.
    pub fn mark(&self) -> JungleMark {
        JungleMark {
            plies: self.game.plies().len(),
            outcome: self.game.outcome(),
        }
    }

    /// Back to where `mark` was taken, by replaying the plies up to there.
    pub fn undo(&mut self, mark: JungleMark) {
        let record = GameRecord {
            start: *self.game.start(),
            plies: self.game.plies()[..mark.plies].to_vec(),
            outcome: mark.outcome,
        };
        self.game = Game::replay(&record).expect("a prefix of a game that was played replays");
        // The last move shown is the last ply's, as `play` and `pass` set it.
        self.last = match self.game.plies().last() {
            Some(Ply::Move(m)) => Some(m.to_string()),
            _ => None,
        };
    }

    /// The game as the rules engine holds it (a review reads its positions, P-REVIEW).
    pub(crate) fn game(&self) -> &Game {
        &self.game
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
                WinReason::Den => EndReason::Den,
                WinReason::NoPieces => EndReason::NoPieces,
                WinReason::NoMoves | WinReason::OnlyRepetitions => EndReason::NoMove,
                WinReason::Resignation => EndReason::Resigned,
                WinReason::Forfeit => EndReason::Forfeit,
            },
            Some(Outcome::Draw { .. }) => EndReason::Draw,
            None => EndReason::Unfinished,
        };
        Ending {
            ranks,
            finished: vec![0, 0],
            captures: vec![0, 0],
            colours: vec![0, 1],
            jungle_winner: winner,
            reason,
        }
    }
}
