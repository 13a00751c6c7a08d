//! A room waiting for its game as the store keeps it (see `waiting.rs`).

/// A waiting room as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaitingRoom {
    /// The room code.
    pub code: String,
    /// `flight` or `jungle`.
    pub game: String,
    /// Whether the room is unlisted.
    pub private: bool,
    /// The checked room options, JSON.
    pub options: String,
    /// The host's player id.
    pub host: Option<i64>,
    /// The seats, JSON: `[{"player_id": 17, "bot": null, "ready": false}, …]`.
    pub seats: String,
}
