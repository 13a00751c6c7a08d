//! Stand-ins: on the node that owns a room, each connection of another node that is in the
//! room is an [`Outbox`] whose frames go straight onto the link to the connection's node.

use std::collections::HashSet;
use std::sync::Arc;

use super::Cluster;
use super::link::Links;
use super::wire::Detach;
use super::wire::Record;
use crate::outbox::{ConnId, Out, Outbox, Relay};

/// A connection of another node as the rooms of this node see it: what they send it goes on
/// the link to its node at once (the link's task batches it with everything else for there).
struct StandIn {
    links: Arc<Links>,
    to: String,
    conn: ConnId,
}

impl std::fmt::Debug for StandIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "StandIn(connection {} of {})", self.conn, self.to)
    }
}

impl Relay for StandIn {
    fn relay(&self, out: Out) {
        let conn = self.conn;
        let record = match out {
            Out::Text(frame) => Record::Frames {
                conn,
                frames: vec![frame],
            },
            Out::Batch(frames) => Record::Frames { conn, frames },
            Out::Close(code, _) => Record::Close { conn, code },
        };
        self.links.send(&self.to, record);
    }
}

impl Cluster {
    /// The stand-in of connection `conn` of node `from`, made on first use: an outbox whose
    /// frames are queued on the link to that node.
    pub(super) fn stand_in(&self, from: &str, conn: ConnId, code: &str) -> Outbox {
        let mut stand_ins = self.stand_ins.lock().expect("stand-ins lock");
        let key = (from.to_owned(), conn);
        if let Some((outbox, rooms)) = stand_ins.get_mut(&key) {
            rooms.insert(code.to_owned());
            return outbox.clone();
        }
        let outbox = Outbox::relayed(Arc::new(StandIn {
            links: self.links.clone(),
            to: from.to_owned(),
            conn,
        }));
        stand_ins.insert(key, (outbox.clone(), HashSet::from([code.to_owned()])));
        outbox
    }

    /// A connection of another node leaves a room (or all) of this node.
    pub(super) fn detach_stand_in(&self, from: &str, detach: &Detach) {
        let key = (from.to_owned(), detach.conn);
        let mut stand_ins = self.stand_ins.lock().expect("stand-ins lock");
        let Some((outbox, rooms)) = stand_ins.get_mut(&key) else {
            return;
        };
        let leaving: Vec<String> = match &detach.code {
            Some(code) => rooms.take(code).into_iter().collect(),
            None => rooms.drain().collect(),
        };
        let id = outbox.id;
        if rooms.is_empty() {
            stand_ins.remove(&key);
        }
        drop(stand_ins);
        if let Some(hall) = self.hall() {
            if detach.code.is_none() {
                // The connection closed: it follows no arena of this node either.
                let _ = hall.arenas.unfollow(id);
            }
            for code in leaving {
                if let Some(room) = hall.local_room(&code) {
                    room.detach(id);
                }
            }
        }
    }
}
