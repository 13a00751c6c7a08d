//! The action log in the database: the journal (every action, made durable before its ack)
//! and the chunks (a game's actions by the [`CHUNK_ACTIONS`](super::tails::CHUNK_ACTIONS)),
//! see [`tails`](super::tails) for why. Writes come from the writer task only; reads put a
//! game's log together from its chunks and the journal rows after them.

use std::collections::HashMap;

use sqlx::{Any, AnyConnection, AnyPool, Executor, Row};

use super::node_scope::NodeScope;
use super::tails::{Chunk, JournalRow, Tails, split_chunk};
use super::{Backend, StoreError};

/// Inserts journal rows with ONE statement (one round trip, atomic on its own).
pub(super) async fn insert_rows(
    conn: &mut AnyConnection,
    backend: Backend,
    rows: &[Option<JournalRow<'_>>],
) -> Result<(), sqlx::Error> {
    let tuples = journal_tuples(rows);
    insert_tuples(conn, backend, "journal (seq, game_id, idx, data)", &tuples).await
}

/// The rows to insert (`None`s are rows refused before) as the tuples of [`insert_tuples`].
pub(super) fn journal_tuples<'a>(rows: &[Option<JournalRow<'a>>]) -> Vec<(i64, i64, i64, &'a str)> {
    rows.iter()
        .flatten()
        .map(|r| (r.seq, r.game_id, r.idx, r.data))
        .collect()
}

/// Inserts chunks with one statement, as [`insert_rows`] does.
pub(super) async fn insert_chunks(
    conn: &mut AnyConnection,
    backend: Backend,
    chunks: &[Chunk],
) -> Result<(), sqlx::Error> {
    let tuples: Vec<(i64, i64, i64, &str)> = chunks
        .iter()
        .map(|c| (c.game_id, c.first_idx, c.length, c.data.as_str()))
        .collect();
    let target = "action_chunks (game_id, first_idx, length, data)";
    insert_tuples(conn, backend, target, &tuples).await
}

/// Inserts rows of three integers and a text into `target` (`table (a, b, c, d)`) with one
/// statement. On PostgreSQL they travel as one JSON array `[[a, b, c, d], …]` that the
/// database unpacks; on SQLite as bound parameters (see [`insert_tuples_sqlite`]).
async fn insert_tuples(
    conn: &mut AnyConnection,
    backend: Backend,
    target: &'static str,
    tuples: &[(i64, i64, i64, &str)],
) -> Result<(), sqlx::Error> {
    if tuples.is_empty() {
        return Ok(());
    }
    if backend == Backend::Sqlite {
        return insert_tuples_sqlite(conn, target, tuples).await;
    }
    let rows = tuples_from_json();
    sqlx::query(&format!("INSERT INTO {target} {rows}"))
        .bind(serde_json::to_string(tuples).expect("rows serialise"))
        .execute(conn)
        .await
        .map(drop)
}

/// Most rows of one SQLite statement: the writer's largest batch (so that a batch of actions
/// alone stays one statement, atomic on its own); 4,096 parameters, well below SQLite's 32,766.
const SQLITE_MAX_ROWS: usize = super::write::MAX_BATCH;

/// [`insert_tuples`] on SQLite: `INSERT … SELECT … FROM (VALUES (?, ?, ?, ?), …)` with every
/// value bound. The JSON array was the most expensive part of an action on SQLite: each
/// action's text was escaped into the array, parsed by `json_each`, turned back into text and
/// parsed again by each `json_extract`, then unescaped (callgrind, 100 clients without think
/// time: about 14,000 of the hall's 84,000 instructions per action, twice as many since
/// actions carry their command's client and id). Bound, a text is copied, never escaped or
/// parsed. The rows are padded with NULLs (left out by the `WHERE`) up to a power of two, so
/// that a few statement texts, prepared once and cached, serve every batch size.
async fn insert_tuples_sqlite(
    conn: &mut AnyConnection,
    target: &'static str,
    tuples: &[(i64, i64, i64, &str)],
) -> Result<(), sqlx::Error> {
    for part in tuples.chunks(SQLITE_MAX_ROWS) {
        let places = part.len().next_power_of_two();
        let mut query = sqlx::query(sqlite_values_insert(target, places));
        for &(a, b, c, d) in part {
            query = query.bind(a).bind(b).bind(c).bind(d);
        }
        for _ in part.len()..places {
            query = query
                .bind(None::<i64>)
                .bind(None::<i64>)
                .bind(None::<i64>)
                .bind(None::<&str>);
        }
        query.execute(&mut *conn).await?;
    }
    Ok(())
}

