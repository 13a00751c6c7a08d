//! The HTTP side: the router with `/health`, `/ws`, the JSON API and the web client.

use std::sync::Arc;

use axum::extract::ws::WebSocketUpgrade;
use axum::{Extension, Router};
use std::net::SocketAddr;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{Extensions, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use serde::{Deserialize, Serialize};

use crate::api_limit::ApiLimit;
use crate::api_reply::{api_error, client_address, failed, json_body, not_found, rate_limited};
use crate::game_access::{may_see, members};
use crate::game_cache::{CACHED_BODIES, CACHED_BYTES, Finished, GameCache, Served};
use crate::hall::Hall;
use crate::sessions::Sessions;
use crate::slots::Refused;
use crate::ws::{HARD_MAX_MESSAGE_BYTES, LoginGuard, serve_socket};
use hangar_games::record::record_json;
use hangar_games::replay::replay_frames;
use hangar_protocol::{BoardOrder, MAX_MESSAGE_BYTES, MyGames};

/// Read buffer per WebSocket: small, since commands are tens of bytes (a larger frame, up to
/// the limits, grows it as needed). tungstenite zero-fills the buffer before every read, so a
/// small one also saves that work.
pub const WS_READ_BUFFER: usize = 1024;

/// Write buffer per WebSocket: the frames of one batch are written together.
pub const WS_WRITE_BUFFER: usize = 8 * 1024;

/// The hall's router (tests run it on port 0).
pub fn app(hall: Arc<Hall>) -> Router {
    // Shared by every connection of this router: sign-in throttling is hall-wide.
    let logins = Arc::new(LoginGuard::new(&hall.config.limits));
    let api_limit = Arc::new(ApiLimit::new(hall.config.limits.api_requests_per_second));
    // Finished games' records and replays, as served.
    let games = Arc::new(GameCache::new(CACHED_BODIES, CACHED_BYTES));
    // The players' open connections, for `sign_out_everywhere` (the hall's: a cluster node
    // closes them for a sign-out on another node too).
    let sessions = hall.sessions.clone();
    let mut router = Router::new()
        .route("/health", get(health))
        .route("/metrics", get(metrics_text))
        .route("/ws", get(upgrade))
        .route("/api/games/{id}", get(game_record))
        .route("/api/games/{id}/replay", get(game_replay))
        .route(
            "/api/games/{id}/review",
            get(crate::review_api::game_review),
        )
        .route("/api/players/{id}/games", get(player_games))
        .route("/api/players/{id}/dice", get(player_dice))
        .route("/api/dice", get(hall_dice))
        .route("/api/arenas/{id}", get(crate::arena_api::arena_table))
        .route("/api/leaderboard", get(leaderboard))
        .route("/api/options", get(room_options));
    if let Some(dir) = hall.config.web_dir.clone() {
        router = router.fallback_service(crate::static_files::web_files(dir));
    }
    router
        .layer(Extension(logins))
        .layer(Extension(sessions))
        .layer(Extension(api_limit))
        .layer(Extension(games))
        .with_state(hall)
}

/// The body of `/health`.
#[derive(Serialize)]
struct Health {
    /// `ok`, or `unhealthy` when the storage cannot be trusted (nothing is acknowledged).
    status: &'static str,
    /// Why the hall is unhealthy.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    /// Open rooms.
    rooms: usize,
    /// Open WebSocket connections.
    connections: usize,
}

async fn health(State(hall): State<Arc<Hall>>) -> Response {
    let reason = hall.store.fault();
    let status = match reason {
        None => StatusCode::OK,
        Some(_) => StatusCode::SERVICE_UNAVAILABLE,
    };
    let health = Health {
        status: if reason.is_none() { "ok" } else { "unhealthy" },
        reason,
        rooms: hall.room_count(),
        connections: hall.connection_count(),
    };
    (status, Json(health)).into_response()
}

/// Whether a request may read `/metrics`: with `--metrics-token` set, one that brings it as
/// `Authorization: Bearer TOKEN`; without, one from the machine itself (loopback) — the
/// public port tells strangers nothing about the hall's load (docs/deploy.md).
fn may_read_metrics(hall: &Hall, headers: &HeaderMap, extensions: &Extensions) -> bool {
    match &hall.config.metrics_token {
        Some(token) => {
            let given = headers
                .get(axum::http::header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.strip_prefix("Bearer "))
                .unwrap_or_default();
            // Compared as hashes: the time taken says nothing about the token.
            crate::accounts::hash_token(given) == crate::accounts::hash_token(token)
        }
        None => extensions
            .get::<ConnectInfo<SocketAddr>>()
            .is_some_and(|info| info.0.ip().is_loopback()),
    }
}

/// `/metrics`: the Prometheus text format (see [`crate::metrics`]), for the operators only
/// ([`may_read_metrics`]); anyone else gets 404.
async fn metrics_text(
    State(hall): State<Arc<Hall>>,
    headers: HeaderMap,
    extensions: Extensions,
) -> Response {
    if !may_read_metrics(&hall, &headers, &extensions) {
        return not_found("such page");
    }
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        crate::metrics::render(crate::metrics::Gauges {
            connections: hall.connection_count(),
            rooms: hall.room_count(),
            storage_healthy: hall.store.fault().is_none(),
            outbox_bytes: hall.queued_bytes(),
            outbox_limit: hall.config.limits.outbox_bytes,
        }),
    )
        .into_response()
}

