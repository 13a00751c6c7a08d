//! Taking arenas up (P-ARENA): on a single node every stored arena; in a cluster those this
//! node claims or takes over with a dead node's rooms — and settling what they missed while
//! their node was down.

use super::LISTED_AFTER_END_MS;
use crate::hall::Hall;
use crate::store::RoomGame;
use crate::time::now_ms;

/// Cluster mode: claims the listed arenas no live node runs, takes up those this node runs
/// now (claimed, or taken over with a dead node's rooms), and reads what the other nodes'
/// arenas stored for the hall's list (every [`ELSEWHERE_EVERY_MS`](super::ELSEWHERE_EVERY_MS)).
pub async fn take_up_owned(hall: &Hall) -> Vec<i64> {
    let since = now_ms() - LISTED_AFTER_END_MS;
    let owned = match hall.store.claim_arenas(since).await {
        Ok(owned) => owned,
        Err(e) => {
            tracing::warn!(error = %e, "arenas could not be claimed");
            return Vec::new();
        }
    };
    let new: Vec<i64> = owned
        .into_iter()
        .filter(|&id| !hall.arenas.runs(id))
        .collect();
    let mut loaded = Vec::new();
    if !new.is_empty() {
        match hall.store.arenas_by_id(&new).await {
            Ok(stored) => {
                tracing::info!(arenas = ?new, "arenas run on this node now");
                loaded = hall.arenas.load(&stored);
            }
            Err(e) => tracing::warn!(error = %e, "arenas could not be read"),
        }
    }
    if hall.arenas.elsewhere_due(now_ms()) {
        match hall.store.arenas_run_elsewhere(since).await {
            Ok(stored) => hall.arenas.set_elsewhere(&stored),
            Err(e) => tracing::warn!(error = %e, "the other nodes' arenas could not be read"),
        }
    }
    loaded
}

/// Takes up the arenas stored after the last known one (and, at start, every listed one);
/// the ids taken up.
pub async fn load_new(hall: &Hall) -> Vec<i64> {
    let after = hall.arenas.last_id();
    match hall
        .store
        .arenas_after(after, now_ms() - LISTED_AFTER_END_MS)
        .await
    {
        Ok(stored) => hall.arenas.load(&stored),
        Err(e) => {
            tracing::warn!(error = %e, "arenas could not be read");
            Vec::new()
        }
    }
}

/// Settles the games that arenas `ids`, just taken up, seated and did not see end: a node
/// that dies may have stored a room's result and not yet the arena's state that counts it.
/// Call it once the rooms are restored: a game over counts now and its room is closed next
/// round; a room whose game never started frees its players; a running game's room reports
/// its end itself.
pub async fn settle_missed(hall: &Hall, ids: &[i64]) {
    for code in hall.arenas.running_rooms(ids) {
        match hall.store.last_game_of_room(&code).await {
            Ok(RoomGame::Running) => {}
            Ok(RoomGame::None) => hall.arenas.never_played(&code),
            Ok(RoomGame::Finished { result, at }) => match serde_json::from_str(&result) {
                Ok(result) => hall.arenas.game_over_at(&code, &result, at),
                Err(e) => {
                    tracing::error!(room = %code, error = %e, "a stored result could not be read")
                }
            },
            Err(e) => {
                tracing::warn!(room = %code, error = %e, "an arena room's game could not be read")
            }
        }
    }
}
