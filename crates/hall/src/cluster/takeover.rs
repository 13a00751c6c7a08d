//! Leases and takeovers: a node renews its lease while it can, takes over the nodes whose
//! leases ran out (rebuilding their rooms from the store), and forgets a node that is gone.

use std::sync::Arc;

use super::wire::{GONE_SUBJECT, NodeMessage};
use super::{Cluster, LEASE, Reaching, TICK, UNOWNED_EVERY};
use crate::hall::Hall;
use crate::room::{restore_room, restore_waiting_room};

impl Cluster {
    /// Another node is gone (its rooms were taken over): its connections' stand-ins leave
    /// this node's rooms (their players are away), its rooms leave the list, and this node's
    /// connections that were in its rooms are told to reconnect (1012), so that they resume
    /// in the rooms' new home.
    pub(super) fn node_gone(&self, node: &str) {
        if node == self.node {
            return;
        }
        self.links.forget(node);
        // Commands waiting for that node get no answer: they end now (unavailable).
        self.pending
            .lock()
            .expect("pending lock")
            .retain(|_, (owner, _)| owner != node);
        let gone: Vec<Reaching> = {
            let mut stand_ins = self.stand_ins.lock().expect("stand-ins lock");
            let keys: Vec<_> = stand_ins
                .keys()
                .filter(|(n, _)| n == node)
                .cloned()
                .collect();
            keys.iter().filter_map(|k| stand_ins.remove(k)).collect()
        };
        if let Some(hall) = self.hall() {
            for (outbox, rooms) in gone {
                let _ = hall.arenas.unfollow(outbox.id);
                for code in rooms {
                    if let Some(room) = hall.local_room(&code) {
                        room.detach(outbox.id);
                    }
                }
            }
            hall.forget_listings_of(node);
        }
        let conns = self.conns.lock().expect("conns lock");
        for (outbox, nodes) in conns.values() {
            if nodes.contains(node) {
                outbox.close(1012, "the room moved to another node: reconnect");
            }
        }
    }

    /// Renews this node's lease while it is connected to NATS, and takes over the nodes whose
    /// leases ran out. A node that could not renew for almost a whole lease stops acting
    /// (`fenced`): by then another node may own its rooms, and the store refuses its writes.
    pub(super) async fn keep_lease(self: Arc<Self>) {
        let mut renewed = tokio::time::Instant::now();
        let mut tick = tokio::time::interval(TICK);
        let mut ticks = 0u32;
        loop {
            tick.tick().await;
            ticks = ticks.wrapping_add(1);
            let Some(hall) = self.hall() else {
                return;
            };
            if hall.is_closing() {
                return;
            }
            let connected =
                self.nats.connection_state() == async_nats::connection::State::Connected;
            if connected && hall.store.renew_lease(LEASE).await.is_ok() {
                renewed = tokio::time::Instant::now();
            } else if renewed.elapsed() >= LEASE - TICK * 2 {
                tracing::error!(node = %self.node, "the cluster lease could not be renewed: this node stops");
                self.fenced.send_replace(true);
                return;
            }
            if connected {
                self.adopt(&hall, ticks.is_multiple_of(UNOWNED_EVERY)).await;
            }
        }
    }

    /// Takes over the rooms of nodes whose lease ran out (and, when `unowned`, the rooms no
    /// node owns), and rebuilds them here.
    pub(super) async fn adopt(&self, hall: &Arc<Hall>, unowned: bool) {
        let mut adopted = Vec::new();
        let mut taken_over = Vec::new();
        match hall.store.expired_nodes().await {
            Ok(dead) => {
                for node in dead.iter().filter(|n| **n != self.node) {
                    match hall.store.adopt_rooms_of(node).await {
                        // Another node was first.
                        Ok(None) => {}
                        Ok(Some(codes)) => {
                            tracing::warn!(dead = %node, rooms = codes.len(), "took over a node whose lease ran out");
                            metrics::counter!(crate::metrics::LEASE_TAKEOVERS).increment(1);
                            adopted.extend(codes);
                            taken_over.push(node.clone());
                        }
                        Err(e) => tracing::warn!(dead = %node, error = %e, "taking over failed"),
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "the cluster's nodes could not be read"),
        }
        if unowned && let Ok(codes) = hall.store.adopt_unowned_rooms().await {
            adopted.extend(codes);
        }
        // The arenas first: an adopted room's game that ends counts in its arena (P-ARENA).
        let arenas = if unowned || !taken_over.is_empty() {
            crate::arena::take_up_owned(hall).await
        } else {
            Vec::new()
        };
        for code in adopted {
            rebuild(hall, &code).await;
        }
        crate::arena::settle_missed(hall, &arenas).await;
        // Only now are the players told to come back: their rooms are here to take them.
        for node in taken_over {
            let body = NodeMessage::Gone { node }.encode();
            let _ = self.nats.publish(GONE_SUBJECT, body.into()).await;
        }
    }
}

/// Rebuilds an adopted room from the store: its running game, else its waiting room; a room
/// with neither has closed and loses its owner row.
async fn rebuild(hall: &Arc<Hall>, code: &str) {
    if hall.local_room(code).is_some() {
        return;
    }
    let rebuilt = match hall.store.running_game_of_room(code).await {
        Ok(Some(game)) => restore_room(hall.clone(), &game).await,
        Ok(None) => match hall.store.waiting_room(code).await {
            Ok(Some(room)) => restore_waiting_room(hall.clone(), &room).await,
            Ok(None) => hall.store.release_room(code).await.map_err(Into::into),
            Err(e) => Err(e.into()),
        },
        Err(e) => Err(e.into()),
    };
    if let Err(e) = rebuilt {
        tracing::error!(room = %code, error = %e, "an adopted room could not be rebuilt");
    }
}
