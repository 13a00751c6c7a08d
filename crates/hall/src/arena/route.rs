//! Where an arena command runs: an arena runs on one node (P-ARENA). On a single node that is
//! this one; in a cluster, a command for an arena of another node goes to that node (the
//! store names it), whose arena then reaches the connection through its stand-in there — its
//! tables, and the games it seats the player in.

use hangar_protocol::{ErrorCode, Outcome, ProtoError};

use super::no_arena;
use super::orders::{ArenaOrder, ArenaRequest};
use crate::hall::Hall;
use crate::outbox::Outbox;

/// Runs an arena command of a connection of this node where the arena runs.
pub async fn arena_command(hall: &Hall, request: ArenaRequest) -> Outcome {
    let arena = request.arena;
    let follows = matches!(request.order, ArenaOrder::Follow | ArenaOrder::Join { .. });
    if hall.arenas.runs(arena) {
        if follows {
            // A connection follows one arena at a time.
            leave_elsewhere(hall, &request.outbox, request.id).await;
        }
        return hall.arenas.run(request);
    }
    let Some(peers) = hall.peers() else {
        return Err(no_arena(arena));
    };
    let owner = hall.store.arena_owner(arena).await.map_err(|e| {
        tracing::warn!(arena, error = %e, "an arena's node could not be read");
        unavailable()
    })?;
    let Some(node) = owner else {
        return Err(no_arena(arena));
    };
    if node == peers.node() {
        // Claimed by this node a moment ago, taken up by the arenas' next round.
        return Err(unavailable());
    }
    let (outbox, id) = (request.outbox.clone(), request.id);
    if follows {
        // A connection follows one arena at a time.
        let before = hall.arenas.unfollow(outbox.id);
        if let Some(before) = before.filter(|before| *before != node) {
            tell_unfollow(hall, &before, &outbox, id).await;
        }
        hall.arenas
            .followed_elsewhere
            .lock()
            .expect("arenas followed lock")
            .insert(outbox.id, node.clone());
    }
    peers.forward_arena(&node, request).await
}

/// `arena_unsubscribe`: the connection follows no arena, here or elsewhere.
pub async fn arena_unfollow(hall: &Hall, outbox: &Outbox, id: u64) -> Outcome {
    leave_elsewhere(hall, outbox, id).await;
    Ok(hangar_protocol::Ack::DONE)
}

/// The connection stops following the arena it follows, here or on another node.
async fn leave_elsewhere(hall: &Hall, outbox: &Outbox, id: u64) {
    if let Some(node) = hall.arenas.unfollow(outbox.id) {
        tell_unfollow(hall, &node, outbox, id).await;
    }
}

/// Tells `node` that the connection of `outbox` no longer follows its arena.
async fn tell_unfollow(hall: &Hall, node: &str, outbox: &Outbox, id: u64) {
    let Some(peers) = hall.peers() else {
        return;
    };
    let request = ArenaRequest {
        arena: 0,
        outbox: outbox.clone(),
        player: None,
        id,
        order: ArenaOrder::Unfollow,
    };
    // Unanswered (the node is gone): its followers went with it.
    let _ = peers.forward_arena(node, request).await;
}

fn unavailable() -> ProtoError {
    ProtoError::new(
        ErrorCode::Unavailable,
        "the arena's node did not answer; try again in a moment",
    )
}
