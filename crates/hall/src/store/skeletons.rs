//! Accounts made before names were unique by look (P-ACCOUNT, migration 0006/0007) get their
//! confusable skeleton at start, oldest first. An account whose skeleton an older account
//! holds already is kept as it is — it still signs in, its games and score stay — but has
//! none: it is flagged, and `hangar admin name-collisions` lists it with the older one.

use sqlx::{AnyPool, Row};

use super::{Store, StoreError, player_from_row};
use crate::accounts::Player;
use crate::names::skeleton_key;

/// Gives every account without a skeleton its own, unless an older one holds it.
pub(super) async fn fill_skeletons(pool: &AnyPool) -> Result<(), StoreError> {
    let rows = sqlx::query(
        "SELECT id, name FROM players WHERE guest = 0 AND skeleton IS NULL ORDER BY id",
    )
    .fetch_all(pool)
    .await?;
    for row in rows {
        let (id, name): (i64, String) = (row.try_get("id")?, row.try_get("name")?);
        let skeleton = skeleton_key(&name);
        let done = sqlx::query(
            "UPDATE players SET skeleton = $1 WHERE id = $2 \
             AND NOT EXISTS (SELECT 1 FROM players WHERE skeleton = $1)",
        )
        .bind(&skeleton)
        .bind(id)
        .execute(pool)
        .await?;
        if done.rows_affected() == 0 {
            tracing::warn!(player = id, name = %name, "an account looks like an older one: kept, flagged (hangar admin name-collisions)");
        }
    }
    Ok(())
}

impl Store {
    /// Accounts kept without a skeleton because an older account looks the same, each with
    /// that older account.
    pub async fn name_collisions(&self) -> Result<Vec<(Player, Player)>, StoreError> {
        let flagged = sqlx::query(
            "SELECT id, name, guest, bot, score FROM players \
             WHERE guest = 0 AND skeleton IS NULL ORDER BY id",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut pairs = Vec::new();
        for row in &flagged {
            let player = player_from_row(row)?;
            let older =
                sqlx::query("SELECT id, name, guest, bot, score FROM players WHERE skeleton = $1")
                    .bind(skeleton_key(&player.name))
                    .fetch_optional(&self.pool)
                    .await?;
            if let Some(older) = older {
                pairs.push((player, player_from_row(&older)?));
            }
        }
        Ok(pairs)
    }
}
