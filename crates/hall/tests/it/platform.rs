//! One test per platform rule id of `shared/spec/platform.md` (the jungle ones are in
//! `jungle_game.rs`, P-DURABLE in `hangar/tests/hall_crash.rs`, the score arithmetic in
//! `game::scoring`).
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::time::Duration;

use common::{Client, TestHall, play_flight, play_flight_until, sqlite_url, test_config};
use serde_json::{Value, json};

async fn fast_hall(turn_unit_ms: u64, grace_ms: u64) -> TestHall {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.turn_unit = Duration::from_millis(turn_unit_ms);
    config.reconnect_grace = Duration::from_millis(grace_ms);
    TestHall::with(dir, config).await
}

/// Two guests in a running two-player flight game with 2 planes.
async fn flight_pair(hall: &TestHall, options: Value) -> (Client, Client, String) {
    let mut a = hall.guest("a").await;
    let code = a.create("flight", options).await;
    let mut b = hall.guest("b").await;
    b.join(&code).await;
    a.ready().await;
    b.ready().await;
    a.event("game_started").await;
    b.event("game_started").await;
    (a, b, code)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_guest_token_brings_the_same_identity_back() {
    let hall = TestHall::start().await;
    let g = hall.guest("ana").await;
    let (id, token) = (g.player_id.unwrap(), g.token.clone().unwrap());
    assert_eq!(token.len(), 32);
    g.close().await;
    let mut again = hall.client().await;
    let me = again.ok(json!({"type": "auth", "token": token})).await;
    assert_eq!(me["player"]["id"], id);
    assert_eq!(me["player"]["guest"], true);
    assert_eq!(
        me["player"]["score"], 1000,
        "P-SCORE: everyone starts at 1000"
    );
    assert_eq!(me["player"]["level"], 1);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_account_register_login_and_unique_names() {
    let hall = TestHall::start().await;
    let mut c = hall.client().await;
    c.fails(
        json!({"type": "register", "name": "", "password": "long enough"}),
        "invalid",
    )
    .await;
    c.fails(
        json!({"type": "register", "name": "a\u{1}b", "password": "long enough"}),
        "invalid",
    )
    .await;
    c.fails(
        json!({"type": "register", "name": "x".repeat(21), "password": "long enough"}),
        "invalid",
    )
    .await;
    c.fails(
        json!({"type": "register", "name": "zed", "password": "short"}),
        "invalid",
    )
    .await;
    // A guest registers and keeps its id.
    let guest = c.guest("zed").await;
    let reg = c
        .ok(json!({"type": "register", "name": "Zed", "password": "correct horse"}))
        .await;
    assert_eq!(reg["player"]["id"], guest["player"]["id"]);
    assert_eq!(reg["player"]["guest"], false);
    let mut d = hall.client().await;
    d.fails(
        json!({"type": "register", "name": "zed", "password": "another one"}),
        "name_taken",
    )
    .await;
    d.fails(
        json!({"type": "login", "name": "zed", "password": "wrong horse"}),
        "bad_credentials",
    )
    .await;
    d.fails(
        json!({"type": "login", "name": "nobody", "password": "wrong horse"}),
        "bad_credentials",
    )
    .await;
    let login = d
        .ok(json!({"type": "login", "name": "ZED", "password": "correct horse"}))
        .await;
    assert_eq!(login["player"]["id"], guest["player"]["id"]);
    // P-RATING: a player without a finished scored game is on no leaderboard.
    let board = d.ok(json!({"type": "leaderboard", "limit": 5})).await;
    assert!(
        board["entries"]
            .as_array()
            .unwrap()
            .iter()
            .all(|e| e["player"]["name"] != "Zed")
    );
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_hall_lists_rooms_live_and_private_rooms_join_by_code() {
    let hall = TestHall::start().await;
    let mut watcher = hall.client().await;
    watcher
        .ok(json!({"type": "hall_subscribe", "game": "flight"}))
        .await;
    let list = watcher.wait_for(|v| v["type"] == "hall").await;
    assert_eq!(list["rooms"], json!([]));
    let mut host = hall.guest("host").await;
    let code = host.create("flight", json!({"seats": 3})).await;
    let listed = watcher.wait_for(|v| v["type"] == "hall_room").await;
    assert_eq!(listed["room"]["code"], code.as_str());
    assert_eq!(listed["room"]["seats"].as_array().unwrap().len(), 3);
    assert_eq!(listed["room"]["options"]["stake"], 100);
    // A jungle room does not show in the flight list; a private room shows nowhere.
    let mut other = hall.guest("other").await;
    other.create("jungle", json!({})).await;
    let result = other
        .ok(json!({"type": "create_room", "game": "flight", "private": true}))
        .await;
    let private = result["room"].as_str().unwrap().to_owned();
    let mut friend = hall.guest("friend").await;
    let joined = friend.join(&private).await;
    assert_eq!(joined["seat"], 1, "join by code works for a private room");
    // The host leaves: the room closes and leaves the list.
    host.ok(json!({"type": "leave_room", "room": code})).await;
    let removed = watcher.wait_for(|v| v["type"] == "hall_room_removed").await;
    assert_eq!(removed["code"], code.as_str());
    assert!(
        watcher
            .inbox
            .iter()
            .all(|v| v["room"]["code"] != private.as_str())
    );
    hall.stop().await;
}

/// P-ROOM: a hall with the default settings (`hangar serve` without flags) opens rooms with a
/// 20 s turn timer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_room_the_turn_timer_is_20_seconds_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.turn_seconds = hangar_hall::Config::default().turn_seconds;
    let hall = TestHall::with(dir, config).await;
    let mut c = hall.guest("c").await;
    c.create("flight", json!({})).await;
    let snapshot = c.wait_for(|v| v["type"] == "snapshot").await;
    assert_eq!(snapshot["state"]["options"]["turn_seconds"], 20);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_room_options_are_checked_and_completed() {
    let hall = TestHall::start().await;
    let mut c = hall.guest("c").await;
    for bad in [
        json!({"seats": 5}),
        json!({"seats": 1}),
        json!({"turn_seconds": 4}),
        json!({"turn_seconds": 121}),
        json!({"stake": -5}),
        // P-ROOM: the stake S is 10–10,000.
        json!({"stake": 9}),
        json!({"stake": 10_001}),
        json!({"planes": 5}),
        json!({"teams": true, "seats": 3}),
        json!({"finish": "sideways"}),
        json!({"colour": "red"}),
        json!("fast"),
    ] {
        c.fails(
            json!({"type": "create_room", "game": "flight", "options": bad}),
            "invalid",
        )
        .await;
    }
    c.fails(
        json!({"type": "create_room", "game": "jungle", "options": {"seats": 4}}),
        "invalid",
    )
    .await;
    c.fails(
        json!({"type": "create_room", "game": "chess"}),
        "bad_message",
    )
    .await;
    // The bounds themselves are allowed: stake 10 and 10,000, timer 5 s and 120 s (a player
    // with a score that covers the highest stake, P-SCORE).
    hall.set_score(&c, 10_000).await;
    for (stake, seconds) in [(10, 5), (10_000, 120)] {
        c.create("flight", json!({"stake": stake, "turn_seconds": seconds}))
            .await;
        let snapshot = c
            .wait_for(|v| v["type"] == "snapshot" && v["state"]["options"]["stake"] == stake)
            .await;
        assert_eq!(snapshot["state"]["options"]["turn_seconds"], seconds);
    }
    c.create(
        "flight",
        json!({"preset": "improved", "planes": 3, "turn_seconds": 30}),
    )
    .await;
    let snapshot = c.wait_for(|v| v["type"] == "snapshot").await;
    let options = &snapshot["state"]["options"];
    assert_eq!(options["stake"], 100, "default stake");
    assert_eq!(options["turn_seconds"], 30);
    assert_eq!(options["planes"], 3);
    assert_eq!(options["stacks"], "pass", "the improved preset");
    assert_eq!(options["seats"], 4);
    // Three rooms are as many as one player sits in: a fourth player makes the fourth.
    let mut d = hall.guest("d").await;
    d.create("jungle", json!({"level": 3, "order": "wolf-over-dog"}))
        .await;
    let c = &mut d;
    let snapshot = c
        .wait_for(|v| {
            v["type"] == "snapshot"
                && v["state"]["game"] == Value::Null
                && v["state"]["options"]["level"] == 3
        })
        .await;
    assert_eq!(snapshot["state"]["options"]["order"], "wolf-over-dog");
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_seats_bots_and_ready_start_the_game_and_p_autoplay_by_choice_finishes_it() {
    let hall = TestHall::start().await;
    let mut host = hall.guest("host").await;
    let code = host
        .create("flight", json!({"seats": 3, "planes": 2}))
        .await;
    let mut guest = hall.guest("guest").await;
    guest.ok(json!({"type": "spectate", "room": code})).await;
    guest
        .fails(
            json!({"type": "add_bot", "room": code, "seat": 1, "bot": "random"}),
            "not_host",
        )
        .await;
    host.fails(
        json!({"type": "add_bot", "room": code, "seat": 1, "bot": "genius"}),
        "invalid",
    )
    .await;
    host.fails(
        json!({"type": "add_bot", "room": code, "seat": 0, "bot": "random"}),
        "seat_taken",
    )
    .await;
    host.ok(json!({"type": "add_bot", "room": code, "seat": 1, "bot": "random"}))
        .await;
    host.ok(json!({"type": "add_bot", "room": code, "seat": 2, "bot": "heuristic"}))
        .await;
    host.ok(json!({"type": "remove_bot", "room": code, "seat": 2}))
        .await;
    // The rollout bot of `hangar-bots` (flight `hard`) plays the rest of the game.
    host.ok(json!({"type": "add_bot", "room": code, "seat": 2, "bot": "hard"}))
        .await;
    // Not started until the person is ready.
    assert!(
        host.inbox
            .iter()
            .all(|v| v["event"]["kind"] != "game_started")
    );
    host.ready().await;
    host.event("game_started").await;
    host.ok(json!({"type": "autoplay", "room": code, "on": true}))
        .await;
    let switched = host.event("autoplay").await;
    assert_eq!(switched["event"]["reason"], "choice");
    // The watcher sees the whole game (P-SPECTATE).
    let over = guest.event("game_over").await;
    let result = &over["event"]["result"];
    assert_eq!(result["players"].as_array().unwrap().len(), 3);
    assert!(
        result["players"][1]["score"].is_null(),
        "bots keep no score"
    );
    assert!(result["players"][0]["score"].is_i64());
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_quick_match_fills_the_fullest_room_first() {
    let hall = TestHall::start().await;
    let mut a = hall.guest("a").await;
    let first = a.ok(json!({"type": "quick_match", "game": "flight"})).await;
    assert_eq!(first["seat"], 0);
    let room_a = first["room"].as_str().unwrap().to_owned();
    // Quick match joins only quick-match rooms (P-QUICK): a second one is opened by a quick
    // match that cannot join the first (a sits there already).
    let second = a.ok(json!({"type": "quick_match", "game": "flight"})).await;
    let room_b = second["room"].as_str().unwrap().to_owned();
    assert_ne!(room_b, room_a);
    let mut b = hall.guest("b").await;
    let fuller = b.ok(json!({"type": "quick_match", "game": "flight"})).await["room"]
        .as_str()
        .unwrap()
        .to_owned();
    let other = if fuller == room_a { &room_b } else { &room_a };
    let mut d = hall.guest("d").await;
    let matched = d.ok(json!({"type": "quick_match", "game": "flight"})).await;
    assert_eq!(
        matched["room"],
        fuller.as_str(),
        "two of four taken beats one of four"
    );
    let mut c = hall.guest("c").await;
    let full = c.ok(json!({"type": "quick_match", "game": "flight"})).await;
    assert_eq!(full["room"], fuller.as_str(), "three of four beats one");
    let mut e = hall.guest("e").await;
    let next = e.ok(json!({"type": "quick_match", "game": "flight"})).await;
    assert_eq!(next["room"], other.as_str(), "the full room is skipped");
    let mut j = hall.guest("j").await;
    let jungle = j.ok(json!({"type": "quick_match", "game": "jungle"})).await;
    assert_ne!(jungle["room"], room_a.as_str());
    assert_ne!(jungle["room"], room_b.as_str());
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_spectate_watchers_see_events_and_act_on_nothing() {
    let hall = TestHall::start().await;
    let (mut a, mut b, code) = flight_pair(&hall, json!({"seats": 2, "planes": 2})).await;
    let mut w = hall.client().await;
    w.ok(json!({"type": "spectate", "room": code})).await;
    let snapshot = w.wait_for(|v| v["type"] == "snapshot").await;
    assert_eq!(snapshot["state"]["status"], "playing");
    assert_eq!(
        snapshot["state"]["seed"],
        Value::Null,
        "the seed stays secret while playing"
    );
    assert_eq!(snapshot["state"]["commitment"].as_str().unwrap().len(), 64);
    w.fails(
        json!({"type": "roll", "room": code, "entropy": common::entropy()}),
        "unauthenticated",
    )
    .await;
    // Whoever is on turn rolls; the watcher sees that roll: the seat and the value acked.
    let seat = snapshot["state"]["turn"]["seat"].clone();
    let mover = if seat == json!(a.seat.unwrap()) {
        &mut a
    } else {
        assert_eq!(seat, json!(b.seat.unwrap()), "one of the two is on turn");
        &mut b
    };
    let ack = mover
        .ok(json!({"type": "roll", "room": code, "entropy": common::entropy()}))
        .await;
    let rolled = w.event("rolled").await;
    assert_eq!(rolled["event"]["seat"], seat);
    assert_eq!(rolled["event"]["value"], ack["value"]);
    assert!((1..=6).contains(&ack["value"].as_u64().unwrap()));
    hall.stop().await;
}

/// P-SPECTATE with the broadcast delay on (the test hall uses the default): at a table that
/// plays as fast as the server answers, the events of the members who do not act next are
/// held and leave together; a watcher still gets every event exactly once, in version order,
/// up to the end of the game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_spectate_a_fast_game_reaches_a_watcher_whole_and_in_order() {
    let hall = TestHall::start().await;
    let (mut a, mut b, code) = flight_pair(&hall, json!({"seats": 2, "planes": 2})).await;
    let mut w = hall.client().await;
    w.ok(json!({"type": "spectate", "room": code})).await;
    let snapshot = w.wait_for(|v| v["type"] == "snapshot").await;
    let from = snapshot["v"].as_u64().unwrap();
    let watch = async {
        let mut versions = Vec::new();
        loop {
            let v = w.next().await;
            if v["type"] != "event" {
                continue;
            }
            versions.push(v["v"].as_u64().unwrap());
            if v["event"]["kind"] == "game_over" {
                return (versions, v["event"]["result"].clone());
            }
        }
    };
    let (result_a, result_b, (versions, watched)) =
        tokio::join!(play_flight(&mut a), play_flight(&mut b), watch);
    assert_eq!(result_a, result_b);
    assert_eq!(watched, result_a, "the watcher sees the same end");
    let expected: Vec<u64> = (from + 1..=from + versions.len() as u64).collect();
    assert_eq!(
        versions, expected,
        "every event once, in order, none missing"
    );
    assert!(versions.len() > 20, "a whole game was watched");
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_timer_runs_out_and_p_autoplay_takes_over() {
    let hall = fast_hall(20, 60_000).await;
    let (mut a, _b, code) =
        flight_pair(&hall, json!({"seats": 2, "planes": 2, "turn_seconds": 5})).await;
    let turn = a.event("turn").await;
    assert_eq!(turn["event"]["seconds"], 5);
    assert!(turn["event"]["deadline"].as_i64().unwrap() > 0);
    // Nobody acts: each player's timer runs out and auto-play switches on.
    let on = a.event("autoplay").await;
    assert_eq!(on["event"]["on"], true);
    assert_eq!(on["event"]["reason"], "timeout");
    // A bot acts at once for the timed-out player.
    let seat = on["event"]["seat"].clone();
    a.wait_for(|v| v["event"]["kind"] == "rolled" && v["event"]["seat"] == seat)
        .await;
    // Switching it off is a choice, at any time.
    if seat == json!(a.seat.unwrap()) {
        a.ok(json!({"type": "autoplay", "room": code, "on": false}))
            .await;
    }
    hall.stop().await;
}

/// P-DISCONNECT in two halls, so that no step races a timer: with a grace far longer than the
/// test, a player who drops is away on auto-play and comes back to the same seat; with a grace
/// of a moment, one who stays away is out and the two-player game ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_disconnect_away_countdown_autoplay_back_and_out_after_the_grace() {
    let hall = fast_hall(1000, 600_000).await;
    let (a, mut b, code) = flight_pair(&hall, json!({"seats": 2, "planes": 2})).await;
    let token = a.token.clone().unwrap();
    let seat_a = a.seat.unwrap();
    a.close().await;
    let away = b.event("away").await;
    assert_eq!(away["event"]["seat"], seat_a);
    let auto = b.event("autoplay").await;
    assert_eq!(auto["event"]["reason"], "disconnect");
    // Back in time: same seat, auto-play off again.
    let mut a = hall.client().await;
    let me = a.ok(json!({"type": "auth", "token": token})).await;
    assert_eq!(me["rooms"], json!([code]));
    a.ok(json!({"type": "join_room", "room": code})).await;
    b.event("back").await;
    let off = b.event("autoplay").await;
    assert_eq!(off["event"]["on"], false);
    hall.stop().await;

    // Gone for longer than the grace: out, counted as resignation; the game ends.
    let hall = fast_hall(1000, 200).await;
    let (a, mut b, _code) = flight_pair(&hall, json!({"seats": 2, "planes": 2})).await;
    let seat_a = a.seat.unwrap();
    a.close().await;
    assert_eq!(b.event("away").await["event"]["seat"], seat_a);
    let out = b.event("out").await;
    assert_eq!(out["event"]["seat"], seat_a);
    assert_eq!(out["event"]["reason"], "disconnected");
    let over = b.event("game_over").await;
    assert_eq!(over["event"]["result"]["reason"], "disconnected");
    hall.stop().await;
}

/// P-RESIGN with two players: the resigner loses `v` per unfinished plane and the winner gains
/// `v` per finished plane (v = 100 / 4 = 25). a resigns on its own turn once b has finished a
/// plane, so the exact view the result is computed from is known.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_resign_after_15_turns_ends_a_two_player_game() {
    let hall = TestHall::start().await;
    let (mut a, mut b, code) =
        flight_pair(&hall, json!({"seats": 2, "planes": 4, "stake": 100})).await;
    a.fails(json!({"type": "resign", "room": code}), "too_early")
        .await;
    b.ok(json!({"type": "autoplay", "room": code, "on": true}))
        .await;
    let (seat_a, seat_b) = (a.seat.unwrap(), b.seat.unwrap());
    let view = play_flight_until(&mut a, |view| {
        view["turns"].as_u64().is_some_and(|t| t >= 15)
            && view["finished"][seat_b].as_i64().is_some_and(|f| f >= 1)
    })
    .await;
    a.ok(json!({"type": "resign", "room": code})).await;
    let over = b.event("game_over").await;
    let result = &over["event"]["result"];
    assert_eq!(result["reason"], "resigned");
    let loser = &result["players"][seat_a];
    let winner = &result["players"][seat_b];
    let count = |key: &str, seat: usize| view[key][seat].as_i64().unwrap();
    assert_eq!(winner["finished"], count("finished", seat_b));
    assert_eq!(winner["captures"], count("captures", seat_b));
    assert_eq!(loser["finished"], count("finished", seat_a));
    let v = 25;
    assert_eq!(
        loser["delta"].as_i64().unwrap(),
        -v * (4 - count("finished", seat_a)) + 5 * count("captures", seat_a)
    );
    assert_eq!(
        winner["delta"].as_i64().unwrap(),
        v * count("finished", seat_b) + 5 * count("captures", seat_b),
        "the winner gains v per finished plane ({} finished)",
        count("finished", seat_b)
    );
    assert_eq!(
        winner["score"].as_i64().unwrap(),
        1000 + winner["delta"].as_i64().unwrap()
    );
    hall.stop().await;
}

/// P-ESCAPE with two players: the escaper loses 200, the game ends as after a resignation and
/// the winner gains `v` per finished plane (v = 25). b escapes on its own turn once a has
/// finished a plane.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_escape_the_winner_gains_v_per_finished_plane() {
    let hall = TestHall::start().await;
    let (mut a, mut b, code) =
        flight_pair(&hall, json!({"seats": 2, "planes": 4, "stake": 100})).await;
    a.ok(json!({"type": "autoplay", "room": code, "on": true}))
        .await;
    let (seat_a, seat_b) = (a.seat.unwrap(), b.seat.unwrap());
    let view = play_flight_until(&mut b, |view| {
        view["finished"][seat_a].as_i64().is_some_and(|f| f >= 1)
    })
    .await;
    b.ok(json!({"type": "leave_room", "room": code, "escape": true}))
        .await;
    let over = a.event("game_over").await;
    let result = &over["event"]["result"];
    let escaper = &result["players"][seat_b];
    let winner = &result["players"][seat_a];
    let count = |key: &str, seat: usize| view[key][seat].as_i64().unwrap();
    assert_eq!(escaper["out"], "escaped");
    assert_eq!(
        escaper["delta"].as_i64().unwrap(),
        -200 + 5 * count("captures", seat_b)
    );
    assert_eq!(winner["finished"], count("finished", seat_a));
    assert_eq!(
        winner["delta"].as_i64().unwrap(),
        25 * count("finished", seat_a) + 5 * count("captures", seat_a),
        "the winner gains v per finished plane ({} finished)",
        count("finished", seat_a)
    );
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_escape_costs_200_and_the_game_goes_on_without_the_escaper() {
    let hall = TestHall::start().await;
    let mut a = hall.guest("a").await;
    // Three people (a bot would make it a practice game, scored for no one: P-PRACTICE).
    let code = a.create("flight", json!({"seats": 3, "planes": 2})).await;
    let mut b = hall.guest("b").await;
    b.join(&code).await;
    let mut c = hall.guest("c").await;
    c.join(&code).await;
    a.ready().await;
    b.ready().await;
    c.ready().await;
    b.event("game_started").await;
    a.ok(json!({"type": "leave_room", "room": code, "escape": true}))
        .await;
    let out = b.event("out").await;
    assert_eq!(out["event"]["reason"], "escaped");
    b.ok(json!({"type": "autoplay", "room": code, "on": true}))
        .await;
    c.ok(json!({"type": "autoplay", "room": code, "on": true}))
        .await;
    let over = b.event("game_over").await;
    let result = &over["event"]["result"];
    let escaper = &result["players"][0];
    assert_eq!(
        escaper["delta"].as_i64().unwrap() - 5 * escaper["captures"].as_i64().unwrap(),
        -200
    );
    assert_eq!(escaper["out"], "escaped");
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_chat_lines_phrases_and_limits() {
    let hall = TestHall::start().await;
    let mut a = hall.guest("a").await;
    let code = a.create("jungle", json!({})).await;
    let mut b = hall.guest("b").await;
    b.join(&code).await;
    a.ok(json!({"type": "chat", "room": code, "text": "good luck!"}))
        .await;
    let line = b.event("chat").await;
    assert_eq!(line["event"]["text"], "good luck!");
    assert_eq!(line["event"]["name"], "a");
    a.ok(json!({"type": "chat", "room": code, "phrase": 5}))
        .await;
    assert_eq!(b.event("chat").await["event"]["text"], "Good game!");
    a.fails(
        json!({"type": "chat", "room": code, "text": "x".repeat(201)}),
        "chat_limit",
    )
    .await;
    a.fails(
        json!({"type": "chat", "room": code, "text": "   "}),
        "chat_limit",
    )
    .await;
    a.fails(
        json!({"type": "chat", "room": code, "phrase": 99}),
        "invalid",
    )
    .await;
    for _ in 0..3 {
        a.ok(json!({"type": "chat", "room": code, "text": "hi"}))
            .await;
    }
    a.fails(
        json!({"type": "chat", "room": code, "text": "too fast"}),
        "chat_limit",
    )
    .await;
    let mut stranger = hall.guest("s").await;
    stranger
        .fails(
            json!({"type": "chat", "room": code, "text": "hi"}),
            "not_in_room",
        )
        .await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_record_and_p_fair_dice_a_tampered_record_fails_verification() {
    let hall = TestHall::start().await;
    let mut a = hall.guest("a").await;
    let code = a.create("flight", json!({"seats": 2, "planes": 2})).await;
    a.ok(json!({"type": "add_bot", "room": code, "seat": 1, "bot": "heuristic"}))
        .await;
    a.ready().await;
    let started = a.event("game_started").await;
    let game_id = {
        a.ok(json!({"type": "autoplay", "room": code, "on": true}))
            .await;
        let over = a.event("game_over").await;
        assert_eq!(
            over["event"]["result"]["commitment"],
            started["event"]["commitment"]
        );
        over["event"]["result"]["game_id"].as_i64().unwrap()
    };
    let (status, record) = hall.get(&format!("/api/games/{game_id}")).await;
    assert_eq!(status, 200);
    assert_eq!(record["format"], "hangar-record/1");
    assert!(hangar_games::record::verify(&record).unwrap().over);
    assert!(hangar_games::record::replay_lines(&record).unwrap().len() > 10);
    // A changed roll or a changed seed is caught.
    let mut bad = record.clone();
    let actions = bad["actions"].as_array_mut().unwrap();
    let roll = actions.iter_mut().find(|a| a["roll"].is_u64()).unwrap();
    roll["roll"] = json!(roll["roll"].as_u64().unwrap() % 6 + 1);
    assert!(matches!(
        hangar_games::record::verify(&bad),
        Err(hangar_games::record::RecordError::Roll { .. })
    ));
    let mut bad = record.clone();
    bad["seed"] = json!(hangar_dice::Seed::from_u64(1).to_string());
    assert!(matches!(
        hangar_games::record::verify(&bad),
        Err(hangar_games::record::RecordError::Commitment { .. })
    ));
    let (status, _) = hall.get("/api/games/999999").await;
    assert_eq!(status, 404);
    let (status, games) = hall
        .get(&format!("/api/players/{}/games", a.player_id.unwrap()))
        .await;
    assert_eq!(status, 200);
    assert_eq!(games["games"][0]["game_id"], game_id);
    let (status, health) = hall.get("/health").await;
    assert_eq!((status, health["status"].as_str()), (200, Some("ok")));
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resume_from_a_version_sends_only_the_missed_events() {
    let hall = TestHall::start().await;
    let (mut a, mut b, code) = flight_pair(&hall, json!({"seats": 2, "planes": 2})).await;
    // b has seen the start; it drops, and the room goes on (away, auto-play for b).
    b.wait_for(|v| v["type"] == "event" && v["event"]["kind"] == "turn")
        .await;
    let seen = b.version;
    let token = b.token.clone().unwrap();
    b.close().await;
    a.wait_for(|v| v["type"] == "event" && v["event"]["kind"] == "away")
        .await;
    let mut b = hall.client().await;
    b.ok(json!({"type": "auth", "token": token})).await;
    let joined = b
        .ok(json!({"type": "join_room", "room": code, "since": seen}))
        .await;
    assert_eq!(joined["resumed"], true);
    let current = joined["v"].as_u64().unwrap();
    assert!(current > seen, "the room went on while b was away");
    let first = b.wait_for(|v| v["type"] == "event").await;
    assert_eq!(
        first["v"].as_u64().unwrap(),
        seen + 1,
        "the first missed event comes first"
    );
    // The missed events reach the version the answer named (the last is `back`).
    let last = b
        .wait_for(|v| v["type"] == "event" && v["v"] == current)
        .await;
    assert_eq!(last["event"]["kind"], "autoplay");
    assert!(b.inbox.iter().all(|v| v["type"] != "snapshot"));
    // Too old a version (or a future one) gets a snapshot instead.
    let mut c = hall.client().await;
    c.ok(json!({"type": "spectate", "room": code, "since": 1_000_000}))
        .await;
    c.wait_for(|v| v["type"] == "snapshot").await;
    hall.stop().await;
}
