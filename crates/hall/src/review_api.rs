//! `GET /api/games/{id}/review` (P-REVIEW, docs/protocol.md §9): the HTTP side of the hall's
//! reviews (`review.rs`), kept apart from them so that the hall, which owns the reviews, does
//! not import the HTTP layer.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::header::RETRY_AFTER;
use axum::http::{Extensions, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Json, Response};

use crate::hall::Hall;
use crate::http::{
    api_error, client_address, failed, json_body, may_see, members, not_found, rate_limited, seated,
};
use crate::review::ReviewAnswer;
use hangar_games::record::GameRecord;

/// `GET /api/games/{id}/review` (docs/protocol.md §9): over the API's rate limit, 429; a game
/// the request may not see, or none, 404; a stored review, 200 at once; a review being
/// computed on this node, 202 with its progress; a running game, 409; otherwise the review
/// is queued ([`Reviews::start`]).
pub async fn game_review(
    State(hall): State<Arc<Hall>>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    extensions: Extensions,
) -> Response {
    if let Some(refused) = rate_limited(&extensions) {
        return refused;
    }
    // Polling a job reads nothing from the store.
    if let Some((private, members, answer)) = hall.reviews.follow(id) {
        if !may_see(&hall, &headers, private, &members).await {
            return not_found("such game");
        }
        return respond(answer);
    }
    match hall.store.review(id).await {
        Ok(Some(stored)) => {
            if !may_see(&hall, &headers, stored.private, &seated(&stored.seats)).await {
                return not_found("such game");
            }
            return json_body(Bytes::from(stored.body));
        }
        Ok(None) => {}
        Err(_) => return failed(),
    }
    let game = match hall.store.game(id).await {
        Ok(Some(game)) => game,
        Ok(None) => return not_found("such game"),
        Err(_) => return failed(),
    };
    let members = members(&game);
    if !may_see(&hall, &headers, game.start.private, &members).await {
        return not_found("such game");
    }
    // The seed is revealed once the game is over (P-FAIR-DICE): before, no review (no help
    // while playing).
    let running = || {
        api_error(
            StatusCode::CONFLICT,
            "the game is still running: only a finished game can be reviewed".to_owned(),
        )
    };
    if game.status == "running" {
        return running();
    }
    let record = match GameRecord::from_stored(&game) {
        Ok(record) if record.seed.is_some() => record,
        Ok(_) => return running(),
        Err(e) => return api_error(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    };
    let peer = extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip());
    let address = client_address(peer, &headers, &hall.config.limits.trusted_proxies);
    let answer = hall
        .reviews
        .start(&hall, id, record, (game.start.private, members), address);
    respond(answer)
}

/// The HTTP answer of a [`ReviewAnswer`].
fn respond(answer: ReviewAnswer) -> Response {
    match answer {
        ReviewAnswer::Ready(body) => json_body(body),
        ReviewAnswer::Pending(progress) => (StatusCode::ACCEPTED, Json(progress)).into_response(),
        ReviewAnswer::Refused(status, retry, error) => {
            let mut response = api_error(status, error);
            if let Some(retry) = retry
                && let Ok(value) = HeaderValue::from_str(&retry.as_secs().max(1).to_string())
            {
                response.headers_mut().insert(RETRY_AFTER, value);
            }
            response
        }
    }
}
