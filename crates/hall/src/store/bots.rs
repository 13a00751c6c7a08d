//! Bot accounts (P-BOT-ACCOUNT): an account made a program's, once and for good.

use sqlx::Row;

use super::{Store, StoreError};

/// Why an account cannot become a bot account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotRefusal {
    /// A guest has no account to make a bot's.
    Guest,
    /// The player has finished a game: its standing was earned by a person.
    Played,
    /// The player is in a room (seated or not): the people there sat down with a person.
    InRoom,
}

impl Store {
    /// Makes `player_id` a bot account, unless it is a guest, has a finished game (checked in
    /// the same write as the change, so that a game finishing meanwhile is not missed) or is
    /// `in_room`. A player who is a bot account already stays one (`Ok`).
    pub async fn make_bot(
        &self,
        player_id: i64,
        in_room: bool,
    ) -> Result<Result<(), BotRefusal>, StoreError> {
        self.write(move |conn| {
            Box::pin(async move {
                let row = sqlx::query(
                    "SELECT guest, bot, EXISTS (SELECT 1 FROM game_players gp \
                     WHERE gp.player_id = p.id) AS played FROM players p WHERE p.id = $1",
                )
                .bind(player_id)
                .fetch_one(&mut *conn)
                .await?;
                if row.try_get::<i64, _>("guest")? != 0 {
                    return Ok(Err(BotRefusal::Guest));
                }
                if row.try_get::<i64, _>("bot")? != 0 {
                    return Ok(Ok(()));
                }
                // EXISTS reads as an integer in SQLite and a boolean in PostgreSQL.
                let played = match row.try_get::<bool, _>("played") {
                    Ok(played) => played,
                    Err(_) => row.try_get::<i64, _>("played")? != 0,
                };
                if played {
                    return Ok(Err(BotRefusal::Played));
                }
                if in_room {
                    return Ok(Err(BotRefusal::InRoom));
                }
                sqlx::query("UPDATE players SET bot = 1 WHERE id = $1")
                    .bind(player_id)
                    .execute(&mut *conn)
                    .await?;
                Ok(Ok(()))
            })
        })
        .await
    }
}
