//! Aeroplane Chess through `hangar-flight`: seats to colours, server-drawn dice, wire views.

use hangar_bots::flight::FlightLevel;
use hangar_dice::{Dice, Seed};
use hangar_flight::{Action, Colour, Event, Game, Phase, Seating, SetupError};
use serde_json::{Value, json};

use super::options::flight_rules;
use super::{Act, Ending, Played};
use crate::protocol::{ErrorCode, ProtoError};

/// A running flight game: the engine state, the dice and the seat ↔ colour map.
#[derive(Clone, Debug)]
pub struct FlightSession {
    game: Game,
    dice: Dice,
    /// Colour of each room seat.
    colours: Vec<Colour>,
    turns: u32,
    bot_rng: Dice,
}

fn illegal(message: impl Into<String>) -> ProtoError {
    ProtoError::new(ErrorCode::Illegal, message)
}

impl FlightSession {
    /// Draws colours and the first player from the seed (F-D-SEATS, F-ORDER) and starts.
    pub fn start(options: &Value, seats: usize, seed: Seed) -> Result<Self, ProtoError> {
        let rules = flight_rules(options)?;
        let mut dice = Dice::new(seed);
        let invalid = |e: SetupError| ProtoError::new(ErrorCode::Invalid, e.to_string());
        let Seating { colours, first } =
            Seating::draw(seats, rules.teams, |n| dice.roll_below(n)).map_err(invalid)?;
        let game = Game::new(rules, &colours, first).map_err(invalid)?;
        Ok(FlightSession {
            game,
            dice,
            colours,
            turns: 0,
            bot_rng: Dice::new(Seed::random()),
        })
    }

    fn seat_of(&self, colour: Colour) -> Option<usize> {
        self.colours.iter().position(|c| *c == colour)
    }

