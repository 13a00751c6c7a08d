//! What a connection sends: frames queued by rooms and the hall, written in batches. A queue
//! is bounded in frames and in bytes (§5: what the hall holds for one connection is bounded in
//! bytes, whatever it reads or follows); a frame for many connections is one shared buffer
//! ([`Utf8Bytes`]), counted in each queue that holds it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::task::Poll;

use axum::extract::ws::Utf8Bytes;
use futures_util::task::AtomicWaker;
use tokio::sync::mpsc;

/// Frames a connection may queue before it counts as too slow.
pub const OUTBOX_CAPACITY: usize = 4096;

/// Bytes a connection may have queued (frames not yet written to its socket) before it counts
/// as too slow, by default (`Limits::outbox_bytes`).
pub const OUTBOX_BYTES: usize = 1024 * 1024;

/// The reason a connection too slow to take what it is sent is closed with (code 1008).
pub const TOO_SLOW: &str = "too slow: more was queued for this connection than it may hold";

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

impl Out {
    /// The bytes of text it carries (what it counts against its queue's byte bound).
    pub fn bytes(&self) -> usize {
        match self {
            Out::Text(text) => text.len(),
            Out::Batch(frames) => frames.iter().map(|f| f.len()).sum(),
            Out::Close(..) => 0,
        }
    }
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
    /// A frame found its queue full (in frames or in bytes): a frame is lost, so the
    /// connection ends, closed with [`TOO_SLOW`] if it still takes a close frame (a client
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
/// It also counts the bytes queued: one allocation per connection for both, and the hall reads
/// the count through the [`Stopper`] it keeps of every connection (`/metrics`), so that no
/// counter is shared by all connections on the path of every frame.
#[derive(Debug)]
struct StopSignal {
    /// 0 while running, else `1 + Stop as u8` (the first reason set stays).
    state: AtomicU8,
    waker: AtomicWaker,
    /// Bytes of the frames queued and not yet written (see [`Outbox::written`]).
    queued: AtomicUsize,
    /// Most bytes the queue may hold.
    limit: usize,
}

/// [`StopSignal::state`] of a connection stopped by [`Stop::Overflow`].
const OVERFLOWED: u8 = 1 + Stop::Overflow as u8;

impl StopSignal {
    fn new(limit: usize) -> StopSignal {
        StopSignal {
            state: AtomicU8::new(0),
            waker: AtomicWaker::new(),
            queued: AtomicUsize::new(0),
            limit,
        }
    }
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

    /// Bytes queued for the connection and not yet written.
    pub fn queued_bytes(&self) -> usize {
        self.0.queued.load(Ordering::Relaxed)
    }
}

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

impl Outbox {
    /// A new outbox of [`OUTBOX_BYTES`] and the receiver its writer drains.
    pub fn new() -> (Outbox, mpsc::Receiver<Out>) {
        Outbox::bounded(OUTBOX_BYTES)
    }

    /// A new outbox that holds at most `bytes` of frames not yet written (and at most its
    /// capacity in frames), and the receiver its writer drains: the writer tells it what it
    /// wrote ([`Outbox::written`]).
    pub fn bounded(bytes: usize) -> (Outbox, mpsc::Receiver<Out>) {
        let (tx, rx) = mpsc::channel(CAPACITY.load(Ordering::Relaxed));
        let id = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
        let outbox = Outbox {
            id,
            sink: Sink::Queue(tx),
            stop: Arc::new(StopSignal::new(bytes)),
        };
        (outbox, rx)
    }

    /// An outbox whose frames go straight to `relay` (it never overflows nor closes).
    pub fn relayed(relay: Arc<dyn Relay>) -> Outbox {
        Outbox {
            id: NEXT_CONN.fetch_add(1, Ordering::Relaxed),
            sink: Sink::Relay(relay),
            stop: Arc::new(StopSignal::new(usize::MAX)),
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
        let signal = &*self.stop;
        // A connection cut off for falling behind takes nothing more (it is closing).
        if signal.state.load(Ordering::Relaxed) == OVERFLOWED {
            return false;
        }
        // Counted before it is queued, so that the writer's subtraction never goes below 0.
        let bytes = out.bytes();
        let before = signal.queued.fetch_add(bytes, Ordering::Relaxed);
        // One frame always fits an empty queue, however large.
        if before > 0 && before + bytes > signal.limit {
            signal.queued.fetch_sub(bytes, Ordering::Relaxed);
            // A client that stopped reading: a frame is lost, so the connection must end.
            signal.set(Stop::Overflow);
            return false;
        }
        match tx.try_send(out) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                signal.queued.fetch_sub(bytes, Ordering::Relaxed);
                // A client that stopped reading: a frame is lost, so the connection must end.
                signal.set(Stop::Overflow);
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {
                signal.queued.fetch_sub(bytes, Ordering::Relaxed);
                false
            }
        }
    }

    /// The writer wrote (or dropped) outputs of `bytes` taken from the queue.
    pub fn written(&self, bytes: usize) {
        self.stop.queued.fetch_sub(bytes, Ordering::Relaxed);
    }

    /// Bytes queued and not yet written.
    pub fn queued_bytes(&self) -> usize {
        self.stop.queued.load(Ordering::Relaxed)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn text(len: usize) -> Utf8Bytes {
        Utf8Bytes::from("x".repeat(len))
    }

    /// §5: a queue takes frames up to its byte bound; the next one stops the connection as
    /// too slow (and nothing more is queued), while one frame alone always fits.
    #[test]
    fn an_outbox_is_bounded_in_bytes_and_counts_what_was_written() {
        let (outbox, mut rx) = Outbox::bounded(1000);
        let stopper = outbox.stopper();
        assert!(outbox.send(text(2000)), "one frame fits an empty queue");
        assert_eq!(stopper.queued_bytes(), 2000);
        let out = rx.try_recv().expect("queued");
        outbox.written(out.bytes());
        assert_eq!(outbox.queued_bytes(), 0);
        let shared = text(400);
        assert!(outbox.send(shared.clone()));
        assert!(outbox.send_batch(vec![shared.clone(), text(100)]));
        assert_eq!(outbox.queued_bytes(), 900);
        assert_eq!(outbox.stop.get(), None);
        assert!(!outbox.send(shared.clone()), "past the bound");
        assert_eq!(outbox.stop.get(), Some(Stop::Overflow));
        assert_eq!(
            outbox.queued_bytes(),
            900,
            "the refused frame is not counted"
        );
        // Once cut off, nothing more is queued, even a frame that would fit.
        assert!(!outbox.send(text(1)));
        assert_eq!(outbox.queued_bytes(), 900);
    }

    /// The frame bound still holds, and a frame refused by it is not counted.
    #[test]
    fn an_outbox_full_of_frames_stops_and_uncounts_the_refused_one() {
        let (outbox, _rx) = Outbox::bounded(OUTBOX_BYTES);
        let capacity = CAPACITY.load(Ordering::Relaxed);
        for _ in 0..capacity {
            assert!(outbox.send(text(1)));
        }
        assert!(!outbox.send(text(1)));
        assert_eq!(outbox.stop.get(), Some(Stop::Overflow));
        assert_eq!(outbox.queued_bytes(), capacity);
    }
}