async fn upgrade(
    ws: WebSocketUpgrade,
    State(hall): State<Arc<Hall>>,
    Extension(logins): Extension<Arc<LoginGuard>>,
    Extension(sessions): Extension<Arc<Sessions>>,
    headers: HeaderMap,
    extensions: Extensions,
) -> Response {
    // The peer address is known when served by `Running::serve` (not in a bare router).
    let peer = extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip());
    let limits = &hall.config.limits;
    let address = client_address(peer, &headers, &limits.trusted_proxies);
    let slot = match hall.slots.admit(
        address,
        limits.max_connections,
        limits.max_connections_per_address,
    ) {
        Ok(slot) => slot,
        Err(Refused::Full) => {
            metrics::counter!(crate::metrics::REFUSED, "reason" => "full").increment(1);
            return api_error(
                StatusCode::SERVICE_UNAVAILABLE,
                "the hall is full: try again later".to_owned(),
            );
        }
        Err(Refused::AddressFull) => {
            metrics::counter!(crate::metrics::REFUSED, "reason" => "address").increment(1);
            return api_error(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "at most {} connections from one address",
                    limits.max_connections_per_address
                ),
            );
        }
    };
    ws.read_buffer_size(WS_READ_BUFFER)
        // Frames of one batch gather here and leave in one write at the flush.
        .write_buffer_size(WS_WRITE_BUFFER)
        .max_write_buffer_size(1024 * 1024)
        .max_message_size(HARD_MAX_MESSAGE_BYTES.max(MAX_MESSAGE_BYTES))
        .max_frame_size(HARD_MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| serve_socket(socket, hall, slot, logins, sessions))
}

