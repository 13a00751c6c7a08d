//! Game records (platform P-RECORD, P-FAIR-DICE): options, player count, seed and actions.
//! Replaying a record re-derives the seating and every roll from the seed.
//!
//! How the dice stream `Dice::new(seed)` is consumed: first the seat draws of
//! [`Seating::draw`] (`roll_below`); then, in the order play reaches them, one `roll()` per
//! [`RecordedAction::Roll`] and, with items or weather on, one `roll_below(n)` per chance
//! draw the game awaits ([`crate::Phase::Draw`], `n` = [`Game::draw_choices`]). Draws are
//! settled as soon as they are awaited: on the new game and right after each action.
//! Nothing else draws from it (a six die draws nothing). That is a record's
//! [`DiceScheme::SeedStream`], the default of records that name no scheme; under
//! [`DiceScheme::PerRoll`] (P-FAIR-DICE) each roll and the chance draws after it come from the
//! roll's own stream instead, keyed by the seed, the roll's number and the roller's bytes
//! (`hangar_dice::GameDice` knows which stream each draw uses; the table only asks it).

use std::collections::BTreeMap;

use hangar_dice::{DiceScheme, Entropy, GameDice, Seed};
use serde::{Deserialize, Serialize};

use crate::action::PlayError;
use crate::colour::Colour;
use crate::event::{EventSink, NoEvents};
use crate::game::moves::Moves;
use crate::game::setup::SetupError;
use crate::game::{Game, Phase};
use crate::items::{Item, ItemEffect};
use crate::options::Options;
use crate::seating::Seating;

