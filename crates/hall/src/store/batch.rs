//! One batch of the writer: the writes that arrived together, stored in one transaction, then
//! answered.
//!
//! Each frequent kind of write goes in with ONE statement for the whole batch, the rows
//! travelling as one JSON array that the database unpacks (`json_each` in SQLite,
//! `json_array_elements` in PostgreSQL): game actions, game starts, waiting-room rows. A batch
//! of actions alone is that one statement in its own transaction; anything else adds `BEGIN`
//! and `COMMIT`, and each other write ([`Job`]) runs in its own savepoint, so that one failing
//! job changes nothing and fails alone.

use std::collections::HashMap;

use sqlx::{AnyConnection, Executor, Row};

use super::cluster::{fence, insert_rows_fenced};
use super::node_scope::NodeScope;
use super::tails::Tails;
use super::write::{Append, Deliver, Job, SaveWaiting, StartGame, Write, failed};
use super::{Backend, log};
use crate::time::now_ms;

/// The writes of one batch and, once executed, what to answer.
#[derive(Default)]
pub(super) struct Batch {
    appends: Vec<Append>,
    starts: Vec<StartGame>,
    waiting: Vec<SaveWaiting>,
    jobs: Vec<Job>,
    /// Games that end in this batch (their jobs write the result).
    seals: Vec<i64>,
    /// For each append, whether it was refused (not its game's next action).
    refused: Vec<bool>,
    /// For each start, the new game's id.
    game_ids: Vec<i64>,
    delivers: Vec<Deliver>,
}

impl Batch {
    /// Takes writes in.
    pub(super) fn extend(&mut self, writes: impl IntoIterator<Item = Write>) {
        for write in writes {
            match write {
                Write::Append(append) => self.appends.push(append),
                Write::StartGame(start) => self.starts.push(start),
                Write::SaveWaiting(save) => self.waiting.push(save),
                Write::Run { job, seal } => {
                    self.jobs.push(job);
                    self.seals.extend(seal);
                }
            }
        }
    }

    /// How many actions the batch appends.
    pub(super) fn appends(&self) -> usize {
        self.appends.len()
    }

    /// Stores the batch; on `Err` nothing of it is stored (and `tails` is to be reloaded).
    pub(super) async fn execute(
        &mut self,
        conn: &mut AnyConnection,
        backend: Backend,
        scope: Option<&NodeScope>,
        tails: &mut Tails,
    ) -> Result<(), String> {
        let rows = tails.append(self.appends.iter().map(Append::row));
        self.refused = rows.iter().map(Option::is_none).collect();
        let only_actions = self.starts.is_empty()
            && self.waiting.is_empty()
            && self.jobs.is_empty()
            && self.seals.is_empty();
        if only_actions {
            return match scope {
                None => log::insert_rows(conn, backend, &rows).await.map_err(failed),
                Some(scope) => insert_rows_fenced(conn, scope, &rows).await,
            };
        }
        // A cluster node's every transaction starts with its fencing check.
        conn.execute("BEGIN").await.map_err(failed)?;
        if let Some(scope) = scope
            && let Err(fenced) = fence(conn, scope).await
        {
            let _ = conn.execute("ROLLBACK").await;
            return Err(fenced);
        }
        let mut outcome = log::insert_rows(conn, backend, &rows).await;
        if outcome.is_ok() {
            // The last actions of an ending game go in before the write that ends it: a game
            // recorded as finished has its whole log in chunks.
            let chunks: Vec<_> = self.seals.iter().filter_map(|&id| tails.seal(id)).collect();
            outcome = log::insert_chunks(conn, backend, &chunks).await;
        }
        if outcome.is_ok() {
            match insert_games(conn, backend, &self.starts).await {
                Ok(ids) => self.game_ids = ids,
                Err(e) => outcome = Err(e),
            }
        }
        if outcome.is_ok() {
            outcome = save_waiting(conn, backend, &self.waiting).await;
        }
        let mut outcome = outcome.map_err(failed);
        if outcome.is_ok() {
            outcome = self.run_jobs(conn).await;
        }
        // Jobs never run (an earlier failure) are dropped: their callers hear the writer is gone.
        self.jobs.clear();
        let end = if outcome.is_ok() {
            "COMMIT"
        } else {
            "ROLLBACK"
        };
        if let Err(e) = conn.execute(end).await {
            outcome = outcome.and(Err(failed(e)));
        }
        outcome
    }

    /// Runs each job in its own savepoint.
    async fn run_jobs(&mut self, conn: &mut AnyConnection) -> Result<(), String> {
        for job in self.jobs.drain(..) {
            conn.execute("SAVEPOINT write").await.map_err(failed)?;
            let (ok, deliver) = job(conn).await;
            self.delivers.push(deliver);
            if !ok {
                conn.execute("ROLLBACK TO SAVEPOINT write")
                    .await
                    .map_err(failed)?;
            }
            conn.execute("RELEASE SAVEPOINT write")
                .await
                .map_err(failed)?;
        }
        Ok(())
    }

    /// Answers every write of the batch and empties it for the next.
    pub(super) fn answer(&mut self, outcome: &Result<(), String>) {
        let refused = std::mem::take(&mut self.refused);
        for (i, append) in self.appends.drain(..).enumerate() {
            let answer = if refused.get(i) == Some(&true) {
                Err(format!(
                    "action {} of game {} is not the game's next action",
                    append.idx, append.game_id
                ))
            } else {
                outcome.clone()
            };
            let _ = append.done.send(answer);
        }
        let ids = std::mem::take(&mut self.game_ids);
        for (i, start) in self.starts.drain(..).enumerate() {
            let answer = outcome.clone().and_then(|()| {
                ids.get(i)
                    .copied()
                    .ok_or_else(|| "the game was not stored".to_owned())
            });
            let _ = start.done.send(answer);
        }
        for save in self.waiting.drain(..) {
            let _ = save.done.send(outcome.clone());
        }
        for deliver in self.delivers.drain(..) {
            deliver(outcome.clone());
        }
        // A batch that never reached `execute` (no connection) still holds its jobs, whose
        // callers hear of the failure when their senders are dropped here.
        self.jobs.clear();
        self.seals.clear();
    }
}

