//! The arena commands of a connection (P-ARENA, `docs/protocol.md` §11).

use super::{Conn, internal};
use crate::arena::TABLE_PAGE;
use hangar_games::rating::Skill;
use hangar_protocol::{Ack, Arenas, Outcome};

impl Conn {
    /// `arenas`: the arenas listed.
    pub(super) fn arenas(&self) -> Outcome {
        Ok(Ack::Arenas(Arenas {
            arenas: self.hall.arenas.list(),
        }))
    }

    /// `arena_subscribe`: follow an arena; its table now.
    pub(super) fn arena_subscribe(&self, arena: i64) -> Outcome {
        self.hall
            .arenas
            .follow(arena, &self.outbox, self.player.as_ref())
            .map(|table| Ack::ArenaTable(Box::new(table)))
    }

    /// `arena_unsubscribe`.
    pub(super) fn arena_unsubscribe(&self) -> Outcome {
        self.hall.arenas.unfollow(self.outbox.id);
        Ok(Ack::DONE)
    }

    /// `arena_join`: the player takes part through this connection, with their rating of the
    /// arena's game (P-RATING; the starting one before any rated game).
    pub(super) async fn arena_join(&self, arena: i64) -> Outcome {
        let player = self.require_player()?.clone();
        let game = self.hall.arenas.table(arena, 0, 1, None)?.arena.game;
        let ratings = self
            .hall
            .store
            .ratings_of(game, &[player.id])
            .await
            .map_err(internal)?;
        let rating = ratings
            .get(&player.id)
            .copied()
            .unwrap_or(Skill::initial(game).rating);
        self.hall
            .arenas
            .join(arena, &self.outbox, &player, rating)?;
        Ok(Ack::DONE)
    }

    /// `arena_withdraw`.
    pub(super) fn arena_withdraw(&self, arena: i64) -> Outcome {
        let player = self.require_player()?.id;
        self.hall.arenas.withdraw(arena, player)?;
        Ok(Ack::DONE)
    }

    /// `arena_standings`: a page of the table, with the asker's line.
    pub(super) fn arena_standings(
        &self,
        arena: i64,
        offset: usize,
        limit: Option<usize>,
    ) -> Outcome {
        let me = self.player.as_ref().map(|p| p.id);
        self.hall
            .arenas
            .table(arena, offset, limit.unwrap_or(TABLE_PAGE), me)
            .map(|table| Ack::ArenaTable(Box::new(table)))
    }
}
