//! Quick match that always starts (P-QUICK): a player who comes by quick match is ready at
//! once, and when no other person has joined for a while (10 s by default,
//! `hangar serve --quick-bots-after-seconds`) bots of middle strength fill the empty seats and
//! the game starts — a practice game (P-PRACTICE), since bots sit in it. An arena's room
//! (P-ARENA) seats its players the same way, ready, and never with bots.

use tokio::time::Instant;

use super::{Room, Seat, Status};
use crate::accounts::Player;
use crate::outbox::Outbox;
use crate::time::now_ms;
use hangar_games::quick_bot_level;
use hangar_protocol::{Ack, ErrorCode, Outcome, ProtoError, RoomEvent};

impl Room {
    /// A player came by quick match and sits in `seat`: ready, and the wait for others starts
    /// again.
    pub(super) async fn quick_seated(&mut self, outcome: Outcome) -> Outcome {
        let seat = match &outcome {
            Ok(Ack::Joined(joined)) => joined.seat,
            Ok(Ack::Matched(matched)) => Some(matched.seat),
            _ => None,
        };
        let Some(seat) = seat else {
            return outcome;
        };
        if !self.seats[seat].ready {
            self.seats[seat].ready = true;
            self.emit(RoomEvent::Ready { seat, ready: true });
            self.publish();
        }
        // The seated are told when the bots come, so that the search says it (and a person may
        // choose to wait for people instead); after that choice no bot comes.
        if !self.people_only {
            let after = self.hall.config().quick_fill_after;
            self.quick_fill_at = Some(Instant::now() + after);
            let at = now_ms().saturating_add(i64::try_from(after.as_millis()).unwrap_or(i64::MAX));
            self.quick_bots_at = Some(at);
            self.emit(RoomEvent::QuickBots { at: Some(at) });
            self.publish();
        }
        self.maybe_start().await;
        outcome
    }

    /// A seated person would rather wait for people than play bots: the fill is called off for
    /// this room's next game.
    pub(super) fn wait_for_people(&mut self, player: i64) -> Outcome {
        self.require_waiting()?;
        if self.seat_of(player).is_none() {
            return Err(ProtoError::new(ErrorCode::NotInRoom, "take a seat first"));
        }
        if !self.quick {
            return Err(ProtoError::new(
                ErrorCode::Invalid,
                "only a quick-match room fills its seats with bots",
            ));
        }
        if !self.people_only {
            self.people_only = true;
            self.quick_fill_at = None;
            self.quick_bots_at = None;
            self.emit(RoomEvent::QuickBots { at: None });
            self.publish();
        }
        Ok(Ack::DONE)
    }

    /// An arena seats a player (P-ARENA): ready at once, and the room has no host, so nobody
    /// adds a bot; the game starts when the last player of the table sits down.
    pub(super) async fn arena_seated(
        &mut self,
        outbox: &Outbox,
        player: Player,
        starts_at: i64,
    ) -> Outcome {
        self.clock_from = Some(self.clock_from.map_or(starts_at, |at| at.max(starts_at)));
        let joined = self.enter(outbox, player, None, None, true).await;
        self.host = None;
        let seat = match &joined {
            Ok(Ack::Joined(joined)) => joined.seat,
            _ => None,
        };
        if let Some(seat) = seat
            && !self.seats[seat].ready
        {
            self.seats[seat].ready = true;
            self.emit(RoomEvent::Ready { seat, ready: true });
            self.publish();
            self.maybe_start().await;
        }
        joined
    }

    /// The wait ran out: bots take the empty seats (if a person still waits) and the game
    /// starts once every person is ready.
    pub(super) async fn quick_fill(&mut self) {
        self.quick_fill_at = None;
        if self.status != Status::Waiting || self.seats.iter().all(|s| s.player.is_none()) {
            return;
        }
        let level = quick_bot_level(self.game_kind);
        for index in 0..self.seats.len() {
            if self.seats[index].is_empty() {
                self.seats[index] = Seat {
                    bot: Some(level),
                    ready: true,
                    ..Seat::default()
                };
                self.emit(RoomEvent::BotAdded {
                    seat: index,
                    bot: level,
                });
            }
        }
        self.publish();
        self.maybe_start().await;
    }
}
