//! Who may challenge a player, and whom a player blocked (P-CHALLENGE).

use std::collections::HashSet;

use sqlx::Row;

use super::placeholders::placeholders;
use super::{Store, StoreError, player_from_row};
use crate::accounts::Player;
use crate::time::now_ms;
use hangar_protocol::ChallengePolicy;

/// Most players one player may block: the list stays one page long, and a block is one row.
pub const MAX_BLOCKS: i64 = 500;

/// Why a block was not made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockRefusal {
    /// One cannot block oneself.
    Oneself,
    /// No player has that id.
    NoPlayer,
    /// [`MAX_BLOCKS`] players are blocked already.
    Full,
}

impl Store {
    /// Who may challenge `player` (everyone when they never said).
    pub async fn challenge_policy(&self, player: i64) -> Result<ChallengePolicy, StoreError> {
        let row = sqlx::query("SELECT challenges FROM challenge_settings WHERE player_id = $1")
            .bind(player)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(row) => ChallengePolicy::of_name(&row.try_get::<String, _>("challenges")?),
            None => ChallengePolicy::Everyone,
        })
    }

    /// Sets who may challenge `player`.
    pub async fn set_challenge_policy(
        &self,
        player: i64,
        policy: ChallengePolicy,
    ) -> Result<(), StoreError> {
        self.write(move |conn| {
            Box::pin(async move {
                sqlx::query(
                    "INSERT INTO challenge_settings (player_id, challenges) VALUES ($1, $2) \
                     ON CONFLICT (player_id) DO UPDATE SET challenges = excluded.challenges",
                )
                .bind(player)
                .bind(policy.name())
                .execute(&mut *conn)
                .await?;
                Ok(())
            })
        })
        .await
    }

    /// The players `player` blocked, most recent first.
    pub async fn blocked_by(&self, player: i64) -> Result<Vec<Player>, StoreError> {
        let rows = sqlx::query(
            "SELECT p.id, p.name, p.guest, p.bot, p.score FROM blocks b \
             JOIN players p ON p.id = b.blocked_id WHERE b.player_id = $1 \
             ORDER BY b.created_at DESC, p.id DESC",
        )
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(player_from_row).collect()
    }

    /// `player` blocks `other` (blocking twice is one block).
    pub async fn block(
        &self,
        player: i64,
        other: i64,
    ) -> Result<Result<(), BlockRefusal>, StoreError> {
        if player == other {
            return Ok(Err(BlockRefusal::Oneself));
        }
        self.write(move |conn| {
            Box::pin(async move {
                let exists = sqlx::query("SELECT id FROM players WHERE id = $1")
                    .bind(other)
                    .fetch_optional(&mut *conn)
                    .await?;
                if exists.is_none() {
                    return Ok(Err(BlockRefusal::NoPlayer));
                }
                let count: i64 =
                    sqlx::query("SELECT COUNT(*) AS n FROM blocks WHERE player_id = $1")
                        .bind(player)
                        .fetch_one(&mut *conn)
                        .await?
                        .try_get("n")?;
                let already = sqlx::query(
                    "SELECT player_id FROM blocks WHERE player_id = $1 AND blocked_id = $2",
                )
                .bind(player)
                .bind(other)
                .fetch_optional(&mut *conn)
                .await?;
                if already.is_some() {
                    return Ok(Ok(()));
                }
                if count >= MAX_BLOCKS {
                    return Ok(Err(BlockRefusal::Full));
                }
                sqlx::query(
                    "INSERT INTO blocks (player_id, blocked_id, created_at) VALUES ($1, $2, $3)",
                )
                .bind(player)
                .bind(other)
                .bind(now_ms())
                .execute(&mut *conn)
                .await?;
                Ok(Ok(()))
            })
        })
        .await
    }

    /// `player` takes back a block of `other` (none to take back is no error).
    pub async fn unblock(&self, player: i64, other: i64) -> Result<(), StoreError> {
        self.write(move |conn| {
            Box::pin(async move {
                sqlx::query("DELETE FROM blocks WHERE player_id = $1 AND blocked_id = $2")
                    .bind(player)
                    .bind(other)
                    .execute(&mut *conn)
                    .await?;
                Ok(())
            })
        })
        .await
    }

    /// The players among `others` that `player` blocked or who blocked `player`.
    pub async fn blocked_either_way(
        &self,
        player: i64,
        others: &[i64],
    ) -> Result<HashSet<i64>, StoreError> {
        if others.is_empty() {
            return Ok(HashSet::new());
        }
        let rows = sqlx::query(
            "SELECT blocked_id AS other FROM blocks WHERE player_id = $1 \
             UNION SELECT player_id AS other FROM blocks WHERE blocked_id = $1",
        )
        .bind(player)
        .fetch_all(&self.pool)
        .await?;
        let mut blocked = HashSet::new();
        for row in rows {
            let other: i64 = row.try_get("other")?;
            if others.contains(&other) {
                blocked.insert(other);
            }
        }
        Ok(blocked)
    }

    /// The blocks between players of `players`, either way, each pair once (lower id first).
    pub async fn blocks_among(&self, players: &[i64]) -> Result<Vec<(i64, i64)>, StoreError> {
        let among: HashSet<i64> = players.iter().copied().collect();
        let mut pairs = HashSet::new();
        // A block has two ends among the players: reading the rows of the blockers finds it.
        for chunk in players.chunks(BLOCKS_READ_CHUNK) {
            let sql = format!(
                "SELECT player_id, blocked_id FROM blocks WHERE player_id IN ({})",
                placeholders(1, chunk.len())
            );
            let mut query = sqlx::query(&sql);
            for id in chunk {
                query = query.bind(*id);
            }
            for row in query.fetch_all(&self.pool).await? {
                let (a, b): (i64, i64) = (row.try_get("player_id")?, row.try_get("blocked_id")?);
                if among.contains(&b) {
                    pairs.insert((a.min(b), a.max(b)));
                }
            }
        }
        let mut pairs: Vec<(i64, i64)> = pairs.into_iter().collect();
        pairs.sort_unstable();
        Ok(pairs)
    }
}

/// Players per query of [`Store::blocks_among`] (well under the bound parameters of SQLite
/// and PostgreSQL).
const BLOCKS_READ_CHUNK: usize = 500;
