//! The one writer: every change to the database goes through one task and one connection.
//!
//! SQLite allows one writer at a time. When rooms wrote through the pool, a game start or a
//! waiting-room row on one connection held the write lock while the action writer on another
//! waited in SQLite's busy handler, which *sleeps* (1, 2, 5, … up to 100 ms between tries):
//! the acknowledgements of every room waiting on that commit waited too. Here nothing competes
//! for the lock: game actions are appended with one statement per batch (group commit), and
//! other writes (players, tokens, game starts and results, waiting rooms) that arrive together
//! share one transaction with them, each in its own savepoint so that one failing write changes
//! nothing and fails alone. A caller is answered only after the commit (P-DURABLE).

use futures_util::future::BoxFuture;
use sqlx::{AnyConnection, AnyPool, Executor};
use std::sync::Arc;
use tokio::sync::{Notify, mpsc, oneshot};

use super::tails::{JournalRow, Tails};
use super::{Backend, Store, StoreError, log};

/// One action to append, and who waits for its commit.
pub(super) struct Append {
    pub(super) game_id: i64,
    pub(super) idx: i64,
    pub(super) data: String,
    pub(super) done: oneshot::Sender<Result<(), String>>,
}

/// Tells a write's caller how it went, once the transaction holding it has ended (`Err`: the
/// commit failed).
type Deliver = Box<dyn FnOnce(Result<(), String>) + Send>;

/// A write to run on the writer's connection: whether it succeeded (else its savepoint is
/// rolled back), and how to answer its caller after the commit.
type Job = Box<dyn for<'c> FnOnce(&'c mut AnyConnection) -> BoxFuture<'c, (bool, Deliver)> + Send>;

/// What the writer is asked to do.
pub(super) enum Write {
    /// Append a game action (the hot path: many in one statement).
    Append(Append),
    /// Any other write; `seal` names a game that ends with it, whose last gathered actions are
    /// chunked in the same transaction (see [`tails`](super::tails)).
    Run { job: Job, seal: Option<i64> },
}

