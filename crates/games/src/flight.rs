//! Aeroplane Chess through `hangar-flight`'s [`Table`], which owns the dice stream (seating,
//! rolls, chance draws): this module maps seats to colours, hall actions to the table's and
//! the engine's state to wire views.

use hangar_bots::flight::FlightLevel;
use hangar_dice::{Dice, DiceScheme, Entropy, Seed};
use hangar_flight::{Colour, Event, Game, Item, ItemEffect, NoEvents, Phase, PlayError, Table};
use std::borrow::Cow;

use serde_json::Value;

use super::{Act, Ending, Played, WireEvent, wire};
use crate::act::FLIGHT_MOVE;
use crate::view::{FlightNeed, FlightView, ItemView, MoveView, WeatherView};
use hangar_protocol::{EndReason, ErrorCode, GameEvent, GameKind, ProtoError, TurnNeed};

/// A running flight game: the table (engine state and dice) and the seat ↔ colour map.
#[derive(Clone, Debug)]
pub struct FlightSession {
    table: Table,
    /// Colour of each room seat (the seating the table drew, in seat order).
    colours: Vec<Colour>,
    turns: u32,
    bot_rng: Dice,
}

/// Where a flight game stands, to come back to (see [`FlightSession::undo`]): the length of
/// the table's record and the turns counted.
#[derive(Clone, Copy, Debug)]
pub struct FlightMark {
    actions: usize,
    turns: u32,
}

fn illegal(message: impl Into<String>) -> ProtoError {
    ProtoError::new(ErrorCode::Illegal, message)
}

/// An action the engine refused (P-AUTH: it changed nothing).
fn refused(error: PlayError) -> ProtoError {
    illegal(error.to_string())
}

/// The value of the last die rolled among `events`.
fn rolled(events: &[Event]) -> Option<u8> {
    events.iter().rev().find_map(|e| match e {
        Event::Rolled { value, .. } => Some(*value),
        _ => None,
    })
}

impl FlightSession {
    /// Draws colours and the first player from the seed (F-D-SEATS, F-ORDER) and starts,
    /// the dice following `dice` (P-FAIR-DICE).
    pub fn start(
        rules: hangar_flight::Options,
        seats: usize,
        seed: Seed,
        dice: DiceScheme,
    ) -> Result<Self, ProtoError> {
        let invalid = |message: String| ProtoError::new(ErrorCode::Invalid, message);
        let players = u8::try_from(seats).map_err(|_| invalid(format!("{seats} seats")))?;
        // The table draws the colours and the first player (F-D-SEATS, F-ORDER), then the
        // items and weather that may appear before the first roll (F-ITEM-SPAWN, F-WEATHER).
        let table = Table::start_with(rules, players, seed, dice, &mut NoEvents)
            .map_err(|e| invalid(e.to_string()))?;
        Ok(FlightSession {
            colours: table.seating().colours.clone(),
            table,
            turns: 0,
            bot_rng: Dice::new(Seed::random()),
        })
    }

    fn game(&self) -> &Game {
        self.table.game()
    }

    fn seat_of(&self, colour: Colour) -> Option<usize> {
        self.colours.iter().position(|c| *c == colour)
    }

