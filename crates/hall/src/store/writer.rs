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

use super::{Backend, Store, StoreError};

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
    /// Any other write.
    Run(Job),
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
            .send(Write::Run(job))
            .map_err(|_| StoreError::WriterGone)?;
        rx.await.map_err(|_| StoreError::WriterGone)?
    }
}

/// How long the writer keeps its connection without work.
const KEEP_CONNECTION: std::time::Duration = std::time::Duration::from_millis(100);

/// Most writes taken into one transaction.
const MAX_BATCH: usize = 1024;

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
    // One connection kept while writes flow: its page cache stays warm and its prepared
    // statements are reused batch after batch. It goes back to the pool when idle, so that
    // closing the pool does not wait for it.
    let mut conn = None;
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
                Write::Run(job) => jobs.push(job),
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
        let (outcome, delivers) = match conn.as_mut() {
            Some(conn) if jobs.is_empty() => (write_actions(conn, backend, &appends).await, vec![]),
            Some(conn) => write_together(conn, backend, &appends, &mut jobs).await,
            None => {
                jobs.clear();
                (Err("no database connection".to_owned()), vec![])
            }
        };
        crate::latency::record_commit(appends.len(), commit_started.elapsed());
        match outcome {
            Ok(()) => committed.notify_one(),
            Err(_) => conn = None,
        }
        for append in appends.drain(..) {
            let _ = append.done.send(outcome.clone());
        }
        for deliver in delivers {
            deliver(outcome.clone());
        }
    }
}

/// Appends and other writes in one transaction, each other write in a savepoint.
async fn write_together(
    conn: &mut AnyConnection,
    backend: Backend,
    appends: &[Append],
    jobs: &mut Vec<Job>,
) -> (Result<(), String>, Vec<Deliver>) {
    let mut delivers = Vec::with_capacity(jobs.len());
    if let Err(e) = conn.execute("BEGIN").await {
        jobs.clear();
        return (Err(failed(e)), delivers);
    }
    let mut outcome = write_actions(conn, backend, appends).await;
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

fn failed(e: sqlx::Error) -> String {
    tracing::error!(error = %e, "storing failed");
    e.to_string()
}

/// Writes a batch of actions with ONE statement (atomic on its own: one transaction, one
/// round trip to the database whatever the batch size): the rows travel as one JSON array
/// `[[game_id, idx, data], …]` that the database unpacks.
async fn write_actions(
    conn: &mut AnyConnection,
    backend: Backend,
    batch: &[Append],
) -> Result<(), String> {
    if batch.is_empty() {
        return Ok(());
    }
    let rows: Vec<(i64, i64, &str)> = batch
        .iter()
        .map(|a| (a.game_id, a.idx, a.data.as_str()))
        .collect();
    let rows = serde_json::to_string(&rows).expect("rows serialise");
    let sql = match backend {
        Backend::Sqlite => {
            "INSERT INTO actions (game_id, idx, data) \
             SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), \
             json_extract(value, '$[2]') FROM json_each($1)"
        }
        Backend::Postgres => {
            "INSERT INTO actions (game_id, idx, data) \
             SELECT (e->>0)::bigint, (e->>1)::bigint, e->>2 FROM json_array_elements($1::json) e"
        }
    };
    sqlx::query(sql)
        .bind(rows)
        .execute(&mut *conn)
        .await
        .map(drop)
        .map_err(failed)
}
