//! Open challenges (P-CHALLENGE): who challenged whom to what, who has accepted, and when each
//! lapses (what the parties are told is `challenge_news.rs`). Kept in memory: a challenge lives a minute, and one
//! lost in a restart is one to send again. In a cluster every node keeps a copy of every open
//! challenge (each change travels as a [`ChallengeEvent`]) and tells the parties connected to
//! it; each node lapses its copy itself.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::time::Instant;

use crate::accounts::Player;
use crate::sessions::Sessions;
use hangar_protocol::{
    BotLevel, Challenge, ChallengeEnd, ChallengeMessage, ChallengeSeat, ErrorCode, GameKind,
    ProtoError,
};

/// Most open challenges one player may have sent at a time (a flood is refused).
pub const MAX_OPEN_CHALLENGES: usize = 3;

/// Most open challenges that may wait for one player (P-CHALLENGE): a fourth is refused, so
/// that many challengers together cannot bury a player in challenges.
pub const MAX_WAITING_CHALLENGES: usize = 3;

/// One open challenge.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OpenChallenge {
    /// Its id.
    pub id: String,
    /// The challenger (seat 0).
    pub from: Player,
    /// The challenged players with their seats: the named one at seat 1, then those of the
    /// challenge's `seats` at theirs.
    pub to: Vec<(usize, Player)>,
    /// The game.
    pub game: GameKind,
    /// The options as the room will be given them (seat count included).
    pub options: Value,
    /// The options checked and completed, as the challenge shows them.
    pub shown_options: Value,
    /// The seats after seat 1, as given.
    pub seats: Vec<ChallengeSeat>,
    /// The hall bots to seat: seat and level.
    pub bots: Vec<(usize, BotLevel)>,
    /// Who has accepted.
    pub accepted: HashSet<i64>,
    /// When it lapses (travels as the time left, [`ChallengeEvent::Opened`]).
    #[serde(skip, default = "Instant::now")]
    pub deadline: Instant,
}

/// A change of an open challenge, as one node tells the others (cluster mode).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum ChallengeEvent {
    /// A challenge was made, with this long left to answer it.
    Opened {
        /// The challenge.
        challenge: Box<OpenChallenge>,
        /// Milliseconds until it lapses.
        left_ms: u64,
    },
    /// A challenged player accepted.
    Accepted {
        /// The challenge's id.
        id: String,
        /// Who accepted.
        player: i64,
    },
    /// Everyone accepted: its room is open.
    Roomed {
        /// The challenge's id.
        id: String,
        /// The room's code.
        room: String,
    },
    /// It ended without a room.
    Ended {
        /// The challenge's id.
        id: String,
        /// Why.
        reason: ChallengeEnd,
        /// Who declined or cancelled.
        by: Option<Player>,
    },
}

impl OpenChallenge {
    /// The wire form, with the time left now and which of the challenged have a connection
    /// in `sessions` (this node's: a party on another node of a cluster shows as not
    /// connected).
    pub fn view(&self, sessions: &Sessions) -> Challenge {
        let left = self.deadline.saturating_duration_since(Instant::now());
        let mut accepted: Vec<i64> = self.accepted.iter().copied().collect();
        accepted.sort_unstable();
        Challenge {
            id: self.id.clone(),
            from: self.from.view(),
            to: self.to.iter().map(|(_, p)| p.view()).collect(),
            game: self.game,
            options: self.shown_options.clone(),
            seats: self.seats.clone(),
            expires_in_ms: u64::try_from(left.as_millis()).unwrap_or(u64::MAX),
            online: self
                .to
                .iter()
                .map(|(_, p)| p.id)
                .filter(|&id| sessions.is_connected(id))
                .collect(),
            accepted,
        }
    }

    /// Every party's id: the challenger and the challenged.
    pub fn parties(&self) -> Vec<i64> {
        std::iter::once(self.from.id)
            .chain(self.to.iter().map(|(_, p)| p.id))
            .collect()
    }

    /// Whether `player` is one of the challenged.
    pub fn challenges(&self, player: i64) -> bool {
        self.to.iter().any(|(_, p)| p.id == player)
    }