/// A game's record or replay (see [`GameCache`]): over the rate limit, HTTP 429; a game the
/// request may not see, the same 404 as for no game, so that an outsider cannot tell a
/// private game from a missing one; a finished game's answer from the cache when it is
/// there, built and kept otherwise; a running game's built each time (it changes).
async fn game_answer(
    hall: &Hall,
    id: i64,
    served: Served,
    headers: &HeaderMap,
    extensions: &Extensions,
) -> Response {
    if let Some(refused) = rate_limited(extensions) {
        return refused;
    }
    let cache = extensions.get::<Arc<GameCache>>();
    if let Some(hit) = cache.and_then(|cache| cache.get(id, served)) {
        if !may_see(hall, headers, hit.private, &hit.members).await {
            return not_found("such game");
        }
        return json_body(hit.body.clone());
    }
    let game = match hall.store.game(id).await {
        Ok(Some(game)) => game,
        Ok(None) => return not_found("such game"),
        Err(_) => return failed(),
    };
    let members = members(&game);
    if !may_see(hall, headers, game.start.private, &members).await {
        return not_found("such game");
    }
    metrics::counter!(crate::metrics::GAME_BUILDS, "served" => served.name()).increment(1);
    let record = match record_json(&game) {
        Ok(record) => record,
        Err(e) => return api_error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    // The seed is revealed once the game is over (P-FAIR-DICE): a finished game.
    let finished = !record["seed"].is_null();
    let body = match served {
        Served::Record => record,
        Served::Replay if !finished => return not_found("replay: the game has not ended"),
        Served::Replay => match replay_frames(&record) {
            Ok(frames) => frames,
            Err(e) => return api_error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        },
    };
    let body = Bytes::from(body.to_string());
    if let Some(cache) = cache.filter(|_| finished) {
        let kept = Finished {
            private: game.start.private,
            members,
            body: body.clone(),
        };
        cache.put(id, served, Arc::new(kept));
    }
    json_body(body)
}

async fn game_record(
    State(hall): State<Arc<Hall>>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    extensions: Extensions,
) -> Response {
    game_answer(&hall, id, Served::Record, &headers, &extensions).await
}

/// The replay frames of a finished game, computed by the rule engines (P-RECORD); a game
/// still running has no revealed seed and no replay yet.
async fn game_replay(
    State(hall): State<Arc<Hall>>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    extensions: Extensions,
) -> Response {
    game_answer(&hall, id, Served::Replay, &headers, &extensions).await
}

#[derive(Deserialize)]
struct Limit {
    limit: Option<i64>,
}

async fn player_games(
    State(hall): State<Arc<Hall>>,
    Path(id): Path<i64>,
    Query(limit): Query<Limit>,
    extensions: Extensions,
) -> Response {
    // Each answer reads the database: one address asking in a loop must not slow the hall.
    if let Some(refused) = rate_limited(&extensions) {
        return refused;
    }
    let limit = limit.limit.unwrap_or(20).clamp(1, 100);
    // Another player's list: private rooms' codes stay private.
    match hall.store.player_games(id, limit, false).await {
        Ok(games) => Json(MyGames { games }).into_response(),
        Err(_) => failed(),
    }
}

/// The body of `/api/dice` and `/api/players/{id}/dice` (P-DICE-STATS): the count of each
/// face, 1 to 6, and Pearson's χ² test against a fair die (`null` with no rolls).
#[derive(Serialize)]
struct DiceStats {
    counts: hangar_dice::FaceCounts,
    chi_square: Option<hangar_dice::ChiSquare>,
}

fn dice_answer(counts: Result<hangar_dice::FaceCounts, crate::store::StoreError>) -> Response {
    match counts {
        Ok(counts) => Json(DiceStats {
            counts,
            chi_square: counts.chi_square(),
        })
        .into_response(),
        Err(_) => failed(),
    }
}

/// A player's own dice over their finished flight games (P-DICE-STATS).
async fn player_dice(
    State(hall): State<Arc<Hall>>,
    Path(id): Path<i64>,
    extensions: Extensions,
) -> Response {
    // A sum over every finished game of the player: one address asking in a loop must not
    // slow the hall.
    if let Some(refused) = rate_limited(&extensions) {
        return refused;
    }
    dice_answer(hall.store.dice_counts(Some(id)).await)
}

/// What a room may be made with: the options' bounds and defaults, the flight presets and the
/// bot levels (the page builds its forms from them). Fixed while the hall runs: no store, no
/// rate limit.
async fn room_options(State(hall): State<Arc<Hall>>) -> Response {
    Json(hangar_games::catalogue(hall.config.turn_seconds)).into_response()
}

/// Every die the hall rolled in finished flight games (P-DICE-STATS).
async fn hall_dice(State(hall): State<Arc<Hall>>, extensions: Extensions) -> Response {
    if let Some(refused) = rate_limited(&extensions) {
        return refused;
    }
    dice_answer(hall.store.dice_counts(None).await)
}

async fn leaderboard(
    State(hall): State<Arc<Hall>>,
    Query(limit): Query<Limit>,
    extensions: Extensions,
) -> Response {
    if let Some(refused) = rate_limited(&extensions) {
        return refused;
    }
    let limit = limit.limit.unwrap_or(20).clamp(1, 100);
    match hall
        .store
        .leaderboard(None, BoardOrder::Score, true, 0, limit, hall.listed_after())
        .await
    {
        Ok(lines) => Json(crate::accounts::leaderboard_page(lines, None, 0)).into_response(),
        Err(_) => failed(),
    }
}
