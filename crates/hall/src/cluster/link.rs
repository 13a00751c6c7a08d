//! Links between nodes: everything one node sends another (commands, answers, frames, closes,
//! detaches) goes through one queue per destination, and a task publishes whatever is queued
//! as ONE NATS message (group sending, as the store's writer group-commits), a
//! [`NodeMessage::Link`].
//!
//! Under load a node's rooms send other nodes many small things at once — an answer here, a
//! batch of events there — and one message per thing would cost a socket write and a wake-up
//! each, at both ends and in nats-server: the first measurement of the cluster spent most of
//! its CPU in the kernel doing exactly that. Batched, the cost is per burst, not per frame.
//!
//! Each queue is bounded ([`QUEUE_RECORDS`]). A full queue means the destination's link has
//! not drained for that many records (NATS itself is stalled): what does not fit is dropped,
//! counted (`hangar_cluster_records_dropped_total`) and logged once per overflow — a dropped
//! command is answered `unavailable` by the sender's timeout and sent again by its client, a
//! dropped frame shows as a gap in the room's versions and the client resumes with `since`.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use async_nats::Client;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;

use super::wire::{NodeMessage, Record};
use crate::outbox::ConnId;

/// Where node `node` receives what other nodes send it.
pub fn inbox_subject(node: &str) -> String {
    format!("hangar.node.{node}.in")
}

/// Empties `batch` into the records to send, each connection's frames gathered into its first
/// `Frames` record (a room sends each event to each member: one record a connection then, and
/// one queueing on its socket at the other end). A connection's frames keep their order, and
/// none moves across a `Close` of its connection.
fn coalesce(batch: &mut Vec<Record>) -> Vec<Record> {
    let mut records: Vec<Record> = Vec::with_capacity(batch.len());
    let mut open: HashMap<ConnId, usize> = HashMap::new();
    for record in batch.drain(..) {
        match record {
            Record::Frames { conn, mut frames } => match open.get(&conn) {
                Some(&at) => {
                    if let Record::Frames { frames: first, .. } = &mut records[at] {
                        first.append(&mut frames);
                    }
                }
                None => {
                    open.insert(conn, records.len());
                    records.push(Record::Frames { conn, frames });
                }
            },
            Record::Close { conn, code } => {
                open.remove(&conn);
                records.push(Record::Close { conn, code });
            }
            other => records.push(other),
        }
    }
    records
}

/// Most records sent in one message.
const MAX_RECORDS: usize = 512;

/// Records queued for one node at most: far beyond any burst (a room's event to every member
/// is one record a member), small enough that a stalled link cannot eat the node's memory.
pub const QUEUE_RECORDS: usize = 65_536;

/// A queue to one node.
struct Queue {
    records: mpsc::Sender<Record>,
    /// Whether records are being dropped now (logged once per overflow, not per record).
    overflowing: AtomicBool,
}

/// This node's queues to the other nodes, made on first use.
pub struct Links {
    node: String,
    nats: Client,
    queues: Mutex<HashMap<String, Queue>>,
    capacity: usize,
}

impl Links {
    /// No links yet, for node `node`.
    pub fn new(node: &str, nats: Client) -> Links {
        Links::with_capacity(node, nats, QUEUE_RECORDS)
    }

    /// No links yet, each queue holding at most `capacity` records.
    pub fn with_capacity(node: &str, nats: Client, capacity: usize) -> Links {
        Links {
            node: node.to_owned(),
            nats,
            queues: Mutex::default(),
            capacity,
        }
    }

    /// Queues `record` for node `to`; it leaves with whatever else is queued for `to`. False
    /// when the queue is full and the record was dropped (see the module's documentation).
    pub fn send(&self, to: &str, record: Record) -> bool {
        let mut queues = self.queues.lock().expect("links lock");
        let record = match queues.get(to) {
            Some(queue) => match queue.records.try_send(record) {
                Ok(()) => {
                    queue.overflowing.store(false, Ordering::Relaxed);
                    return true;
                }
                Err(TrySendError::Full(_)) => {
                    metrics::counter!(crate::metrics::CLUSTER_DROPPED).increment(1);
                    if !queue.overflowing.swap(true, Ordering::Relaxed) {
                        tracing::error!(
                            to,
                            capacity = self.capacity,
                            "the link to another node is full: records are dropped until it drains"
                        );
                    }
                    return false;
                }
                // The queue's task has ended: a new one takes the record.
                Err(TrySendError::Closed(record)) => record,
            },
            None => record,
        };
        let (records, mut rx) = mpsc::channel::<Record>(self.capacity);
        let nats = self.nats.clone();
        let from = self.node.clone();
        let subject = inbox_subject(to);
        tokio::spawn(async move {
            let mut batch = Vec::with_capacity(64);
            while rx.recv_many(&mut batch, MAX_RECORDS).await > 0 {
                let message = NodeMessage::Link {
                    from: from.clone(),
                    records: coalesce(&mut batch),
                };
                if let Err(e) = nats.publish(subject.clone(), message.encode().into()).await {
                    tracing::warn!(error = %e, to = %subject, "a message to another node was lost");
                }
            }
        });
        let sent = records.try_send(record).is_ok();
        queues.insert(
            to.to_owned(),
            Queue {
                records,
                overflowing: AtomicBool::new(false),
            },
        );
        sent
    }

    /// Node `node` is gone: its queue (and what is still in it) goes.
    pub fn forget(&self, node: &str) {
        self.queues.lock().expect("links lock").remove(node);
    }
}

#[cfg(test)]
mod tests {
    use axum::extract::ws::Utf8Bytes;

    use super::*;

    fn frames(conn: ConnId, texts: &[&'static str]) -> Record {
        Record::Frames {
            conn,
            frames: texts.iter().map(|t| Utf8Bytes::from_static(t)).collect(),
        }
    }

    #[test]
    fn each_connections_frames_are_gathered_in_order_but_never_across_its_close() {
        let mut batch = vec![
            frames(1, &["a1"]),
            frames(2, &["b1"]),
            frames(1, &["a2", "a3"]),
            Record::Close {
                conn: 2,
                code: 1012,
            },
            frames(2, &["b2"]),
            frames(1, &["a4"]),
        ];
        let records = coalesce(&mut batch);
        assert!(batch.is_empty());
        let expected = vec![
            frames(1, &["a1", "a2", "a3", "a4"]),
            frames(2, &["b1"]),
            Record::Close {
                conn: 2,
                code: 1012,
            },
            frames(2, &["b2"]),
        ];
        assert_eq!(format!("{records:?}"), format!("{expected:?}"));
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_full_link_drops_what_does_not_fit_and_takes_again_once_drained() {
        // A client that connects later: its publisher never runs in this test, so the queue
        // is only filled, as when NATS is stalled.
        let nats = async_nats::ConnectOptions::new()
            .retry_on_initial_connect()
            .connect("127.0.0.1:9")
            .await
            .expect("a client that connects later");
        let links = Links::with_capacity("n1", nats, 2);
        let close = |conn| Record::Close { conn, code: 1012 };
        assert!(links.send("n2", close(1)));
        assert!(links.send("n2", close(2)));
        assert!(!links.send("n2", close(3)), "the third record does not fit");
        assert!(
            links.send("n3", close(4)),
            "another node's queue is its own"
        );
        links.forget("n2");
        assert!(
            links.send("n2", close(5)),
            "a new queue takes records again"
        );
    }
}
