//! What a connection sends: frames queued by rooms and the hall, written in batches.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::task::Poll;

use axum::extract::ws::Utf8Bytes;
use futures_util::task::AtomicWaker;
use tokio::sync::mpsc;

/// Frames a connection may queue before it counts as too slow.
pub const OUTBOX_CAPACITY: usize = 4096;

/// The capacity of outboxes made from now on ([`OUTBOX_CAPACITY`] unless set).
static CAPACITY: AtomicUsize = AtomicUsize::new(OUTBOX_CAPACITY);

/// Sets the capacity of the outboxes made from now on: a test that needs a connection to
/// fall behind sets a small one instead of filling megabytes of socket buffers.
pub fn set_outbox_capacity(frames: usize) {
    CAPACITY.store(frames.max(1), Ordering::Relaxed);
}

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

/// Carries a connection's output somewhere other than a socket of this process.
pub trait Relay: Send + Sync + std::fmt::Debug {
    /// Takes the outbox's next output; it must not block.
    fn relay(&self, out: Out);
}

/// Where an outbox's frames go.
#[derive(Clone, Debug)]
enum Sink {
    /// The queue a connection's writer drains.
    Queue(mpsc::Sender<Out>),
    /// Straight on to a relay (a connection of another node of the cluster): no queue and no
    /// task of its own, so a room event costs no wake-up per remote member.
    Relay(Arc<dyn Relay>),
}

/// The sending side of a connection: its id and its queue.
#[derive(Clone, Debug)]
pub struct Outbox {
    /// The connection's id.
    pub id: ConnId,
    sink: Sink,
    /// Set once a frame found the queue full: the connection is closed (see
    /// [`Outbox::overflowed`]) and the rooms run their disconnect path for it.
    overflow: Arc<Overflow>,
}

/// The mark of a queue found full, and the waker of the one task that waits for it (the
/// connection's). A flag and an [`AtomicWaker`] rather than a `watch` channel: the
/// connection's loop polls [`Outbox::overflowed`] every time it waits (several times per
/// action), and a `watch` locks its waiters' mutex on each of those polls (callgrind, 100
/// clients without think time: about 1,300 instructions per action, against a load and a
/// compare-and-swap or two here).
#[derive(Debug, Default)]
struct Overflow {
    full: AtomicBool,
    waker: AtomicWaker,
}

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

impl Outbox {
    /// A new outbox and the receiver its writer drains.
    pub fn new() -> (Outbox, mpsc::Receiver<Out>) {
        let (tx, rx) = mpsc::channel(CAPACITY.load(Ordering::Relaxed));
        let id = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
        let outbox = Outbox {
            id,
            sink: Sink::Queue(tx),
            overflow: Arc::default(),
        };
        (outbox, rx)
    }

    /// An outbox whose frames go straight to `relay` (it never overflows nor closes).
    pub fn relayed(relay: Arc<dyn Relay>) -> Outbox {
        Outbox {
            id: NEXT_CONN.fetch_add(1, Ordering::Relaxed),
            sink: Sink::Relay(relay),
            overflow: Arc::default(),
        }
    }

    /// Queues a frame; false when the connection is gone or hopelessly behind.
    pub fn send(&self, frame: Utf8Bytes) -> bool {
        self.queue(Out::Text(frame))
    }

    /// Queues several frames to leave in one write; false as for [`Outbox::send`].
    pub fn send_batch(&self, frames: Vec<Utf8Bytes>) -> bool {
        self.queue(Out::Batch(frames))
    }

    fn queue(&self, out: Out) -> bool {
        let tx = match &self.sink {
            Sink::Queue(tx) => tx,
            Sink::Relay(relay) => {
                relay.relay(out);
                return true;
            }
        };
        match tx.try_send(out) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                // A client that stopped reading: a frame is lost, so the connection must end
                // (a client resumes from a clean reconnection, not from a gap).
                self.overflow.full.store(true, Ordering::Release);
                self.overflow.waker.wake();
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// Completes once a frame could not be queued because the queue was full: the
    /// connection's task then closes the socket, even while a write to it is blocked. One task
    /// waits for it (the connection's): a second waiter would take the first one's place.
    pub async fn overflowed(&self) {
        let overflow = &self.overflow;
        std::future::poll_fn(|cx| {
            if overflow.full.load(Ordering::Acquire) {
                return Poll::Ready(());
            }
            overflow.waker.register(cx.waker());
            // Set between the load and the registration: its wake-up may have gone to the
            // waker registered before, so it is read again.
            if overflow.full.load(Ordering::Acquire) {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
        .await;
    }

    /// Queues a text.
    pub fn send_text(&self, text: String) -> bool {
        self.send(Utf8Bytes::from(text))
    }

    /// Asks the writer to close the socket.
    pub fn close(&self, code: u16, reason: &'static str) {
        match &self.sink {
            Sink::Queue(tx) => {
                let _ = tx.try_send(Out::Close(code, reason));
            }
            Sink::Relay(relay) => relay.relay(Out::Close(code, reason)),
        }
    }
}
