//! The player loop over real sockets: another game in the same room (P-REMATCH), quick match
//! that starts with bots when nobody comes (P-QUICK), practice games (P-PRACTICE), ratings
//! per game as the `skillratings` crate computes them (P-RATING), leaderboards per game and
//! profiles (P-PROFILE). On SQLite and, under CI, on PostgreSQL too.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::time::Duration;

use common::{Client, TestHall, databases, sqlite_url, test_config};
use hangar_hall::time::now_ms;
use serde_json::{Value, json};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// Red and yellow sit in a new jungle room; the game is started.
async fn jungle_room(hall: &TestHall) -> (Client, Client, String) {
    let mut red = hall.guest("red").await;
    let code = red.create("jungle", json!({})).await;
    let mut yellow = hall.guest("yellow").await;
    yellow.join(&code).await;
    start_again(&mut red, &mut yellow).await;
    (red, yellow, code)
}

/// Both ready: the next game starts (P-SEATS, P-REMATCH).
async fn start_again(red: &mut Client, yellow: &mut Client) {
    red.ready().await;
    yellow.ready().await;
    red.event("game_started").await;
    yellow.event("game_started").await;
}

/// `who` resigns the running jungle game; the result as the other side sees it.
async fn resign(who: &mut Client, other: &mut Client, code: &str) -> Value {
    who.ok(json!({"type": "resign", "room": code})).await;
    who.event("game_over").await;
    other.event("game_over").await["event"]["result"].clone()
}

/// The room as `client` sees it now: a fresh snapshot from a new join.
async fn snapshot(client: &mut Client, code: &str) -> Value {
    client.inbox.retain(|v| v["type"] != "snapshot");
    client.ok(json!({"type": "join_room", "room": code})).await;
    client
        .wait_for(|v| v["type"] == "snapshot")
        .await
        .get("state")
        .cloned()
        .unwrap()
}

fn glicko(rating: &Value) -> Glicko2Rating {
    Glicko2Rating {
        rating: rating["rating"].as_f64().unwrap(),
        deviation: rating["deviation"].as_f64().unwrap(),
        volatility: 0.06,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_rematch_p_rating_and_p_profile_two_jungle_games_in_one_room_on_every_database() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        rematch_and_ratings(&url).await;
    }
}

