//! What a room may be made with (`GET /api/options`): the bounds and defaults of the room
//! options, the flight presets and the bot levels a seat can take, so that clients show the
//! hall's own choices instead of copies of them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::BotLevel;

/// A whole-number option: its least and greatest value and its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bounds {
    /// The least value accepted.
    pub min: i64,
    /// The greatest value accepted.
    pub max: i64,
    /// The value of a room that gives none.
    pub default: i64,
}

/// The room options of both games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OptionsCatalogue {
    /// The turn timer in seconds (P-ROOM); the default is the hall's own.
    pub turn_seconds: Bounds,
    /// Aeroplane Chess rooms.
    pub flight: FlightCatalogue,
    /// Jungle rooms.
    pub jungle: JungleCatalogue,
}

/// The options of a flight room.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlightCatalogue {
    /// Seats (players).
    pub seats: Bounds,
    /// Planes per player (F-PLANES).
    pub planes: Bounds,
    /// The stake of the score formula (P-SCORE).
    pub stake: Bounds,
    /// The preset a room starts from when it names none.
    pub default_preset: String,
    /// Each preset's rule options (flight.md §9), as `create_room` takes them.
    pub presets: BTreeMap<String, Value>,
    /// The bot levels a seat can take, weakest first (P-SEATS).
    pub bots: Vec<BotLevel>,
    /// The level a page offers first.
    pub default_bot: BotLevel,
}

/// The options of a Jungle room.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JungleCatalogue {
    /// The room level, which weighs the score (P-SCORE).
    pub level: Bounds,
    /// The bot levels a seat can take, weakest first (P-SEATS).
    pub bots: Vec<BotLevel>,
    /// The level a page offers first.
    pub default_bot: BotLevel,
}
