//! The open connections of each signed-in player on this hall, so that `sign_out_everywhere`
//! ends the player's other live sockets as well as their tokens: a stolen token's socket,
//! already signed in, stops working at once instead of at its next sign-in.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::outbox::{ConnId, Outbox};

/// The close code of a connection whose player signed out everywhere (policy violation: the
/// session it speaks for no longer exists).
pub const SIGNED_OUT_CODE: u16 = 1008;

/// The close reason sent with [`SIGNED_OUT_CODE`].
pub const SIGNED_OUT_REASON: &str = "signed out everywhere: sign in again";

/// Connections by signed-in player (guests included).
#[derive(Debug, Default)]
pub struct Sessions {
    by_player: Mutex<HashMap<i64, HashMap<ConnId, Outbox>>>,
}

impl Sessions {
    /// `outbox`'s connection now speaks for `player`.
    pub fn signed_in(&self, player: i64, outbox: &Outbox) {
        self.lock()
            .entry(player)
            .or_default()
            .insert(outbox.id, outbox.clone());
    }

    /// Connection `conn` no longer speaks for `player` (it closed or signed in as another).
    pub fn signed_out(&self, player: i64, conn: ConnId) {
        let mut by_player = self.lock();
        if let Some(conns) = by_player.get_mut(&player) {
            conns.remove(&conn);
            if conns.is_empty() {
                by_player.remove(&player);
            }
        }
    }

    /// Closes every connection of `player` but `keep` (the one that asked); returns how many.
    pub fn close_others(&self, player: i64, keep: ConnId) -> usize {
        let others: Vec<Outbox> = self
            .lock()
            .get(&player)
            .map(|conns| {
                conns
                    .values()
                    .filter(|outbox| outbox.id != keep)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        for outbox in &others {
            // Queued after what it was already sent: its writer closes the socket next.
            outbox.close(SIGNED_OUT_CODE, SIGNED_OUT_REASON);
        }
        others.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, HashMap<ConnId, Outbox>>> {
        self.by_player.lock().expect("sessions lock")
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
        sessions.signed_in(1, &phone);
        sessions.signed_in(1, &laptop);
        sessions.signed_in(2, &other);
        assert_eq!(sessions.close_others(1, phone.id), 1);
        assert!(matches!(
            laptop_rx.try_recv(),
            Ok(crate::outbox::Out::Close(SIGNED_OUT_CODE, _))
        ));
        assert!(other_rx.try_recv().is_err(), "another player's stays open");
        sessions.signed_out(1, laptop.id);
        sessions.signed_out(1, phone.id);
        assert_eq!(sessions.close_others(1, 0), 0);
        assert!(sessions.lock().get(&1).is_none(), "no empty entry is kept");
    }
}
