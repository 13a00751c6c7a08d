//! The store's part of cluster mode (PostgreSQL): node leases, room owners, fencing, adoption.
//!
//! Every node of a cluster writes to the same database. Three rules keep them apart:
//! - **Leases.** A node has a row in `cluster_nodes` whose `expires_at` it pushes forward
//!   while it is healthy (connected to NATS, its writes succeeding). A node whose lease ran out
//!   is dead to the others: one of them removes its row and takes its rooms over.
//! - **Fencing.** Every transaction of a node's writer first reads the node's own row with
//!   `FOR SHARE` and stops unless the row is there and its lease runs: a node that lost its
//!   lease (paused, partitioned) can never write again, and the takeover (which deletes the row)
//!   waits for a transaction under way to end, so no write of the old owner lands after it.
//!   A batch of actions alone is one statement that does both ([`insert_rows_fenced`]).
//! - **Journal ranges.** Each node numbers its journal rows from a base of its own
//!   (`seq_base`, a multiple of [`SEQ_RANGE`] drawn from a sequence), and trims and reloads only
//!   its range and its rooms' games; the node that adopts a game first moves the game's journal
//!   rows into a chunk, so that the game's log goes on in the new owner's range alone.

use std::collections::HashMap;
use std::time::Duration;

use sqlx::{AnyConnection, Row};

use super::node_scope::{NodeScope, SEQ_RANGE};
use super::tails::JournalRow;
use super::write::failed;
use super::{Store, StoreError, WaitingRoom, log};
use crate::time::now_ms;

/// Checks, in the writer's transaction, that this node still holds its lease (see the
/// module's "Fencing"); the row stays locked against a takeover until the transaction ends.
pub(super) async fn fence(conn: &mut AnyConnection, scope: &NodeScope) -> Result<(), String> {
    let row = sqlx::query("SELECT expires_at FROM cluster_nodes WHERE node = $1 FOR SHARE")
        .bind(&scope.node)
        .fetch_optional(&mut *conn)
        .await
        .map_err(failed)?;
    let expires_at: Option<i64> = row
        .map(|r| r.try_get("expires_at"))
        .transpose()
        .map_err(failed)?;
    match expires_at {
        Some(at) if at > now_ms() => Ok(()),
        _ => Err(lease_ran_out(scope)),
    }
}

/// The error of a write refused by the fence.
fn lease_ran_out(scope: &NodeScope) -> String {
    format!(
        "fenced: the cluster lease of node {} has run out (another node owns its rooms now)",
        scope.node
    )
}

