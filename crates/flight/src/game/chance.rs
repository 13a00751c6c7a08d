//! Rounds, chance draws and item use (flight.md §7–8: F-ITEM-SPAWN, F-ITEM-USE, F-WEATHER).
//!
//! The engine stays pure: where an item or a weather cell appears, and which kind, are
//! *draws* the game asks for ([`Phase::Draw`]) and the driver supplies ([`Action::Draw`]),
//! like the die. One draw per appearance, over the pairs (square, kind):
//! `index = position_of_square × kinds + position_of_kind`, squares in ascending order.
//!
//! - At the start of round 1 (the game's start) and of every later round, in this order:
//!   1. weather (option `weather`): the cycle advances; 3 rounds after a cell appeared it is
//!      cleared, 3 rounds later a new one is drawn over all 52 track squares × 3 kinds;
//!   2. an item (option `items`), when fewer than two lie on the board: drawn over the track
//!      squares holding no item × 2 kinds.
//! - A round starts when the turn reaches or passes the seat of the player who rolled
//!   first (so a round is one turn of each player still playing).

use hangar_dice::Dice;
use serde::{Deserialize, Serialize};

use crate::action::PlayError;
use crate::board::{Square, TRACK_SQUARES};
use crate::colour::Colour;
use crate::event::{Event, EventSink};
use crate::game::moves::Moves;
use crate::game::{Game, Phase};
use crate::items::{Item, ItemEffect, ItemOnBoard, MAX_ITEMS_ON_BOARD};
use crate::weather::{WEATHER_ROUNDS, Weather, WeatherCell};

/// What a chance draw decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Draw {
    /// Where the new weather cell appears and its kind (F-WEATHER).
    Weather,
    /// Where a new item appears and its kind (F-ITEM-SPAWN).
    Item,
}

impl Game {
    /// The number of outcomes of the awaited draw (0 when none is awaited): the driver plays
    /// `Action::Draw { index }` with `index` uniform in `0..draw_choices()`.
    pub fn draw_choices(&self) -> u16 {
        match self.phase {
            Phase::Draw {
                what: Draw::Weather,
            } => u16::from(TRACK_SQUARES) * Weather::ALL.len() as u16,
            Phase::Draw { what: Draw::Item } => {
                self.free_item_squares().count() as u16 * Item::ALL.len() as u16
            }
            _ => 0,
        }
    }