    /// Whether every challenged player has accepted.
    pub fn all_accepted(&self) -> bool {
        self.to.iter().all(|(_, p)| self.accepted.contains(&p.id))
    }
}

/// The open challenges of this node.
#[derive(Debug, Default)]
pub struct Challenges {
    open: Mutex<HashMap<String, OpenChallenge>>,
}

impl Challenges {
    /// Keeps a challenge another node opened (it checked the limit).
    pub fn insert_copy(&self, challenge: OpenChallenge) {
        self.lock().insert(challenge.id.clone(), challenge);
    }

    /// Opens a challenge, unless its challenger has [`MAX_OPEN_CHALLENGES`] open already or
    /// one of the challenged has [`MAX_WAITING_CHALLENGES`] waiting.
    pub fn insert(&self, challenge: OpenChallenge) -> Result<(), ProtoError> {
        let mut open = self.lock();
        let sent = open
            .values()
            .filter(|c| c.from.id == challenge.from.id)
            .count();
        if sent >= MAX_OPEN_CHALLENGES {
            return Err(ProtoError::new(
                ErrorCode::RateLimited,
                format!(
                    "at most {MAX_OPEN_CHALLENGES} open challenges at a time: wait for an answer or cancel one"
                ),
            ));
        }
        for (_, player) in &challenge.to {
            let waiting = open.values().filter(|c| c.challenges(player.id)).count();
            if waiting >= MAX_WAITING_CHALLENGES {
                return Err(ProtoError::new(
                    ErrorCode::ChallengeRefused,
                    format!(
                        "{} has {MAX_WAITING_CHALLENGES} challenges waiting already: try again later",
                        player.name
                    ),
                ));
            }
        }
        open.insert(challenge.id.clone(), challenge);
        Ok(())
    }

    /// A copy of the open challenge `id`.
    pub fn get(&self, id: &str) -> Option<OpenChallenge> {
        self.lock().get(id).cloned()
    }

    /// Runs `change` on the open challenge `id` and keeps it, or takes it out when `change`
    /// says so (`Ok(true)`); `None` when no such challenge is open.
    pub fn update<T>(
        &self,
        id: &str,
        change: impl FnOnce(&mut OpenChallenge) -> Result<(bool, T), ProtoError>,
    ) -> Option<Result<(OpenChallenge, T), ProtoError>> {
        let mut open = self.lock();
        let challenge = open.get_mut(id)?;
        let (remove, value) = match change(challenge) {
            Ok(changed) => changed,
            Err(e) => return Some(Err(e)),
        };
        let copy = if remove {
            open.remove(id).expect("the challenge is open")
        } else {
            challenge.clone()
        };
        Some(Ok((copy, value)))
    }

    /// Takes out challenge `id` if it is still open (for its lapse).
    pub fn remove(&self, id: &str) -> Option<OpenChallenge> {
        self.lock().remove(id)
    }

    /// What `player` is told of the open challenges on sign-in: those they were sent, then
    /// those they sent.
    pub fn for_player(&self, sessions: &Sessions, player: i64) -> Vec<ChallengeMessage> {
        let open = self.lock();
        let received =
            open.values()
                .filter(|c| c.challenges(player))
                .map(|c| ChallengeMessage::Challenge {
                    challenge: c.view(sessions),
                });
        let sent = open.values().filter(|c| c.from.id == player).map(|c| {
            ChallengeMessage::ChallengeSent {
                challenge: c.view(sessions),
            }
        });
        received.chain(sent).collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, OpenChallenge>> {
        self.open.lock().expect("challenges lock")
    }
}

/// A fresh challenge id: 16 hex digits.
pub fn new_id() -> String {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the operating system must provide randomness");
    hex::encode(bytes)
}

/// Every party's seat in the room of `challenge`: the challenger's 0, then the challenged.
pub fn party_seats(challenge: &OpenChallenge) -> Vec<(usize, Player)> {
    std::iter::once((0, challenge.from.clone()))
        .chain(challenge.to.iter().cloned())
        .collect()
}
