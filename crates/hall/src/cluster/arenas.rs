//! Arenas across a cluster (P-ARENA): an arena runs on one node; the connections of other
//! nodes reach it with their arena commands, and it reaches them through their stand-ins —
//! its tables, and the rooms it seats them in (rooms of its own node).

use super::Cluster;
use super::wire::{ArenaCommand, Record, RemoteAnswer};
use crate::arena::{ArenaOrder, ArenaRequest, arena_unavailable};
use crate::outbox::ConnId;
use hangar_protocol::Outcome;

/// What a stand-in that follows an arena of this node is in, besides rooms (room codes are
/// upper case: never this).
pub(super) const FOLLOWS_ARENA: &str = "arena";

impl Cluster {
    /// Runs an arena command of a connection of this node in the arena of `node`.
    pub async fn forward_arena(&self, node: &str, request: ArenaRequest) -> Outcome {
        let ArenaRequest {
            arena,
            outbox,
            player,
            id,
            order,
        } = request;
        let command = ArenaCommand {
            arena,
            conn: outbox.id,
            player: player.as_ref().map(Into::into),
            id,
            order,
        };
        match self
            .exchange(node, &outbox, id, Record::Arena(command))
            .await
        {
            Some(RemoteAnswer::Arena(outcome)) => outcome,
            // Gone, moving to another node, or not answering: nothing is known to be done.
            _ => Err(arena_unavailable()),
        }
    }

    /// Runs what another node's connection asks of an arena of this node.
    pub(super) fn run_arena_command(&self, from: &str, command: ArenaCommand) -> RemoteAnswer {
        let Some(hall) = self.hall() else {
            return RemoteAnswer::NoRoom;
        };
        if hall.is_closing() {
            return RemoteAnswer::Unavailable;
        }
        let outbox = if command.order == ArenaOrder::Unfollow {
            // Only a connection that has a stand-in here can follow an arena of this node.
            let stand_ins = self.stand_ins.lock().expect("stand-ins lock");
            match stand_ins.get(&(from.to_owned(), command.conn)) {
                Some((outbox, _)) => outbox.clone(),
                None => return RemoteAnswer::Arena(Ok(hangar_protocol::Ack::DONE)),
            }
        } else if hall.arenas.runs(command.arena) {
            self.stand_in(from, command.conn, FOLLOWS_ARENA)
        } else {
            return RemoteAnswer::NoRoom;
        };
        RemoteAnswer::Arena(hall.arenas.run(ArenaRequest {
            arena: command.arena,
            outbox,
            player: command.player.map(Into::into),
            id: command.id,
            order: command.order,
        }))
    }

    /// An arena of this node seated connection `conn` in room `code`: when it is a stand-in,
    /// the room is one of those it leaves when its connection closes.
    pub(super) fn seated_by_arena(&self, conn: ConnId, code: &str) {
        let mut stand_ins = self.stand_ins.lock().expect("stand-ins lock");
        if let Some((_, rooms)) = stand_ins.values_mut().find(|(outbox, _)| outbox.id == conn) {
            rooms.insert(code.to_owned());
        }
    }
}
