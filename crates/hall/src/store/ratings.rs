//! Rating changes, written in the transaction that stores a scored game (P-RATING): each
//! player's current rating of the game is read, the new ones computed (`hangar_games::rating`), and
//! both the rating and a line of its history are written.

use std::collections::HashMap;

use sqlx::{AnyConnection, Row};

use super::placeholders::placeholders;
use super::{ScoreLine, Store, StoreError};
use crate::time::now_ms;
use hangar_games::rating::{Skill, Standing, rate};
use hangar_protocol::GameKind;

/// Rates one finished game; returns each line's rating before and after, in line order. Runs
/// inside the writer's transaction, which is the only writer: no other game's ratings change
/// between the read and the write.
pub(super) async fn rate_game(
    conn: &mut AnyConnection,
    game: GameKind,
    game_id: i64,
    lines: &[ScoreLine],
) -> Result<Vec<(Skill, Skill)>, sqlx::Error> {
    let mut before = Vec::with_capacity(lines.len());
    for line in lines {
        before.push(current(conn, game, line.player_id).await?);
    }
    let standings: Vec<Standing> = lines
        .iter()
        .map(|l| Standing {
            team: l.team,
            rank: u32::try_from(l.rank).unwrap_or(u32::MAX),
        })
        .collect();
    let after = rate(game, &before, &standings);
    let at = now_ms();
    for (line, skill) in lines.iter().zip(&after) {
        sqlx::query(
            "INSERT INTO ratings (player_id, game, rating, deviation, volatility, games) \
             VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (player_id, game) DO UPDATE SET rating = $3, deviation = $4, \
             volatility = $5, games = $6",
        )
        .bind(line.player_id)
        .bind(game.name())
        .bind(skill.rating)
        .bind(skill.deviation)
        .bind(skill.volatility)
        .bind(skill.games)
        .execute(&mut *conn)
        .await?;
        sqlx::query(
            "INSERT INTO rating_history (game_id, player_id, game, rating, deviation, at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(game_id)
        .bind(line.player_id)
        .bind(game.name())
        .bind(skill.rating)
        .bind(skill.deviation)
        .bind(at)
        .execute(&mut *conn)
        .await?;
    }
    Ok(before.into_iter().zip(after).collect())
}

/// A player's rating of `game`, or the starting one.
async fn current(
    conn: &mut AnyConnection,
    game: GameKind,
    player_id: i64,
) -> Result<Skill, sqlx::Error> {
    let row = sqlx::query(
        "SELECT rating, deviation, volatility, games FROM ratings WHERE player_id = $1 AND game = $2",
    )
    .bind(player_id)
    .bind(game.name())
    .fetch_optional(&mut *conn)
    .await?;
    row.map_or_else(|| Ok(Skill::initial(game)), |row| skill_from_row(&row))
}

/// A skill from a row with `rating, deviation, volatility, games`.
pub(super) fn skill_from_row(row: &sqlx::any::AnyRow) -> Result<Skill, sqlx::Error> {
    Ok(Skill {
        rating: row.try_get("rating")?,
        deviation: row.try_get("deviation")?,
        volatility: row.try_get("volatility")?,
        games: row.try_get("games")?,
    })
}

impl Store {
    /// The ratings of `game` of these players; players without one are left out.
    pub async fn ratings_of(
        &self,
        game: GameKind,
        players: &[i64],
    ) -> Result<HashMap<i64, f64>, StoreError> {
        if players.is_empty() {
            return Ok(HashMap::new());
        }
        let sql = format!(
            "SELECT player_id, rating FROM ratings WHERE game = $1 AND player_id IN ({})",
            placeholders(2, players.len())
        );
        let mut query = sqlx::query(&sql).bind(game.name());
        for id in players {
            query = query.bind(*id);
        }
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter()
            .map(|row| Ok((row.try_get("player_id")?, row.try_get("rating")?)))
            .collect()
    }
}
