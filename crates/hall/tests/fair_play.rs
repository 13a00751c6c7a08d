//! Fair play (issue 34): games that cannot be farmed — P-ABORT (too few decisions of one's
//! own, pairs capped per day), P-ESCAPE in jungle.
#![allow(clippy::unwrap_used)] // tests fail loudly

mod common;

use common::{TestHall, play_jungle, sqlite_url, test_config};
use serde_json::{Value, json};

/// A hall with the real fair-play rules (the common test hall switches P-ABORT off for the
/// scoring tests).
async fn fair_hall() -> TestHall {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.fair = hangar_hall::FairPlay::default();
    TestHall::with(dir, config).await
}

/// A player's score as the hall now has it (signing in again with its token).
async fn score(hall: &TestHall, client: &common::Client) -> i64 {
    let mut again = hall.client().await;
    let me = again
        .ok(json!({"type": "auth", "token": client.token.clone().unwrap()}))
        .await;
    me["player"]["score"].as_i64().unwrap()
}

fn no_rating(result: &Value) {
    for line in result["players"].as_array().unwrap() {
        assert!(line["rating"].is_null(), "no rating changed: {line}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_and_p_escape_a_puppet_escaping_a_jungle_game_at_once_gains_nobody_anything() {
    let hall = fair_hall().await;
    let (mut ana, mut bo, code) = hall.jungle_started(false).await;
    bo.ok(json!({"type": "leave_room", "room": code, "escape": true}))
        .await;
    let over = ana.event("game_over").await;
    let result = &over["event"]["result"];
    assert_eq!(result["aborted"], true, "{result}");
    assert_eq!(result["players"][0]["delta"], 0, "the farmer gains nothing");
    assert_eq!(
        result["players"][1]["delta"], -200,
        "P-ESCAPE: a jungle escape costs 200"
    );
    no_rating(result);
    assert_eq!(score(&hall, &ana).await, 1000);
    assert_eq!(score(&hall, &bo).await, 800);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_a_resignation_before_any_move_changes_no_score() {
    let hall = fair_hall().await;
    let (mut ana, mut bo, code) = hall.jungle_started(false).await;
    bo.ok(json!({"type": "resign", "room": code})).await;
    let over = ana.event("game_over").await;
    let result = &over["event"]["result"];
    assert_eq!(result["aborted"], true, "{result}");
    assert_eq!(result["players"][0]["delta"], 0);
    assert_eq!(result["players"][1]["delta"], 0);
    no_rating(result);
    assert_eq!(score(&hall, &ana).await, 1000);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_two_seats_on_auto_play_change_no_score() {
    let hall = fair_hall().await;
    let (mut a, mut b, code) = hall
        .two_players("flight", json!({"seats": 2, "planes": 2, "stake": 10000}))
        .await;
    a.ok(json!({"type": "autoplay", "room": code, "on": true}))
        .await;
    b.ok(json!({"type": "autoplay", "room": code, "on": true}))
        .await;
    let over = a.event("game_over").await;
    let result = &over["event"]["result"];
    assert_eq!(
        result["aborted"], true,
        "auto-play's decisions are not a person's"
    );
    for line in result["players"].as_array().unwrap() {
        assert_eq!(line["delta"], 0, "{line}");
    }
    no_rating(result);
    assert_eq!(score(&hall, &a).await, 1000);
    assert_eq!(score(&hall, &b).await, 1000);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_a_game_both_people_play_is_scored() {
    let hall = fair_hall().await;
    let mut ana = hall.guest("ana").await;
    let code = ana.create("jungle", json!({})).await;
    let mut bo = hall.guest("bo").await;
    bo.join(&code).await;
    ana.ready().await;
    bo.ready().await;
    for client in [&mut ana, &mut bo] {
        let started = client.event("game_started").await;
        client.inbox.push_front(started);
    }
    // Both play (the first listed move): a real game, scored and rated.
    let first = tokio::spawn(async move { play_jungle(&mut ana, |_| 0).await });
    let second = tokio::spawn(async move { play_jungle(&mut bo, |m| m.len() - 1).await });
    let (result, _) = (first.await.unwrap(), second.await.unwrap());
    assert_eq!(result["aborted"], false, "{result}");
    if result["reason"] != "draw" {
        assert!(result["players"][0]["rating"].is_object(), "{result}");
    }
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_the_eleventh_guest_from_one_address_in_an_hour_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.limits.guests_per_address_per_hour = 10;
    let hall = TestHall::with(dir, config).await;
    let mut client = hall.client().await;
    for n in 0..10 {
        client
            .ok(json!({"type": "guest", "name": format!("puppet{n}")}))
            .await;
    }
    client
        .fails(json!({"type": "guest", "name": "puppet10"}), "rate_limited")
        .await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_the_fourth_game_of_a_pair_in_a_day_is_practice_and_said_before_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    // Quick games (a resignation at once) count here: this test is about the pair's cap.
    config.fair.pair_games_per_day = 3;
    let hall = TestHall::with(dir, config).await;
    let (mut ana, mut bo, code) = hall.jungle_started(false).await;
    for game in 1..=4 {
        if game > 1 {
            ana.ready().await;
            bo.ready().await;
            ana.event("game_started").await;
        }
        bo.ok(json!({"type": "resign", "room": code})).await;
        let over = ana.event("game_over").await;
        let result = &over["event"]["result"];
        if game <= 3 {
            assert_eq!(result["practice"], false, "game {game}: {result}");
            assert_eq!(result["players"][1]["delta"], -2, "game {game} is scored");
        } else {
            assert_eq!(result["practice"], true, "the fourth game is practice");
            assert_eq!(result["players"][1]["delta"], 0);
            assert!(result["players"][1]["rating"].is_null());
        }
        if game == 3 {
            // Said before the next game starts: an event, and the room's snapshot.
            let said = ana.event("pair_practice").await;
            assert_eq!(said["event"]["on"], true);
            let mut watcher = hall.client().await;
            watcher.ok(json!({"type": "spectate", "room": code})).await;
            let snapshot = watcher.wait_for(|v| v["type"] == "snapshot").await;
            assert_eq!(snapshot["state"]["practice"], true);
        }
    }
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_quick_never_joins_a_room_whose_host_chose_the_stake() {
    let hall = TestHall::start().await;
    // Three colluders sit ready in a 4-seat flight room at the highest stake.
    let mut host = hall.guest("host").await;
    let trap = host
        .create("flight", json!({"seats": 4, "stake": 10000}))
        .await;
    host.ready().await;
    let mut friends = Vec::new();
    for name in ["f1", "f2"] {
        let mut friend = hall.guest(name).await;
        friend.join(&trap).await;
        friend.ready().await;
        friends.push(friend);
    }
    let mut stranger = hall.guest("stranger").await;
    let matched = stranger
        .ok(json!({"type": "quick_match", "game": "flight"}))
        .await;
    assert_ne!(matched["room"], trap.as_str(), "{matched}");
    // A quick-match room takes the next quick match.
    let mut other = hall.guest("other").await;
    let second = other
        .ok(json!({"type": "quick_match", "game": "flight"}))
        .await;
    assert_eq!(second["room"], matched["room"]);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_quick_the_bot_timer_ends_with_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.quick_fill_after = std::time::Duration::from_millis(800);
    let hall = TestHall::with(dir, config).await;
    let mut a = hall.guest("a").await;
    let opened = a.ok(json!({"type": "quick_match", "game": "jungle"})).await;
    let code = opened["room"].as_str().unwrap().to_owned();
    let mut b = hall.guest("b").await;
    b.ok(json!({"type": "quick_match", "game": "jungle"})).await;
    a.event("game_started").await;
    // A short game: b escapes at once, its seat is freed, a waits alone.
    b.ok(json!({"type": "leave_room", "room": code, "escape": true}))
        .await;
    a.event("game_over").await;
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let mut watcher = hall.client().await;
    watcher.ok(json!({"type": "spectate", "room": code})).await;
    let snapshot = watcher.wait_for(|v| v["type"] == "snapshot").await;
    let seats = snapshot["state"]["seats"].as_array().unwrap();
    assert!(
        seats.iter().all(|s| s["bot"].is_null()),
        "no bot seated into the rematch: {seats:?}"
    );
    hall.stop().await;
}
