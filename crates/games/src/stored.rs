//! A game as the store keeps it: its start and its action log, the input of records and of
//! rebuilding a room (P-RECORD, P-DURABLE).

use hangar_dice::DiceScheme;

/// A game as stored when it starts: enough to rebuild and replay it (P-RECORD, P-DURABLE).
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The room code.
    pub room: String,
    /// `flight` or `jungle`.
    pub game: String,
    /// Whether the room is unlisted.
    pub private: bool,
    /// The room options, JSON.
    pub options: String,
    /// The seat list, JSON.
    pub seats: String,
    /// The dice seed, hex (secret until the end).
    pub seed: String,
    /// SHA-256 of the seed, hex.
    pub commitment: String,
    /// The construction the game's dice follow (P-FAIR-DICE): games stored before per-roll
    /// dice are [`DiceScheme::SeedStream`].
    pub dice: DiceScheme,
}

/// A stored game with its action log.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// Database id.
    pub id: i64,
    /// The settings it started with.
    pub start: NewGame,
    /// `running` or `finished`.
    pub status: String,
    /// The result JSON once finished.
    pub result: Option<String>,
    /// Unix ms.
    pub started_at: i64,
    /// Unix ms, once finished.
    pub finished_at: Option<i64>,
    /// The action log, a stored line each (`LoggedAct::from_line` reads it), in order.
    pub actions: Vec<String>,
}
