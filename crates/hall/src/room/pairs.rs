//! The same two people count at most so many scored games against each other in 24 hours
//! (P-ABORT: 3): a farmer and a puppet who keep playing get nothing more from it, and the
//! room says so before the game starts (`pair_practice`).

use super::{Room, Status};
use crate::time::now_ms;
use hangar_protocol::RoomEvent;

/// The window the cap counts over.
const DAY_MS: i64 = 24 * 3600 * 1000;

impl Room {
    /// Checks whether the people seated have played their day's scored games together, when
    /// who sits changed since the last check (or always with `force`); tells the room when the
    /// answer changes. A failing read keeps the last answer (a game then cannot start anyway:
    /// it needs the same database).
    pub(super) async fn refresh_pair_practice(&mut self, force: bool) {
        let cap = i64::from(self.hall.config().fair.pair_games_per_day);
        if self.status != Status::Waiting || cap == 0 {
            return;
        }
        let mut people: Vec<i64> = self.seats.iter().filter_map(|s| s.player_id()).collect();
        people.sort_unstable();
        people.dedup();
        if !force && self.pair_checked.as_ref() == Some(&people) {
            return;
        }
        let since = now_ms() - DAY_MS;
        let capped = match self
            .hall
            .store()
            .most_scored_games_of_a_pair(&people, since)
            .await
        {
            Ok(n) => n >= cap,
            Err(e) => {
                tracing::warn!(room = %self.code, error = %e, "the pairs' games could not be counted");
                return;
            }
        };
        self.pair_checked = Some(people);
        if capped != self.pair_practice {
            self.pair_practice = capped;
            self.emit(RoomEvent::PairPractice { on: capped });
            self.publish();
        }
    }
}
