//! How many scored games two people played against each other lately (P-ABORT: at most 3 a
//! day count; later ones are practice).

use sqlx::Row;

use super::{Store, StoreError};

impl Store {
    /// Scored games (not practice, not aborted) that both `a` and `b` played, finished at or
    /// after `since_ms`.
    pub async fn scored_games_between(
        &self,
        a: i64,
        b: i64,
        since_ms: i64,
    ) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM game_players x \
             JOIN game_players y ON y.game_id = x.game_id \
             JOIN games g ON g.id = x.game_id \
             WHERE x.player_id = $1 AND y.player_id = $2 AND x.practice = 0 \
             AND g.finished_at >= $3",
        )
        .bind(a)
        .bind(b)
        .bind(since_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")?)
    }
}