/// Stores the games that start, with one statement; their ids, in order.
async fn insert_games(
    conn: &mut AnyConnection,
    backend: Backend,
    starts: &[StartGame],
) -> Result<Vec<i64>, sqlx::Error> {
    if starts.is_empty() {
        return Ok(Vec::new());
    }
    let json: Vec<_> = starts
        .iter()
        .map(|s| {
            let g = &s.game;
            (
                &g.room,
                &g.game,
                i64::from(g.private),
                &g.options,
                &g.seats,
                &g.seed,
                &g.commitment,
                g.dice.name(),
            )
        })
        .collect();
    let sql = match backend {
        Backend::Sqlite => {
            "INSERT INTO games (room, game, private, options, seats, seed, commitment, dice, status, started_at) \
             SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), \
             json_extract(value, '$[2]'), json_extract(value, '$[3]'), json_extract(value, '$[4]'), \
             json_extract(value, '$[5]'), json_extract(value, '$[6]'), json_extract(value, '$[7]'), 'running', $2 \
             FROM json_each($1) RETURNING id, seed"
        }
        Backend::Postgres => {
            "INSERT INTO games (room, game, private, options, seats, seed, commitment, dice, status, started_at) \
             SELECT e->>0, e->>1, (e->>2)::bigint, e->>3, e->>4, e->>5, e->>6, e->>7, 'running', $2 \
             FROM json_array_elements($1::json) e RETURNING id, seed"
        }
    };
    let rows = sqlx::query(sql)
        .bind(serde_json::to_string(&json).expect("games serialise"))
        .bind(now_ms())
        .fetch_all(&mut *conn)
        .await?;
    // RETURNING promises no order: rows are told apart by their seed (random per game).
    let mut by_seed = HashMap::with_capacity(rows.len());
    for row in &rows {
        by_seed.insert(
            row.try_get::<String, _>("seed")?,
            row.try_get::<i64, _>("id")?,
        );
    }
    starts
        .iter()
        .map(|s| {
            by_seed.get(&s.game.seed).copied().ok_or_else(|| {
                sqlx::Error::Protocol(format!("no id returned for game of room {}", s.game.room))
            })
        })
        .collect()
}

/// The upsert of waiting-room rows read by `$rows` (a SELECT in the database's dialect of
/// the JSON array bound as `$1`, with the time as `$2`): one statement text per dialect,
/// written out at compile time.
macro_rules! upsert_waiting_rooms {
    ($rows:literal) => {
        concat!(
            "INSERT INTO waiting_rooms (code, game, private, options, host, seats, updated_at) ",
            $rows,
            " ON CONFLICT (code) DO UPDATE SET game = excluded.game, private = excluded.private, \
             options = excluded.options, host = excluded.host, seats = excluded.seats, \
             updated_at = excluded.updated_at"
        )
    };
}

/// Stores and removes waiting rooms' rows, one statement each; of several writes for one room,
/// the last counts.
async fn save_waiting(
    conn: &mut AnyConnection,
    backend: Backend,
    writes: &[SaveWaiting],
) -> Result<(), sqlx::Error> {
    if writes.is_empty() {
        return Ok(());
    }
    let mut last = HashMap::with_capacity(writes.len());
    for write in writes {
        last.insert(write.code.as_str(), write.row.as_ref());
    }
    let (saves, removals): (Vec<_>, Vec<_>) = last.into_iter().partition(|(_, row)| row.is_some());
    if !saves.is_empty() {
        let json: Vec<_> = saves
            .iter()
            .filter_map(|(_, row)| *row)
            .map(|r| {
                (
                    &r.code,
                    &r.game,
                    i64::from(r.private),
                    &r.options,
                    r.host,
                    &r.seats,
                )
            })
            .collect();
        // (`WHERE true` tells SQLite's parser that ON CONFLICT belongs to the INSERT.)
        let sql = match backend {
            Backend::Sqlite => upsert_waiting_rooms!(
                "SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), \
                 json_extract(value, '$[2]'), json_extract(value, '$[3]'), \
                 json_extract(value, '$[4]'), json_extract(value, '$[5]'), $2 \
                 FROM json_each($1) WHERE true"
            ),
            Backend::Postgres => upsert_waiting_rooms!(
                "SELECT e->>0, e->>1, (e->>2)::bigint, e->>3, (e->>4)::bigint, e->>5, $2 \
                 FROM json_array_elements($1::json) e"
            ),
        };
        sqlx::query(sql)
            .bind(serde_json::to_string(&json).expect("rooms serialise"))
            .bind(now_ms())
            .execute(&mut *conn)
            .await?;
    }
    if !removals.is_empty() {
        let codes: Vec<&str> = removals.iter().map(|(code, _)| *code).collect();
        let sql = match backend {
            Backend::Sqlite => {
                "DELETE FROM waiting_rooms WHERE code IN (SELECT value FROM json_each($1))"
            }
            Backend::Postgres => {
                "DELETE FROM waiting_rooms WHERE code IN (SELECT json_array_elements_text($1::json))"
            }
        };
        sqlx::query(sql)
            .bind(serde_json::to_string(&codes).expect("codes serialise"))
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}