/// The statement text of [`insert_tuples_sqlite`] for `places` rows (a power of two, at most
/// [`SQLITE_MAX_ROWS`]) into `target`, made once per target and size.
fn sqlite_values_insert(target: &'static str, places: usize) -> &'static str {
    type Texts = std::sync::Mutex<HashMap<(&'static str, usize), &'static str>>;
    static TEXTS: std::sync::OnceLock<Texts> = std::sync::OnceLock::new();
    let mut texts = TEXTS
        .get_or_init(Texts::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    texts.entry((target, places)).or_insert_with(|| {
        let mut sql =
            format!("INSERT INTO {target} SELECT column1, column2, column3, column4 FROM (VALUES ");
        for i in 0..places {
            sql.push_str(if i == 0 {
                "(?, ?, ?, ?)"
            } else {
                ", (?, ?, ?, ?)"
            });
        }
        sql.push_str(") WHERE column1 IS NOT NULL");
        // Two targets times the eleven sizes up to `SQLITE_MAX_ROWS`: a bounded set, kept for
        // the life of the process as the prepared statements that use them are.
        Box::leak(sql.into_boxed_str())
    })
}

/// The rows of the JSON array `$1` (`[[a, b, c, d], …]`, as [`insert_tuples`] binds it) as a
/// PostgreSQL `SELECT` of three integers and a text (SQLite's rows are bound instead).
pub(super) fn tuples_from_json() -> &'static str {
    "SELECT (e->>0)::bigint, (e->>1)::bigint, (e->>2)::bigint, e->>3 \
     FROM json_array_elements($1::json) e"
}

/// Deletes the journal rows from `from` to below `seq` (all in chunks by now).
pub(super) async fn trim_journal(
    conn: &mut AnyConnection,
    from: i64,
    seq: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM journal WHERE seq >= $1 AND seq < $2")
        .bind(from)
        .bind(seq)
        .execute(conn)
        .await
        .map(drop)
}

/// The writer's tails as the database holds them: the journal rows of running games past
/// their chunks. A cluster node (`scope`) numbers rows in its own range and keeps the tails of
/// its own rooms' games only.
pub(super) async fn load_tails(
    conn: &mut AnyConnection,
    scope: Option<&NodeScope>,
) -> Result<Tails, sqlx::Error> {
    let (from, to) = scope.map_or((i64::MIN, i64::MAX), NodeScope::range);
    let bounds = sqlx::query(
        "SELECT MIN(seq) AS oldest, MAX(seq) AS newest FROM journal WHERE seq >= $1 AND seq < $2",
    )
    .bind(from)
    .bind(to)
    .fetch_one(&mut *conn)
    .await?;
    let newest: Option<i64> = bounds.try_get("newest")?;
    let next_seq = newest.map_or(from.max(1), |n| n + 1);
    let oldest: Option<i64> = bounds.try_get("oldest")?;
    let mut tails = Tails::new(oldest.unwrap_or(next_seq), next_seq);
    let owned = match scope {
        Some(scope) => Some(owned_games(&mut *conn, &scope.node).await?),
        None => None,
    };
    let mine = |game_id: &i64| owned.as_ref().is_none_or(|owned| owned.contains(game_id));
    let covered = chunked_lengths(&mut *conn, None).await?;
    for (&game_id, &length) in covered.iter().filter(|(id, _)| mine(id)) {
        tails.resume(game_id, length);
    }
    for (seq, game_id, idx, data) in running_journal(&mut *conn, None).await? {
        if !mine(&game_id) || seq < from || seq >= to {
            continue;
        }
        let chunked = covered.get(&game_id).is_some_and(|&length| idx < length);
        if !chunked && !tails.restore(seq, game_id, idx, &data) {
            tracing::error!(game_id, idx, "the journal does not follow the game's log");
        }
    }
    Ok(tails)
}

/// The running games of the rooms node `node` owns.
async fn owned_games(
    conn: &mut AnyConnection,
    node: &str,
) -> Result<std::collections::HashSet<i64>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT g.id FROM games g JOIN room_owners o ON o.code = g.room \
         WHERE g.status = 'running' AND o.node = $1",
    )
    .bind(node)
    .fetch_all(conn)
    .await?;
    rows.iter().map(|row| row.try_get("id")).collect()
}

