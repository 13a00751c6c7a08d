//! What the hall tells about players: leaderboard lines, finished games as a player's list
//! shows them, and the per-game figures of a profile (P-RATING, P-PROFILE, P-RECORD).

use serde::{Deserialize, Serialize};

use super::GameKind;
use crate::RatingView;
use crate::{EndReason, PlayerView};

/// A registered player connected to the hall, as `players_online` lists them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OnlinePlayer {
    /// The player.
    pub player: PlayerView,
    /// Seated in a room of this node now (a challenge waits until their game ends).
    pub seated: bool,
}

/// The result of `players_online`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayersOnline {
    /// The players, by name.
    pub online: Vec<OnlinePlayer>,
    /// How many registered players are connected (the asker left out), listed or not.
    pub total_online: usize,
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ranked {
    /// The place on the board, 1 best (counting from the page's offset).
    pub rank: usize,
    /// The player, with score and level.
    pub player: PlayerView,
    /// The player's rating of the board's game; absent on the board of both games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<RatingView>,
}

/// What a leaderboard is ordered by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardOrder {
    /// The score (P-SCORE), highest first.
    #[default]
    Score,
    /// The rating of the game (P-RATING), highest first; needs a game.
    Rating,
}

/// One seat of a finished game in a list of games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GamePlayer {
    /// The seat.
    pub seat: usize,
    /// The player's name; null for a bot.
    pub name: Option<String>,
    /// The player's id; null for a bot.
    pub player_id: Option<i64>,
    /// The bot's level; null for a person.
    pub bot: Option<String>,
    /// The player is a bot account (P-BOT-ACCOUNT): present (true) only then.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot_account: bool,
    /// The player is a guest (P-ACCOUNT): present (true) only then.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub guest: bool,
    /// Final rank, 1 best.
    pub rank: u32,
    /// Score change.
    pub delta: i64,
}

/// A finished game in a player's list ("My games", a profile's recent games).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSummary {
    /// Database id of the game (its replay: `#/replay/{id}`, its record: `/api/games/{id}`);
    /// 0 for a private game on another player's list.
    pub game_id: i64,
    /// A private room's game seen by someone who did not play it: only its game, result and
    /// score change are shown — no id, room, time or players (issue 34).
    #[serde(default)]
    pub private: bool,
    /// `flight` or `jungle`.
    pub game: GameKind,
    /// The room code; null on another player's profile when the room was private.
    pub room: Option<String>,
    /// Unix ms.
    pub finished_at: i64,
    /// Why it ended (as in the result; null when its result is not stored).
    pub reason: Option<EndReason>,
    /// A practice game (P-PRACTICE): nobody's score or rating changed.
    pub practice: bool,
    /// This player's seat.
    pub seat: usize,
    /// This player's rank.
    pub rank: i64,
    /// Ranked first while someone else ranked lower (a draw is no win).
    pub won: bool,
    /// This player's score change.
    pub delta: i64,
    /// This player's rating of the game after it; null for a practice game.
    pub rating: Option<f64>,
    /// Everyone who sat, in seat order.
    pub players: Vec<GamePlayer>,
}

/// A point of a player's rating history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingPoint {
    /// The game after which the rating was this.
    pub game_id: i64,
    /// Unix ms.
    pub at: i64,
    /// The rating.
    pub rating: f64,
}

/// A player's figures for one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameStats {
    /// The game.
    pub game: GameKind,
    /// Finished games played, practice included.
    pub played: i64,
    /// Of them won.
    pub wins: i64,
    /// The rating; null before the first rated game.
    pub rating: Option<RatingView>,
    /// The rating after each rated game, oldest first (the last 100).
    pub history: Vec<RatingPoint>,
    /// How many different people the player's scored games of this game were against.
    #[serde(default)]
    pub opponents: i64,
    /// Whether the player is on this game's leaderboards: once their scored games were
    /// against at least 5 different people (P-RATING).
    #[serde(default)]
    pub listed: bool,
    /// The games against the hall's bots, per bot level (a game with bots of two levels
    /// counts for each), most played first: practice games, unrated, but a record all the same.
    #[serde(default)]
    pub bots: Vec<BotRecord>,
}

/// A player's games against the hall's bots of one level, in one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotRecord {
    /// The bot level (`docs/protocol.md` §7).
    pub bot: String,
    /// Finished games against it.
    pub played: i64,
    /// Of them won.
    pub won: i64,
}
