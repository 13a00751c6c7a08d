//! The one writer: every change to the database goes through one task and one connection.
//!
//! SQLite allows one writer at a time. When rooms wrote through the pool, a game start or a
//! waiting-room row on one connection held the write lock while the action writer on another
//! waited in SQLite's busy handler, which *sleeps* (1, 2, 5, … up to 100 ms between tries):
//! the acknowledgements of every room waiting on that commit waited too. Here nothing competes
//! for the lock: game actions, game starts and waiting-room rows are written with one statement
//! per kind per batch (group commit, see [`batch`](super::batch)), and other writes (players,
//! tokens, results) that arrive together share one transaction with them, each in its own
//! savepoint so that one failing write changes nothing and fails alone. A caller is answered
//! only after the commit (P-DURABLE).

use futures_util::future::BoxFuture;
use sqlx::{AnyConnection, AnyPool, Executor};
use std::sync::Arc;
use tokio::sync::{Notify, mpsc, oneshot};

use super::batch::Batch;
use super::cluster::fence;
use super::health::{Health, PROBE_EVERY};
use super::node_scope::NodeScope;
use super::tails::Tails;
use super::write::{Deliver, Job, MAX_BATCH, Write, failed};
use super::{Backend, Store, StoreError, log};

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
            .await
            .map_err(|_| StoreError::WriterGone)?;
        rx.await.map_err(|_| StoreError::WriterGone)?
    }

    /// Sends `write` (made with the answer's sender) to the writer and waits for its answer.
    pub(super) async fn send_write<T>(
        &self,
        write: impl FnOnce(oneshot::Sender<Result<T, String>>) -> Write,
    ) -> Result<T, StoreError> {
        let (done, answer) = oneshot::channel();
        self.writes
            .send(write(done))
            .await
            .map_err(|_| StoreError::WriterGone)?;
        match answer.await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(message)) => Err(StoreError::Database(sqlx::Error::Protocol(message))),
            Err(_) => Err(StoreError::WriterGone),
        }
    }
}

/// How long the writer keeps its connection without work.
const KEEP_CONNECTION: std::time::Duration = std::time::Duration::from_millis(100);

/// Least time between two chunkings of the gathered actions (each its own transaction, after a
/// commit's callers are answered): frequent small ones keep the tails short, the journal
/// trimmed and each pause of the commits behind them short.
const CHUNK_EVERY: std::time::Duration = std::time::Duration::from_millis(50);

/// The writer task: takes every queued write, commits them together, then answers each.
pub(super) async fn run_writer(
    pool: AnyPool,
    backend: Backend,
    mut rx: mpsc::Receiver<Write>,
    committed: Arc<Notify>,
    mut health: Health,
    scope: Arc<std::sync::OnceLock<NodeScope>>,
) {
    let mut received = Vec::with_capacity(256);
    let mut batch = Batch::default();
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
        let count = if health.failing() {
            // Writes fail: probe now and then while none comes, to notice the recovery.
            let next = rx.recv_many(&mut received, MAX_BATCH);
            match tokio::time::timeout(PROBE_EVERY, next).await {
                Ok(count) => count,
                Err(_) => {
                    conn = None;
                    let started = std::time::Instant::now();
                    match probe(&pool).await {
                        Ok(()) => health.succeeded(),
                        Err(reason) => health.failed(started, &reason),
                    }
                    continue;
                }
            }
        } else if conn.is_some() {
            let next = rx.recv_many(&mut received, MAX_BATCH);
            match tokio::time::timeout(KEEP_CONNECTION, next).await {
                Ok(count) => count,
                Err(_) => {
                    conn = None;
                    continue;
                }
            }
        } else {
            rx.recv_many(&mut received, MAX_BATCH).await
        };
        if count == 0 {
            break;
        }
        batch.extend(received.drain(..));
        if pool.is_closed() {
            // Shutting down: nothing more is stored (and the kept connection is let go, so
            // that closing the pool completes).
            conn = None;
        } else if conn.is_none() {
            conn = pool.acquire().await.ok();
        }
        let started = std::time::Instant::now();
        let outcome = match (health.check_file(), conn.as_mut()) {
            (Err(reason), _) => Err(reason),
            (Ok(()), Some(conn)) => {
                commit(conn, backend, scope.get(), &mut tails, &mut batch).await
            }
            (Ok(()), None) => Err("no database connection".to_owned()),
        };
        crate::latency::record_commit(batch.appends(), started.elapsed());
        match &outcome {
            Ok(()) => {
                committed.notify_one();
                health.succeeded();
            }
            Err(reason) => {
                conn = None;
                health.failed(started, reason);
            }
        }
        batch.answer(&outcome);
        if last_chunking.elapsed() >= CHUNK_EVERY {
            last_chunking = std::time::Instant::now();
            if let (Some(conn), Some(loaded)) = (conn.as_mut(), tails.as_mut())
                && let Err(e) = chunk_and_trim(conn, backend, scope.get(), loaded).await
            {
                failed(e);
                tails = None;
            }
        }
    }
}

/// Stores a batch, with the tails loaded first if need be; after a failure the tails are
/// dropped, to be reloaded from the database.
async fn commit(
    conn: &mut AnyConnection,
    backend: Backend,
    scope: Option<&NodeScope>,
    tails: &mut Option<Tails>,
    batch: &mut Batch,
) -> Result<(), String> {
    let mut loaded = match tails.take() {
        Some(loaded) => loaded,
        None => log::load_tails(conn, scope).await.map_err(failed)?,
    };
    batch.execute(conn, backend, scope, &mut loaded).await?;
    *tails = Some(loaded);
    Ok(())
}

/// Stores the chunks due and deletes the journal rows they made useless, in one transaction
/// (fenced in cluster mode; only this node's journal range is trimmed).
async fn chunk_and_trim(
    conn: &mut AnyConnection,
    backend: Backend,
    scope: Option<&NodeScope>,
    tails: &mut Tails,
) -> Result<(), sqlx::Error> {
    let chunks = tails.take_due();
    let trim = tails.take_trim();
    if chunks.is_empty() && trim.is_none() {
        return Ok(());
    }
    conn.execute("BEGIN").await?;
    let mut result = match scope {
        Some(scope) => fence(conn, scope).await.map_err(sqlx::Error::Protocol),
        None => Ok(()),
    };
    if result.is_ok() {
        result = log::insert_chunks(conn, backend, &chunks).await;
    }
    if let (Ok(()), Some(seq)) = (&result, trim) {
        let from = scope.map_or(i64::MIN, |scope| scope.range().0);
        result = log::trim_journal(conn, from, seq).await;
    }
    let end = if result.is_ok() { "COMMIT" } else { "ROLLBACK" };
    let ended = conn.execute(end).await.map(drop);
    result.and(ended)
}

/// A write that changes nothing, to tell whether the database takes writes: a table made
/// in a transaction that is rolled back.
async fn probe(pool: &AnyPool) -> Result<(), String> {
    let mut conn = pool.acquire().await.map_err(|e| e.to_string())?;
    conn.execute("BEGIN").await.map_err(|e| e.to_string())?;
    let made = conn
        .execute("CREATE TABLE hangar_write_probe (x INTEGER)")
        .await;
    let ended = conn.execute("ROLLBACK").await;
    made.map(drop).map_err(|e| e.to_string())?;
    ended.map(drop).map_err(|e| e.to_string())
}
