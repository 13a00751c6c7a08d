//! Who may see a game: a public room's game anyone, a private room's only the players seated
//! in it. Shared by the HTTP API and the WebSocket's `review` command.

use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;
use serde_json::Value;

use crate::accounts::{token_issued_after, token_well_formed};
use crate::hall::Hall;
use crate::store::StoredGame;

/// The player a request speaks for: the one whose sign-in token it carries as
/// `Authorization: Bearer TOKEN`, if any.
async fn asker(hall: &Hall, headers: &HeaderMap) -> Option<i64> {
    let value = headers.get(AUTHORIZATION)?.to_str().ok()?;
    let token = value.strip_prefix("Bearer ")?.trim();
    if !token_well_formed(token) {
        return None;
    }
    let issued_after = token_issued_after(hall.config.limits.token_lifetime);
    let player = hall
        .store
        .player_by_token_since(token, issued_after)
        .await
        .ok()
        .flatten()?;
    Some(player.id)
}

/// The players seated in a stored game.
pub fn members(game: &StoredGame) -> Vec<i64> {
    seated(&game.start.seats)
}

/// The players of a game's seats (its stored JSON).
pub fn seated(seats: &str) -> Vec<i64> {
    serde_json::from_str::<Vec<Value>>(seats)
        .map(|seats| {
            seats
                .iter()
                .filter_map(|seat| seat["player_id"].as_i64())
                .collect()
        })
        .unwrap_or_default()
}

/// Whether the request may see a game: a public room's game anyone (its room could be
/// watched), a private room's only the players seated in it, running or finished: its code,
/// seats and moves are the members' alone. Only a private game looks the asker up.
pub async fn may_see(hall: &Hall, headers: &HeaderMap, private: bool, members: &[i64]) -> bool {
    if !private {
        return true;
    }
    asker(hall, headers)
        .await
        .is_some_and(|me| members.contains(&me))
}
