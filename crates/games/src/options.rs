//! Room options (P-ROOM): parsed once, when a room is made, into a typed [`RoomOptions`] that
//! the room keeps, shows and stores; the engines take their rules straight from it.

use std::fmt;
use std::ops::RangeInclusive;

use hangar_flight::{Finish, Preset, Stacks, TakeOff, ThreeSixes};
use hangar_jungle::Order;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use hangar_bots::flight::FlightLevel;
use hangar_bots::jungle::JungleLevel;

use hangar_protocol::{
    Bounds, ErrorCode, FlightCatalogue, GameKind, JungleCatalogue, OptionsCatalogue, ProtoError,
};

use crate::levels::{of_flight, of_jungle};

/// Shortest and longest turn timer in seconds (P-ROOM).
pub const TURN_SECONDS: RangeInclusive<u64> = 5..=120;

/// The turn timer when neither the room nor the hall gives one (P-ROOM).
pub const DEFAULT_TURN_SECONDS: u64 = 20;

/// Smallest and largest flight stake (P-ROOM).
pub const STAKE: RangeInclusive<i64> = 10..=10_000;

/// The flight stake when the room does not give one (P-ROOM).
pub const DEFAULT_STAKE: i64 = 100;

/// Seats of a flight room (P-ROOM).
pub const FLIGHT_SEATS: RangeInclusive<u64> = 2..=4;

/// The seats of a flight room that gives none.
pub const DEFAULT_FLIGHT_SEATS: u64 = 4;

/// Planes per player (F-PLANES).
pub const PLANES: RangeInclusive<u8> = 2..=4;

/// The level range of a jungle room, which weighs its score (P-SCORE).
pub const JUNGLE_LEVELS: RangeInclusive<u8> = 1..=10;

/// The level of a jungle room that gives none.
pub const DEFAULT_JUNGLE_LEVEL: u8 = 1;

fn invalid(message: impl Into<String>) -> ProtoError {
    ProtoError::new(ErrorCode::Invalid, message)
}

/// A room's checked and completed options. Serialised (flat, one object per game) it is what
/// the room shows under `options` and what the database holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum RoomOptions {
    /// An Aeroplane Chess room.
    Flight(FlightRoom),
    /// A Jungle room.
    Jungle(JungleRoom),
}

/// The options of a flight room: the room's own settings and the engine's rule options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct FlightRoom {
    /// Seats, 2–4.
    pub seats: u8,
    /// The stake S of the score formula (P-SCORE).
    pub stake: i64,
    /// The turn timer in seconds.
    pub turn_seconds: u64,
    /// The preset the rules started from (flight.md §9); the fields below may differ from it.
    pub preset: Preset,
    /// The rule options the engine plays by.
    #[serde(flatten)]
    pub rules: hangar_flight::Options,
}

/// The options of a jungle room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct JungleRoom {
    /// Always 2.
    pub seats: u8,
    /// The turn timer in seconds.
    pub turn_seconds: u64,
    /// The room level, 1–10, which weighs the score (P-SCORE).
    pub level: u8,
    /// Dog over wolf or wolf over dog (J-PIECES).
    pub order: Order,
    /// The elephant may capture the rat (J-RAT-ELEPHANT).
    pub elephant_takes_rat: bool,
    /// The leopard leaps the rivers (J-LEAP).
    pub leopard_leaps: bool,
}

impl JungleRoom {
    /// The engine's rules.
    pub fn rules(&self) -> hangar_jungle::Rules {
        hangar_jungle::Rules {
            order: self.order,
            elephant_takes_rat: self.elephant_takes_rat,
            leopard_leaps: self.leopard_leaps,
        }
    }
}

/// What a client may give for a flight room: every key optional, no other key.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct GivenFlight {
    seats: Option<u64>,
    stake: Option<i64>,
    turn_seconds: Option<u64>,
    preset: Option<Preset>,
    takeoff: Option<TakeOff>,
    three_sixes: Option<ThreeSixes>,
    stacks: Option<Stacks>,
    finish: Option<Finish>,
    play_on: Option<bool>,
    planes: Option<u8>,
    teams: Option<bool>,
    items: Option<bool>,
    weather: Option<bool>,
}

