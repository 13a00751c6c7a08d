//! Stand-ins: on the node that owns a room, each connection of another node that is in the
//! room is an ordinary [`Outbox`] whose frames a task sends back to the connection's node.

use std::collections::HashSet;

use axum::extract::ws::Utf8Bytes;

use super::Cluster;
use super::link::Record;
use super::wire::Detach;
use crate::outbox::{ConnId, Out, Outbox};

impl Cluster {
    /// The stand-in of connection `conn` of node `from`, made on first use: an outbox whose
    /// frames are published to that node.
    pub(super) fn stand_in(&self, from: &str, conn: ConnId, code: &str) -> Outbox {
        let mut stand_ins = self.stand_ins.lock().expect("stand-ins lock");
        let key = (from.to_owned(), conn);
        if let Some((outbox, rooms)) = stand_ins.get_mut(&key) {
            rooms.insert(code.to_owned());
            return outbox.clone();
        }
        let (outbox, mut rx) = Outbox::new();
        let links = self.links.clone();
        let to = from.to_owned();
        tokio::spawn(async move {
            let mut batch = Vec::with_capacity(16);
            while rx.recv_many(&mut batch, 64).await > 0 {
                let mut frames: Vec<Utf8Bytes> = Vec::new();
                let mut close = None;
                for out in batch.drain(..) {
                    match out {
                        Out::Text(text) => frames.push(text),
                        Out::Batch(mut more) => frames.append(&mut more),
                        Out::Close(code, _) => close = Some(code),
                    }
                }
                if !frames.is_empty() {
                    links.send(&to, Record::Frames { conn, frames });
                }
                if let Some(code) = close {
                    links.send(&to, Record::Close { conn, code });
                }
            }
        });
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
            for code in leaving {
                if let Some(room) = hall.local_room(&code) {
                    room.detach(id);
                }
            }
        }
    }
}
