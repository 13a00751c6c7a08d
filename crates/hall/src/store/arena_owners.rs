//! Arenas in cluster mode (PostgreSQL, P-ARENA): each arena runs on one node, recorded in
//! `arena_owners` as rooms are in `room_owners`. A node claims the listed arenas nobody runs,
//! takes over the arenas of a node whose lease ran out together with its rooms
//! ([`Store::adopt_rooms_of`]), and lists the others' arenas from their stored state.

use sqlx::Row;

use super::arenas::{ARENA_COLUMNS, stored_arena};
use super::{Store, StoreError, StoredArena};
use crate::time::now_ms;

impl Store {
    /// Makes this node the owner of every arena ending after `since` that no live node runs
    /// (new ones, and ones whose owner's row is gone), in one fenced transaction: the first
    /// node to ask gets each. The ids this node runs after it.
    pub async fn claim_arenas(&self, since: i64) -> Result<Vec<i64>, StoreError> {
        let me = self.node_scope().map(|s| s.node.clone()).ok_or_else(|| {
            StoreError::Database(sqlx::Error::Protocol("not a cluster node".to_owned()))
        })?;
        self.write(move |conn| {
            Box::pin(async move {
                sqlx::query(
                    "DELETE FROM arena_owners o WHERE NOT EXISTS \
                     (SELECT 1 FROM cluster_nodes n WHERE n.node = o.node)",
                )
                .execute(&mut *conn)
                .await?;
                sqlx::query(
                    "INSERT INTO arena_owners (arena, node) SELECT id, $1 FROM arenas \
                     WHERE ends_at > $2 ON CONFLICT (arena) DO NOTHING",
                )
                .bind(&me)
                .bind(since)
                .execute(&mut *conn)
                .await?;
                let rows = sqlx::query("SELECT arena FROM arena_owners WHERE node = $1")
                    .bind(&me)
                    .fetch_all(&mut *conn)
                    .await?;
                rows.iter().map(|r| r.try_get("arena")).collect()
            })
        })
        .await
    }

    /// The stored arenas `ids` (to run them here).
    pub async fn arenas_by_id(&self, ids: &[i64]) -> Result<Vec<StoredArena>, StoreError> {
        let mut arenas = Vec::with_capacity(ids.len());
        for &id in ids {
            let row = sqlx::query(&format!(
                "SELECT {ARENA_COLUMNS} FROM arenas a WHERE a.id = $1"
            ))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
            if let Some(row) = row {
                arenas.push(stored_arena(&row)?);
            }
        }
        Ok(arenas)
    }

    /// The arenas ending after `since` that this node does not run, as last stored by the
    /// nodes that do (for the hall's list of arenas).
    pub async fn arenas_run_elsewhere(&self, since: i64) -> Result<Vec<StoredArena>, StoreError> {
        let me = self
            .node_scope()
            .map(|s| s.node.clone())
            .unwrap_or_default();
        let rows = sqlx::query(&format!(
            "SELECT {ARENA_COLUMNS} FROM arenas a WHERE a.ends_at > $1 AND NOT EXISTS \
             (SELECT 1 FROM arena_owners o WHERE o.arena = a.id AND o.node = $2) ORDER BY a.id"
        ))
        .bind(since)
        .bind(me)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(stored_arena).collect()
    }

    /// The live node that runs arena `id`, if any.
    pub async fn arena_owner(&self, id: i64) -> Result<Option<String>, StoreError> {
        let row = sqlx::query(
            "SELECT o.node FROM arena_owners o JOIN cluster_nodes n ON n.node = o.node \
             WHERE o.arena = $1 AND n.expires_at >= $2",
        )
        .bind(id)
        .bind(now_ms())
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| r.try_get("node")).transpose()?)
    }
}
