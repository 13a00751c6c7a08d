//! The hall list (§4, P-HALL): what a connection that follows one game's rooms is sent.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{BotLevel, GameKind, RoomStatus};

/// A message of the hall list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HallMessage {
    /// The whole list, sent on `hall_subscribe`: waiting rooms first, then by code.
    Hall {
        /// The game listed.
        game: GameKind,
        /// The first page of its public rooms (at most 100); `hall_page` asks for more.
        rooms: Vec<RoomSummary>,
        /// How many rooms of the game are listed in all.
        total: usize,
    },
    /// A listed room appeared or changed (seats, ready marks, status).
    HallRoom {
        /// The room's game.
        game: GameKind,
        /// The room as listed now.
        room: RoomSummary,
    },
    /// A room left the list (closed).
    HallRoomRemoved {
        /// The room's game.
        game: GameKind,
        /// The room's code.
        code: String,
    },
}

/// A public room as the hall lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoomSummary {
    /// The room's code.
    pub code: String,
    /// The room's game.
    pub game: GameKind,
    /// Waiting (seats to take) or playing (to watch).
    pub status: RoomStatus,
    /// A bot sits in it: its game is practice, scored for no one (P-PRACTICE).
    pub practice: bool,
    /// The hall made it for quick match, with the default stake and options (P-QUICK): only
    /// such rooms take players by quick match; any other is joined only on purpose.
    #[serde(default)]
    pub quick: bool,
    /// Every option of the room.
    pub options: Value,
    /// One entry per seat.
    pub seats: Vec<SummarySeat>,
    /// How many watch it.
    pub spectators: usize,
}

/// A seat in the hall list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SummarySeat {
    /// The seat's index.
    pub seat: usize,
    /// Who sits there (`bot:level` for a bot); null when empty.
    pub name: Option<String>,
    /// The bot's level; null for a person or an empty seat.
    pub bot: Option<BotLevel>,
    /// A guest sits there, shown marked as one (P-ACCOUNT): present (true) only then.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub guest: bool,
    /// Marked ready.
    pub ready: bool,
}
