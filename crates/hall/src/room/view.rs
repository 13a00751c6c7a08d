//! What a room shows: the snapshot for its members and the summary for the hall list.

use serde_json::{Value, json};

use super::{Room, Seat, Status};

impl Room {
    fn seat_view(&self, index: usize, seat: &Seat) -> Value {
        let colour = self
            .game
            .as_ref()
            .map(|g| g.session.colour_name(index))
            .unwrap_or(Value::Null);
        json!({
            "seat": index,
            "player": seat.player.as_ref().map(|p| p.view()),
            "bot": seat.bot,
            "ready": seat.ready,
            "colour": colour,
            "autoplay": seat.autoplay,
            "connected": seat.bot.is_some() || seat.player.as_ref().is_some_and(|p| self.is_connected(p.id)),
            "away_until": seat.away_until,
            "out": seat.out.map(|o| o.name()),
        })
    }

    fn status_name(&self) -> &'static str {
        match self.status {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
        }
    }

    /// The whole room as a `snapshot` frame.
    pub(super) fn snapshot_frame(&self) -> String {
        let seats: Vec<Value> = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| self.seat_view(i, s))
            .collect();
        let (commitment, turn, game) = match &self.game {
            Some(running) => (
                Value::from(running.commitment.clone()),
                self.turn_view(),
                running.session.view(),
            ),
            None => (Value::Null, Value::Null, Value::Null),
        };
        let seed = self
            .last_result
            .as_ref()
            .map(|r| r["seed"].clone())
            .unwrap_or(Value::Null);
        json!({
            "type": "snapshot",
            "room": self.code,
            "v": self.version,
            "state": {
                "code": self.code,
                "game": self.game_kind.name(),
                "private": self.private,
                "host": self.host,
                "options": self.options,
                "status": self.status_name(),
                "seats": seats,
                "spectators": self.spectator_count(),
                "commitment": commitment,
                "seed": if self.game.is_some() { Value::Null } else { seed },
                "turn": turn,
                "game": game,
                "chat": self.chat,
                "result": self.last_result,
            }
        })
        .to_string()
    }

    /// The current decision and its deadline, or null.
    pub(super) fn turn_view(&self) -> Value {
        let Some(running) = &self.game else {
            return Value::Null;
        };
        match running.session.turn() {
            Some((seat, need)) => json!({
                "seat": seat,
                "need": need,
                "deadline": running.deadline_ms,
                "seconds": self.turn_seconds,
            }),
            None => Value::Null,
        }
    }

    /// The room as the hall lists it.
    pub(super) fn summary(&self) -> Value {
        let seats: Vec<Value> = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                json!({
                    "seat": i,
                    "name": (!s.is_empty()).then(|| s.name()),
                    "bot": s.bot,
                    "ready": s.ready,
                })
            })
            .collect();
        json!({
            "code": self.code,
            "game": self.game_kind.name(),
            "status": self.status_name(),
            "options": self.options,
            "seats": seats,
            "spectators": self.spectator_count(),
        })
    }
}
