//! Links between nodes: everything one node sends another (commands, answers, frames, closes,
//! detaches) goes through one queue per destination, and a task publishes whatever is queued
//! as ONE NATS message (group sending, as the store's writer group-commits).
//!
//! Under load a node's rooms send other nodes many small things at once — an answer here, a
//! batch of events there — and one message per thing would cost a socket write and a wake-up
//! each, at both ends and in nats-server: the first measurement of the cluster spent most of
//! its CPU in the kernel doing exactly that. Batched, the cost is per burst, not per frame.
//!
//! A message is text: a first line naming the sending node, then records, each a header line
//! and its lines (compact JSON holds no raw newline, so a frame or a JSON body is one line):
//! - `Q` + a [`RemoteCommand`] — a command for a room of the receiving node;
//! - `A CONN ID` + a [`RemoteAnswer`] — the answer to a connection's command;
//! - `F CONN N` + N frames — frames for a connection, in order;
//! - `C CONN CODE` — close a connection with CODE;
//! - `D` + a [`Detach`] — a connection leaves rooms of the receiving node.

use std::collections::HashMap;
use std::sync::Mutex;

use async_nats::Client;
use axum::extract::ws::Utf8Bytes;
use tokio::sync::mpsc;

use super::wire::{Detach, RemoteAnswer, RemoteCommand};
use crate::outbox::ConnId;

/// Where node `node` receives what other nodes send it.
pub fn inbox_subject(node: &str) -> String {
    format!("hangar.node.{node}.in")
}

/// One thing a node sends another.
#[derive(Debug)]
pub enum Record {
    /// A command for a room of the receiving node.
    Command(RemoteCommand),
    /// The answer to command `id` of connection `conn`.
    Answer {
        /// The connection that sent the command.
        conn: ConnId,
        /// The command's id.
        id: u64,
        /// What the room said.
        answer: RemoteAnswer,
    },
    /// Frames for a connection, in order.
    Frames {
        /// The connection.
        conn: ConnId,
        /// The frames.
        frames: Vec<Utf8Bytes>,
    },
    /// Close a connection with this code.
    Close {
        /// The connection.
        conn: ConnId,
        /// The WebSocket close code.
        code: u16,
    },
    /// A connection leaves rooms of the receiving node.
    Detach(Detach),
}

/// Writes one message: the sending node, then each record.
pub fn encode(from: &str, records: &[Record]) -> Vec<u8> {
    let mut body = Vec::with_capacity(64 + records.len() * 256);
    body.extend_from_slice(from.as_bytes());
    for record in records {
        body.push(b'\n');
        match record {
            Record::Command(command) => {
                body.extend_from_slice(b"Q\n");
                serde_json::to_writer(&mut body, command).expect("a command serialises");
            }
            Record::Answer { conn, id, answer } => {
                body.extend_from_slice(format!("A {conn} {id}\n").as_bytes());
                serde_json::to_writer(&mut body, answer).expect("an answer serialises");
            }
            Record::Frames { conn, frames } => {
                body.extend_from_slice(format!("F {conn} {}", frames.len()).as_bytes());
                for frame in frames {
                    body.push(b'\n');
                    body.extend_from_slice(frame.as_bytes());
                }
            }
            Record::Close { conn, code } => {
                body.extend_from_slice(format!("C {conn} {code}").as_bytes());
            }
            Record::Detach(detach) => {
                body.extend_from_slice(b"D\n");
                serde_json::to_writer(&mut body, detach).expect("a detach serialises");
            }
        }
    }
    body
}

