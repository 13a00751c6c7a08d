//! What the one writer (`writer.rs`) is asked to do, and what it answers: the vocabulary the
//! writer, its batches (`batch.rs`) and the stores' writes share.

use futures_util::future::BoxFuture;
use sqlx::AnyConnection;
use tokio::sync::oneshot;

use super::{NewGame, WaitingRoom};

/// Most writes taken into one transaction.
pub(super) const MAX_BATCH: usize = 1024;

/// Writes the writer's queue holds (docs/architecture.md, "Queues and their bounds"): eight
/// full batches. Every caller waits for its commit anyway, so a full queue makes the next
/// caller wait its turn (backpressure on the rooms), and nothing is dropped.
pub(super) const WRITE_QUEUE: usize = 8 * MAX_BATCH;

/// One action to append, and who waits for its commit.
pub(super) struct Append {
    pub(super) game_id: i64,
    pub(super) idx: i64,
    pub(super) data: String,
    pub(super) done: oneshot::Sender<Result<(), String>>,
}

impl Append {
    /// The action as the journal takes it: (game, index, data).
    pub(super) fn row(&self) -> (i64, i64, &str) {
        (self.game_id, self.idx, self.data.as_str())
    }
}

/// Tells a write's caller how it went, once the transaction holding it has ended (`Err`: the
/// commit failed).
pub(super) type Deliver = Box<dyn FnOnce(Result<(), String>) + Send>;

/// A write to run on the writer's connection: whether it succeeded (else its savepoint is
/// rolled back), and how to answer its caller after the commit.
pub(super) type Job =
    Box<dyn for<'c> FnOnce(&'c mut AnyConnection) -> BoxFuture<'c, (bool, Deliver)> + Send>;

/// A game to store as it starts, and who waits for its id.
pub(super) struct StartGame {
    pub(super) game: NewGame,
    pub(super) done: oneshot::Sender<Result<i64, String>>,
}

/// A waiting room's row to store (`Some`) or remove (`None`), and who waits for the commit.
pub(super) struct SaveWaiting {
    pub(super) code: String,
    pub(super) row: Option<WaitingRoom>,
    pub(super) done: oneshot::Sender<Result<(), String>>,
}

/// What the writer is asked to do. The frequent writes (actions, game starts, waiting rooms)
/// have their own kinds so that a batch stores each kind with one statement, however many
/// rooms sent one: a burst of game starts costs a few statements, not a few per game.
pub(super) enum Write {
    /// Append a game action (the hot path: many in one statement).
    Append(Append),
    /// Store a game that starts.
    StartGame(StartGame),
    /// Store or remove a waiting room's row.
    SaveWaiting(SaveWaiting),
    /// Any other write; `seal` names a game that ends with it, whose last gathered actions are
    /// chunked in the same transaction (see [`tails`](super::tails)).
    Run { job: Job, seal: Option<i64> },
}

/// Logs a failed write; its message for the callers.
pub(super) fn failed(e: sqlx::Error) -> String {
    tracing::error!(error = %e, "storing failed");
    e.to_string()
}