async fn rematch_and_ratings(url: &str) {
    let hall = TestHall::on(url).await;
    let (mut red, mut yellow, code) = jungle_room(&hall).await;
    // Game 1: red resigns at once. Red keeps the seat for the next game (P-REMATCH).
    let first = resign(&mut red, &mut yellow, &code).await;
    assert_eq!(first["practice"], false);
    let config = Glicko2Config::new();
    let (red_1, yellow_1) = glicko2(
        &Glicko2Rating::new(),
        &Glicko2Rating::new(),
        &Outcomes::LOSS,
        &config,
    );
    let red_line = &first["players"][0]["rating"];
    let yellow_line = &first["players"][1]["rating"];
    assert_eq!(red_line["before"], 1500.0);
    assert!((red_line["after"]["rating"].as_f64().unwrap() - red_1.rating).abs() < 1e-9);
    assert!((yellow_line["after"]["rating"].as_f64().unwrap() - yellow_1.rating).abs() < 1e-9);
    assert!((red_line["after"]["deviation"].as_f64().unwrap() - red_1.deviation).abs() < 1e-9);
    assert_eq!(red_line["after"]["games"], 1);
    assert_eq!(red_line["after"]["provisional"], true);
    // The room waits again with both seats kept and no one ready.
    let state = snapshot(&mut red, &code).await;
    assert_eq!(state["status"], "waiting");
    let seats = state["seats"].as_array().unwrap();
    assert_eq!(
        seats[0]["player"]["name"], "red",
        "the resigner keeps the seat"
    );
    assert_eq!(seats[1]["player"]["name"], "yellow");
    assert!(seats.iter().all(|s| s["ready"] == false));
    // Game 2 in the same room: yellow resigns; the ratings go on from game 1.
    start_again(&mut red, &mut yellow).await;
    let second = resign(&mut yellow, &mut red, &code).await;
    assert_ne!(second["game_id"], first["game_id"]);
    let (red_2, yellow_2) = glicko2(&red_1, &yellow_1, &Outcomes::WIN, &config);
    let red_line = &second["players"][0]["rating"];
    assert!((red_line["before"].as_f64().unwrap() - red_1.rating).abs() < 1e-9);
    assert!((red_line["after"]["rating"].as_f64().unwrap() - red_2.rating).abs() < 1e-9);
    let yellow_after = &second["players"][1]["rating"]["after"];
    assert!((yellow_after["rating"].as_f64().unwrap() - yellow_2.rating).abs() < 1e-9);
    assert!((glicko(yellow_after).deviation - yellow_2.deviation).abs() < 1e-9);

    // P-PROFILE: red's page has both games, newest first, with the opponent and the rating.
    let red_id = first["players"][0]["player_id"].as_i64().unwrap();
    let profile = red
        .ok(json!({"type": "profile", "player_id": red_id}))
        .await;
    let stats = profile["stats"].as_array().unwrap();
    assert_eq!(stats.len(), 1);
    assert_eq!(stats[0]["game"], "jungle");
    assert_eq!(
        (stats[0]["played"].as_i64(), stats[0]["wins"].as_i64()),
        (Some(2), Some(1))
    );
    let history: Vec<f64> = stats[0]["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["rating"].as_f64().unwrap())
        .collect();
    assert_eq!(history.len(), 2);
    assert!((history[0] - red_1.rating).abs() < 1e-9 && (history[1] - red_2.rating).abs() < 1e-9);
    let recent = profile["recent"].as_array().unwrap();
    assert_eq!(recent.len(), 2);
    assert_eq!(recent[0]["game_id"], second["game_id"]);
    assert_eq!(recent[0]["won"], true);
    assert_eq!(recent[1]["won"], false);
    assert_eq!(recent[1]["reason"], "resigned");
    assert_eq!(recent[0]["players"][1]["name"], "yellow");
    assert_eq!(recent[0]["delta"], second["players"][0]["delta"]);
    // "My games" gives the same rows.
    let mine = red.ok(json!({"type": "my_games"})).await;
    assert_eq!(mine["games"], profile["recent"]);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_rating_leaderboards_are_per_game_and_list_only_players_with_a_scored_game() {
    let hall = TestHall::start().await;
    let (mut red, mut yellow, code) = jungle_room(&hall).await;
    // A guest who never finished a game is on no board.
    let mut idle = hall.guest("idle").await;
    resign(&mut red, &mut yellow, &code).await;
    let by_rating = idle
        .ok(json!({"type": "leaderboard", "game": "jungle", "by": "rating"}))
        .await;
    let names: Vec<&str> = by_rating["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["player"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        vec!["yellow", "red"],
        "the winner first, idle not listed"
    );
    assert_eq!(by_rating["entries"][0]["rank"], 1);
    assert!(
        by_rating["entries"][0]["rating"]["rating"]
            .as_f64()
            .unwrap()
            > 1500.0
    );
    // A page further on.
    let second_page = idle
        .ok(json!({"type": "leaderboard", "game": "jungle", "by": "rating", "offset": 1, "limit": 1}))
        .await;
    assert_eq!(second_page["entries"][0]["player"]["name"], "red");
    assert_eq!(second_page["entries"][0]["rank"], 2);
    // Flight's board is empty: nobody finished a flight game.
    let flight = idle
        .ok(json!({"type": "leaderboard", "game": "flight"}))
        .await;
    assert_eq!(flight["entries"], json!([]));
    // Both games, by score: the same two players.
    let all = idle.ok(json!({"type": "leaderboard"})).await;
    assert_eq!(all["entries"].as_array().unwrap().len(), 2);
    idle.fails(json!({"type": "leaderboard", "by": "rating"}), "invalid")
        .await;
    idle.fails(
        json!({"type": "profile", "player_id": 999_999}),
        "no_player",
    )
    .await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_practice_a_game_with_a_bot_changes_no_score_or_rating() {
    let hall = TestHall::start().await;
    let mut host = hall.guest("host").await;
    let code = host.create("jungle", json!({})).await;
    host.ok(json!({"type": "add_bot", "room": code, "seat": 1, "bot": "random"}))
        .await;
    // Shown before the game starts.
    let state = snapshot(&mut host, &code).await;
    assert_eq!(state["practice"], true);
    host.ready().await;
    host.event("game_started").await;
    host.ok(json!({"type": "resign", "room": code})).await;
    let result = host.event("game_over").await["event"]["result"].clone();
    assert_eq!(result["practice"], true);
    let me = &result["players"][0];
    assert_eq!(me["delta"], 0, "a practice game costs nothing");
    assert_eq!(me["score"], 1000);
    assert!(me.get("rating").is_none(), "and rates nobody");
    // Listed for the player, marked practice; no rating, no board.
    let mine = host.ok(json!({"type": "my_games"})).await;
    assert_eq!(mine["games"][0]["practice"], true);
    assert_eq!(mine["games"][0]["rating"], Value::Null);
    assert_eq!(mine["games"][0]["players"][1]["bot"], "random");
    let board = host
        .ok(json!({"type": "leaderboard", "game": "jungle"}))
        .await;
    assert_eq!(board["entries"], json!([]));
    let id = me["player_id"].as_i64().unwrap();
    let profile = host.ok(json!({"type": "profile", "player_id": id})).await;
    assert_eq!(profile["stats"][0]["played"], 1);
    assert_eq!(profile["stats"][0]["rating"], Value::Null);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_quick_match_alone_starts_with_bots_of_middle_strength_after_the_wait() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.quick_fill_after = Duration::from_millis(300);
    let hall = TestHall::with(dir, config).await;
    let mut alone = hall.guest("alone").await;
    let answer = alone
        .ok(json!({"type": "quick_match", "game": "flight"}))
        .await;
    let code = answer["room"].as_str().unwrap().to_owned();
    let seat = answer["seat"].as_u64().unwrap() as usize;
    // Ready at once: a quick match is a wish to play.
    let seen = alone.wait_for(|v| v["type"] == "snapshot").await;
    assert_eq!(seen["state"]["seats"][seat]["ready"], true);
    for _ in 0..3 {
        let bot = alone.event("bot_added").await;
        assert_eq!(bot["event"]["bot"], "heuristic");
    }
    alone.event("game_started").await;
    let state = snapshot(&mut alone, &code).await;
    assert_eq!(state["practice"], true);
    assert_eq!(state["status"], "playing");
    // A jungle quick match gets the middle jungle bot.
    let mut other = hall.guest("other").await;
    other
        .ok(json!({"type": "quick_match", "game": "jungle"}))
        .await;
    let bot = other.event("bot_added").await;
    assert_eq!(bot["event"]["bot"], "normal");
    other.event("game_started").await;
    hall.stop().await;
}

/// P-QUICK: the seated are told when the bots come; one who would rather wait for people
/// calls them off, and none comes; outside a quick-match room there is nothing to call off.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_quick_match_says_when_bots_come_and_a_player_may_wait_for_people_instead() {
    // The wait for bots: 1.5 s, twice as long again while a loaded machine let it run out
    // before the player's call came.
    let mut wait_ms: i64 = 1500;
    let (hall, mut alone, code, at) = loop {
        assert!(
            wait_ms <= 24_000,
            "the player never called the bots off in time"
        );
        let dir = tempfile::tempdir().unwrap();
        let mut config = test_config(sqlite_url(&dir));
        config.quick_fill_after = Duration::from_millis(wait_ms as u64);
        let hall = TestHall::with(dir, config).await;
        let mut alone = hall.guest("patient").await;
        let asked = now_ms();
        let answer = alone
            .ok(json!({"type": "quick_match", "game": "jungle"}))
            .await;
        let code = answer["room"].as_str().unwrap().to_owned();
        // The room as the player first sees it says when the bots come.
        let seen = alone.wait_for(|v| v["type"] == "snapshot").await;
        let at = seen["state"]["quick_bots_at"].as_i64().unwrap();
        assert!(
            (asked + wait_ms..asked + wait_ms + 5000).contains(&at),
            "bots in {} ms, not {wait_ms}",
            at - asked
        );
        let called_off = alone
            .call(json!({"type": "wait_for_people", "room": code}))
            .await;
        if called_off["type"] == "ack" {
            break (hall, alone, code, at);
        }
        // The bots came first: the game started.
        assert_eq!(called_off["code"], "already_playing", "{called_off}");
        hall.stop().await;
        wait_ms *= 2;
    };
    let off = alone.event("quick_bots").await;
    assert_eq!(off["event"]["at"], Value::Null);
    // Past the moment the bots would have come (the room wakes for it by itself): no bot sat
    // down, the room still waits and shows no fill due.
    let past = u64::try_from(at + 300 - now_ms()).unwrap_or(0);
    tokio::time::sleep(Duration::from_millis(past)).await;
    let state = snapshot(&mut alone, &code).await;
    assert_eq!(state["status"], "waiting");
    assert!(state["quick_bots_at"].is_null(), "{state}");
    assert!(
        alone
            .inbox
            .iter()
            .all(|v| v["event"]["kind"] != "bot_added")
    );
    assert!(state["seats"][1]["bot"].is_null());
    // A room made by hand has no bots to call off.
    let mut host = hall.guest("host").await;
    let own = host.create("jungle", json!({})).await;
    host.fails(json!({"type": "wait_for_people", "room": own}), "invalid")
        .await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_quick_match_two_people_play_each_other_when_they_meet_in_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.quick_fill_after = Duration::from_secs(600);
    let hall = TestHall::with(dir, config).await;
    let mut a = hall.guest("a").await;
    let first = a.ok(json!({"type": "quick_match", "game": "jungle"})).await;
    let mut b = hall.guest("b").await;
    let second = b.ok(json!({"type": "quick_match", "game": "jungle"})).await;
    assert_eq!(first["room"], second["room"]);
    // Both were made ready by the quick match: the game starts without bots, and counts.
    a.event("game_started").await;
    assert!(a.inbox.iter().all(|v| v["event"]["kind"] != "bot_added"));
    // b's answer was followed by the room as it stood after b's arrival: already playing.
    let seen = b.wait_for(|v| v["type"] == "snapshot").await;
    assert_eq!(seen["state"]["status"], "playing");
    assert_eq!(seen["state"]["practice"], false);
    hall.stop().await;
}

/// A finished jungle game between two new guests in which `loser` resigns.
async fn decided(winner: &mut Client, loser: &mut Client) {
    let code = winner.create("jungle", json!({})).await;
    loser.join(&code).await;
    start_again(winner, loser).await;
    resign(loser, winner, &code).await;
    for client in [winner, loser] {
        client.ok(json!({"type": "leave_room", "room": code})).await;
        client.clear();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_quick_match_prefers_the_room_whose_players_ratings_are_closest() {
    let hall = TestHall::start().await;
    let (mut strong, mut weak, mut other) = (
        hall.guest("strong").await,
        hall.guest("weak").await,
        hall.guest("other").await,
    );
    let mut low = hall.guest("low").await;
    // strong ≈ 1662 (one win); weak lower still (two losses); low ≈ 1400 (one loss).
    decided(&mut strong, &mut weak).await;
    decided(&mut other, &mut weak).await;
    decided(&mut other, &mut low).await;
    // Two waiting quick-match rooms (P-QUICK: quick match joins no other), one seat taken in
    // each: as full as each other. strong opens both (a quick match cannot join a room it sits
    // in), weak takes the second on purpose and strong leaves it.
    let room = |answer: serde_json::Value| answer["room"].as_str().unwrap().to_owned();
    let high_room = room(
        strong
            .ok(json!({"type": "quick_match", "game": "jungle"}))
            .await,
    );
    let low_room = room(
        strong
            .ok(json!({"type": "quick_match", "game": "jungle"}))
            .await,
    );
    weak.join(&low_room).await;
    strong
        .ok(json!({"type": "leave_room", "room": low_room}))
        .await;
    // low is nearer weak than strong, a newcomer nearer strong: the two land in different
    // rooms, which the order by code alone never gives (both would take the same room).
    let matched = low
        .ok(json!({"type": "quick_match", "game": "jungle"}))
        .await;
    assert_eq!(matched["room"], low_room.as_str());
    low.ok(json!({"type": "leave_room", "room": low_room}))
        .await;
    // A newcomer (1500) is nearer strong (≈1662) than weak (below 1338).
    let mut new = hall.guest("new").await;
    let matched = new
        .ok(json!({"type": "quick_match", "game": "jungle"}))
        .await;
    assert_eq!(matched["room"], high_room.as_str());
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_rematch_a_flight_room_with_a_bot_plays_again_with_the_bot_still_seated_and_ready() {
    let hall = TestHall::start().await;
    let mut host = hall.guest("host").await;
    let code = host
        .create("flight", json!({"seats": 2, "planes": 2}))
        .await;
    host.ok(json!({"type": "add_bot", "room": code, "seat": 1, "bot": "random"}))
        .await;
    for game in 1..=2 {
        host.ready().await;
        host.event("game_started").await;
        host.ok(json!({"type": "autoplay", "room": code, "on": true}))
            .await;
        let over = host.event("game_over").await;
        assert_eq!(over["event"]["result"]["practice"], true, "game {game}");
        // Waiting again: the person not ready, the bot in its seat and ready, auto-play off.
        let state = snapshot(&mut host, &code).await;
        assert_eq!(state["status"], "waiting");
        assert_eq!(state["seats"][0]["ready"], false);
        assert_eq!(state["seats"][0]["autoplay"], false);
        assert_eq!(state["seats"][1]["bot"], "random");
        assert_eq!(state["seats"][1]["ready"], true);
        host.clear();
    }
    hall.stop().await;
}
