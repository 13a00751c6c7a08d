//! What the hall does for `hangar admin`: every node polls the database's admin orders and
//! applies those that concern it — a banned or signed-out player's open connections on this
//! node are closed, a room this node runs is closed. The command itself only writes to the
//! database (see [`crate::store`]'s admin part), so it reaches a running hall, or every node
//! of a cluster, with no port of its own.

use std::sync::Arc;
use std::time::Duration;

use crate::hall::Hall;
use crate::store::{AdminOrder, OrderKind};

/// How often a node looks for new orders: a banned player's sockets close within about this.
pub const POLL_INTERVAL: Duration = Duration::from_millis(500);

/// The close code of a connection whose player was banned or signed out by an administrator
/// (policy violation: the session it speaks for is no longer allowed).
pub const ADMIN_CLOSE_CODE: u16 = 1008;

/// The close reason of a banned player's connections.
pub const BANNED_REASON: &str = "banned by the hall's administrators";

/// The close reason of connections whose tokens an administrator revoked.
pub const REVOKED_REASON: &str = "signed out by the hall's administrators: sign in again";

/// Polls the admin orders for as long as the hall runs, from the highest id there when it
/// starts (orders given before are history: their bans are in the database, and their
/// connections and rooms were closed by the nodes running then).
pub async fn watch_orders(hall: Arc<Hall>) {
    let start = loop {
        match hall.store.last_admin_order().await {
            Ok(id) => break id,
            Err(e) => {
                tracing::warn!(error = %e, "admin orders unreadable; trying again");
                tokio::time::sleep(POLL_INTERVAL).await;
            }
        }
    };
    let mut orders = Orders::new(start);
    let mut tick = tokio::time::interval(POLL_INTERVAL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let found = match hall.store.admin_orders_after(orders.read_after()).await {
            Ok(found) => found,
            Err(e) => {
                tracing::warn!(error = %e, "admin orders unreadable");
                continue;
            }
        };
        for order in found {
            if orders.first_sight(order.id) {
                apply(&hall, &order).await;
            }
        }
    }
}

/// Orders read back after an order seen, so that one whose id was taken earlier but whose
/// transaction committed later (two administrators at once, on PostgreSQL) is not skipped.
const LOOKBACK: i64 = 64;

/// Which orders this node has applied: every id up to `floor` (those before it started),
/// and the recent ones above it.
struct Orders {
    floor: i64,
    recent: std::collections::BTreeSet<i64>,
}

impl Orders {
    fn new(start: i64) -> Orders {
        Orders {
            floor: start,
            recent: std::collections::BTreeSet::new(),
        }
    }

    /// Where to read from: a little before the highest order applied, never before the start.
    fn read_after(&self) -> i64 {
        let highest = self.recent.last().copied().unwrap_or(self.floor);
        self.floor.max(highest - LOOKBACK)
    }

    /// True the first time an order is seen: it is to be applied.
    fn first_sight(&mut self, id: i64) -> bool {
        if id <= self.floor || !self.recent.insert(id) {
            return false;
        }
        // Ids below the lookback window are not read again: forget them.
        let below = self.read_after();
        self.recent = self.recent.split_off(&below);
        if below > self.floor {
            self.floor = below;
        }
        true
    }
}

/// Applies one order on this node.
async fn apply(hall: &Arc<Hall>, order: &AdminOrder) {
    match &order.kind {
        OrderKind::Ban(player) => {
            let closed = hall
                .sessions
                .close_all(*player, ADMIN_CLOSE_CODE, BANNED_REASON);
            tracing::info!(player, closed, "player banned: connections closed");
        }
        OrderKind::Revoke(player) => {
            let closed = hall
                .sessions
                .close_all(*player, ADMIN_CLOSE_CODE, REVOKED_REASON);
            tracing::info!(player, closed, "tokens revoked: connections closed");
        }
        OrderKind::CloseRoom(code) => {
            // Only the node that runs the room has it locally; the others have nothing to do.
            let Some(room) = hall.local_room(code) else {
                return;
            };
            if room.close_by_admin().await {
                tracing::info!(room = %code, "room closed by an administrator");
                let node = hall
                    .peers()
                    .map_or_else(|| "hall".to_owned(), |peers| peers.node().to_owned());
                if let Err(e) = hall.store.order_applied(order.id, &node).await {
                    tracing::warn!(room = %code, error = %e, "closing the room could not be noted");
                }
            } else {
                tracing::error!(room = %code, "the room could not be closed (its result was not stored)");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_order_committed_late_is_applied_once_and_older_ones_never() {
        let mut orders = Orders::new(10);
        assert!(!orders.first_sight(9), "given before the node started");
        assert!(orders.first_sight(12));
        assert!(!orders.first_sight(12), "read again: applied once");
        // 11 committed after 12 was read: still read, and applied.
        assert!(orders.read_after() < 11);
        assert!(orders.first_sight(11));
        for id in 13..200 {
            assert!(orders.first_sight(id));
        }
        assert_eq!(orders.read_after(), 199 - LOOKBACK);
        assert!(!orders.first_sight(100), "below the window: never again");
        assert!(orders.recent.len() <= LOOKBACK as usize + 1, "bounded");
    }
}
