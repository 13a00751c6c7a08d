//! What a connection asks of an arena, run where the arena runs: on this node, or on the
//! node of a cluster that runs it, which gets the same [`ArenaOrder`] over the cluster's wire.

use hangar_protocol::{Ack, Outcome};
use serde::{Deserialize, Serialize};

use super::Arenas;
use crate::accounts::{Player, sign_in_first};
use crate::outbox::Outbox;

/// An arena command as the node that runs the arena takes it (`docs/protocol.md` §11).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ArenaOrder {
    /// `arena_subscribe`.
    Follow,
    /// `arena_unsubscribe`.
    Unfollow,
    /// `arena_join`, with the player's rating of the arena's game (read by the asker's node
    /// from the shared store).
    Join {
        /// The player's rating (P-RATING).
        rating: f64,
    },
    /// `arena_withdraw`.
    Withdraw,
    /// `arena_standings`.
    Table {
        /// Lines to skip.
        offset: usize,
        /// Lines at most.
        limit: usize,
    },
}

/// An arena command of a connection.
#[derive(Clone, Debug)]
pub struct ArenaRequest {
    /// The arena.
    pub arena: i64,
    /// Where the arena's messages for the connection go (a stand-in on another node).
    pub outbox: Outbox,
    /// The connection's signed-in player.
    pub player: Option<Player>,
    /// The command's id.
    pub id: u64,
    /// What it asks.
    pub order: ArenaOrder,
}

impl Arenas {
    /// Runs `request` in an arena of this node.
    pub fn run(&self, request: ArenaRequest) -> Outcome {
        let ArenaRequest {
            arena,
            outbox,
            player,
            order,
            ..
        } = request;
        let me = player.as_ref().map(|p| p.id);
        match order {
            ArenaOrder::Follow => self
                .follow(arena, &outbox, player.as_ref())
                .map(|table| Ack::ArenaTable(Box::new(table))),
            ArenaOrder::Unfollow => {
                // Only this node's followers: the node of the connection tells no other.
                let _ = self.unfollow(outbox.id);
                Ok(Ack::DONE)
            }
            ArenaOrder::Join { rating } => {
                let player = player.ok_or_else(sign_in_first)?;
                self.join(arena, &outbox, &player, rating)?;
                Ok(Ack::DONE)
            }
            ArenaOrder::Withdraw => {
                self.withdraw(arena, me.ok_or_else(sign_in_first)?)?;
                Ok(Ack::DONE)
            }
            ArenaOrder::Table { offset, limit } => self
                .table(arena, offset, limit, me)
                .map(|table| Ack::ArenaTable(Box::new(table))),
        }
    }
}
