//! The dice in the open (P-DICE-STATS): how often each face came up in finished flight games,
//! for one player's own rolls or for every roll of the hall, read from the games' logs — the
//! same logs the published records are made of, so anyone can recount them.

use std::collections::HashMap;

use hangar_dice::FaceCounts;
use hangar_games::LoggedAct;
use sqlx::Row;

use super::log::read_logs;
use super::{Store, StoreError};

impl Store {
    /// The faces of the dice over finished flight games: with `player`, the rolls that player
    /// made on their own seat (not those auto-play made for them); without, every roll.
    pub async fn dice_counts(&self, player: Option<i64>) -> Result<FaceCounts, StoreError> {
        // The seat of the player in each game (every seat for the hall's count).
        let rows = sqlx::query(
            "SELECT g.id, gp.seat FROM games g \
             LEFT JOIN game_players gp ON gp.game_id = g.id AND gp.player_id = $1 \
             WHERE g.game = 'flight' AND g.status = 'finished' AND ($1 < 0 OR gp.seat IS NOT NULL)",
        )
        .bind(player.unwrap_or(-1))
        .fetch_all(&self.pool)
        .await?;
        let mut seats: HashMap<i64, Option<usize>> = HashMap::with_capacity(rows.len());
        for row in &rows {
            let seat: Option<i64> = row.try_get("seat")?;
            let seat = match (player, seat) {
                (Some(_), Some(seat)) => usize::try_from(seat).ok(),
                _ => None,
            };
            seats.insert(row.try_get("id")?, seat);
        }
        let mut counts = FaceCounts::default();
        for (game, seat) in seats {
            let logs = read_logs(&self.pool, Some(game), false).await?;
            for text in logs.get(&game).into_iter().flatten() {
                // A log entry that is no logged act is no roll to count (its record says so).
                let Ok(act) = LoggedAct::from_line(text) else {
                    continue;
                };
                let Some(face) = act.roll else { continue };
                if player.is_some() && (Some(act.seat) != seat || act.auto) {
                    continue;
                }
                counts.add(face);
            }
        }
        Ok(counts)
    }
}
