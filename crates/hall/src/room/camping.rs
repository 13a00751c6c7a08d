//! Seats held without playing (seat camping): in a public waiting room a person who does
//! not ready within a while (`hangar serve --ready-timeout-seconds`, 60 s) loses the seat,
//! and the host may free the seat of a person who is not ready at once. Private rooms wait
//! for their friends.

use tokio::time::Instant;

use super::{Room, Status};
use hangar_protocol::{Ack, ErrorCode, Outcome, ProtoError};

impl Room {
    /// Starts (or stops) the countdown of every person's seat after a change of the room.
    pub(super) fn track_readiness(&mut self) {
        let waiting = self.status == Status::Waiting && !self.private;
        let timeout = self.hall.config().ready_timeout;
        for seat in &mut self.seats {
            // A seat held for a player who is away has its own deadline (P-DISCONNECT).
            let idle =
                waiting && seat.player.is_some() && !seat.ready && seat.away_deadline.is_none();
            seat.ready_by = match (idle, seat.ready_by) {
                (true, Some(by)) => Some(by),
                (true, None) => Some(Instant::now() + timeout),
                (false, _) => None,
            };
        }
    }

    /// The countdowns that ran out free their seats.
    pub(super) fn free_idle_seats(&mut self, now: Instant) {
        for index in 0..self.seats.len() {
            if self.seats[index].ready_by.is_some_and(|by| by <= now) {
                tracing::info!(room = %self.code, seat = index, "a seat not readied in time is freed");
                self.free_seat(index);
            }
        }
        self.track_readiness();
    }

    /// When the next countdown runs out.
    pub(super) fn next_idle_deadline(&self) -> Option<Instant> {
        self.seats.iter().filter_map(|s| s.ready_by).min()
    }

    /// `kick`: the host frees the seat of a person who is not ready.
    pub(super) fn kick(&mut self, player: i64, index: usize) -> Outcome {
        self.require_waiting()?;
        if self.host != Some(player) {
            return Err(ProtoError::new(
                ErrorCode::NotHost,
                "only the host may free a seat",
            ));
        }
        let Some(seat) = self.seats.get(index) else {
            return Err(ProtoError::new(
                ErrorCode::NoSeat,
                format!("no seat {index}"),
            ));
        };
        if seat.player.is_none() || seat.player_id() == Some(player) {
            return Err(ProtoError::new(
                ErrorCode::Invalid,
                format!("seat {index} holds no other person"),
            ));
        }
        if seat.ready {
            return Err(ProtoError::new(
                ErrorCode::Invalid,
                "a player who is ready keeps the seat",
            ));
        }
        self.free_seat(index);
        Ok(Ack::DONE)
    }
}
