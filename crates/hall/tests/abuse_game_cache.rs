//! A finished game's record and replay are built once and then served from a small cache
//! (a request loop costs a lookup, not a replay), and a cached private game is still shown
//! only to its players. The builds are counted at `/metrics`
//! (`hangar_api_game_builds_total`); this file's one test is the only one of its process
//! that builds any, so the counts it reads are its own.
#![allow(clippy::unwrap_used)] // tests fail loudly

mod common;

use std::net::SocketAddr;

use common::{TestHall, get_as, http_get_text};
use serde_json::json;

/// The builds counted so far for `served` (`record` or `replay`).
async fn builds(addr: SocketAddr, served: &str) -> f64 {
    let (_, text) = http_get_text(addr, "/metrics").await;
    let name = format!("hangar_api_game_builds_total{{served=\"{served}\"}} ");
    text.lines()
        .find_map(|line| line.strip_prefix(&name)?.trim().parse().ok())
        .unwrap_or(0.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_games_record_and_replay_are_built_once_and_stay_private() {
    let hall = TestHall::start().await;
    let (mut a, mut b, code) = hall.jungle_started(true).await;
    let member = b.token.clone().unwrap();
    let stranger = hall.guest("eve").await.token.clone().unwrap();

    // A running game is built on every request: it changes.
    let before = builds(hall.addr, "record").await;
    for _ in 0..2 {
        assert_eq!(
            get_as(hall.addr, "/api/games/1", Some(&member)).await.0,
            200
        );
    }
    assert_eq!(builds(hall.addr, "record").await - before, 2.0);

    a.ok(json!({"type": "resign", "room": code})).await;
    b.event("game_over").await;

    for (path, served) in [
        ("/api/games/1", "record"),
        ("/api/games/1/replay", "replay"),
    ] {
        let before = builds(hall.addr, served).await;
        let (status, first) = get_as(hall.addr, path, Some(&member)).await;
        assert_eq!(status, 200, "{path}: {first}");
        for _ in 0..3 {
            let (status, again) = get_as(hall.addr, path, Some(&member)).await;
            assert_eq!((status, &again), (200, &first), "{path}");
        }
        assert_eq!(
            builds(hall.addr, served).await - before,
            1.0,
            "{path} built once, then served from the cache"
        );
        // Cached, the private game is still nobody else's.
        for token in [None, Some(stranger.as_str())] {
            let (status, body) = get_as(hall.addr, path, token).await;
            assert_eq!(status, 404, "{path} as {token:?}: {body}");
            assert!(!body.to_string().contains(&code), "{body}");
        }
    }
    hall.stop().await;
}