/// What a client may give for a jungle room: every key optional, no other key.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct GivenJungle {
    seats: Option<u64>,
    turn_seconds: Option<u64>,
    level: Option<u8>,
    order: Option<Order>,
    elephant_takes_rat: Option<bool>,
    leopard_leaps: Option<bool>,
}

/// Whether a stake out of today's bounds is refused: always for a new room; a stored room
/// was checked when it was made (under the bounds of that time) and loads as it was.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Origin {
    New,
    Stored,
}

impl RoomOptions {
    /// Checks the options a client gave for a new room and completes them with the defaults
    /// (P-ROOM); `default_turn_seconds` is the hall's timer. Unknown keys, values of the wrong
    /// type and values out of bounds are refused as `invalid`.
    pub fn check(
        game: GameKind,
        given: &Value,
        default_turn_seconds: u64,
    ) -> Result<RoomOptions, ProtoError> {
        RoomOptions::parse(game, given, default_turn_seconds, Origin::New)
    }

    /// Reads options back from the database (a waiting room or a game reopened after a
    /// restart, a record replayed): what [`RoomOptions::check`] stored, or an older, shorter
    /// form that the defaults complete. A stake out of today's bounds is kept.
    pub fn stored(
        game: GameKind,
        stored: &Value,
        default_turn_seconds: u64,
    ) -> Result<RoomOptions, ProtoError> {
        RoomOptions::parse(game, stored, default_turn_seconds, Origin::Stored)
    }

    fn parse(
        game: GameKind,
        given: &Value,
        default_turn_seconds: u64,
        origin: Origin,
    ) -> Result<RoomOptions, ProtoError> {
        let given = match given {
            Value::Null => &Value::Object(serde_json::Map::new()),
            Value::Object(_) => given,
            _ => return Err(invalid("options must be an object")),
        };
        let turn_seconds = |given: Option<u64>| {
            let seconds = given.unwrap_or(default_turn_seconds);
            if TURN_SECONDS.contains(&seconds) {
                Ok(seconds)
            } else {
                Err(invalid("turn_seconds is 5–120"))
            }
        };
        match game {
            GameKind::Flight => {
                let given: GivenFlight = GivenFlight::deserialize(given)
                    .map_err(|e| invalid(format!("flight options: {e}")))?;
                let turn_seconds = turn_seconds(given.turn_seconds)?;
                flight(given, turn_seconds, origin).map(RoomOptions::Flight)
            }
            GameKind::Jungle => {
                let given: GivenJungle = GivenJungle::deserialize(given)
                    .map_err(|e| invalid(format!("jungle options: {e}")))?;
                let turn_seconds = turn_seconds(given.turn_seconds)?;
                jungle(given, turn_seconds).map(RoomOptions::Jungle)
            }
        }
    }

    /// Which game the room plays.
    pub fn game(&self) -> GameKind {
        match self {
            RoomOptions::Flight(_) => GameKind::Flight,
            RoomOptions::Jungle(_) => GameKind::Jungle,
        }
    }

    /// The flight room's options; `None` for a jungle room.
    pub fn flight(&self) -> Option<&FlightRoom> {
        match self {
            RoomOptions::Flight(f) => Some(f),
            RoomOptions::Jungle(_) => None,
        }
    }

    /// The jungle room's options; `None` for a flight room.
    pub fn jungle(&self) -> Option<&JungleRoom> {
        match self {
            RoomOptions::Jungle(j) => Some(j),
            RoomOptions::Flight(_) => None,
        }
    }

    /// The stake a person's score must reach to sit at the table (P-SCORE): a flight room's
    /// S; a jungle room asks none.
    pub fn stake(&self) -> Option<i64> {
        match self {
            RoomOptions::Flight(f) => Some(f.stake),
            RoomOptions::Jungle(_) => None,
        }
    }

