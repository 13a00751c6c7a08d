//! Open challenges (P-CHALLENGE): who challenged whom to what, who has accepted, and when each
//! lapses. Kept in memory on the node where the challenge was made: a challenge lives a minute,
//! and one lost in a restart is one to send again.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use serde_json::Value;
use tokio::time::Instant;

use crate::accounts::Player;
use hangar_protocol::{Challenge, ChallengeSeat, ErrorCode, GameKind, ProtoError};

/// Most open challenges one player may have sent at a time (a flood is refused).
pub const MAX_OPEN_CHALLENGES: usize = 3;

/// One open challenge.
#[derive(Clone, Debug)]
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
    pub bots: Vec<(usize, String)>,
    /// Who has accepted.
    pub accepted: HashSet<i64>,
    /// When it lapses.
    pub deadline: Instant,
}

impl OpenChallenge {
    /// The wire form, with the time left now.
    pub fn view(&self) -> Challenge {
        let left = self.deadline.saturating_duration_since(Instant::now());
        Challenge {
            id: self.id.clone(),
            from: self.from.view(),
            to: self.to.iter().map(|(_, p)| p.view()).collect(),
            game: self.game,
            options: self.shown_options.clone(),
            seats: self.seats.clone(),
            expires_in_ms: u64::try_from(left.as_millis()).unwrap_or(u64::MAX),
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
    /// Opens a challenge, unless its challenger has [`MAX_OPEN_CHALLENGES`] open already.
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

    /// The open challenges that `player` is challenged by.
    pub fn for_player(&self, player: i64) -> Vec<Challenge> {
        self.lock()
            .values()
            .filter(|c| c.challenges(player))
            .map(OpenChallenge::view)
            .collect()
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
