//! The open connections of each signed-in player on this hall, so that `sign_out_everywhere`
//! ends the player's other live sockets as well as their tokens: a stolen token's socket,
//! already signed in, stops working at once instead of at its next sign-in.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

use crate::outbox::{ConnId, Outbox};

/// How long a sign-out everywhere is remembered for the sign-ins by token under way at that
/// moment (a token check takes milliseconds).
const SIGN_OUTS_KEPT: Duration = Duration::from_secs(60);

/// The close code of a connection whose player signed out everywhere (policy violation: the
/// session it speaks for no longer exists).
pub const SIGNED_OUT_CODE: u16 = 1008;

/// The close reason sent with [`SIGNED_OUT_CODE`].
pub const SIGNED_OUT_REASON: &str = "signed out everywhere: sign in again";

/// Connections by signed-in player (guests included), and the players who signed out
/// everywhere lately.
#[derive(Debug, Default)]
pub struct Sessions {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    by_player: HashMap<i64, HashMap<ConnId, Outbox>>,
    /// When each player last signed out everywhere (for [`SIGN_OUTS_KEPT`]).
    signed_out: HashMap<i64, Instant>,
}

impl Sessions {
    /// `outbox`'s connection now speaks for `player`, unless it signs in with a token checked
    /// at `token_checked` and the player signed out everywhere since: the token was revoked
    /// after it was found good, and the connection was not there to be closed (false).
    pub fn signed_in(&self, player: i64, outbox: &Outbox, token_checked: Option<Instant>) -> bool {
        let mut inner = self.lock();
        if let Some(checked) = token_checked
            && inner
                .signed_out
                .get(&player)
                .is_some_and(|out| *out >= checked)
        {
            return false;
        }
        inner
            .by_player
            .entry(player)
            .or_default()
            .insert(outbox.id, outbox.clone());
        true
    }

    /// Connection `conn` no longer speaks for `player` (it closed or signed in as another).
    pub fn signed_out(&self, player: i64, conn: ConnId) {
        let by_player = &mut self.lock().by_player;
        if let Some(conns) = by_player.get_mut(&player) {
            conns.remove(&conn);
            if conns.is_empty() {
                by_player.remove(&player);
            }
        }
    }

    /// The players with a connection to this node (guests included), by id.
    pub fn players(&self) -> Vec<i64> {
        let mut ids: Vec<i64> = self.lock().by_player.keys().copied().collect();
        ids.sort_unstable();
        ids
    }

    /// Whether `player` has a connection to this node.
    pub fn is_connected(&self, player: i64) -> bool {
        self.lock().by_player.contains_key(&player)
    }

    /// Sends `frame` to every connection of `player` on this node; returns how many.
    pub fn send(&self, player: i64, frame: &str) -> usize {
        let outboxes: Vec<Outbox> = self
            .lock()
            .by_player
            .get(&player)
            .map(|conns| conns.values().cloned().collect())
            .unwrap_or_default();
        for outbox in &outboxes {
            outbox.send_text(frame.to_owned());
        }
        outboxes.len()
    }

    /// Closes every connection of `player` but `keep` (the one that asked), and refuses the
    /// sign-ins by token under way (see [`Sessions::signed_in`]); returns how many it closed.
    pub fn close_others(&self, player: i64, keep: ConnId) -> usize {
        self.close(player, Some(keep), SIGNED_OUT_CODE, SIGNED_OUT_REASON)
    }

    /// Closes every connection of `player` but `keep` with [`SIGNED_OUT_CODE`] and `reason`
    /// (the account changed: each signs in again and sees it as it is now); returns how many.
    pub fn close_others_because(&self, player: i64, keep: ConnId, reason: &'static str) -> usize {
        self.close(player, Some(keep), SIGNED_OUT_CODE, reason)
    }

    /// Closes every connection of `player` on this node with `code` and `reason` (an
    /// administrator's ban, a sign-out everywhere on another node), and refuses the sign-ins by
    /// token under way; returns how many it closed.
    pub fn close_all(&self, player: i64, code: u16, reason: &'static str) -> usize {
        self.close(player, None, code, reason)
    }

    fn close(&self, player: i64, keep: Option<ConnId>, code: u16, reason: &'static str) -> usize {
        let mut inner = self.lock();
        let now = Instant::now();
        inner
            .signed_out
            .retain(|_, at| now.duration_since(*at) < SIGN_OUTS_KEPT);
        inner.signed_out.insert(player, now);
        let others: Vec<Outbox> = inner
            .by_player
            .get(&player)
            .map(|conns| {
                conns
                    .values()
                    .filter(|outbox| Some(outbox.id) != keep)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        drop(inner);
        for outbox in &others {
            // Queued after what it was already sent: its writer closes the socket next.
            outbox.close(code, reason);
        }
        others.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().expect("sessions lock")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_players_other_connections_are_closed_and_closed_ones_are_forgotten() {
        let sessions = Sessions::default();
        let (phone, _phone_rx) = Outbox::new();
        let (laptop, mut laptop_rx) = Outbox::new();
        let (other, mut other_rx) = Outbox::new();
        assert!(sessions.signed_in(1, &phone, None));
        assert!(sessions.signed_in(1, &laptop, None));
        assert!(sessions.signed_in(2, &other, None));
        assert_eq!(sessions.close_others(1, phone.id), 1);
        assert!(matches!(
            laptop_rx.try_recv(),
            Ok(crate::outbox::Out::Close(SIGNED_OUT_CODE, _))
        ));
        assert!(other_rx.try_recv().is_err(), "another player's stays open");
        sessions.signed_out(1, laptop.id);
        sessions.signed_out(1, phone.id);
        assert_eq!(sessions.close_others(1, 0), 0);
        assert!(
            !sessions.lock().by_player.contains_key(&1),
            "no empty entry is kept"
        );
    }

    #[test]
    fn closing_all_of_a_players_connections_uses_the_reason_given() {
        let sessions = Sessions::default();
        let (phone, mut phone_rx) = Outbox::new();
        let (laptop, mut laptop_rx) = Outbox::new();
        let (other, mut other_rx) = Outbox::new();
        assert!(sessions.signed_in(1, &phone, None));
        assert!(sessions.signed_in(1, &laptop, None));
        assert!(sessions.signed_in(2, &other, None));
        assert_eq!(sessions.close_all(1, 1008, "banned"), 2);
        for rx in [&mut phone_rx, &mut laptop_rx] {
            assert!(matches!(
                rx.try_recv(),
                Ok(crate::outbox::Out::Close(1008, "banned"))
            ));
        }
        assert!(other_rx.try_recv().is_err(), "another player's stays open");
    }

    #[test]
    fn a_token_checked_before_a_sign_out_everywhere_does_not_sign_in_after_it() {
        let sessions = Sessions::default();
        let (phone, _phone_rx) = Outbox::new();
        let (thief, _thief_rx) = Outbox::new();
        let checked = Instant::now();
        // The player signs out everywhere while the thief's token check is under way.
        sessions.close_others(1, phone.id);
        assert!(!sessions.signed_in(1, &thief, Some(checked)));
        assert_eq!(
            sessions.close_others(1, phone.id),
            0,
            "the thief was not kept"
        );
        // A token checked after it (a new sign-in) and a password sign-in are fine.
        assert!(sessions.signed_in(1, &thief, Some(Instant::now())));
        assert!(sessions.signed_in(1, &phone, None));
    }
}
