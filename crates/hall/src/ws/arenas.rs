//! The arena commands of a connection (P-ARENA, `docs/protocol.md` §11), run where the
//! arena runs (`crate::arena::arena_command`).

use super::{Conn, internal};
use crate::arena::{ArenaOrder, ArenaRequest, TABLE_PAGE, arena_command, arena_unfollow, no_arena};
use hangar_games::rating::Skill;
use hangar_protocol::{Ack, Arenas, GameKind, Outcome};

impl Conn {
    /// `arenas`: the arenas listed.
    pub(super) fn arenas(&self) -> Outcome {
        Ok(Ack::Arenas(Arenas {
            arenas: self.hall.arenas.list(),
        }))
    }

    /// `arena_unsubscribe`.
    pub(super) async fn arena_unsubscribe(&self, id: u64) -> Outcome {
        arena_unfollow(&self.hall, &self.outbox, id).await
    }

    /// `arena_join`: the player takes part through this connection, with their rating of the
    /// arena's game (P-RATING; the starting one before any rated game). A flight arena's
    /// tables play for the default stake, which the player's score must cover (P-SCORE).
    pub(super) async fn arena_join(&self, id: u64, arena: i64) -> Outcome {
        let player = self.require_player()?.id;
        let game = self
            .hall
            .arenas
            .game_of(arena)
            .ok_or_else(|| no_arena(arena))?;
        let stake = (game == GameKind::Flight).then_some(hangar_games::DEFAULT_STAKE);
        crate::stakes::check_stake(&self.hall.store, player, stake).await?;
        let ratings = self
            .hall
            .store
            .ratings_of(game, &[player])
            .await
            .map_err(internal)?;
        let rating = ratings
            .get(&player)
            .copied()
            .unwrap_or(Skill::initial(game).rating);
        self.arena_order(id, arena, ArenaOrder::Join { rating })
            .await
    }

    /// `arena_standings`: a page of the table, with the asker's line.
    pub(super) async fn arena_standings(
        &self,
        id: u64,
        arena: i64,
        offset: usize,
        limit: Option<usize>,
    ) -> Outcome {
        let limit = limit.unwrap_or(TABLE_PAGE);
        self.arena_order(id, arena, ArenaOrder::Table { offset, limit })
            .await
    }

    /// Runs command `id` of this connection in arena `arena`, wherever it runs. Joining and
    /// withdrawing need a signed-in player.
    pub(super) async fn arena_order(&self, id: u64, arena: i64, order: ArenaOrder) -> Outcome {
        if matches!(order, ArenaOrder::Join { .. } | ArenaOrder::Withdraw) {
            self.require_player()?;
        }
        let request = ArenaRequest {
            arena,
            outbox: self.outbox.clone(),
            player: self.player.clone(),
            id,
            order,
        };
        arena_command(&self.hall, request).await
    }
}