/// Reads a message: the sending node and its records; `None` if it is not one (nothing of a
/// broken message is used).
pub fn decode(body: &[u8]) -> Option<(String, Vec<Record>)> {
    let text = std::str::from_utf8(body).ok()?;
    let mut lines = text.split('\n');
    let from = lines.next()?.to_owned();
    let mut records = Vec::new();
    while let Some(header) = lines.next() {
        let mut words = header.split(' ');
        let kind = words.next()?;
        let mut number = || words.next().and_then(|w| w.parse::<u64>().ok());
        let record = match kind {
            "Q" => Record::Command(serde_json::from_str(lines.next()?).ok()?),
            "A" => {
                let (conn, id) = (number()?, number()?);
                let answer = serde_json::from_str(lines.next()?).ok()?;
                Record::Answer { conn, id, answer }
            }
            "F" => {
                let (conn, count) = (number()?, number()?);
                let frames = (0..count)
                    .map(|_| lines.next().map(|f| Utf8Bytes::from(f.to_owned())))
                    .collect::<Option<_>>()?;
                Record::Frames { conn, frames }
            }
            "C" => {
                let conn = number()?;
                let code = u16::try_from(number()?).ok()?;
                Record::Close { conn, code }
            }
            "D" => Record::Detach(serde_json::from_str(lines.next()?).ok()?),
            _ => return None,
        };
        records.push(record);
    }
    Some((from, records))
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

/// This node's queues to the other nodes, made on first use.
pub struct Links {
    node: String,
    nats: Client,
    queues: Mutex<HashMap<String, mpsc::UnboundedSender<Record>>>,
}

impl Links {
    /// No links yet, for node `node`.
    pub fn new(node: &str, nats: Client) -> Links {
        Links {
            node: node.to_owned(),
            nats,
            queues: Mutex::default(),
        }
    }

    /// Queues `record` for node `to`; it leaves with whatever else is queued for `to`.
    pub fn send(&self, to: &str, record: Record) {
        let mut queues = self.queues.lock().expect("links lock");
        let record = match queues.get(to) {
            Some(queue) => match queue.send(record) {
                Ok(()) => return,
                // The queue's task has ended: a new one takes the record.
                Err(mpsc::error::SendError(record)) => record,
            },
            None => record,
        };
        let (queue, mut rx) = mpsc::unbounded_channel::<Record>();
        let nats = self.nats.clone();
        let from = self.node.clone();
        let subject = inbox_subject(to);
        tokio::spawn(async move {
            let mut batch = Vec::with_capacity(64);
            while rx.recv_many(&mut batch, MAX_RECORDS).await > 0 {
                let body = encode(&from, &coalesce(&mut batch));
                if let Err(e) = nats.publish(subject.clone(), body.into()).await {
                    tracing::warn!(error = %e, to = %subject, "a message to another node was lost");
                }
            }
        });
        let _ = queue.send(record);
        queues.insert(to.to_owned(), queue);
    }

    /// Node `node` is gone: its queue (and what is still in it) goes.
    pub fn forget(&self, node: &str) {
        self.queues.lock().expect("links lock").remove(node);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::Order;
    use hangar_protocol::RoomAction;

    #[test]
    fn a_message_of_every_record_kind_reads_back_as_written() {
        let records = vec![
            Record::Command(RemoteCommand {
                code: "K7QX2M".into(),
                conn: 3,
                player: None,
                client: Some("tab".into()),
                id: 9,
                order: Order::Command(RoomAction::Roll { entropy: None }),
            }),
            Record::Frames {
                conn: 3,
                frames: vec![
                    Utf8Bytes::from_static(r#"{"type":"ack","id":9,"result":{}}"#),
                    Utf8Bytes::from_static(r#"{"type":"event","room":"K7QX2M","v":4}"#),
                ],
            },
            Record::Answer {
                conn: 3,
                id: 9,
                answer: RemoteAnswer::NoRoom,
            },
            Record::Close {
                conn: 4,
                code: 1012,
            },
            Record::Detach(Detach {
                conn: 5,
                code: None,
            }),
        ];
        let body = encode("n1", &records);
        let (from, read) = decode(&body).expect("a message");
        assert_eq!(from, "n1");
        assert_eq!(format!("{read:?}"), format!("{records:?}"));
        assert!(decode(b"n1\nX 1").is_none(), "an unknown record is refused");
        assert!(
            decode(b"n1\nF 1 2\n{}").is_none(),
            "a short frame list is refused"
        );
    }

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
}
