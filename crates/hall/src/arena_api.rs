//! `GET /api/arenas/{id}` (P-ARENA, docs/protocol.md §1): an arena's results at an address of
//! their own, kept apart from the arenas so that the hall, which owns them, does not import the
//! HTTP layer.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::Extensions;
use axum::response::{IntoResponse, Response};

use crate::api_reply::{failed, not_found, rate_limited};
use crate::arena::{NoResults, arena_results};
use crate::hall::Hall;

/// The arena's table (`ArenaTable`, without an asker's line), or 404.
pub async fn arena_table(
    State(hall): State<Arc<Hall>>,
    Path(id): Path<i64>,
    extensions: Extensions,
) -> Response {
    if let Some(refused) = rate_limited(&extensions) {
        return refused;
    }
    match arena_results(&hall, id).await {
        Ok(table) => Json(table).into_response(),
        Err(NoResults::NoArena) => not_found("arena"),
        Err(NoResults::Failed(e)) => {
            tracing::error!(arena = id, error = %e, "an arena's results could not be read");
            failed()
        }
    }
}
