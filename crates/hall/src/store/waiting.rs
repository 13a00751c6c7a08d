//! Rooms waiting for their game, kept across restarts (P-DURABLE): who sits where, which bots,
//! the host and the options. A row is replaced whenever the room changes, and removed when its
//! game starts (the game's own record takes over) or when the room closes.

use sqlx::Row;

use super::waiting_room::WaitingRoom;
use super::write::{SaveWaiting, Write};
use super::{Store, StoreError};

impl Store {
    /// Stores (or replaces) a waiting room's row.
    pub async fn save_waiting_room(&self, room: &WaitingRoom) -> Result<(), StoreError> {
        let (code, row) = (room.code.clone(), Some(room.clone()));
        self.send_write(|done| Write::SaveWaiting(SaveWaiting { code, row, done }))
            .await
    }

    /// Removes a waiting room's row (its game started, or the room closed).
    pub async fn forget_waiting_room(&self, code: &str) -> Result<(), StoreError> {
        let code = code.to_owned();
        self.send_write(|done| {
            Write::SaveWaiting(SaveWaiting {
                code,
                row: None,
                done,
            })
        })
        .await
    }

    /// Every stored waiting room whose code no running game uses, to reopen at start. (A crash
    /// between a game's start and the removal of its waiting row leaves both: the game wins.)
    pub async fn waiting_rooms(&self) -> Result<Vec<WaitingRoom>, StoreError> {
        let rows = sqlx::query(
            "SELECT code, game, private, options, host, seats FROM waiting_rooms w \
             WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.room = w.code AND g.status = 'running') \
             ORDER BY updated_at",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(WaitingRoom {
                    code: row.try_get("code")?,
                    game: row.try_get("game")?,
                    private: row.try_get::<i64, _>("private")? != 0,
                    options: row.try_get("options")?,
                    host: row.try_get("host")?,
                    seats: row.try_get("seats")?,
                })
            })
            .collect()
    }
}
