//! Private rooms stay private. Over the unauthenticated HTTP API a private room's game
//! (its code, seats and live action log), running or finished, and its replay are shown
//! only to the players seated in it, who prove it with their sign-in token; to anyone else
//! the game does not exist. Public rooms' games stay open to all.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use common::{TestHall, get_as};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_game_is_shown_only_to_its_players_running_or_finished() {
    let hall = TestHall::start().await;
    let (mut a, mut b, code) = hall.jungle_started(true).await;
    let outsider = hall.guest("eve").await;
    let member = a.token.clone().unwrap();
    let stranger = outsider.token.clone().unwrap();

    // Running: the outsider, signed in or not, finds nothing.
    for token in [None, Some(stranger.as_str()), Some("not a token")] {
        let (status, body) = get_as(hall.addr, "/api/games/1", token).await;
        assert_eq!(status, 404, "{token:?}: {body}");
        assert!(!body.to_string().contains(&code), "{body}");
    }
    let (status, record) = get_as(hall.addr, "/api/games/1", Some(&member)).await;
    assert_eq!(
        (status, record["room"].as_str()),
        (200, Some(code.as_str()))
    );

    // Finished: the record and its replay keep the room's privacy.
    a.ok(json!({"type": "resign", "room": code})).await;
    b.event("game_over").await;
    for path in ["/api/games/1", "/api/games/1/replay"] {
        assert_eq!(get_as(hall.addr, path, None).await.0, 404, "{path}");
        assert_eq!(get_as(hall.addr, path, Some(&stranger)).await.0, 404);
        let other = b.token.clone().unwrap();
        assert_eq!(get_as(hall.addr, path, Some(&other)).await.0, 200, "{path}");
    }
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_public_game_is_open_to_all() {
    let hall = TestHall::start().await;
    let (_a, _b, code) = hall.jungle_started(false).await;
    let (status, record) = get_as(hall.addr, "/api/games/1", None).await;
    assert_eq!(
        (status, record["room"].as_str()),
        (200, Some(code.as_str()))
    );
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn game_records_and_replays_asked_in_a_loop_are_refused_with_429() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = common::test_config(common::sqlite_url(&dir));
    config.limits.api_requests_per_second = 1;
    let hall = TestHall::with(dir, config).await;
    let (_a, _b, _code) = hall.jungle_started(false).await;
    let mut statuses = Vec::new();
    for n in 0..12 {
        let path = if n % 2 == 0 {
            "/api/games/1"
        } else {
            "/api/games/1/replay"
        };
        statuses.push(get_as(hall.addr, path, None).await.0);
    }
    // A burst of four passes (the replay of a running game is a 404), then 429.
    assert!(statuses[..4].iter().all(|s| *s != 429), "{statuses:?}");
    assert!(
        statuses.iter().filter(|s| **s == 429).count() >= 6,
        "{statuses:?}"
    );
    // Other endpoints are not counted.
    assert_eq!(hall.get("/health").await.0, 200);
    hall.stop().await;
}
