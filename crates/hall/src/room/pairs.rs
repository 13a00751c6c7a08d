//! The same two people count at most so many scored games against each other (P-ABORT: 3 in
//! 24 hours; P-ARENA: 3 in one arena): a farmer and a puppet who keep playing get nothing more
//! from it. The room says so before the game starts (`pair_practice`), and the store decides
//! it for good as the game starts, one game after the other, however many start at once.

use super::{Room, Status};
use crate::store::PairScope;
use crate::time::now_ms;
use hangar_protocol::RoomEvent;

impl Room {
    /// Where this room's games are counted: its arena's, or the hall's day.
    fn pair_scope(&self) -> PairScope {
        match self.hall.arena_of(&self.code) {
            Some(arena) => PairScope::Arena(arena),
            None => PairScope::Day,
        }
    }

    /// The cap of this room's scope (0: none).
    fn pair_cap(&self, scope: PairScope) -> i64 {
        let fair = &self.hall.config().fair;
        i64::from(match scope {
            PairScope::Day => fair.pair_games_per_day,
            PairScope::Arena(_) => fair.arena_pair_games,
        })
    }

    /// The people seated, sorted, each once.
    fn people(&self) -> Vec<i64> {
        let mut people: Vec<i64> = self.seats.iter().filter_map(|s| s.player_id()).collect();
        people.sort_unstable();
        people.dedup();
        people
    }

    /// Checks whether the people seated have played their counted games together, when who
    /// sits changed since the last check (or always with `force`); tells the room when the
    /// answer changes. A failing read keeps the last answer: the start decides anyway.
    pub(super) async fn refresh_pair_practice(&mut self, force: bool) {
        let scope = self.pair_scope();
        let cap = self.pair_cap(scope);
        if self.status != Status::Waiting || cap == 0 {
            return;
        }
        let people = self.people();
        if !force && self.pair_checked.as_ref() == Some(&people) {
            return;
        }
        let capped = match self
            .hall
            .store()
            .most_counted_games_of_a_pair(&people, scope, now_ms())
            .await
        {
            Ok(n) => n >= cap,
            Err(e) => {
                tracing::warn!(room = %self.code, error = %e, "the pairs' games could not be counted");
                return;
            }
        };
        self.pair_checked = Some(people);
        self.set_pair_practice(capped);
    }

    /// Decides, as stored game `game_id` starts, whether it counts for its pairs, and makes
    /// it practice if it does not. A game a bot sits in is practice anyway and counts for
    /// nobody. When the decision cannot be stored the game is practice: nobody gains from a
    /// failing database.
    pub(super) async fn decide_pair_practice(&mut self, game_id: i64) {
        let scope = self.pair_scope();
        let cap = self.pair_cap(scope);
        if cap == 0 || self.seats.iter().any(|s| s.bot.is_some()) {
            return;
        }
        let people = self.people();
        let counted = match self
            .hall
            .store()
            .decide_pair_cap(game_id, &people, scope, cap, now_ms())
            .await
        {
            Ok(counted) => counted,
            Err(e) => {
                tracing::warn!(room = %self.code, game_id, error = %e, "the pair cap could not be decided: a practice game");
                false
            }
        };
        self.set_pair_practice(!counted);
    }

    /// What was decided for a restored game when it started; a game stored before the
    /// decision was kept is checked as a waiting room is.
    pub(super) async fn restore_pair_practice(&mut self, game_id: i64) {
        match self.hall.store().pair_decision(game_id).await {
            Ok(Some(counted)) => self.set_pair_practice(!counted),
            Ok(None) => self.refresh_pair_practice(true).await,
            Err(e) => {
                tracing::warn!(room = %self.code, game_id, error = %e, "the pair cap could not be read: a practice game");
                self.set_pair_practice(true);
            }
        }
    }

    fn set_pair_practice(&mut self, capped: bool) {
        if capped != self.pair_practice {
            self.pair_practice = capped;
            self.emit(RoomEvent::PairPractice { on: capped });
            self.publish();
        }
    }
}