/// How many actions of each running game (or of `game`) are in chunks.
async fn chunked_lengths<'c, E>(
    executor: E,
    game: Option<i64>,
) -> Result<HashMap<i64, i64>, sqlx::Error>
where
    E: Executor<'c, Database = Any>,
{
    let rows = sqlx::query(
        "SELECT c.game_id, MAX(c.first_idx + c.length) AS covered FROM action_chunks c \
         JOIN games g ON g.id = c.game_id \
         WHERE ($1 < 0 AND g.status = 'running') OR c.game_id = $1 GROUP BY c.game_id",
    )
    .bind(game.unwrap_or(-1))
    .fetch_all(executor)
    .await?;
    rows.iter()
        .map(|row| Ok((row.try_get("game_id")?, row.try_get("covered")?)))
        .collect()
}

/// The journal rows of every running game (or of `game`): (seq, game, index, data) in
/// sequence order. The journal holds no index but its sequence: this reads all of it, which
/// is small (trimmed behind the chunks) and read only at start or for a running game.
async fn running_journal<'c, E>(
    executor: E,
    game: Option<i64>,
) -> Result<Vec<(i64, i64, i64, String)>, sqlx::Error>
where
    E: Executor<'c, Database = Any>,
{
    let rows = sqlx::query(
        "SELECT j.seq, j.game_id, j.idx, j.data FROM journal j JOIN games g ON g.id = j.game_id \
         WHERE ($1 < 0 AND g.status = 'running') OR j.game_id = $1 ORDER BY j.seq",
    )
    .bind(game.unwrap_or(-1))
    .fetch_all(executor)
    .await?;
    rows.iter()
        .map(|row| {
            Ok((
                row.try_get("seq")?,
                row.try_get("game_id")?,
                row.try_get("idx")?,
                row.try_get("data")?,
            ))
        })
        .collect()
}

/// The action logs of every running game (or of `game`), put together from chunks and the
/// journal (skipped with `journal` false: a finished game's log is all in chunks).
///
/// The journal is read first, the chunks second: the writer inserts a chunk before it deletes
/// the journal rows the chunk holds, so whatever it does in between, every action is in one of
/// the two reads (the result may end a little earlier than the log does by the second read,
/// never with a gap).
pub(super) async fn read_logs(
    pool: &AnyPool,
    game: Option<i64>,
    journal: bool,
) -> Result<HashMap<i64, Vec<String>>, StoreError> {
    let journal = if journal {
        running_journal(pool, game).await?
    } else {
        Vec::new()
    };
    let rows = sqlx::query(
        "SELECT c.game_id, c.first_idx, c.length, c.data FROM action_chunks c \
         JOIN games g ON g.id = c.game_id \
         WHERE ($1 < 0 AND g.status = 'running') OR c.game_id = $1 \
         ORDER BY c.game_id, c.first_idx",
    )
    .bind(game.unwrap_or(-1))
    .fetch_all(pool)
    .await?;
    let mut logs: HashMap<i64, Vec<String>> = HashMap::new();
    for row in &rows {
        let game_id: i64 = row.try_get("game_id")?;
        let first_idx: i64 = row.try_get("first_idx")?;
        let length: i64 = row.try_get("length")?;
        let data: String = row.try_get("data")?;
        let log = logs.entry(game_id).or_default();
        let actions = split_chunk(&data, length)
            .filter(|_| first_idx == log.len() as i64)
            .ok_or_else(|| broken(game_id, first_idx))?;
        log.extend(actions);
    }
    // Journal rows follow in sequence order, which is each game's index order; rows already
    // in a chunk are skipped.
    for (_, game_id, idx, data) in journal {
        let log = logs.entry(game_id).or_default();
        match idx.cmp(&(log.len() as i64)) {
            std::cmp::Ordering::Less => {}
            std::cmp::Ordering::Equal => log.push(data),
            std::cmp::Ordering::Greater => return Err(broken(game_id, idx)),
        }
    }
    Ok(logs)
}

fn broken(game_id: i64, idx: i64) -> StoreError {
    StoreError::Database(sqlx::Error::Protocol(format!(
        "the action log of game {game_id} has a gap before action {idx}"
    )))
}
