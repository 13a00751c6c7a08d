//! The HTTP API's answers that more than one endpoint gives: errors as `{"error": …}`, a
//! JSON body already written, the per-address rate limit, and the client's address behind a
//! trusted proxy. The endpoints (`http.rs`, `review_api.rs`, `arena_api.rs`) import this
//! module; it imports none of them.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::ConnectInfo;
use axum::http::header::CONTENT_TYPE;
use axum::http::{Extensions, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Json, Response};
use serde::Serialize;

use crate::api_limit::ApiLimit;

/// The body of a refused API request.
#[derive(Serialize)]
struct ApiError {
    /// What went wrong, in words.
    error: String,
}

/// An error answer: `status` with `{"error": error}`.
pub(crate) fn api_error(status: StatusCode, error: String) -> Response {
    (status, Json(ApiError { error })).into_response()
}

/// The client's address: the peer's, or, when the peer is a trusted proxy
/// (`--trusted-proxy`), the last address of its `X-Forwarded-For` header — the one that proxy
/// saw (nginx's `$proxy_add_x_forwarded_for` appends it; the earlier ones are the client's
/// word). A trusted proxy's request without a readable header stays the proxy's.
pub fn client_address(
    peer: Option<IpAddr>,
    headers: &HeaderMap,
    trusted: &[IpAddr],
) -> Option<IpAddr> {
    let peer = peer?;
    if !trusted.contains(&peer) {
        return Some(peer);
    }
    let forwarded = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .next_back()
        .and_then(|last| last.trim().parse::<IpAddr>().ok());
    Some(forwarded.unwrap_or(peer))
}

/// HTTP 404 for a `what` that is not there (or may not be seen).
pub(crate) fn not_found(what: &str) -> Response {
    api_error(StatusCode::NOT_FOUND, format!("no {what}"))
}

/// HTTP 500: the storage failed to answer.
pub(crate) fn failed() -> Response {
    api_error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "storage failed".to_owned(),
    )
}

/// HTTP 429 for an address asking too often, before anything is read: every read endpoint
/// of the API (game records and replays, players' games, the leaderboard) shares one
/// budget per address (`--api-rate-limit`).
pub(crate) fn rate_limited(extensions: &Extensions) -> Option<Response> {
    let address = extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip());
    let allowed = extensions
        .get::<Arc<ApiLimit>>()
        .is_none_or(|limit| limit.allow(address));
    (!allowed).then(|| {
        api_error(
            StatusCode::TOO_MANY_REQUESTS,
            "too many requests from this address: try again in a moment".to_owned(),
        )
    })
}

/// A JSON body already written.
pub(crate) fn json_body(body: Bytes) -> Response {
    ([(CONTENT_TYPE, "application/json")], body).into_response()
}
