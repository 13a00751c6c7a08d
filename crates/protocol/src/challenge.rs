//! Challenges (P-CHALLENGE): one player invites named players (people or bot accounts,
//! P-BOT-ACCOUNT) to a game; what the hall tells the parties while it is open and when it
//! ends (`docs/protocol.md` §4a).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{BotLevel, GameKind, PlayerView, UnknownBotLevel};

/// A seat of a challenge beyond the challenger's and the challenged player's (flight only).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged, deny_unknown_fields)]
pub enum ChallengeSeat {
    /// One more challenged player: the seat is held for them once everyone accepts.
    Player {
        /// The player's id.
        player: i64,
    },
    /// A hall bot of this level (`docs/protocol.md` §7 lists the levels).
    Bot {
        /// The bot's level. Any name is read: one that is no level of the challenge's game
        /// is refused as `invalid` with the game's levels.
        #[serde(with = "crate::bot_level::lenient")]
        bot: Result<BotLevel, UnknownBotLevel>,
    },
}

/// An open challenge as the parties see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Challenge {
    /// The challenge's id (a string the hall chose).
    pub id: String,
    /// Who challenges (seat 0 of the room to come).
    pub from: PlayerView,
    /// Who is challenged, in seat order (seat 1 on): everyone must accept.
    pub to: Vec<PlayerView>,
    /// The game.
    pub game: GameKind,
    /// The room options, as `create_room` takes them (checked, completed with defaults).
    pub options: Value,
    /// The seats after the challenged player's, as the challenge gave them.
    pub seats: Vec<ChallengeSeat>,
    /// How long the challenge stays open from when this message was made, in milliseconds.
    pub expires_in_ms: u64,
    /// Which of the challenged players were connected to the hall when this message was made.
    #[serde(default)]
    pub online: Vec<i64>,
    /// Which of the challenged players have accepted.
    #[serde(default)]
    pub accepted: Vec<i64>,
}

/// Who may challenge a player (P-CHALLENGE).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengePolicy {
    /// Every signed-in player (the default).
    #[default]
    Everyone,
    /// Registered players only: not guests.
    Registered,
    /// Nobody.
    Nobody,
}

impl ChallengePolicy {
    /// The name on the wire and in the database.
    pub fn name(self) -> &'static str {
        match self {
            ChallengePolicy::Everyone => "everyone",
            ChallengePolicy::Registered => "registered",
            ChallengePolicy::Nobody => "nobody",
        }
    }

    /// The policy of a name; the default for one not known.
    pub fn of_name(name: &str) -> ChallengePolicy {
        match name {
            "registered" => ChallengePolicy::Registered,
            "nobody" => ChallengePolicy::Nobody,
            _ => ChallengePolicy::Everyone,
        }
    }
}

/// The result of `challenge_settings`, `set_challenge_policy`, `block` and `unblock`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengeSettings {
    /// Who may challenge the player.
    pub challenges: ChallengePolicy,
    /// The players they blocked, most recent first.
    pub blocked: Vec<PlayerView>,
}

/// Why a challenge ended without a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeEnd {
    /// A challenged player declined.
    Declined,
    /// The challenger took it back.
    Cancelled,
    /// Nobody answered in time (60 s).
    Lapsed,
}

/// What the hall sends the parties of a challenge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ChallengeMessage {
    /// A challenge for the receiver: to every connection of every challenged player, at once
    /// and again on sign-in while it is open.
    Challenge {
        /// The challenge.
        challenge: Challenge,
    },
    /// A challenge the receiver sent: to every connection of the challenger when it is made,
    /// and again on sign-in while it is open (so that every page shows it pending).
    ChallengeSent {
        /// The challenge.
        challenge: Challenge,
    },
    /// One of the challenged accepted; the others have not yet (to every party).
    ChallengeAccepted {
        /// The challenge's id.
        challenge: String,
        /// Who accepted.
        player: PlayerView,
    },
    /// Everyone accepted: the room is open, the receiver's seat held in it (send `join_room`
    /// with that seat; the game starts once every party has joined, nobody readies).
    ChallengeRoom {
        /// The challenge's id.
        challenge: String,
        /// The private room's code.
        room: String,
        /// The receiver's seat.
        seat: usize,
    },
    /// The challenge ended without a room.
    ChallengeEnded {
        /// The challenge's id.
        challenge: String,
        /// Why.
        reason: ChallengeEnd,
        /// Who declined or cancelled; null when it lapsed.
        by: Option<PlayerView>,
    },
}

impl ChallengeMessage {
    /// The frame's text.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("a challenge message serialises")
    }
}
