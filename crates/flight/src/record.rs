//! Game records (platform P-RECORD, P-FAIR-DICE): options, player count, seed and actions.
//! Replaying a record re-derives the seating and every roll from the seed.
//!
//! How the dice stream `Dice::new(seed)` is consumed: first the seat draws of
//! [`Seating::draw`] (`roll_below`), then one `roll()` per [`RecordedAction::Roll`], in order.
//! Nothing else draws from it.

use hangar_dice::{Dice, Seed};
use serde::{Deserialize, Serialize};

use crate::action::PlayError;
use crate::colour::Colour;
use crate::event::EventSink;
use crate::game::{Game, Phase};
use crate::moves::Moves;
use crate::options::Options;
use crate::seating::Seating;
use crate::setup::SetupError;

/// One recorded action. Rolls carry no value: the value comes from the dice.
/// JSON: `"roll"`, `{"move": 2}`, `{"resign": "red"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordedAction {
    /// The player on turn rolled (the next die of the stream).
    Roll,
    /// The player on turn moved this plane.
    Move(u8),
    /// This colour resigned or left.
    Resign(Colour),
}

/// A whole game as stored by the hall and checked by `hangar verify`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Record {
    /// Rule options.
    pub options: Options,
    /// Number of players (2–4); seats are drawn from the seed.
    pub players: u8,
    /// The dice seed (64 hex digits).
    pub seed: Seed,
    /// Every action, in order.
    pub actions: Vec<RecordedAction>,
}

/// Why a record does not replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The options or player count cannot start a game.
    #[error("cannot start the game: {0}")]
    Setup(#[from] SetupError),
    /// An action was refused.
    #[error("action {index} ({action:?}) refused: {error}")]
    Action {
        /// 0-based position in `actions`.
        index: usize,
        /// The action.
        action: RecordedAction,
        /// Why.
        error: PlayError,
    },
}

impl Record {
    /// Replays the whole record, pushing every event to `sink`; returns the table at the end.
    pub fn replay<S: EventSink>(&self, sink: &mut S) -> Result<Table, RecordError> {
        let mut table = Table::new(self.options, self.players, self.seed)?;
        for (index, &action) in self.actions.iter().enumerate() {
            let result = match action {
                RecordedAction::Roll => table.roll(sink).map(|_| ()),
                RecordedAction::Move(plane) => table.choose(plane, sink),
                RecordedAction::Resign(colour) => table.resign(colour, sink),
            };
            result.map_err(|error| RecordError::Action {
                index,
                action,
                error,
            })?;
        }
        Ok(table)
    }
}

/// A game driven from a seed: draws the seating and the rolls, and keeps the record.
/// What the hall runs and what a record replays into.
#[derive(Clone, Debug)]
pub struct Table {
    record: Record,
    seating: Seating,
    game: Game,
    dice: Dice,
}

impl Table {
    /// Starts a game: draws the seats and the first player from the seed (F-D-SEATS, F-ORDER).
    pub fn new(options: Options, players: u8, seed: Seed) -> Result<Table, SetupError> {
        let mut dice = Dice::new(seed);
        let seating = Seating::draw(players as usize, options.teams, |n| dice.roll_below(n))?;
        let game = Game::new(options, &seating.seated(), seating.first)?;
        Ok(Table {
            record: Record {
                options,
                players,
                seed,
                actions: Vec::new(),
            },
            seating,
            game,
            dice,
        })
    }

    /// The player on turn rolls the next die of the stream. Nothing is drawn when a roll is
    /// not awaited.
    pub fn roll<S: EventSink>(&mut self, sink: &mut S) -> Result<Moves, PlayError> {
        // Check first so that a refused roll does not consume a die.
        match self.game.phase() {
            Phase::Roll => {}
            Phase::Move { .. } => return Err(PlayError::MoveExpected),
            Phase::Over => return Err(PlayError::GameOver),
        }
        let value = self.dice.roll();
        let moves = self.game.roll(value, sink)?;
        self.record.actions.push(RecordedAction::Roll);
        Ok(moves)
    }

    /// The player on turn moves `plane`.
    pub fn choose<S: EventSink>(&mut self, plane: u8, sink: &mut S) -> Result<(), PlayError> {
        self.game.choose(plane, sink)?;
        self.record.actions.push(RecordedAction::Move(plane));
        Ok(())
    }

    /// `colour` resigns or leaves.
    pub fn resign<S: EventSink>(&mut self, colour: Colour, sink: &mut S) -> Result<(), PlayError> {
        self.game.resign(colour, sink)?;
        self.record.actions.push(RecordedAction::Resign(colour));
        Ok(())
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The seating drawn at the start.
    pub fn seating(&self) -> &Seating {
        &self.seating
    }

    /// The record so far.
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// The dice draws made so far (seat draws included).
    pub fn draws(&self) -> u64 {
        self.dice.rolls()
    }
}
