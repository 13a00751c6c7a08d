//! Players and their ratings as the wire shows them.

use serde::{Deserialize, Serialize};

/// The wire form of a player, with its level.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct PlayerView {
    /// Database id.
    pub id: i64,
    /// Display name.
    pub name: String,
    /// Whether this is a guest.
    pub guest: bool,
    /// Current score (积分), 1000 at the start (P-SCORE).
    pub score: i64,
    /// Level derived from the score.
    pub level: i64,
    /// A bot account (P-BOT-ACCOUNT): a program that plays as this player.
    #[serde(default)]
    pub bot: bool,
}

/// A rating as players see it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingView {
    /// The rating: Glicko-2 (1500 at the start) for jungle, Weng-Lin μ (25 at the start) for
    /// flight.
    pub rating: f64,
    /// Its uncertainty (Glicko-2 deviation, Weng-Lin σ).
    pub deviation: f64,
    /// Rated games played.
    pub games: i64,
    /// Shown as provisional: too few games yet.
    pub provisional: bool,
}

/// A rating before and after a game, in a game's result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingChange {
    /// The rating before the game.
    pub before: f64,
    /// The rating after it.
    pub after: RatingView,
}