/// One recorded action. Rolls carry no value: the value comes from the dice; chance draws
/// are not recorded: they follow from the seed.
/// JSON: `"roll"`, `{"move": 2}`, `{"resign": "red"}`, `{"use_item": "booster"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordedAction {
    /// The player on turn rolled (the next die of the stream).
    Roll,
    /// The player on turn moved this plane.
    Move(u8),
    /// This colour resigned or left.
    Resign(Colour),
    /// The player on turn used this item (F-ITEM-USE); a booster is followed by its `Roll`.
    UseItem(Item),
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
    /// The construction the dice follow; records made before per-roll dice name none and
    /// are [`DiceScheme::SeedStream`].
    #[serde(default)]
    pub dice: DiceScheme,
    /// Every action, in order.
    pub actions: Vec<RecordedAction>,
    /// The roller's bytes of each roll that had some, by roll number k (0 for the game's
    /// first die): a person's rolls; rolls of hall bots, auto-play and the timer have none.
    /// Left out when empty, so records without such rolls read as before.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub entropy: BTreeMap<u64, Entropy>,
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
    /// Each roll is re-derived by the record's scheme from the seed and its recorded bytes.
    pub fn replay<S: EventSink>(&self, sink: &mut S) -> Result<Table, RecordError> {
        let mut table = Table::start_with(self.options, self.players, self.seed, self.dice, sink)?;
        for (index, &action) in self.actions.iter().enumerate() {
            let result = match action {
                RecordedAction::Roll => {
                    let entropy = self.entropy.get(&table.rolls());
                    table.roll_with(entropy, sink).map(|_| ())
                }
                other => table.apply(other, sink),
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
    dice: GameDice,
    /// Draws made from the streams left behind by a new roll's stream (per-roll dice).
    earlier_draws: u64,
}

impl Table {
    /// Starts a game: draws the seats and the first player from the seed (F-D-SEATS, F-ORDER),
    /// and the opening item and weather draws, if any (their events are dropped: see
    /// [`Table::start`]). The dice are the seed's one stream ([`DiceScheme::SeedStream`]).
    pub fn new(options: Options, players: u8, seed: Seed) -> Result<Table, SetupError> {
        Table::start(options, players, seed, &mut NoEvents)
    }

    /// [`Table::new`], pushing the events of the opening draws (an item or weather cell
    /// appearing) to `sink`.
    pub fn start<S: EventSink>(
        options: Options,
        players: u8,
        seed: Seed,
        sink: &mut S,
    ) -> Result<Table, SetupError> {
        Table::start_with(options, players, seed, DiceScheme::SeedStream, sink)
    }

    /// [`Table::start`] with the dice of `scheme` (the hall's new games are
    /// [`DiceScheme::PerRoll`], P-FAIR-DICE).
    pub fn start_with<S: EventSink>(
        options: Options,
        players: u8,
        seed: Seed,
        scheme: DiceScheme,
        sink: &mut S,
    ) -> Result<Table, SetupError> {
        let mut dice = GameDice::new(scheme, seed);
        let seating = Seating::draw(players as usize, options.teams, |n| {
            dice.current().roll_below(n)
        })?;
        let mut game = Game::new(options, &seating.seated(), seating.first)?;
        game.draw_chances(dice.current(), sink);
        Ok(Table {
            record: Record {
                options,
                players,
                seed,
                dice: scheme,
                actions: Vec::new(),
                entropy: BTreeMap::new(),
            },
            seating,
            game,
            dice,
            earlier_draws: 0,
        })
    }

    /// The player on turn rolls the next die, with no roller's bytes (see
    /// [`Table::roll_with`]). Nothing is drawn when a roll is not awaited.
    pub fn roll<S: EventSink>(&mut self, sink: &mut S) -> Result<Moves, PlayError> {
        self.roll_with(None, sink)
    }

    /// The player on turn rolls the next die, `entropy` being the roller's bytes (`None` for a
    /// hall bot, auto-play or the timer): under per-roll dice they key the roll's stream, and
    /// the record keeps them. Nothing is drawn when a roll is not awaited.
    pub fn roll_with<S: EventSink>(
        &mut self,
        entropy: Option<&Entropy>,
        sink: &mut S,
    ) -> Result<Moves, PlayError> {
        // Check first so that a refused roll does not consume a die.
        match self.game.phase() {
            Phase::Roll => {}
            Phase::Move { .. } => return Err(PlayError::MoveExpected),
            Phase::Draw { .. } => return Err(PlayError::DrawExpected),
            Phase::Over => return Err(PlayError::GameOver),
        }
        let k = self.dice.rolls();
        let before = self.dice.current_draws();
        let value = self.dice.begin_roll(entropy).roll();
        if self.dice.scheme() == DiceScheme::PerRoll {
            self.earlier_draws += before;
        }
        let moves = self.game.roll(value, sink)?;
        self.record.actions.push(RecordedAction::Roll);
        if let Some(entropy) = entropy {
            self.record.entropy.insert(k, *entropy);
        }
        self.game.draw_chances(self.dice.current(), sink);
        Ok(moves)
    }

    /// The player on turn moves `plane`.
    pub fn choose<S: EventSink>(&mut self, plane: u8, sink: &mut S) -> Result<(), PlayError> {
        self.apply(RecordedAction::Move(plane), sink)
    }

    /// `colour` resigns or leaves.
    pub fn resign<S: EventSink>(&mut self, colour: Colour, sink: &mut S) -> Result<(), PlayError> {
        self.apply(RecordedAction::Resign(colour), sink)
    }

    /// The player on turn uses `item` (F-ITEM-USE). The die is thrown at once: a six die is
    /// a 6 without the dice, a booster rolls the next die of the stream (recorded as a
    /// `Roll` after the `UseItem`). Returns the roll's choices, like [`Table::roll`].
    pub fn use_item<S: EventSink>(&mut self, item: Item, sink: &mut S) -> Result<Moves, PlayError> {
        self.use_item_with(item, None, sink)
    }

    /// [`Table::use_item`], a booster's throw taking `entropy` as [`Table::roll_with`] does
    /// (a six die throws no die and leaves the bytes unused).
    pub fn use_item_with<S: EventSink>(
        &mut self,
        item: Item,
        entropy: Option<&Entropy>,
        sink: &mut S,
    ) -> Result<Moves, PlayError> {
        let moves = self.game.use_item(item, sink)?;
        self.record.actions.push(RecordedAction::UseItem(item));
        if let ItemEffect::MultiplyPips { .. } = item.effect() {
            return self.roll_with(entropy, sink);
        }
        self.game.draw_chances(self.dice.current(), sink);
        Ok(moves)
    }

    /// Plays one recorded action as it was recorded (a `UseItem` alone does not roll; a
    /// `Roll` rolls with no roller's bytes: [`Record::replay`] gives each roll its own).
    pub fn apply<S: EventSink>(
        &mut self,
        action: RecordedAction,
        sink: &mut S,
    ) -> Result<(), PlayError> {
        match action {
            RecordedAction::Roll => return self.roll(sink).map(|_| ()),
            RecordedAction::Move(plane) => self.game.choose(plane, sink)?,
            RecordedAction::Resign(colour) => self.game.resign(colour, sink)?,
            RecordedAction::UseItem(item) => {
                self.game.use_item(item, sink)?;
            }
        }
        self.record.actions.push(action);
        self.game.draw_chances(self.dice.current(), sink);
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

    /// The dice draws made so far (seat draws included), over every stream.
    pub fn draws(&self) -> u64 {
        self.earlier_draws + self.dice.current_draws()
    }

    /// The dice thrown so far: the number `k` of the next roll.
    pub fn rolls(&self) -> u64 {
        self.dice.rolls()
    }

    /// The construction the table's dice follow.
    pub fn dice_scheme(&self) -> DiceScheme {
        self.dice.scheme()
    }
}
