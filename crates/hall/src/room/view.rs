//! What a room shows: the snapshot for its members and the summary for the hall list.

use super::{Room, Seat};
use hangar_protocol::{RoomMessage, RoomState, RoomSummary, SeatView, SummarySeat, TurnView};

impl Room {
    fn seat_view(&self, index: usize, seat: &Seat) -> SeatView {
        SeatView {
            seat: index,
            player: seat.player.as_ref().map(|p| p.view()),
            bot: seat.bot,
            ready: seat.ready,
            colour: self.game.as_ref().map(|g| g.session.colour_name(index)),
            autoplay: seat.autoplay,
            connected: seat.bot.is_some()
                || seat
                    .player
                    .as_ref()
                    .is_some_and(|p| self.is_connected(p.id)),
            away_until: seat.away_until,
            out: seat.out,
        }
    }

    /// The whole room as a `snapshot` frame.
    pub(super) fn snapshot_frame(&self) -> String {
        let running = self.game.as_ref();
        let state = RoomState {
            code: self.code.clone(),
            game_kind: self.game_kind,
            private: self.private,
            practice: self.practice(),
            host: self.host,
            options: serde_json::to_value(self.options).expect("room options serialise"),
            status: self.status,
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| self.seat_view(i, s))
                .collect(),
            spectators: self.spectator_count(),
            commitment: running.map(|r| r.commitment.clone()),
            // The last game's seed, revealed once it ended (P-FAIR-DICE); secret while one runs.
            seed: match running {
                Some(_) => None,
                None => self.last_result.as_ref().map(|r| r.seed.clone()),
            },
            turn: self.turn_view(),
            game: running.map(|r| r.session.view()),
            chat: self.chat.iter().cloned().collect(),
            result: self.last_result.clone(),
            quick_bots_at: self.quick_fill_at.and(self.quick_bots_at),
        };
        let message = RoomMessage::Snapshot {
            room: self.code.clone(),
            v: self.version,
            state: Box::new(state),
        };
        serde_json::to_string(&message).expect("a snapshot serialises")
    }

    /// The current decision and its deadline, if a game runs.
    pub(super) fn turn_view(&self) -> Option<TurnView> {
        let running = self.game.as_ref()?;
        let (seat, need) = running.session.turn()?;
        Some(TurnView {
            seat,
            need,
            deadline: running.deadline_ms,
            seconds: self.turn_seconds,
        })
    }

    /// The room as the hall lists it.
    pub(super) fn summary(&self) -> RoomSummary {
        RoomSummary {
            code: self.code.clone(),
            game: self.game_kind,
            status: self.status,
            practice: self.practice(),
            quick: self.quick,
            options: serde_json::to_value(self.options).expect("room options serialise"),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| SummarySeat {
                    seat: i,
                    name: (!s.is_empty()).then(|| s.name()),
                    bot: s.bot,
                    guest: s.player.as_ref().is_some_and(|p| p.guest),
                    ready: s.ready,
                })
                .collect(),
            spectators: self.spectator_count(),
        }
    }
}
