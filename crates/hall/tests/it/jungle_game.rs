//! Jungle games over real sockets: to the end (J-WIN-…, P-JUNGLE-DRAW scores), draw by
//! agreement, timeouts (P-JUNGLE-TIMEOUT) and disconnections (P-JUNGLE-DISCONNECT).
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::cell::Cell;
use std::time::Duration;

use common::{TestHall, databases, play_jungle, sqlite_url, test_config};
use serde_json::json;

async fn jungle_pair(
    hall: &TestHall,
    options: serde_json::Value,
) -> (common::Client, common::Client, String) {
    let mut red = hall.guest("red").await;
    let code = red.create("jungle", options).await;
    let mut yellow = hall.guest("yellow").await;
    yellow.join(&code).await;
    red.ready().await;
    yellow.ready().await;
    // Seen, then kept for the players (it carries the first list of moves).
    for client in [&mut red, &mut yellow] {
        let started = client.event("game_started").await;
        client.inbox.push_front(started);
    }
    (red, yellow, code)
}

/// A small deterministic "random" choice for test players.
fn picker(seed: u64) -> impl Fn(&[serde_json::Value]) -> usize {
    let state = Cell::new(seed);
    move |moves| {
        let next = state
            .get()
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        state.set(next);
        ((next >> 33) as usize) % moves.len()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_play_a_jungle_game_to_the_end_on_every_database() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        two_players_play_a_jungle_game(&url).await;
    }
}

async fn two_players_play_a_jungle_game(url: &str) {
    let hall = TestHall::on(url).await;
    let (mut red, mut yellow, _) = jungle_pair(&hall, json!({"level": 2})).await;
    // Red heads for captures and the den by taking the first listed move half the time.
    let a = tokio::spawn(async move { play_jungle(&mut red, picker(1)).await });
    let b = tokio::spawn(async move { play_jungle(&mut yellow, picker(2)).await });
    let (ra, rb) = (a.await.unwrap(), b.await.unwrap());
    assert_eq!(ra, rb);
    let players = ra["players"].as_array().unwrap();
    let deltas: Vec<i64> = players
        .iter()
        .map(|p| p["delta"].as_i64().unwrap())
        .collect();
    if ra["reason"] == "draw" {
        assert_eq!(deltas, vec![0, 0], "P-JUNGLE-DRAW: a draw changes no score");
    } else {
        // P-JUNGLE-DRAW scoring: winner +2 × room level (2), loser −2.
        let winner = players.iter().position(|p| p["rank"] == 1).unwrap();
        assert_eq!(deltas[winner], 4);
        assert_eq!(deltas[1 - winner], -2);
        assert!(
            ["den", "no_pieces", "no_move"].contains(&ra["reason"].as_str().unwrap()),
            "{ra}"
        );
    }
    for p in players {
        assert_eq!(
            p["score"].as_i64().unwrap(),
            1000 + p["delta"].as_i64().unwrap()
        );
    }
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_jungle_draw_by_agreement_changes_no_score() {
    let hall = TestHall::start().await;
    let (mut red, mut yellow, code) = jungle_pair(&hall, json!({})).await;
    // Only the other side can answer; an answer without an offer is refused.
    yellow
        .fails(
            json!({"type": "answer_draw", "room": code, "accept": true}),
            "illegal",
        )
        .await;
    red.ok(json!({"type": "offer_draw", "room": code})).await;
    yellow.event("draw_offered").await;
    red.fails(
        json!({"type": "answer_draw", "room": code, "accept": true}),
        "illegal",
    )
    .await;
    yellow
        .ok(json!({"type": "answer_draw", "room": code, "accept": true}))
        .await;
    let over = red.event("game_over").await;
    let result = &over["event"]["result"];
    assert_eq!(result["reason"], "draw");
    assert_eq!(result["players"][0]["delta"], 0);
    assert_eq!(result["players"][1]["delta"], 0);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_jungle_timeout_fourth_timeout_loses() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.turn_unit = Duration::from_millis(20);
    let hall = TestHall::with(dir, config).await;
    // Red never moves: each timeout passes the move; yellow plays; the 4th timeout loses.
    let (mut red, mut yellow, code) = jungle_pair(&hall, json!({"turn_seconds": 5})).await;
    let yellow_task = tokio::spawn(async move {
        let result = play_jungle(&mut yellow, |_| 0).await;
        (yellow, result)
    });
    for count in 1..=4 {
        let timeout = red.event("timeout").await;
        assert_eq!(timeout["event"]["seat"], 0);
        assert_eq!(timeout["event"]["count"], count);
    }
    let out = red.event("out").await;
    assert_eq!(out["event"]["reason"], "timeouts");
    let over = red.event("game_over").await;
    let result = &over["event"]["result"];
    assert_eq!(result["reason"], "timeouts");
    assert_eq!(result["players"][0]["delta"], -2);
    assert_eq!(result["players"][1]["delta"], 2);
    let (_, seen) = yellow_task.await.unwrap();
    assert_eq!(&seen, result);
    let _ = code;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_jungle_disconnect_costs_10_and_resign_loses() {
    let hall = TestHall::start().await;
    let (red, mut yellow, code) = jungle_pair(&hall, json!({})).await;
    let token = red.token.clone().unwrap();
    red.close().await;
    let away = yellow.event("away").await;
    assert_eq!(away["event"]["seat"], 0);
    assert!(away["event"]["until"].as_i64().unwrap() > 0);
    // Back in time: the same seat, the countdown stops.
    let mut red = hall.client().await;
    red.ok(json!({"type": "auth", "token": token})).await;
    let joined = red.ok(json!({"type": "join_room", "room": code})).await;
    assert_eq!(joined["seat"], 0);
    yellow.event("back").await;
    red.ok(json!({"type": "resign", "room": code})).await;
    let over = yellow.event("game_over").await;
    let result = &over["event"]["result"];
    assert_eq!(result["reason"], "resigned");
    assert_eq!(
        result["players"][0]["delta"],
        -2 - 10,
        "loss plus one disconnection"
    );
    assert_eq!(result["players"][1]["delta"], 2);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_seats_a_jungle_bot_of_a_chosen_level_plays_to_the_end() {
    let hall = TestHall::start().await;
    let mut host = hall.guest("host").await;
    let code = host.create("jungle", json!({})).await;
    host.fails(
        json!({"type": "add_bot", "room": code, "seat": 1, "bot": "heuristic"}),
        "invalid",
    )
    .await;
    host.ok(json!({"type": "add_bot", "room": code, "seat": 1, "bot": "easy"}))
        .await;
    host.ready().await;
    host.event("game_started").await;
    host.ok(json!({"type": "autoplay", "room": code, "on": true}))
        .await;
    let over = host.event("game_over").await;
    let result = &over["event"]["result"];
    assert!(result["players"][1]["player_id"].is_null());
    assert_eq!(result["players"][1]["name"], "bot:easy");
    // P-PRACTICE/P-PROFILE: unrated, the game still counts in the player's record against
    // that level of the hall's bots.
    let won = result["players"][0]["rank"] == 1 && result["players"][1]["rank"] == 2;
    let me = host.player_id.unwrap();
    let profile = host.ok(json!({"type": "profile", "player_id": me})).await;
    let jungle = &profile["stats"][0];
    assert_eq!(jungle["game"], "jungle");
    assert!(jungle["rating"].is_null(), "a practice game rates nobody");
    assert_eq!(
        jungle["bots"],
        json!([{"bot": "easy", "played": 1, "won": i64::from(won)}])
    );
    hall.stop().await;
}
