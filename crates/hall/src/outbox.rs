//! What a connection sends: frames queued by rooms and the hall, written in batches.

use std::sync::atomic::{AtomicU64, Ordering};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::mpsc;

/// Frames a connection may queue before it counts as too slow.
pub const OUTBOX_CAPACITY: usize = 4096;

/// One queued output.
#[derive(Clone, Debug)]
pub enum Out {
    /// A text frame (shared between the members of a room: cloning is cheap).
    Text(Utf8Bytes),
    /// Several text frames written together (one socket write for the lot).
    Batch(Vec<Utf8Bytes>),
    /// Close the socket with this code and reason.
    Close(u16, &'static str),
}

/// A connection's id, unique for the life of the process.
pub type ConnId = u64;

/// The sending side of a connection: its id and its queue.
#[derive(Clone, Debug)]
pub struct Outbox {
    /// The connection's id.
    pub id: ConnId,
    tx: mpsc::Sender<Out>,
}

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

impl Outbox {
    /// A new outbox and the receiver its writer drains.
    pub fn new() -> (Outbox, mpsc::Receiver<Out>) {
        let (tx, rx) = mpsc::channel(OUTBOX_CAPACITY);
        let id = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
        (Outbox { id, tx }, rx)
    }

    /// Queues a frame; false when the connection is gone or hopelessly behind.
    pub fn send(&self, frame: Utf8Bytes) -> bool {
        self.tx.try_send(Out::Text(frame)).is_ok()
    }

    /// Queues several frames to leave in one write; false as for [`Outbox::send`].
    pub fn send_batch(&self, frames: Vec<Utf8Bytes>) -> bool {
        self.tx.try_send(Out::Batch(frames)).is_ok()
    }

    /// Queues a text.
    pub fn send_text(&self, text: String) -> bool {
        self.send(Utf8Bytes::from(text))
    }

    /// Asks the writer to close the socket.
    pub fn close(&self, code: u16, reason: &'static str) {
        let _ = self.tx.try_send(Out::Close(code, reason));
    }

    /// Whether the connection's writer is gone.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }
}