    /// Number of seats.
    pub fn seats(&self) -> usize {
        usize::from(match self {
            RoomOptions::Flight(f) => f.seats,
            RoomOptions::Jungle(j) => j.seats,
        })
    }

    /// The turn timer in seconds.
    pub fn turn_seconds(&self) -> u64 {
        match self {
            RoomOptions::Flight(f) => f.turn_seconds,
            RoomOptions::Jungle(j) => j.turn_seconds,
        }
    }
}

/// The JSON the room stores (the same object it shows under `options`).
impl fmt::Display for RoomOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

fn flight(given: GivenFlight, turn_seconds: u64, origin: Origin) -> Result<FlightRoom, ProtoError> {
    let seats = given.seats.unwrap_or(DEFAULT_FLIGHT_SEATS);
    if !FLIGHT_SEATS.contains(&seats) {
        return Err(invalid("flight seats is 2–4"));
    }
    let seats = u8::try_from(seats).expect("2–4 fits a byte");
    let stake = given.stake.unwrap_or(DEFAULT_STAKE);
    if origin == Origin::New && !STAKE.contains(&stake) {
        return Err(invalid("stake is 10–10000"));
    }
    let preset = given.preset.unwrap_or(Preset::Traditional);
    let base = preset.options();
    let rules = hangar_flight::Options {
        takeoff: given.takeoff.unwrap_or(base.takeoff),
        three_sixes: given.three_sixes.unwrap_or(base.three_sixes),
        stacks: given.stacks.unwrap_or(base.stacks),
        finish: given.finish.unwrap_or(base.finish),
        play_on: given.play_on.unwrap_or(base.play_on),
        planes: given.planes.unwrap_or(base.planes),
        teams: given.teams.unwrap_or(base.teams),
        items: given.items.unwrap_or(base.items),
        weather: given.weather.unwrap_or(base.weather),
    };
    if !PLANES.contains(&rules.planes) {
        return Err(invalid("planes is 2–4"));
    }
    if rules.teams && seats != 4 {
        return Err(invalid("teams need 4 seats"));
    }
    Ok(FlightRoom {
        seats,
        stake,
        turn_seconds,
        preset,
        rules,
    })
}

fn jungle(given: GivenJungle, turn_seconds: u64) -> Result<JungleRoom, ProtoError> {
    if given.seats.is_some_and(|s| s != 2) {
        return Err(invalid("jungle has 2 seats"));
    }
    let level = given.level.unwrap_or(DEFAULT_JUNGLE_LEVEL);
    if !JUNGLE_LEVELS.contains(&level) {
        return Err(invalid("level is 1–10"));
    }
    let rules = hangar_jungle::Rules::default();
    Ok(JungleRoom {
        seats: 2,
        turn_seconds,
        level,
        order: given.order.unwrap_or(rules.order),
        elephant_takes_rat: given.elephant_takes_rat.unwrap_or(rules.elephant_takes_rat),
        leopard_leaps: given.leopard_leaps.unwrap_or(rules.leopard_leaps),
    })
}

/// Checks a new room's options ([`RoomOptions::check`]): the options, the seats and the turn
/// timer.
pub fn check_options(
    game: GameKind,
    given: &Value,
    default_turn_seconds: u64,
) -> Result<(RoomOptions, usize, u64), ProtoError> {
    let options = RoomOptions::check(game, given, default_turn_seconds)?;
    Ok((options, options.seats(), options.turn_seconds()))
}

/// Reads a stored room's options ([`RoomOptions::stored`]): the options, the seats and the
/// turn timer.
pub fn stored_options(
    game: GameKind,
    stored: &Value,
    default_turn_seconds: u64,
) -> Result<(RoomOptions, usize, u64), ProtoError> {
    let options = RoomOptions::stored(game, stored, default_turn_seconds)?;
    Ok((options, options.seats(), options.turn_seconds()))
}

/// The Jungle levels a seat is offered, weakest first. `normal` is left out: it is `alphabeta`
/// under another name (protocol.md §7), and one bot is offered once.
const JUNGLE_OFFERED: [JungleLevel; 5] = [
    JungleLevel::Random,
    JungleLevel::Greedy,
    JungleLevel::Easy,
    JungleLevel::AlphaBeta,
    JungleLevel::Hard,
];

