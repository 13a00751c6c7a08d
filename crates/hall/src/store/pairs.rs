//! How many counted games two people played against each other (P-ABORT: at most 3 in 24
//! hours; P-ARENA: at most 3 in one arena), decided when each game starts.
//!
//! A game's pairs are written in the transaction that decides whether it counts, so two games
//! of one pair that start at once are decided one after the other: on one node the writer runs
//! one transaction at a time; on PostgreSQL (a cluster) each pair's advisory lock orders the
//! nodes' transactions.

use sqlx::{AnyConnection, Row};

use super::placeholders::placeholders;
use super::{Backend, Store, StoreError};

/// Where the games of a pair are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairScope {
    /// The hall's games (not an arena's) started in the last 24 hours (P-ABORT).
    Day,
    /// The games of one arena, however long it runs (P-ARENA).
    Arena(i64),
}

impl PairScope {
    /// The window the cap counts over, in Unix ms.
    pub const DAY_MS: i64 = 24 * 3600 * 1000;

    /// The stored form of the scope.
    fn key(self) -> String {
        match self {
            PairScope::Day => String::new(),
            PairScope::Arena(id) => format!("arena:{id}"),
        }
    }

    /// The first start time that counts at `now_ms`.
    fn since(self, now_ms: i64) -> i64 {
        match self {
            PairScope::Day => now_ms - Self::DAY_MS,
            PairScope::Arena(_) => i64::MIN,
        }
    }
}

/// Every pair `(low, high)` of `people` (sorted, without repeats), in a fixed order.
fn pairs_of(people: &[i64]) -> Vec<(i64, i64)> {
    let mut people = people.to_vec();
    people.sort_unstable();
    people.dedup();
    let mut pairs = Vec::new();
    for (i, &low) in people.iter().enumerate() {
        for &high in &people[i + 1..] {
            pairs.push((low, high));
        }
    }
    pairs
}

/// The most counted games of any pair of `people` in `scope` started at or after `since_ms`.
async fn busiest_pair(
    conn: &mut AnyConnection,
    people: &[i64],
    scope: PairScope,
    since_ms: i64,
) -> Result<i64, sqlx::Error> {
    // `$3 … $n+2` twice: the ids of both sides of each pair. A few texts (two to four
    // people), each prepared once and cached.
    let ids = placeholders(3, people.len());
    let sql = format!(
        "SELECT COUNT(*) AS n FROM pair_games \
         WHERE scope = $1 AND started_at >= $2 AND counted = 1 \
         AND low IN ({ids}) AND high IN ({ids}) \
         GROUP BY low, high ORDER BY n DESC LIMIT 1"
    );
    let mut query = sqlx::query(&sql).bind(scope.key()).bind(since_ms);
    for &id in people {
        query = query.bind(id);
    }
    match query.fetch_optional(&mut *conn).await? {
        Some(row) => row.try_get::<i64, _>("n"),
        None => Ok(0),
    }
}

impl Store {
    /// The most counted games any two of `people` played together in `scope` up to `now_ms`,
    /// running games included: what the room shows before its game starts.
    pub async fn most_counted_games_of_a_pair(
        &self,
        people: &[i64],
        scope: PairScope,
        now_ms: i64,
    ) -> Result<i64, StoreError> {
        if people.len() < 2 {
            return Ok(0);
        }
        let mut conn = self.pool.acquire().await?;
        Ok(busiest_pair(&mut conn, people, scope, scope.since(now_ms)).await?)
    }

    /// Decides, as game `game_id` of `people` starts at `now_ms`, whether it counts: it does
    /// when no pair of them has `cap` counted games in `scope` yet. The decision is stored
    /// with every pair of the game in the same transaction. Returns whether the game counts.
    pub async fn decide_pair_cap(
        &self,
        game_id: i64,
        people: &[i64],
        scope: PairScope,
        cap: i64,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let pairs = pairs_of(people);
        if pairs.is_empty() {
            return Ok(true);
        }
        let people = people.to_vec();
        let backend = self.backend;
        self.write(move |conn| {
            Box::pin(async move {
                if backend == Backend::Postgres {
                    // Another node may decide a game of the same pair now: the pairs' locks,
                    // taken in one order, make the later transaction wait for the earlier.
                    for &(low, high) in &pairs {
                        sqlx::query("SELECT pg_advisory_xact_lock($1, $2)")
                            .bind(low as i32)
                            .bind(high as i32)
                            .execute(&mut *conn)
                            .await?;
                    }
                }
                let busiest = busiest_pair(conn, &people, scope, scope.since(now_ms)).await?;
                let counted = busiest < cap;
                for &(low, high) in &pairs {
                    sqlx::query(
                        "INSERT INTO pair_games (game_id, scope, low, high, counted, started_at) \
                         VALUES ($1, $2, $3, $4, $5, $6)",
                    )
                    .bind(game_id)
                    .bind(scope.key())
                    .bind(low)
                    .bind(high)
                    .bind(i64::from(counted))
                    .bind(now_ms)
                    .execute(&mut *conn)
                    .await?;
                }
                Ok(counted)
            })
        })
        .await
    }

    /// What was decided for game `game_id` when it started: `Some(true)` it counts,
    /// `Some(false)` the cap made it practice, `None` nothing was stored (fewer than two
    /// people).
    pub async fn pair_decision(&self, game_id: i64) -> Result<Option<bool>, StoreError> {
        let row = sqlx::query("SELECT MIN(counted) AS counted FROM pair_games WHERE game_id = $1")
            .bind(game_id)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get::<Option<i64>, _>("counted")?.map(|c| c == 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_abort_every_pair_of_a_table_once_in_order() {
        assert_eq!(pairs_of(&[7, 3, 5, 3]), vec![(3, 5), (3, 7), (5, 7)]);
        assert!(pairs_of(&[4]).is_empty());
    }
}
