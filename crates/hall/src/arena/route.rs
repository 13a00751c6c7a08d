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
    // `None`: this node runs the arena; else the node of the cluster that does.
    let node = if hall.arenas.runs(arena) {
        None
    } else {
        Some(owner(hall, arena).await?)
    };
    if matches!(request.order, ArenaOrder::Follow | ArenaOrder::Join { .. }) {
        // A connection follows one arena at a time: the node of the one it followed lets go.
        let before = hall.arenas.unfollow(request.outbox.id);
        if let Some(before) = before.filter(|before| Some(before) != node.as_ref()) {
            tell_unfollow(hall, &before, &request.outbox, request.id).await;
        }
        if let Some(node) = &node {
            hall.arenas
                .followed_elsewhere
                .lock()
                .expect("arenas followed lock")
                .insert(request.outbox.id, node.clone());
        }
    }
    match (node, hall.peers()) {
        (Some(node), Some(peers)) => peers.forward_arena(&node, request).await,
        _ => hall.arenas.run(request),
    }
}

/// The node of the cluster that runs arena `arena` (not this one).
async fn owner(hall: &Hall, arena: i64) -> Result<String, ProtoError> {
    let Some(peers) = hall.peers() else {
        return Err(no_arena(arena));
    };
    let owner = hall.store.arena_owner(arena).await.map_err(|e| {
        tracing::warn!(arena, error = %e, "an arena's node could not be read");
        arena_unavailable()
    })?;
    match owner {
        None => Err(no_arena(arena)),
        // Claimed by this node a moment ago, taken up by the arenas' next round.
        Some(node) if node == peers.node() => Err(arena_unavailable()),
        Some(node) => Ok(node),
    }
}

/// `arena_unsubscribe`: the connection follows no arena, here or elsewhere.
pub async fn arena_unfollow(hall: &Hall, outbox: &Outbox, id: u64) -> Outcome {
    if let Some(node) = hall.arenas.unfollow(outbox.id) {
        tell_unfollow(hall, &node, outbox, id).await;
    }
    Ok(hangar_protocol::Ack::DONE)
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

/// The error of an arena command whose arena's node did not answer (or is being replaced):
/// nothing was done.
pub(crate) fn arena_unavailable() -> ProtoError {
    ProtoError::new(
        ErrorCode::Unavailable,
        "the arena's node did not answer; try again in a moment",
    )
}
