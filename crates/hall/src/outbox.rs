//! What a connection sends: frames queued by rooms and the hall, written in batches.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering};
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
    /// Set once the connection must stop at once (see [`Outbox::stopped`]).
    stop: Arc<StopSignal>,
}

/// Why a connection's task stops whatever it is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A frame found its queue full: a frame is lost, so the connection ends (a client
    /// resumes from a clean reconnection, not from a gap) and the rooms run their disconnect
    /// path for it.
    Overflow,
    /// The hall shuts down: the socket closes with 1012 so that the client reconnects at once.
    Restart,
}

/// The mark of a connection that must stop, and the waker of the one task that waits for it
/// (the connection's). An atomic and an [`AtomicWaker`] of its own rather than a `watch`
/// channel shared by the hall: the connection's loop polls [`Outbox::stopped`] every time it
/// waits (several times per action), and a waiting `watch` receiver locks the channel's
/// waiters' mutex, one for every connection of the hall, on each of those polls.
#[derive(Debug, Default)]
struct StopSignal {
    /// 0 while running, else `1 + Stop as u8` (the first reason set stays).
    state: AtomicU8,
    waker: AtomicWaker,
}

impl StopSignal {
    fn set(&self, stop: Stop) {
        let state = 1 + stop as u8;
        // The first reason stays: an overflow during a restart is still an overflow.
        let _ = self
            .state
            .compare_exchange(0, state, Ordering::AcqRel, Ordering::Acquire);
        self.waker.wake();
    }

    fn get(&self) -> Option<Stop> {
        match self.state.load(Ordering::Acquire) {
            0 => None,
            1 => Some(Stop::Overflow),
            _ => Some(Stop::Restart),
        }
    }
}

/// What the hall keeps of a connection to stop it when it shuts down.
#[derive(Clone, Debug)]
pub struct Stopper(Arc<StopSignal>);

impl Stopper {
    /// Stops the connection with [`Stop::Restart`].
    pub fn restart(&self) {
        self.0.set(Stop::Restart);
    }
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
            stop: Arc::default(),
        };
        (outbox, rx)
    }

    /// An outbox whose frames go straight to `relay` (it never overflows nor closes).
    pub fn relayed(relay: Arc<dyn Relay>) -> Outbox {
        Outbox {
            id: NEXT_CONN.fetch_add(1, Ordering::Relaxed),
            sink: Sink::Relay(relay),
            stop: Arc::default(),
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
                // A client that stopped reading: a frame is lost, so the connection must end.
                self.stop.set(Stop::Overflow);
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    /// Completes once the connection must stop (a frame could not be queued because the
    /// queue was full, or the hall shuts down), with the reason: the connection's task then
    /// closes the socket, even while a write to it is blocked. It may be polled again after
    /// it completed (it completes again). One task waits for it (the connection's): a second
    /// waiter would take the first one's place.
    pub fn stopped(&self) -> impl Future<Output = Stop> + '_ {
        let stop = &self.stop;
        std::future::poll_fn(move |cx| {
            if let Some(reason) = stop.get() {
                return Poll::Ready(reason);
            }
            stop.waker.register(cx.waker());
            // Set between the load and the registration: its wake-up may have gone to the
            // waker registered before, so it is read again.
            match stop.get() {
                Some(reason) => Poll::Ready(reason),
                None => Poll::Pending,
            }
        })
    }

    /// The handle the hall keeps to stop this connection when it shuts down.
    pub fn stopper(&self) -> Stopper {
        Stopper(self.stop.clone())
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
