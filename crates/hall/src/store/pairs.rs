//! How many scored games two people played against each other lately (P-ABORT: at most 3 a
//! day count; later ones are practice).

use sqlx::Row;

use super::{Store, StoreError};

impl Store {
    /// The most scored games (not practice, not aborted) finished at or after `since_ms` that
    /// any two of `people` played together: one read for every pair of a table (a flight
    /// table of four has six), made before each game and after it.
    pub async fn most_scored_games_of_a_pair(
        &self,
        people: &[i64],
        since_ms: i64,
    ) -> Result<i64, StoreError> {
        if people.len() < 2 {
            return Ok(0);
        }
        // `$2 … $n+1` twice: the ids of both sides of each pair. A few texts (two to four
        // people), each prepared once and cached.
        let ids = (2..people.len() + 2)
            .map(|i| format!("${i}"))
            .collect::<Vec<_>>()
            .join(", ");
        let sql = format!(
            "SELECT COUNT(*) AS n FROM game_players x \
             JOIN game_players y ON y.game_id = x.game_id AND y.player_id > x.player_id \
             JOIN games g ON g.id = x.game_id \
             WHERE x.player_id IN ({ids}) AND y.player_id IN ({ids}) AND x.practice = 0 \
             AND g.finished_at >= $1 \
             GROUP BY x.player_id, y.player_id ORDER BY n DESC LIMIT 1"
        );
        let mut query = sqlx::query(&sql).bind(since_ms);
        for &id in people {
            query = query.bind(id);
        }
        match query.fetch_optional(&self.pool).await? {
            Some(row) => Ok(row.try_get::<i64, _>("n")?),
            None => Ok(0),
        }
    }
}
