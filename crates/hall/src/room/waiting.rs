//! Waiting rooms across restarts (P-DURABLE): a room that waits for its game keeps a row in
//! the database — options, host, who sits where, which bots — so that a restart reopens it
//! under the same code. Its players are away until they come back, their seats held for the
//! reconnection grace (P-DISCONNECT) and marked not ready, so no game starts without them.

use std::sync::Arc;

use serde_json::{Value, json};
use tokio::time::Instant;

use super::RoomHost;
use super::{Room, Seat, Status};
use crate::store::WaitingRoom;
use hangar_games::{stored_bot_level, stored_options};
use hangar_protocol::GameKind;

impl Room {
    /// The row this room should have while it waits; `None` while its game runs.
    fn waiting_record(&self) -> Option<WaitingRoom> {
        if self.status != Status::Waiting {
            return None;
        }
        let seats: Vec<Value> = self
            .seats
            .iter()
            .map(|s| json!({"player_id": s.player_id(), "bot": s.bot, "ready": s.ready}))
            .collect();
        Some(WaitingRoom {
            code: self.code.clone(),
            game: self.game_kind.name().to_owned(),
            private: self.private,
            options: self.options.to_string(),
            host: self.host,
            seats: Value::from(seats).to_string(),
        })
    }

    /// Brings the stored row in line with the room after a command or a timer: written when
    /// the waiting room changed, removed once its game runs (the game's record takes over).
    pub(super) async fn persist_waiting(&mut self) {
        let record = self.waiting_record();
        if record == self.saved_waiting {
            return;
        }
        let stored = match &record {
            Some(room) => self.hall.store().save_waiting_room(room).await,
            None => self.hall.store().forget_waiting_room(&self.code).await,
        };
        match stored {
            Ok(()) => self.saved_waiting = record,
            // Tried again after the next change; the room itself goes on.
            Err(e) => {
                tracing::error!(room = %self.code, error = %e, "storing the waiting room failed")
            }
        }
    }

    /// Removes the row of a room that closes.
    pub(super) async fn forget_waiting(&mut self) {
        if self.saved_waiting.take().is_some()
            && let Err(e) = self.hall.store().forget_waiting_room(&self.code).await
        {
            tracing::error!(room = %self.code, error = %e, "removing the waiting room failed");
        }
    }

    /// Reopens a stored waiting room: bots sit again, players' seats are held for them.
    pub(super) async fn restore_waiting(
        hall: Arc<dyn RoomHost>,
        stored: &WaitingRoom,
    ) -> anyhow::Result<Room> {
        let kind = GameKind::from_name(&stored.game)
            .ok_or_else(|| anyhow::anyhow!("unknown game {:?}", stored.game))?;
        let given: Value = serde_json::from_str(&stored.options)?;
        let (options, seat_count, turn_seconds) =
            stored_options(kind, &given, hall.config().turn_seconds)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
        let seats: Vec<Value> = serde_json::from_str(&stored.seats)?;
        let mut room = Room::new(
            hall.clone(),
            stored.code.clone(),
            kind,
            stored.private,
            options,
            seat_count,
            turn_seconds,
        );
        let grace = hall.config().reconnect_grace;
        for (seat, saved) in room.seats.iter_mut().zip(&seats) {
            if let Some(id) = saved["player_id"].as_i64() {
                let Some(player) = hall.store().player(id).await? else {
                    continue;
                };
                hall.set_seated(id, &stored.code, true);
                *seat = Seat {
                    player: Some(player),
                    ..Seat::default()
                };
                seat.hold(grace);
            } else if let Some(bot) = saved["bot"].as_str() {
                *seat = Seat {
                    bot: Some(stored_bot_level(kind, bot)),
                    ready: true,
                    ..Seat::default()
                };
            }
        }
        room.host = stored
            .host
            .filter(|host| room.seat_of(*host).is_some())
            .or_else(|| room.seats.iter().find_map(Seat::player_id));
        room.saved_waiting = Some(stored.clone());
        room.number_events_anew();
        room.persist_waiting().await;
        tracing::info!(room = %room.code, "waiting room restored");
        Ok(room)
    }

    /// Frees the held seats of players who did not come back in time (no game runs).
    pub(super) fn release_expired_holds(&mut self, now: Instant) {
        for index in 0..self.seats.len() {
            if self.seats[index].away_deadline.is_some_and(|d| d <= now) {
                self.free_seat(index);
            }
        }
    }
}
