//! Challenges (P-CHALLENGE): one player invites named players (people or bot accounts,
//! P-BOT-ACCOUNT) to a game; what the hall tells the parties while it is open and when it
//! ends (`docs/protocol.md` §4a).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{GameKind, PlayerView};

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
        /// The bot's level.
        bot: String,
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
    /// Everyone accepted: the room is open, the receiver's seat held in it (send `join_room`
    /// with that seat, then `ready`).
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