/// What a room may be made with (`GET /api/options`): the bounds and defaults above, the
/// presets' rule options and the bot levels; `turn_seconds` is the hall's default timer.
pub fn catalogue(turn_seconds: u64) -> OptionsCatalogue {
    let bounds = |range: (i64, i64), default: i64| Bounds {
        min: range.0,
        max: range.1,
        default,
    };
    let wide = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
    let presets = [Preset::Traditional, Preset::Improved]
        .into_iter()
        .map(|p| {
            let rules = serde_json::to_value(p.options()).expect("rule options serialise");
            (p.to_string(), rules)
        })
        .collect();
    OptionsCatalogue {
        turn_seconds: bounds(
            (wide(*TURN_SECONDS.start()), wide(*TURN_SECONDS.end())),
            wide(turn_seconds),
        ),
        flight: FlightCatalogue {
            seats: bounds(
                (wide(*FLIGHT_SEATS.start()), wide(*FLIGHT_SEATS.end())),
                wide(DEFAULT_FLIGHT_SEATS),
            ),
            planes: bounds(
                (i64::from(*PLANES.start()), i64::from(*PLANES.end())),
                i64::from(Preset::Traditional.options().planes),
            ),
            stake: bounds((*STAKE.start(), *STAKE.end()), DEFAULT_STAKE),
            default_preset: Preset::Traditional.to_string(),
            presets,
            bots: FlightLevel::ALL.into_iter().map(of_flight).collect(),
            default_bot: of_flight(FlightLevel::Heuristic),
        },
        jungle: JungleCatalogue {
            level: bounds(
                (
                    i64::from(*JUNGLE_LEVELS.start()),
                    i64::from(*JUNGLE_LEVELS.end()),
                ),
                i64::from(DEFAULT_JUNGLE_LEVEL),
            ),
            bots: JUNGLE_OFFERED.into_iter().map(of_jungle).collect(),
            // The normal searcher beats a newcomer every time: a new table starts easier.
            default_bot: of_jungle(JungleLevel::Easy),
        },
    }
}

#[cfg(test)]
mod tests {
    use hangar_protocol::BotLevel;
    use serde_json::json;

    use super::*;

    fn check(game: GameKind, given: Value) -> Result<Value, ProtoError> {
        RoomOptions::check(game, &given, 20).map(|o| serde_json::to_value(o).expect("serialises"))
    }

    /// P-ROOM: the catalogue a page builds its forms from says exactly what rooms accept: each
    /// bound is accepted and one past it refused, a room given nothing has the defaults, and a
    /// preset's listed rules are the rules a room of that preset plays by.
    #[test]
    fn p_room_the_options_catalogue_is_what_rooms_accept() {
        let c = catalogue(20);
        let edges = |b: Bounds| {
            [
                (b.min, true),
                (b.max, true),
                (b.min - 1, false),
                (b.max + 1, false),
            ]
        };
        for (game, key, bounds) in [
            (GameKind::Flight, "stake", c.flight.stake),
            (GameKind::Flight, "seats", c.flight.seats),
            (GameKind::Flight, "planes", c.flight.planes),
            (GameKind::Flight, "turn_seconds", c.turn_seconds),
            (GameKind::Jungle, "level", c.jungle.level),
            (GameKind::Jungle, "turn_seconds", c.turn_seconds),
        ] {
            for (value, accepted) in edges(bounds) {
                let given = json!({ key: value });
                assert_eq!(
                    check(game, given).is_ok(),
                    accepted,
                    "{game:?} {key} {value}"
                );
            }
            let room = check(game, json!({})).expect("no options is a room");
            assert_eq!(room[key], json!(bounds.default), "{game:?} {key}'s default");
        }
        assert_eq!(c.flight.default_preset, "traditional");
        for (name, rules) in &c.flight.presets {
            let room = check(GameKind::Flight, json!({ "preset": name })).expect("a preset");
            for (key, value) in rules.as_object().expect("rule options by name") {
                assert_eq!(&room[key], value, "{name}: {key}");
            }
        }
        let names = |levels: &[BotLevel]| levels.iter().map(|l| l.name()).collect::<Vec<_>>();
        assert_eq!(names(&c.flight.bots), ["random", "heuristic", "hard"]);
        assert_eq!(
            names(&c.jungle.bots),
            ["random", "greedy", "easy", "alphabeta", "hard"]
        );
        // The page reads the levels by their wire names.
        let shown = serde_json::to_value(&c).expect("the catalogue serialises");
        assert_eq!(
            shown["flight"]["bots"],
            json!(["random", "heuristic", "hard"])
        );
        assert_eq!(shown["jungle"]["default_bot"], json!("easy"));
        assert!(c.flight.bots.contains(&c.flight.default_bot));
        assert!(c.jungle.bots.contains(&c.jungle.default_bot));
    }

