//! Private players stay private (issue 34): another player's private games show on their
//! profile and `/api/players/{id}/games` only as "a private game" with result and score
//! change — no opponents, ids, room or time; the player still sees them whole. Every read
//! endpoint of the API answers 429 past its rate per address.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use common::{TestHall, get_as, sqlite_url, test_config};
use serde_json::{Value, json};

/// Nothing in `game` tells who else played or which game it was.
fn anonymous(game: &Value, opponent: &str, code: &str) {
    assert_eq!(game["private"], true, "{game}");
    assert_eq!(game["game_id"], 0, "{game}");
    assert_eq!(game["players"], json!([]), "{game}");
    assert!(game["room"].is_null(), "{game}");
    let text = game.to_string();
    assert!(!text.contains(opponent) && !text.contains(code), "{text}");
    assert!(game["delta"].is_i64());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outsider_sees_no_private_opponent_on_profiles_or_the_games_api() {
    let hall = TestHall::start().await;
    let (mut ana, mut bo, code) = hall.jungle_started(true).await;
    let ana_id = ana.player_id.unwrap();
    bo.ok(json!({"type": "resign", "room": code})).await;
    ana.event("game_over").await;

    let (status, list) = get_as(hall.addr, &format!("/api/players/{ana_id}/games"), None).await;
    assert_eq!(status, 200);
    anonymous(&list["games"][0], "bo", &code);

    let mut eve = hall.guest("eve").await;
    let profile = eve
        .ok(json!({"type": "profile", "player_id": ana_id}))
        .await;
    anonymous(&profile["recent"][0], "bo", &code);
    // Nor does the rating history name the game.
    let history = profile["stats"][0]["history"].as_array().unwrap();
    assert!(history.is_empty(), "{history:?}");

    // The player herself still sees it whole.
    let own = ana
        .ok(json!({"type": "profile", "player_id": ana_id}))
        .await;
    assert_eq!(own["recent"][0]["private"], false);
    assert_eq!(own["recent"][0]["players"][1]["name"], "bo");
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_games_and_the_leaderboard_asked_in_a_loop_answer_429() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.limits.api_requests_per_second = 1;
    let hall = TestHall::with(dir, config).await;
    for path in ["/api/players/1/games", "/api/leaderboard"] {
        let mut statuses = Vec::new();
        for _ in 0..12 {
            statuses.push(get_as(hall.addr, path, None).await.0);
        }
        assert!(
            statuses.iter().filter(|s| **s == 429).count() >= 6,
            "{path}: {statuses:?}"
        );
        // The budget refills (1 a second) before the next path is tried.
        tokio::time::sleep(std::time::Duration::from_secs(4)).await;
    }
    hall.stop().await;
}