    /// The colour name of a seat.
    pub fn colour_name(&self, seat: usize) -> &'static str {
        self.colours.get(seat).map_or("", |c| c.name())
    }

    /// The seat on turn and whether it must roll or move.
    pub fn turn(&self) -> Option<(usize, &'static str)> {
        let seat = self.seat_of(self.game.turn())?;
        match self.game.phase() {
            Phase::Roll => Some((seat, "roll")),
            Phase::Move { .. } => Some((seat, "move")),
            // Items and weather are refused by the room options, so no draw is awaited.
            Phase::Draw { .. } => Some((seat, "draw")),
            Phase::Over => None,
        }
    }

    fn moves_view(&self) -> Vec<Value> {
        match self.game.phase() {
            Phase::Move { .. } => self
                .game
                .legal_moves()
                .as_slice()
                .iter()
                .map(|m| json!({"plane": m.plane, "to": m.to}))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The wire view (protocol §6).
    pub fn view(&self) -> Value {
        let planes: Vec<Value> = self
            .colours
            .iter()
            .map(|&c| json!(self.game.planes(c)))
            .collect();
        let (need, die) = match self.game.phase() {
            Phase::Roll => ("roll", Value::Null),
            Phase::Move { roll } => ("move", json!(roll)),
            Phase::Draw { .. } => ("draw", Value::Null),
            Phase::Over => ("over", Value::Null),
        };
        json!({
            "kind": "flight",
            "colours": self.colours.iter().map(|c| c.name()).collect::<Vec<_>>(),
            "to_move": if self.game.is_over() { Value::Null } else { json!(self.seat_of(self.game.turn())) },
            "need": need,
            "die": die,
            "sixes": self.game.sixes(),
            "turns": self.turns,
            "planes": planes,
            "moves": self.moves_view(),
            "finished": self.colours.iter().map(|&c| self.game.finished(c)).collect::<Vec<_>>(),
            "captures": self.colours.iter().map(|&c| self.game.captures(c)).collect::<Vec<_>>(),
            "resigned": self.colours.iter().map(|&c| self.game.has_resigned(c)).collect::<Vec<_>>(),
            "forced_plane": self.game.forced_plane(),
        })
    }

    fn count_turns(&mut self, events: &[Event]) {
        self.turns += events
            .iter()
            .filter(|e| matches!(e, Event::Turn { .. }))
            .count() as u32;
    }

    /// Rolls (the server draws the die) or moves for the seat on turn.
    pub fn play(&mut self, seat: usize, act: &Act) -> Result<Played, ProtoError> {
        let colour = self.colours[seat];
        match act {
            Act::Roll => {
                if !matches!(self.game.phase(), Phase::Roll) {
                    return Err(illegal("choose a plane to move first (need: move)"));
                }
                let value = self.dice.roll();
                let mut events = Vec::new();
                self.game
                    .play(Action::Roll { value }, &mut events)
                    .map_err(|e| illegal(e.to_string()))?;
                self.count_turns(&events);
                let moves = self.moves_view();
                let mut out =
                    vec![json!({"kind": "rolled", "seat": seat, "value": value, "moves": moves})];
                // A roll settled at once (spent, forced, three sixes) also moved the game on.
                if !matches!(self.game.phase(), Phase::Move { .. }) {
                    out.push(json!({
                        "kind": "moved", "seat": seat, "plane": null,
                        "effects": events, "game": self.view(),
                    }));
                }
                Ok(Played {
                    events: out,
                    roll: Some(value),
                    ack: json!({"value": value}),
                })
            }
            Act::Move {
                plane: Some(plane),
                notation: None,
            } => {
                let plane = u8::try_from(*plane).map_err(|_| illegal("no such plane"))?;
                let mut events = Vec::new();
                self.game
                    .play(Action::Move { plane }, &mut events)
                    .map_err(|e| illegal(e.to_string()))?;
                self.count_turns(&events);
                let _ = colour;
                Ok(Played {
                    events: vec![json!({
                        "kind": "moved", "seat": seat, "plane": plane,
                        "effects": events, "game": self.view(),
                    })],
                    roll: None,
                    ack: json!({}),
                })
            }
            Act::Move { .. } => Err(illegal("a flight move names a \"plane\"")),
            Act::UseItem { item } => Err(illegal(format!(
                "no item {item:?}: items are off in this room"
            ))),
            _ => Err(illegal("not a flight action")),
        }
    }

    /// What a bot of `level` does on this seat's turn (auto-play uses `heuristic`): the
    /// hall's levels are `hangar-bots`' flight levels under the names the protocol uses.
    pub fn bot_act(&mut self, _seat: usize, level: &str) -> Act {
        match self.game.phase() {
            Phase::Move { .. } => {
                let bot = flight_level(level).bot();
                let plane = bot.choose(&self.game, &mut self.bot_rng);
                Act::Move {
                    plane: plane.map(usize::from),
                    notation: None,
                }
            }
            _ => Act::Roll,
        }
    }

    /// A seat leaves: its planes leave the board (P-RESIGN, P-ESCAPE).
    pub fn remove(&mut self, seat: usize) -> Vec<Value> {
        let colour = self.colours[seat];
        let mut events = Vec::new();
        if self.game.resign(colour, &mut events).is_ok() {
            self.count_turns(&events);
            vec![
                json!({"kind": "moved", "seat": seat, "plane": null, "effects": events, "game": self.view()}),
            ]
        } else {
            Vec::new()
        }
    }

    /// Completed turns.
    pub fn turns(&self) -> u32 {
        self.turns
    }

    /// Finished planes of a seat.
    pub fn finished(&self, seat: usize) -> u32 {
        self.game.finished(self.colours[seat]) as u32
    }

    /// Ranks, finished planes and captures by seat.
    pub fn ending(&self) -> Ending {
        let ranks = self.game.final_ranks();
        Ending {
            ranks: self
                .colours
                .iter()
                .map(|c| ranks[c.index()].map(u32::from))
                .collect(),
            finished: self
                .colours
                .iter()
                .map(|&c| self.game.finished(c) as u32)
                .collect(),
            captures: self
                .colours
                .iter()
                .map(|&c| u32::from(self.game.captures(c)))
                .collect(),
            colours: self.colours.iter().map(|c| c.index()).collect(),
            jungle_winner: None,
            reason: "finished".to_owned(),
        }
    }
}

/// The `hangar-bots` level behind a hall level name; unknown names (refused earlier by
/// `bot_levels`) fall back to the heuristic bot that auto-play uses.
pub fn flight_level(level: &str) -> FlightLevel {
    match level {
        "random" | "easy" => FlightLevel::Easy,
        "hard" | "search" => FlightLevel::Hard,
        _ => FlightLevel::Normal,
    }
}