    #[test]
    fn p_room_flight_options_are_completed_from_the_preset() {
        let full = check(GameKind::Flight, json!({"preset": "improved", "planes": 3}))
            .expect("valid options");
        assert_eq!(
            full,
            json!({
                "seats": 4, "stake": 100, "turn_seconds": 20, "preset": "improved",
                "takeoff": "five-or-six", "three_sixes": "all-to-hangar", "stacks": "pass",
                "finish": "overshoot", "play_on": false, "planes": 3, "teams": false,
                "items": false, "weather": false,
            })
        );
        // What is stored reads back as the same options.
        let again = RoomOptions::stored(GameKind::Flight, &full, 30).expect("stored options");
        assert_eq!(serde_json::to_value(again).expect("serialises"), full);
    }

    #[test]
    fn p_room_stake_is_10_to_10000() {
        for stake in [10, 100, 10_000] {
            assert!(check(GameKind::Flight, json!({ "stake": stake })).is_ok());
        }
        for stake in [9, 10_001, -5] {
            let refused =
                check(GameKind::Flight, json!({ "stake": stake })).expect_err("out of bounds");
            assert_eq!(refused.code, ErrorCode::Invalid);
        }
        // A room stored under older, wider bounds still loads as it was.
        let stored = RoomOptions::stored(GameKind::Flight, &json!({"stake": 50_000}), 20)
            .expect("a stored room loads");
        assert!(matches!(stored, RoomOptions::Flight(f) if f.stake == 50_000));
        assert_eq!(stored.stake(), Some(50_000));
    }

    #[test]
    fn p_room_unknown_options_are_refused_in_both_games() {
        let refused = check(GameKind::Jungle, json!({"colour": "red"})).expect_err("unknown");
        assert_eq!(refused.code, ErrorCode::Invalid);
        assert!(refused.message.contains("colour"), "{}", refused.message);
        let refused = check(GameKind::Flight, json!({"level": 3})).expect_err("a jungle key");
        assert!(refused.message.contains("level"), "{}", refused.message);
        let refused =
            check(GameKind::Jungle, json!({"order": "cat-over-rat"})).expect_err("bad value");
        assert_eq!(refused.code, ErrorCode::Invalid);
    }

    #[test]
    fn p_room_jungle_options_give_the_engine_its_rules() {
        let options = RoomOptions::check(
            GameKind::Jungle,
            &json!({"level": 3, "order": "wolf-over-dog", "leopard_leaps": true}),
            20,
        )
        .expect("valid options");
        let RoomOptions::Jungle(room) = options else {
            panic!("a jungle room")
        };
        assert_eq!(room.level, 3);
        assert_eq!(room.rules().order, Order::WolfOverDog);
        assert!(room.rules().leopard_leaps && !room.rules().elephant_takes_rat);
        assert_eq!(options.seats(), 2);
        // P-SCORE: a jungle table asks no stake of who sits.
        assert_eq!(options.stake(), None);
        assert!(check(GameKind::Jungle, json!({"level": 11})).is_err());
        assert!(check(GameKind::Jungle, json!({"seats": 3})).is_err());
    }
}
