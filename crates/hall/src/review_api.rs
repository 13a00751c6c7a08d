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

use crate::api_reply::{api_error, client_address, failed, json_body, not_found, rate_limited};
use crate::game_access::may_see;
use crate::hall::Hall;
use crate::review::ReviewAnswer;
use crate::review_request::{ReviewFound, ReviewRefused, find_or_start};

/// `GET /api/games/{id}/review` (docs/protocol.md §9): over the API's rate limit, 429; a game
/// the request may not see, or none, 404; a stored review, 200 at once; a review being
/// computed on this node, 202 with its progress; a running game, 409; otherwise the review
/// is queued ([`find_or_start`]).
pub async fn game_review(
    State(hall): State<Arc<Hall>>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    extensions: Extensions,
) -> Response {
    if let Some(refused) = rate_limited(&extensions) {
        return refused;
    }
    let peer = extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip());
    let address = client_address(peer, &headers, &hall.config.limits.trusted_proxies);
    let (asking, headers) = (&hall, &headers);
    let may_see = |private: bool, members: Vec<i64>| async move {
        may_see(asking, headers, private, &members).await
    };
    match find_or_start(&hall.reviews, &hall.store, id, address, may_see).await {
        Ok(ReviewFound::Stored(body)) => json_body(Bytes::from(body)),
        Ok(ReviewFound::Job(watch)) => respond(watch.answer(&hall.reviews)),
        Err(ReviewRefused::NoGame) => not_found("such game"),
        Err(ReviewRefused::Running) => {
            api_error(StatusCode::CONFLICT, ReviewRefused::RUNNING.to_owned())
        }
        Err(ReviewRefused::Storage(_)) => failed(),
        Err(ReviewRefused::Broken(e)) => api_error(StatusCode::INTERNAL_SERVER_ERROR, e),
        Err(ReviewRefused::Busy(status, retry, message)) => {
            respond(ReviewAnswer::Refused(status, retry, message))
        }
    }
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
