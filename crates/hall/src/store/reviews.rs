//! Game reviews kept with their records (P-REVIEW): once the hall has computed a finished
//! game's review it stores the JSON in `reviews`, and serves it from there ever after without
//! computing it again. A finished game never changes, so neither does its review.

use sqlx::Row;

use super::{Store, StoreError};
use crate::time::now_ms;

/// A stored review with what deciding who may see it needs (as for the game's record).
#[derive(Clone, Debug)]
pub struct StoredReview {
    /// The review's JSON, as computed.
    pub body: String,
    /// The game's room was private: only the players seated in it may see the review.
    pub private: bool,
    /// The game's seats (JSON, as stored with the game).
    pub seats: String,
}

impl Store {
    /// The stored review of game `game_id`, if one was computed.
    pub async fn review(&self, game_id: i64) -> Result<Option<StoredReview>, StoreError> {
        let row = sqlx::query(
            "SELECT r.body, g.private, g.seats FROM reviews r JOIN games g ON g.id = r.game_id \
             WHERE r.game_id = $1",
        )
        .bind(game_id)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            Ok(StoredReview {
                body: row.try_get("body")?,
                private: row.try_get::<i64, _>("private")? != 0,
                seats: row.try_get("seats")?,
            })
        })
        .transpose()
    }

    /// Keeps the review `body` (format `format`, `nodes` per Jungle position) of finished game
    /// `game_id`. A game already reviewed keeps its first review: two nodes of a cluster that
    /// computed the same review store it once.
    pub async fn put_review(
        &self,
        game_id: i64,
        format: &str,
        nodes: u64,
        body: String,
    ) -> Result<(), StoreError> {
        let format = format.to_owned();
        let nodes = i64::try_from(nodes).unwrap_or(i64::MAX);
        self.write(move |conn| {
            Box::pin(async move {
                sqlx::query(
                    "INSERT INTO reviews (game_id, format, nodes, body, created_at) \
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id) DO NOTHING",
                )
                .bind(game_id)
                .bind(format)
                .bind(nodes)
                .bind(body)
                .bind(now_ms())
                .execute(&mut *conn)
                .await
                .map(drop)
            })
        })
        .await
    }
}
