//! The dice in the open (P-DICE-STATS): how often each face came up in finished flight games,
//! for one player's own rolls or for every roll of the hall.
//!
//! Each finished flight game's faces are counted once, by seat, from its log — the same log
//! its published record is made of, so anyone can recount them — into `dice_faces`: in the
//! transaction that finishes the game ([`count_game_dice`]), or, for games finished before
//! that table, when the hall opens the database ([`count_older_dice`]). A request sums rows:
//! its cost does not grow with the games' logs.

use std::collections::BTreeMap;

use hangar_dice::FaceCounts;
use hangar_games::LoggedAct;
use sqlx::{AnyConnection, AnyPool, Row};

use super::{Store, StoreError};

/// The faces one seat rolled in one game.
#[derive(Default)]
struct SeatFaces {
    /// The seat's own rolls (auto-play's for it left out).
    own: FaceCounts,
    /// Every roll of the seat.
    all: FaceCounts,
}

/// Each seat's faces in a game's log lines. A line that is no logged act is no roll to count
/// (its record says so).
fn count_faces<'a>(lines: impl IntoIterator<Item = &'a str>) -> BTreeMap<usize, SeatFaces> {
    let mut seats: BTreeMap<usize, SeatFaces> = BTreeMap::new();
    for line in lines {
        let Ok(Some(roll)) = LoggedAct::roll_in_line(line) else {
            continue;
        };
        let seat = seats.entry(roll.seat).or_default();
        seat.all.add(roll.face);
        if !roll.auto {
            seat.own.add(roll.face);
        }
    }
    seats
}

/// Counts the dice of finished flight game `game_id` into `dice_faces` (nothing for a Jungle
/// game). Called in the transaction that finishes the game, after its last actions went into
/// chunks; counting a game twice changes nothing.
pub(super) async fn count_game_dice(
    conn: &mut AnyConnection,
    game_id: i64,
) -> Result<(), sqlx::Error> {
    let rows = sqlx::query(
        "SELECT c.data FROM action_chunks c JOIN games g ON g.id = c.game_id \
         WHERE c.game_id = $1 AND g.game = 'flight' ORDER BY c.first_idx",
    )
    .bind(game_id)
    .fetch_all(&mut *conn)
    .await?;
    let chunks = rows
        .iter()
        .map(|row| row.try_get::<String, _>("data"))
        .collect::<Result<Vec<_>, _>>()?;
    let seats = count_faces(chunks.iter().flat_map(|chunk| chunk.split('\n')));
    for (seat, faces) in seats {
        let mut insert = sqlx::query(
            "INSERT INTO dice_faces (game_id, seat, own_1, own_2, own_3, own_4, own_5, own_6, \
             all_1, all_2, all_3, all_4, all_5, all_6) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) \
             ON CONFLICT DO NOTHING",
        )
        .bind(game_id)
        .bind(seat as i64);
        for &count in faces.own.counts().iter().chain(faces.all.counts()) {
            insert = insert.bind(count as i64);
        }
        insert.execute(&mut *conn).await?;
    }
    Ok(())
}

/// Counts the dice of the finished flight games that have none counted: games finished
/// before `dice_faces` existed (once), and games with no roll (cheaply, each time).
pub(super) async fn count_older_dice(pool: &AnyPool) -> Result<(), StoreError> {
    let games = sqlx::query(
        "SELECT g.id FROM games g WHERE g.game = 'flight' AND g.status = 'finished' \
         AND NOT EXISTS (SELECT 1 FROM dice_faces d WHERE d.game_id = g.id)",
    )
    .fetch_all(pool)
    .await?;
    let mut conn = pool.acquire().await?;
    for game in &games {
        count_game_dice(&mut conn, game.try_get("id")?).await?;
    }
    Ok(())
}

impl Store {
    /// The faces of the dice over finished flight games: with `player`, the rolls that player
    /// made on their own seat (not those auto-play made for them); without, every roll.
    pub async fn dice_counts(&self, player: Option<i64>) -> Result<FaceCounts, StoreError> {
        let sums = |kind: &str| {
            (1..=6)
                .map(|face| format!("CAST(SUM(d.{kind}_{face}) AS BIGINT)"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let row = match player {
            Some(player) => {
                sqlx::query(&format!(
                    "SELECT {} FROM dice_faces d JOIN game_players gp \
                     ON gp.game_id = d.game_id AND gp.seat = d.seat WHERE gp.player_id = $1",
                    sums("own")
                ))
                .bind(player)
                .fetch_one(&self.pool)
                .await?
            }
            None => {
                sqlx::query(&format!("SELECT {} FROM dice_faces d", sums("all")))
                    .fetch_one(&self.pool)
                    .await?
            }
        };
        let mut counts = [0; 6];
        for (face, count) in counts.iter_mut().enumerate() {
            // No rows: SUM is NULL.
            *count = row.try_get::<Option<i64>, _>(face)?.unwrap_or(0) as u64;
        }
        Ok(FaceCounts::new(counts))
    }
}