/// Appends journal rows and checks the lease in ONE statement (one round trip instead of the
/// four of a fenced transaction: BEGIN, [`fence`], INSERT, COMMIT — most of a cluster node's
/// batches are actions only). The statement locks the node's row `FOR SHARE` as [`fence`]
/// does, until it commits, and inserts nothing unless the lease runs.
pub(super) async fn insert_rows_fenced(
    conn: &mut AnyConnection,
    scope: &NodeScope,
    rows: &[Option<JournalRow<'_>>],
) -> Result<(), String> {
    let tuples = log::journal_tuples(rows);
    if tuples.is_empty() {
        return Ok(());
    }
    // The rows joined with the lease row: none of them when the lease has run out.
    let statement = format!(
        "WITH lease AS (SELECT 1 FROM cluster_nodes WHERE node = $2 AND expires_at > $3 \
         FOR SHARE) \
         INSERT INTO journal (seq, game_id, idx, data) {}, lease",
        log::tuples_from_json()
    );
    let inserted = sqlx::query(&statement)
        .bind(serde_json::to_string(&tuples).expect("rows serialise"))
        .bind(&scope.node)
        .bind(now_ms())
        .execute(conn)
        .await
        .map_err(failed)?
        .rows_affected();
    if inserted == tuples.len() as u64 {
        Ok(())
    } else {
        Err(lease_ran_out(scope))
    }
}

/// The `code` column of rows.
fn codes_of(rows: &[sqlx::any::AnyRow]) -> Result<Vec<String>, sqlx::Error> {
    rows.iter().map(|r| r.try_get("code")).collect()
}

/// Moves the journal rows of the running games of `rooms` (from whatever node's range) into
/// one chunk per game, in the writer's transaction: the adopting node's log of each game then
/// starts after a chunk, in its own range.
async fn chunk_adopted(conn: &mut AnyConnection, rooms: &[String]) -> Result<(), sqlx::Error> {
    if rooms.is_empty() {
        return Ok(());
    }
    let codes = serde_json::to_string(rooms).expect("codes serialise");
    let games = sqlx::query(
        "SELECT id FROM games WHERE status = 'running' \
         AND room IN (SELECT json_array_elements_text($1::json))",
    )
    .bind(&codes)
    .fetch_all(&mut *conn)
    .await?;
    for game in games {
        let game_id: i64 = game.try_get("id")?;
        let covered: i64 = sqlx::query(
            "SELECT COALESCE(MAX(first_idx + length), 0) AS covered FROM action_chunks \
             WHERE game_id = $1",
        )
        .bind(game_id)
        .fetch_one(&mut *conn)
        .await?
        .try_get("covered")?;
        let rows = sqlx::query(
            "SELECT idx, data FROM journal WHERE game_id = $1 AND idx >= $2 ORDER BY idx",
        )
        .bind(game_id)
        .bind(covered)
        .fetch_all(&mut *conn)
        .await?;
        let mut data = Vec::with_capacity(rows.len());
        for (expected, row) in (covered..).zip(&rows) {
            let idx: i64 = row.try_get("idx")?;
            if idx != expected {
                return Err(sqlx::Error::Protocol(format!(
                    "the journal of game {game_id} has a gap before action {idx}"
                )));
            }
            data.push(row.try_get::<String, _>("data")?);
        }
        if !data.is_empty() {
            sqlx::query(
                "INSERT INTO action_chunks (game_id, first_idx, length, data) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(game_id)
            .bind(covered)
            .bind(data.len() as i64)
            .bind(data.join("\n"))
            .execute(&mut *conn)
            .await?;
        }
        sqlx::query("DELETE FROM journal WHERE game_id = $1")
            .bind(game_id)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

impl Store {
    /// Registers this node with a fresh journal range and a lease of `lease`, and makes every
    /// later write of this store fenced by that lease. Called once, before any other write.
    pub async fn register_node(
        &self,
        node: &str,
        address: &str,
        lease: Duration,
    ) -> Result<NodeScope, StoreError> {
        let slot: i64 = sqlx::query("SELECT nextval('cluster_slots') AS slot")
            .fetch_one(&self.pool)
            .await?
            .try_get("slot")?;
        let scope = NodeScope {
            node: node.to_owned(),
            seq_base: slot * SEQ_RANGE,
        };
        sqlx::query(
            "INSERT INTO cluster_nodes (node, address, seq_base, expires_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(node)
        .bind(address)
        .bind(scope.seq_base)
        .bind(now_ms() + lease.as_millis() as i64)
        .execute(&self.pool)
        .await?;
        if self.scope.set(scope.clone()).is_err() {
            return Err(StoreError::Database(sqlx::Error::Protocol(
                "this store is registered as a cluster node already".to_owned(),
            )));
        }
        Ok(scope)
    }

    /// This node's scope in cluster mode (`None` on a single node).
    pub fn node_scope(&self) -> Option<&NodeScope> {
        self.scope.get()
    }

    /// Pushes this node's lease `lease` past now; fails once the lease has run out (the
    /// fencing check of the writer's transaction refuses it).
    pub async fn renew_lease(&self, lease: Duration) -> Result<(), StoreError> {
        let node = self.cluster_node()?;
        self.write(move |conn| {
            Box::pin(async move {
                sqlx::query("UPDATE cluster_nodes SET expires_at = $2 WHERE node = $1")
                    .bind(node)
                    .bind(now_ms() + lease.as_millis() as i64)
                    .execute(conn)
                    .await
                    .map(drop)
            })
        })
        .await
    }

    /// Ends this node's lease now (a drain): the other nodes take its rooms over at once, and
    /// this node writes nothing more.
    pub async fn release_lease(&self) -> Result<(), StoreError> {
        let node = self.cluster_node()?;
        self.write(move |conn| {
            Box::pin(async move {
                sqlx::query("UPDATE cluster_nodes SET expires_at = 0 WHERE node = $1")
                    .bind(node)
                    .execute(conn)
                    .await
                    .map(drop)
            })
        })
        .await
    }

    fn cluster_node(&self) -> Result<String, StoreError> {
        self.scope.get().map(|s| s.node.clone()).ok_or_else(|| {
            StoreError::Database(sqlx::Error::Protocol("not a cluster node".to_owned()))
        })
    }

    /// Nodes whose lease has run out (dead, drained or cut off), to be taken over.
    pub async fn expired_nodes(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT node FROM cluster_nodes WHERE expires_at < $1")
            .bind(now_ms())
            .fetch_all(&self.pool)
            .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("node"))
            .collect::<Result<_, _>>()?)
    }

    /// The nodes alive and their addresses (for clients that look for another node).
    pub async fn live_nodes(&self) -> Result<HashMap<String, String>, StoreError> {
        let rows = sqlx::query("SELECT node, address FROM cluster_nodes WHERE expires_at >= $1")
            .bind(now_ms())
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("node")?, r.try_get("address")?)))
            .collect()
    }

    /// Takes over the rooms of `dead` (its lease ran out), in one fenced transaction: its row
    /// goes (so it can never write again), its rooms and arenas become this node's, their games' journal
    /// rows move into chunks, and what is left of its journal range is deleted. Returns the
    /// codes adopted, or `None` if another node was first.
    pub async fn adopt_rooms_of(&self, dead: &str) -> Result<Option<Vec<String>>, StoreError> {
        let me = self.cluster_node()?;
        let dead = dead.to_owned();
        self.write(move |conn| {
            Box::pin(async move {
                let gone = sqlx::query(
                    "DELETE FROM cluster_nodes WHERE node = $1 AND expires_at < $2 \
                     RETURNING seq_base",
                )
                .bind(&dead)
                .bind(now_ms())
                .fetch_optional(&mut *conn)
                .await?;
                let Some(gone) = gone else {
                    return Ok(None);
                };
                let base: i64 = gone.try_get("seq_base")?;
                let rows =
                    sqlx::query("UPDATE room_owners SET node = $1 WHERE node = $2 RETURNING code")
                        .bind(&me)
                        .bind(&dead)
                        .fetch_all(&mut *conn)
                        .await?;
                let codes = codes_of(&rows)?;
                chunk_adopted(conn, &codes).await?;
                // Its arenas come along, so that their rooms' games count where they run.
                sqlx::query("UPDATE arena_owners SET node = $1 WHERE node = $2")
                    .bind(&me)
                    .bind(&dead)
                    .execute(&mut *conn)
                    .await?;
                sqlx::query("DELETE FROM journal WHERE seq >= $1 AND seq < $2")
                    .bind(base)
                    .bind(base + SEQ_RANGE)
                    .execute(&mut *conn)
                    .await?;
                Ok(Some(codes))
            })
        })
        .await
    }

    /// Takes over the rooms no node owns: running games and waiting rooms stored before the
    /// hall ran as a cluster, or whose owner's row is gone. Returns the codes adopted.
    pub async fn adopt_unowned_rooms(&self) -> Result<Vec<String>, StoreError> {
        let me = self.cluster_node()?;
        self.write(move |conn| {
            Box::pin(async move {
                sqlx::query(
                    "DELETE FROM room_owners o WHERE NOT EXISTS \
                     (SELECT 1 FROM cluster_nodes n WHERE n.node = o.node)",
                )
                .execute(&mut *conn)
                .await?;
                let rows = sqlx::query(
                    "INSERT INTO room_owners (code, node) \
                     SELECT room, $1 FROM games WHERE status = 'running' \
                     UNION SELECT code, $1 FROM waiting_rooms \
                     ON CONFLICT (code) DO NOTHING RETURNING code",
                )
                .bind(&me)
                .fetch_all(&mut *conn)
                .await?;
                let codes = codes_of(&rows)?;
                chunk_adopted(conn, &codes).await?;
                Ok(codes)
            })
        })
        .await
    }

    /// Records that this node owns a new room (stored before anyone is seated in it).
    pub async fn claim_room(&self, code: &str) -> Result<(), StoreError> {
        self.room_write(
            "INSERT INTO room_owners (code, node) VALUES ($1, $2) \
             ON CONFLICT (code) DO UPDATE SET node = excluded.node",
            code,
        )
        .await
    }

    /// A room of this node closed: it has no owner any more.
    pub async fn release_room(&self, code: &str) -> Result<(), StoreError> {
        self.room_write(
            "DELETE FROM room_owners WHERE code = $1 AND node = $2",
            code,
        )
        .await
    }

    /// Runs `sql` on `room_owners` with the room's code as `$1` and this node as `$2`.
    async fn room_write(&self, sql: &'static str, code: &str) -> Result<(), StoreError> {
        let me = self.cluster_node()?;
        let code = code.to_owned();
        self.write(move |conn| {
            Box::pin(async move {
                sqlx::query(sql)
                    .bind(code)
                    .bind(me)
                    .execute(conn)
                    .await
                    .map(drop)
            })
        })
        .await
    }

    /// The node that owns room `code`, if it is alive.
    pub async fn room_owner(&self, code: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query(
            "SELECT o.node FROM room_owners o JOIN cluster_nodes n ON n.node = o.node \
             WHERE o.code = $1 AND n.expires_at >= $2",
        )
        .bind(code)
        .bind(now_ms())
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| r.try_get("node")).transpose()?)
    }

    /// The running game of room `code`, with its log, to rebuild the room (P-DURABLE).
    pub async fn running_game_of_room(
        &self,
        code: &str,
    ) -> Result<Option<super::StoredGame>, StoreError> {
        let row = sqlx::query("SELECT id FROM games WHERE room = $1 AND status = 'running'")
            .bind(code)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(row) => self.game(row.try_get("id")?).await,
            None => Ok(None),
        }
    }

    /// The stored waiting room `code`, if any.
    pub async fn waiting_room(&self, code: &str) -> Result<Option<WaitingRoom>, StoreError> {
        Ok(self
            .waiting_rooms()
            .await?
            .into_iter()
            .find(|room| room.code == code))
    }
}