    /// The colour name of a seat.
    pub fn colour_name(&self, seat: usize) -> &'static str {
        self.colours.get(seat).map_or("", |c| c.name())
    }

    /// The seat on turn and whether it must roll or move.
    pub fn turn(&self) -> Option<(usize, TurnNeed)> {
        let seat = self.seat_of(self.game().turn())?;
        match self.game().phase() {
            Phase::Roll => Some((seat, TurnNeed::Roll)),
            Phase::Move { .. } => Some((seat, TurnNeed::Move)),
            // Not reached: the table settles a chance draw as soon as it is awaited.
            Phase::Draw { .. } => Some((seat, TurnNeed::Draw)),
            Phase::Over => None,
        }
    }

    fn moves_view(&self) -> Vec<MoveView> {
        match self.game().phase() {
            Phase::Move { .. } => self
                .game()
                .legal_moves()
                .as_slice()
                .iter()
                .map(|m| MoveView {
                    plane: m.plane,
                    to: m.to,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The wire view (protocol §6) as a value (snapshots, game start, records).
    pub fn view(&self) -> Value {
        serde_json::to_value(self.wire_view()).expect("the view serialises")
    }

    /// The wire view (protocol §6), borrowing the engine's state ([`crate::view`]).
    pub fn wire_view(&self) -> FlightView<'_> {
        let (need, die) = match self.game().phase() {
            Phase::Roll => (FlightNeed::Roll, None),
            Phase::Move { roll } => (FlightNeed::Move, Some(roll)),
            Phase::Draw { .. } => (FlightNeed::Draw, None),
            Phase::Over => (FlightNeed::Over, None),
        };
        FlightView {
            bars: self
                .colours
                .iter()
                .map(|&c| self.game().item_bar(c).items().collect())
                .collect(),
            captures: self
                .colours
                .iter()
                .map(|&c| self.game().captures(c))
                .collect(),
            colours: self.colours.clone(),
            die,
            finished: self
                .colours
                .iter()
                .map(|&c| self.game().finished(c))
                .collect(),
            forced_plane: self.game().forced_plane(),
            item_in_use: self.game().item_in_use(),
            items: self
                .game()
                .board_items()
                .map(|i| ItemView {
                    item: i.item,
                    square: i.square,
                })
                .collect(),
            kind: GameKind::Flight,
            moves: self.moves_view(),
            need,
            planes: self
                .colours
                .iter()
                .map(|&c| Cow::Borrowed(self.game().planes(c)))
                .collect(),
            resigned: self
                .colours
                .iter()
                .map(|&c| self.game().has_resigned(c))
                .collect(),
            sixes: self.game().sixes(),
            to_move: if self.game().is_over() {
                None
            } else {
                self.seat_of(self.game().turn())
            },
            turns: self.turns,
            weather: self.game().weather().map(|w| WeatherView {
                kind: w.weather,
                square: w.square,
            }),
        }
    }

    /// The `moved` event: the engine's effects and the view after them.
    fn moved(&self, seat: usize, plane: Option<u8>, effects: &[Event]) -> WireEvent {
        wire(&GameEvent::<_, _, (), ()>::Moved {
            effects,
            game: self.wire_view(),
            plane,
            seat,
        })
    }

    /// Counts the turns an action completed (the table has made the chance draws it made
    /// due, F-ITEM-SPAWN, F-WEATHER).
    fn settle(&mut self, events: &[Event]) {
        self.turns += events
            .iter()
            .filter(|e| matches!(e, Event::Turn { .. }))
            .count() as u32;
    }

    /// The room events of a roll of `value` (`drawn` when the dice gave it, with the
    /// roller's `entropy` if a person threw it; `item` when one was used for it).
    fn rolled(
        &mut self,
        seat: usize,
        value: u8,
        drawn: Option<u8>,
        entropy: Option<&Entropy>,
        item: Option<Item>,
        events: Vec<Event>,
    ) -> Played {
        self.settle(&events);
        let mut out = vec![wire(&GameEvent::<(), (), _, _>::Rolled {
            entropy: entropy.map(Entropy::to_string),
            item,
            moves: self.moves_view(),
            seat,
            value,
        })];
        // A roll settled at once (spent, forced, three sixes) also moved the game on.
        if !matches!(self.game().phase(), Phase::Move { .. }) {
            out.push(self.moved(seat, None, &events));
        }
        Played::rolled(out, value, drawn)
    }

    /// Rolls (the server draws the die, from the roller's `entropy` too under per-roll dice),
    /// uses an item or moves for the seat on turn. Chance draws the engine asks for after the
    /// action (items, weather) come next from the dice.
    pub fn play(
        &mut self,
        seat: usize,
        act: &Act,
        entropy: Option<&Entropy>,
    ) -> Result<Played, ProtoError> {
        match act {
            Act::Roll => {
                if !matches!(self.game().phase(), Phase::Roll) {
                    return Err(illegal("choose a plane to move first (need: move)"));
                }
                let mut events = Vec::new();
                self.table
                    .roll_with(entropy, &mut events)
                    .map_err(refused)?;
                let value = rolled(&events).expect("a roll is told");
                Ok(self.rolled(seat, value, Some(value), entropy, None, events))
            }
            Act::UseItem(item) => {
                let item = *item;
                let mut events = Vec::new();
                self.table
                    .use_item_with(item, entropy, &mut events)
                    .map_err(refused)?;
                let (value, drawn, entropy) = match item.effect() {
                    ItemEffect::FixedRoll { value } => (value, None, None),
                    // A booster leaves the roll awaited: the table throws it at once.
                    ItemEffect::MultiplyPips { .. } => {
                        let value = rolled(&events).expect("a booster's roll is told");
                        (value, Some(value), entropy)
                    }
                };
                Ok(self.rolled(seat, value, drawn, entropy, Some(item), events))
            }
            Act::Plane(plane) => {
                let plane = *plane;
                let mut events = Vec::new();
                self.table.choose(plane, &mut events).map_err(refused)?;
                self.settle(&events);
                Ok(Played::done(vec![self.moved(seat, Some(plane), &events)]))
            }
            Act::Step(_) => Err(illegal(FLIGHT_MOVE)),
            _ => Err(illegal("not a flight action")),
        }
    }

    /// What a bot of `level` does on this seat's turn; `None` when it has no plane to move
    /// (no seat on turn is left so: the game passes such a turn on).
    pub fn bot_act(&mut self, _seat: usize, level: FlightLevel) -> Option<Act> {
        match self.game().phase() {
            Phase::Move { .. } => {
                let bot = level.bot();
                bot.choose(self.table.game(), &mut self.bot_rng)
                    .map(Act::Plane)
            }
            _ => Some(Act::Roll),
        }
    }

    /// A seat leaves: its planes leave the board (P-RESIGN, P-ESCAPE).
    pub fn remove(&mut self, seat: usize) -> Vec<WireEvent> {
        let colour = self.colours[seat];
        let mut events = Vec::new();
        if self.table.resign(colour, &mut events).is_ok() {
            self.settle(&events);
            vec![self.moved(seat, None, &events)]
        } else {
            Vec::new()
        }
    }

    /// Where the game stands now, for [`FlightSession::undo`]: two numbers, no copy.
    pub fn mark(&self) -> FlightMark {
        FlightMark {
            actions: self.table.record().actions.len(),
            turns: self.turns,
        }
    }

    /// Back to where `mark` was taken: the table replays its own record up to there (the seed
    /// and the recorded bytes give the same seating, dice and chance draws), so that nothing
    /// needs copying before an action that is almost always kept.
    pub fn undo(&mut self, mark: FlightMark) {
        let mut record = self.table.record().clone();
        record.actions.truncate(mark.actions);
        // The bytes of rolls past the mark are not replayed (the replay keeps those it uses).
        self.table = record
            .replay(&mut NoEvents)
            .expect("a prefix of a record that was played replays");
        self.turns = mark.turns;
    }

    /// The engine's record of the game so far (options, players, seed, actions): it replays
    /// the rules alone, with `hangar_flight::Record::replay`.
    pub fn record(&self) -> &hangar_flight::Record {
        self.table.record()
    }

    /// The engine's game and the colour of each seat (a review reads them, P-REVIEW).
    pub(crate) fn parts(&self) -> (&Game, &[Colour]) {
        (self.game(), &self.colours)
    }

    /// Completed turns.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Finished planes of a seat.
    pub fn finished(&self, seat: usize) -> u32 {
        self.game().finished(self.colours[seat]) as u32
    }

    /// Ranks, finished planes and captures by seat.
    pub fn ending(&self) -> Ending {
        let ranks = self.game().final_ranks();
        Ending {
            ranks: self
                .colours
                .iter()
                .map(|c| ranks[c.index()].map(u32::from))
                .collect(),
            finished: self
                .colours
                .iter()
                .map(|&c| self.game().finished(c) as u32)
                .collect(),
            captures: self
                .colours
                .iter()
                .map(|&c| u32::from(self.game().captures(c)))
                .collect(),
            colours: self.colours.iter().map(|c| c.index()).collect(),
            jungle_winner: None,
            reason: EndReason::Finished,
        }
    }
}

#[cfg(test)]
mod tests {
    use hangar_flight::{Action, NoEvents, Options, Seating};

    use super::*;

    /// Stored games replay as they were played before the hall ran `Table` (P-DURABLE,
    /// P-FAIR-DICE): the dice stream is consumed as the hall consumed it itself — the seat
    /// draws, the opening chance draws, then per roll one die and the chance draws due after
    /// every action.
    #[test]
    fn p_fair_dice_the_table_draws_what_the_hall_drew_itself() {
        let rules = Options {
            items: true,
            weather: true,
            ..Options::improved()
        };
        for (seats, seed) in [(2, 1), (3, 2), (4, 3), (4, 4)] {
            let seed = Seed::from_u64(seed);
            let mut session =
                FlightSession::start(rules, seats, seed, DiceScheme::SeedStream).expect("starts");
            // The hall's own rebuild of the dice stream, as it was.
            let mut dice = Dice::new(seed);
            let Seating { colours, first } =
                Seating::draw(seats, rules.teams, |n| dice.roll_below(n)).expect("seats");
            let mut game = Game::new(rules, &colours, first).expect("a game");
            game.draw_chances(&mut dice, &mut NoEvents);
            assert_eq!(session.colours, colours);
            let mut actions = 0;
            while let Some((seat, _)) = session.turn() {
                assert_eq!(*session.game(), game, "seed {seed}, action {actions}");
                let act = session
                    .bot_act(seat, FlightLevel::Heuristic)
                    .expect("a bot has a move");
                let played = session.play(seat, &act, None).expect("a bot plays legally");
                match act {
                    Act::Roll => {
                        let value = dice.roll();
                        assert_eq!(played.roll, Some(value));
                        game.play(Action::Roll { value }, &mut NoEvents)
                            .expect("the same roll");
                    }
                    Act::Plane(plane) => {
                        game.play(Action::Move { plane }, &mut NoEvents)
                            .expect("the same move");
                    }
                    other => panic!("a bot rolls or moves, not {other:?}"),
                }
                game.draw_chances(&mut dice, &mut NoEvents);
                actions += 1;
            }
            assert_eq!(*session.game(), game);
            assert!(actions > 50, "a whole game was played");
        }
    }
}
