//! Arenas as stored (P-ARENA): settings, and the whole state as JSON, rewritten as it
//! changes; an arena survives a restart with its standings.

use sqlx::Row;

use super::{Store, StoreError};
use crate::time::now_ms;

/// An arena's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredArena {
    /// The arena's id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// `jungle` or `flight`.
    pub game: String,
    /// When pairing starts, Unix ms.
    pub starts_at: i64,
    /// When it ends, Unix ms.
    pub ends_at: i64,
    /// Seconds per decision in its games.
    pub turn_seconds: i64,
    /// The state (`hangar_games::arena::Arena`), JSON.
    pub state: String,
    /// Its standings are final.
    pub finished: bool,
}

impl Store {
    /// Stores a new arena; its id, or `None` when an arena of the same name, game and start
    /// is stored already (a schedule's arena made by two nodes at once is made once).
    pub async fn create_arena(&self, arena: &StoredArena) -> Result<Option<i64>, StoreError> {
        let arena = arena.clone();
        self.write(move |conn| {
            Box::pin(async move {
                let row = sqlx::query(
                    "INSERT INTO arenas (name, game, starts_at, ends_at, turn_seconds, state, \
                     finished, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
                     ON CONFLICT DO NOTHING RETURNING id",
                )
                .bind(arena.name)
                .bind(arena.game)
                .bind(arena.starts_at)
                .bind(arena.ends_at)
                .bind(arena.turn_seconds)
                .bind(arena.state)
                .bind(i64::from(arena.finished))
                .bind(now_ms())
                .fetch_optional(conn)
                .await?;
                row.map(|row| row.try_get("id")).transpose()
            })
        })
        .await
    }

    /// Rewrites an arena's state (and whether it is finished).
    pub async fn save_arena(
        &self,
        id: i64,
        state: String,
        finished: bool,
    ) -> Result<(), StoreError> {
        self.write(move |conn| {
            Box::pin(async move {
                sqlx::query("UPDATE arenas SET state = $1, finished = $2 WHERE id = $3")
                    .bind(state)
                    .bind(i64::from(finished))
                    .bind(id)
                    .execute(conn)
                    .await?;
                Ok(())
            })
        })
        .await
    }

    /// The arena `id`, if there is one.
    pub async fn arena(&self, id: i64) -> Result<Option<StoredArena>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {ARENA_COLUMNS} FROM arenas a WHERE a.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(stored_arena).transpose()
    }

    /// The arenas after id `after` that end after `since` (Unix ms), by id.
    pub async fn arenas_after(
        &self,
        after: i64,
        since: i64,
    ) -> Result<Vec<StoredArena>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {ARENA_COLUMNS} FROM arenas a WHERE a.id > $1 AND a.ends_at > $2 ORDER BY a.id"
        ))
        .bind(after)
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(stored_arena).collect()
    }
}

/// The columns every arena query reads.
pub(super) const ARENA_COLUMNS: &str =
    "a.id, a.name, a.game, a.starts_at, a.ends_at, a.turn_seconds, a.state, a.finished";

/// An arena from a row of [`ARENA_COLUMNS`].
pub(super) fn stored_arena(row: &sqlx::any::AnyRow) -> Result<StoredArena, StoreError> {
    Ok(StoredArena {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        game: row.try_get("game")?,
        starts_at: row.try_get("starts_at")?,
        ends_at: row.try_get("ends_at")?,
        turn_seconds: row.try_get("turn_seconds")?,
        state: row.try_get("state")?,
        finished: row.try_get::<i64, _>("finished")? != 0,
    })
}

/// The last game of a room as stored: what an arena that seated the room needs to know of it
/// when it was not told (its node died before it stored what it learnt, P-ARENA).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoomGame {
    /// The room has no game stored: its game never started.
    None,
    /// Its game is running (the room, rebuilt, reports its end).
    Running,
    /// Its game is over: the result (JSON) and when it ended (Unix ms).
    Finished {
        /// The stored result (`hangar_protocol::GameResult`).
        result: String,
        /// When it ended.
        at: i64,
    },
}

impl Store {
    /// The last game of room `code`.
    pub async fn last_game_of_room(&self, code: &str) -> Result<RoomGame, StoreError> {
        let row = sqlx::query(
            "SELECT result, finished_at FROM games WHERE room = $1 ORDER BY id DESC LIMIT 1",
        )
        .bind(code)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(RoomGame::None);
        };
        let result: Option<String> = row.try_get("result")?;
        let at: Option<i64> = row.try_get("finished_at")?;
        Ok(match (result, at) {
            (Some(result), Some(at)) => RoomGame::Finished { result, at },
            _ => RoomGame::Running,
        })
    }
}
