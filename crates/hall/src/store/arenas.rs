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
    /// Stores a new arena; its id.
    pub async fn create_arena(&self, arena: &StoredArena) -> Result<i64, StoreError> {
        let arena = arena.clone();
        self.write(move |conn| {
            Box::pin(async move {
                let row = sqlx::query(
                    "INSERT INTO arenas (name, game, starts_at, ends_at, turn_seconds, state, \
                     finished, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
                )
                .bind(arena.name)
                .bind(arena.game)
                .bind(arena.starts_at)
                .bind(arena.ends_at)
                .bind(arena.turn_seconds)
                .bind(arena.state)
                .bind(i64::from(arena.finished))
                .bind(now_ms())
                .fetch_one(conn)
                .await?;
                row.try_get("id")
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

    /// The arenas after id `after` that end after `since` (Unix ms), by id.
    pub async fn arenas_after(
        &self,
        after: i64,
        since: i64,
    ) -> Result<Vec<StoredArena>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, name, game, starts_at, ends_at, turn_seconds, state, finished FROM arenas \
             WHERE id > $1 AND ends_at > $2 ORDER BY id",
        )
        .bind(after)
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
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
            })
            .collect()
    }
}