    /// Track squares holding no item, ascending: where an item may appear. Squares under
    /// planes count: an item may appear under a plane at rest, which does not pick it up.
    fn free_item_squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..TRACK_SQUARES)
            .map(Square)
            .filter(|&s| self.board_items().all(|i| i.square != s))
    }

    /// Settles the awaited draw with outcome `index` (below [`Game::draw_choices`]).
    pub fn draw<S: EventSink>(&mut self, index: u16, sink: &mut S) -> Result<(), PlayError> {
        let what = match self.phase {
            Phase::Draw { what } => what,
            Phase::Over => return Err(PlayError::GameOver),
            _ => return Err(PlayError::NoDrawAwaited),
        };
        let choices = self.draw_choices();
        if index >= choices {
            return Err(PlayError::BadDraw { index, choices });
        }
        match what {
            Draw::Weather => {
                let kinds = Weather::ALL.len() as u16;
                let cell = WeatherCell {
                    square: Square((index / kinds) as u8),
                    weather: Weather::ALL[(index % kinds) as usize],
                };
                self.extras.weather = Some(cell);
                sink.push(Event::WeatherAppeared {
                    weather: cell.weather,
                    square: cell.square,
                });
                self.phase = Phase::Roll;
                self.item_if_due();
            }
            Draw::Item => {
                let kinds = Item::ALL.len() as u16;
                let square = self
                    .free_item_squares()
                    .nth((index / kinds) as usize)
                    .expect("the index is below the number of choices");
                let item = Item::ALL[(index % kinds) as usize];
                let slot = self
                    .extras
                    .board_items
                    .iter_mut()
                    .find(|slot| slot.is_none())
                    .expect("an item is drawn only while fewer than two lie");
                *slot = Some(ItemOnBoard { square, item });
                sink.push(Event::ItemAppeared { item, square });
                self.phase = Phase::Roll;
            }
        }
        Ok(())
    }

    /// Settles every awaited draw with `draw(n)`, a uniform number below `n`; nothing
    /// happens when no draw is awaited. Call it after every action (and on a new game).
    pub fn settle_draws<S: EventSink>(&mut self, mut draw: impl FnMut(u32) -> u32, sink: &mut S) {
        while let Phase::Draw { .. } = self.phase {
            let n = self.draw_choices();
            let index = draw(u32::from(n)) as u16;
            self.draw(index.min(n - 1), sink)
                .expect("a draw below its choices is accepted");
        }
    }

    /// Settles every awaited draw from the game's dice (`dice.roll_below(n)`, one per draw):
    /// the one line a driver calls before each roll or choice. Draws nothing with items and
    /// weather off.
    pub fn draw_chances<S: EventSink>(&mut self, dice: &mut Dice, sink: &mut S) {
        if matches!(self.phase, Phase::Draw { .. }) {
            self.settle_draws(|n| dice.roll_below(n), sink);
        }
    }

    /// The player on turn uses `item` from its bar before rolling (F-ITEM-USE). A six die is
    /// a thrown 6 at once (the result is that roll's choices, as [`Game::roll`]); a booster
    /// leaves the roll awaited, to be thrown at once by the driver, and doubles its pips.
    pub fn use_item<S: EventSink>(&mut self, item: Item, sink: &mut S) -> Result<Moves, PlayError> {
        match self.phase {
            Phase::Roll => {}
            Phase::Move { .. } => return Err(PlayError::MoveExpected),
            Phase::Draw { .. } => return Err(PlayError::DrawExpected),
            Phase::Over => return Err(PlayError::GameOver),
        }
        if !self.options.items {
            return Err(PlayError::ItemsOff);
        }
        if let Some(in_use) = self.extras.in_use {
            return Err(PlayError::ItemInUse { item: in_use });
        }
        let colour = self.turn;
        if !self.extras.bars[colour.index()].remove(item) {
            return Err(PlayError::NoItem { item });
        }
        sink.push(Event::ItemUsed { colour, item });
        match item.effect() {
            ItemEffect::FixedRoll { value } => self.roll(value, sink),
            ItemEffect::MultiplyPips { .. } => {
                self.extras.in_use = Some(item);
                Ok(Moves::EMPTY)
            }
        }
    }

    /// The turn passed from `prev` to `next`: a round starts if it reached or passed the
    /// first player's seat. Out of line: the fast path with items and weather off skips it.
    #[cold]
    #[inline(never)]
    pub(crate) fn maybe_start_round<S: EventSink>(
        &mut self,
        prev: Colour,
        next: Colour,
        sink: &mut S,
    ) {
        if self.round_starts(prev, next) {
            self.start_round(sink);
        }
    }

    /// Whether the turn passing from `prev` to `next` (clockwise) reaches or passes the seat
    /// of the first player: a new round.
    fn round_starts(&self, prev: Colour, next: Colour) -> bool {
        let ahead = |c: Colour| match (c.index() + 4 - prev.index()) % 4 {
            0 => 4,
            d => d,
        };
        ahead(self.extras.first) <= ahead(next)
    }

    /// The start of a round: the weather cycle, then an item while fewer than two lie.
    fn start_round<S: EventSink>(&mut self, sink: &mut S) {
        if self.options.weather {
            let round = (self.extras.weather_round + 1) % (2 * WEATHER_ROUNDS);
            self.extras.weather_round = round;
            if round == WEATHER_ROUNDS
                && let Some(cell) = self.extras.weather.take()
            {
                sink.push(Event::WeatherCleared {
                    weather: cell.weather,
                    square: cell.square,
                });
            }
            if round == 0 {
                self.phase = Phase::Draw {
                    what: Draw::Weather,
                };
                return;
            }
        }
        self.item_if_due();
    }

    /// Asks for an item draw when items are on and fewer than two lie on the board.
    fn item_if_due(&mut self) {
        if self.options.items && self.board_items().count() < MAX_ITEMS_ON_BOARD {
            self.phase = Phase::Draw { what: Draw::Item };
        }
    }
}