impl Store {
    /// Runs `job` on the writer's connection, inside the writer's transaction; its result is
    /// returned once that transaction is committed. A failing job changes nothing.
    pub(super) async fn write<T, F>(&self, job: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(&'c mut AnyConnection) -> BoxFuture<'c, Result<T, sqlx::Error>>
            + Send
            + 'static,
    {
        self.write_sealing(None, job).await
    }

    /// [`Store::write`] for the write that ends game `seal`: the game's action log is
    /// completed in chunks in the same transaction.
    pub(super) async fn write_sealing<T, F>(
        &self,
        seal: Option<i64>,
        job: F,
    ) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(&'c mut AnyConnection) -> BoxFuture<'c, Result<T, sqlx::Error>>
            + Send
            + 'static,
    {
        let (tx, rx) = oneshot::channel::<Result<T, StoreError>>();
        let job: Job = Box::new(move |conn| {
            Box::pin(async move {
                let result = job(conn).await;
                let ok = result.is_ok();
                let deliver: Deliver = Box::new(move |committed| {
                    let answer = match (result, committed) {
                        (Ok(value), Ok(())) => Ok(value),
                        (Err(e), _) => Err(StoreError::Database(e)),
                        (Ok(_), Err(message)) => {
                            Err(StoreError::Database(sqlx::Error::Protocol(message)))
                        }
                    };
                    let _ = tx.send(answer);
                });
                (ok, deliver)
            })
        });
        self.writes
            .send(Write::Run { job, seal })
            .map_err(|_| StoreError::WriterGone)?;
        rx.await.map_err(|_| StoreError::WriterGone)?
    }
}

/// How long the writer keeps its connection without work.
const KEEP_CONNECTION: std::time::Duration = std::time::Duration::from_millis(100);

/// Most writes taken into one transaction.
const MAX_BATCH: usize = 1024;

/// Least time between two chunkings of the gathered actions (each its own transaction, after a
/// commit's callers are answered): a few per second keep the tails short and the journal
/// trimmed, at the cost of one transaction of a few pages.
const CHUNK_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

/// The writer task: takes every queued write, commits them together, then answers each.
pub(super) async fn run_writer(
    pool: AnyPool,
    backend: Backend,
    mut rx: mpsc::UnboundedReceiver<Write>,
    committed: Arc<Notify>,
) {
    let mut batch = Vec::with_capacity(256);
    let mut appends = Vec::with_capacity(256);
    let mut jobs = Vec::new();
    let mut seals = Vec::new();
    // One connection kept while writes flow: its page cache stays warm and its prepared
    // statements are reused batch after batch. It goes back to the pool when idle, so that
    // closing the pool does not wait for it.
    let mut conn = None;
    // The gathered actions of running games; `None` until loaded, and again after a failed
    // write (reloaded from the database, which holds the truth).
    let mut tails: Option<Tails> = None;
    let mut last_chunking = std::time::Instant::now();
    loop {
        // Let every task that is ready to run go first: rooms woken by the same poll of the
        // sockets queue their appends, and one commit takes them all. Without this the writer,
        // woken by the first append into the scheduler's next slot, commits batches of two.
        tokio::task::yield_now().await;
        let received = if conn.is_some() {
            match tokio::time::timeout(KEEP_CONNECTION, rx.recv_many(&mut batch, MAX_BATCH)).await {
                Ok(received) => received,
                Err(_) => {
                    conn = None;
                    continue;
                }
            }
        } else {
            rx.recv_many(&mut batch, MAX_BATCH).await
        };
        if received == 0 {
            break;
        }
        for write in batch.drain(..) {
            match write {
                Write::Append(append) => appends.push(append),
                Write::Run { job, seal } => {
                    jobs.push(job);
                    seals.extend(seal);
                }
            }
        }
        if pool.is_closed() {
            // Shutting down: nothing more is stored (and the kept connection is let go, so
            // that closing the pool completes).
            conn = None;
        } else if conn.is_none() {
            conn = pool.acquire().await.ok();
        }
        let commit_started = std::time::Instant::now();
        // Which appends were refused (not their game's next action): answered with an error.
        let mut refused = Vec::new();
        let (outcome, delivers) = match (conn.as_mut(), tails.take()) {
            (Some(conn), loaded) => {
                let loaded = match loaded {
                    Some(loaded) => Ok(loaded),
                    None => log::load_tails(conn).await.map_err(failed),
                };
                match loaded {
                    Ok(mut loaded) => {
                        let rows = loaded.append(appends.iter().map(Append::row));
                        refused = rows.iter().map(Option::is_none).collect();
                        let result = if jobs.is_empty() {
                            (
                                log::insert_rows(conn, backend, &rows).await.map_err(failed),
                                vec![],
                            )
                        } else {
                            let write = Together {
                                tails: &mut loaded,
                                rows: &rows,
                                seals: &seals,
                            };
                            write.run(conn, backend, &mut jobs).await
                        };
                        if result.0.is_ok() {
                            tails = Some(loaded);
                        }
                        result
                    }
                    Err(e) => {
                        jobs.clear();
                        (Err(e), vec![])
                    }
                }
            }
            (None, _) => {
                jobs.clear();
                (Err("no database connection".to_owned()), vec![])
            }
        };
        seals.clear();
        crate::latency::record_commit(appends.len(), commit_started.elapsed());
        match outcome {
            Ok(()) => committed.notify_one(),
            Err(_) => conn = None,
        }
        for (append, refused) in appends
            .drain(..)
            .zip(refused.into_iter().chain(std::iter::repeat(false)))
        {
            let answer = if refused {
                Err(format!(
                    "action {} of game {} is not the game's next action",
                    append.idx, append.game_id
                ))
            } else {
                outcome.clone()
            };
            let _ = append.done.send(answer);
        }
        for deliver in delivers {
            deliver(outcome.clone());
        }
        if last_chunking.elapsed() >= CHUNK_EVERY {
            last_chunking = std::time::Instant::now();
            if let (Some(conn), Some(loaded)) = (conn.as_mut(), tails.as_mut())
                && let Err(e) = chunk_and_trim(conn, backend, loaded).await
            {
                failed(e);
                tails = None;
            }
        }
    }
}

impl Append {
    fn row(&self) -> (i64, i64, &str) {
        (self.game_id, self.idx, self.data.as_str())
    }
}

/// Stores the chunks due and deletes the journal rows they made useless, in one transaction.
async fn chunk_and_trim(
    conn: &mut AnyConnection,
    backend: Backend,
    tails: &mut Tails,
) -> Result<(), sqlx::Error> {
    let chunks = tails.take_due();
    let trim = tails.take_trim();
    if chunks.is_empty() && trim.is_none() {
        return Ok(());
    }
    conn.execute("BEGIN").await?;
    let mut result = log::insert_chunks(conn, backend, &chunks).await;
    if let (Ok(()), Some(seq)) = (&result, trim) {
        result = log::trim_journal(conn, seq).await;
    }
    let end = if result.is_ok() { "COMMIT" } else { "ROLLBACK" };
    let ended = conn.execute(end).await.map(drop);
    result.and(ended)
}

/// Appends and other writes in one transaction, each other write in a savepoint; the games
/// in `seals` end here and their gathered actions are chunked.
struct Together<'a, 'r> {
    tails: &'a mut Tails,
    rows: &'a [Option<JournalRow<'r>>],
    seals: &'a [i64],
}

impl Together<'_, '_> {
    async fn run(
        self,
        conn: &mut AnyConnection,
        backend: Backend,
        jobs: &mut Vec<Job>,
    ) -> (Result<(), String>, Vec<Deliver>) {
        let mut delivers = Vec::with_capacity(jobs.len());
        if let Err(e) = conn.execute("BEGIN").await {
            jobs.clear();
            return (Err(failed(e)), delivers);
        }
        let mut outcome = log::insert_rows(conn, backend, self.rows).await;
        if outcome.is_ok() {
            // The last actions of an ending game go in before the write that ends it: a game
            // recorded as finished has its whole log in chunks.
            let chunks: Vec<_> = self
                .seals
                .iter()
                .filter_map(|&id| self.tails.seal(id))
                .collect();
            outcome = log::insert_chunks(conn, backend, &chunks).await;
        }
        let mut outcome = outcome.map_err(failed);
        if outcome.is_ok() {
            for job in jobs.drain(..) {
                if let Err(e) = conn.execute("SAVEPOINT write").await {
                    outcome = Err(failed(e));
                    break;
                }
                let (ok, deliver) = job(conn).await;
                delivers.push(deliver);
                let rolled_back = if ok {
                    Ok(())
                } else {
                    conn.execute("ROLLBACK TO SAVEPOINT write").await.map(drop)
                };
                let released = match rolled_back {
                    Ok(()) => conn.execute("RELEASE SAVEPOINT write").await.map(drop),
                    Err(e) => Err(e),
                };
                if let Err(e) = released {
                    outcome = Err(failed(e));
                    break;
                }
            }
        }
        // Jobs never run (an earlier failure) are dropped: their callers hear the writer is gone.
        jobs.clear();
        let end = if outcome.is_ok() {
            "COMMIT"
        } else {
            "ROLLBACK"
        };
        if let Err(e) = conn.execute(end).await {
            outcome = outcome.and(Err(failed(e)));
        }
        (outcome, delivers)
    }
}

fn failed(e: sqlx::Error) -> String {
    tracing::error!(error = %e, "storing failed");
    e.to_string()
}
