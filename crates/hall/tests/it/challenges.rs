//! Bot accounts and challenges over real sockets (P-BOT-ACCOUNT, P-CHALLENGE): who may become
//! a bot account and where it may sit, and a challenge's whole life — sent, delivered (also on
//! a later sign-in), accepted into a private room and a scored, rated game, or declined,
//! cancelled, lapsed — with the refusals that change nothing.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::time::Duration;

use common::{Client, TestHall, databases, sqlite_url, test_config};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// Registers an account on a new connection; the client keeps its token and id.
async fn account(hall: &TestHall, name: &str) -> Client {
    let mut client = hall.client().await;
    let result = client
        .ok(json!({"type": "register", "name": name, "password": "long enough"}))
        .await;
    client.token = result["token"].as_str().map(str::to_owned);
    client.player_id = result["player"]["id"].as_i64();
    assert_eq!(result["player"]["bot"], false, "{result}");
    client
}

/// A new connection signed in with `client`'s token; the answer to `auth`.
async fn again(hall: &TestHall, client: &Client) -> (Client, Value) {
    let mut other = hall.client().await;
    let token = client.token.clone().unwrap();
    let result = other.ok(json!({"type": "auth", "token": token})).await;
    other.token = Some(token);
    other.player_id = client.player_id;
    (other, result)
}

/// A hall on SQLite with `change` made to the test settings (short timers), and two accounts
/// on it, Ana and Bo.
async fn ana_and_bo(change: impl FnOnce(&mut hangar_hall::Config)) -> (TestHall, Client, Client) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    change(&mut config);
    let hall = TestHall::with(dir, config).await;
    let ana = account(&hall, "ana").await;
    let bo = account(&hall, "bo").await;
    (hall, ana, bo)
}

/// A registered account made a bot account.
async fn bot_account(hall: &TestHall, name: &str) -> Client {
    let mut client = account(hall, name).await;
    let result = client.ok(json!({"type": "upgrade_to_bot"})).await;
    assert_eq!(result["player"]["bot"], true, "{result}");
    assert_eq!(result["player"]["id"], json!(client.player_id));
    client
}

/// `from` challenges `to` to `game`; the challenge's id.
async fn challenge(from: &mut Client, to: Option<i64>, game: &str, more: Value) -> String {
    let mut command = json!({"type": "challenge", "player": to, "game": game});
    if let (Some(command), Some(more)) = (command.as_object_mut(), more.as_object()) {
        command.extend(more.clone());
    }
    let result = from.ok(command).await;
    result["challenge"]["id"].as_str().unwrap().to_owned()
}

/// Waits for the `challenge` message of challenge `id`.
async fn challenged(client: &mut Client, id: &str) -> Value {
    let id = id.to_owned();
    client
        .wait_for(move |v| v["type"] == "challenge" && v["challenge"]["id"] == json!(id))
        .await["challenge"]
        .clone()
}

/// Waits for the `challenge_ended` message of challenge `id`.
async fn ended(client: &mut Client, id: &str) -> Value {
    let id = id.to_owned();
    client
        .wait_for(move |v| v["type"] == "challenge_ended" && v["challenge"] == json!(id))
        .await
}

/// Waits for the `challenge_room` message of challenge `id`, then sits in the seat it names.
/// Nobody readies: accepting starts the game once every party sits (P-CHALLENGE).
async fn sit(client: &mut Client, id: &str) -> (String, usize) {
    let id = id.to_owned();
    let message = client
        .wait_for(move |v| v["type"] == "challenge_room" && v["challenge"] == json!(id))
        .await;
    let room = message["room"].as_str().unwrap().to_owned();
    let seat = message["seat"].as_u64().unwrap() as usize;
    let joined = client
        .ok(json!({"type": "join_room", "room": room, "seat": seat}))
        .await;
    assert_eq!(joined["seat"], json!(seat), "{joined}");
    client.room = Some(room.clone());
    client.seat = Some(seat);
    (room, seat)
}

#[tokio::test]
async fn p_bot_account_is_refused_for_a_guest_and_for_a_player_with_a_finished_game() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        let hall = TestHall::on(&url).await;
        let mut guest = hall.guest("gus").await;
        guest
            .fails(json!({"type": "upgrade_to_bot"}), "forbidden")
            .await;
        let me = guest
            .ok(json!({"type": "profile", "player_id": guest.player_id}))
            .await;
        assert_eq!(me["player"]["bot"], false, "nothing changed: {me}");

        // Two accounts finish a game: neither may become a bot account then.
        let mut ana = account(&hall, "ana").await;
        let mut bo = account(&hall, "bo").await;
        let code = ana.create("jungle", json!({})).await;
        bo.join(&code).await;
        ana.ready().await;
        bo.ready().await;
        ana.event("turn").await;
        ana.ok(json!({"type": "resign", "room": code})).await;
        bo.event("game_over").await;
        let refused = bo
            .fails(json!({"type": "upgrade_to_bot"}), "forbidden")
            .await;
        assert!(
            refused["message"]
                .as_str()
                .unwrap()
                .contains("finished game"),
            "{refused}"
        );
        let profile = ana
            .ok(json!({"type": "profile", "player_id": bo.player_id}))
            .await;
        assert_eq!(
            profile["player"]["bot"], false,
            "nothing changed: {profile}"
        );

        // A fresh account may, once and for good (asking again changes nothing).
        let mut deep = bot_account(&hall, "deep").await;
        let again = deep.ok(json!({"type": "upgrade_to_bot"})).await;
        assert_eq!(again["player"]["bot"], true);
        let (_, authed) = self::again(&hall, &deep).await;
        assert_eq!(authed["player"]["bot"], true, "stored: {authed}");
        hall.stop().await;
    }
}

#[tokio::test]
async fn p_bot_account_never_plays_quick_match_nor_sits_in_a_public_room() {
    let hall = TestHall::start().await;
    let person = account(&hall, "deep").await;
    // A second connection of the account, open while it becomes a bot account.
    let (mut other, _) = again(&hall, &person).await;
    let mut deep = person;
    deep.ok(json!({"type": "upgrade_to_bot"})).await;
    // That connection spoke for a person: it is closed, and signs in again as the bot account.
    loop {
        match other.raw_next().await {
            Some(Message::Close(Some(frame))) => {
                assert_eq!(u16::from(frame.code), 1008);
                assert!(frame.reason.contains("bot account"), "{frame:?}");
                break;
            }
            Some(_) => continue,
            None => panic!("closed without a close frame"),
        }
    }
    let (mut other, authed) = again(&hall, &deep).await;
    assert_eq!(authed["player"]["bot"], true);
    other
        .fails(
            json!({"type": "quick_match", "game": "jungle"}),
            "forbidden",
        )
        .await;
    for game in ["jungle", "flight"] {
        deep.fails(json!({"type": "quick_match", "game": game}), "forbidden")
            .await;
    }
    deep.fails(
        json!({"type": "create_room", "game": "jungle", "private": false}),
        "forbidden",
    )
    .await;
    let mut ana = hall.guest("ana").await;
    let public = ana.create("flight", json!({"seats": 2})).await;
    deep.fails(
        json!({"type": "join_room", "room": public, "seat": 1}),
        "forbidden",
    )
    .await;
    deep.fails(
        json!({"type": "take_seat", "room": public, "seat": 1}),
        "forbidden",
    )
    .await;
    assert_eq!(
        hall.hall.seated_rooms(deep.player_id.unwrap()),
        Vec::<String>::new(),
        "no seat taken"
    );
    // A private room, joined by code, is fine.
    let private = ana
        .ok(json!({"type": "create_room", "game": "jungle", "private": true}))
        .await["room"]
        .as_str()
        .unwrap()
        .to_owned();
    let joined = deep.join(&private).await;
    assert_eq!(joined["seat"], 1, "{joined}");
    let snapshot = deep.wait_for(|v| v["type"] == "snapshot").await;
    assert_eq!(
        snapshot["state"]["seats"][1]["player"]["bot"], true,
        "{snapshot}"
    );
    hall.stop().await;
}

#[tokio::test]
async fn p_challenge_accepted_opens_a_private_room_whose_game_is_scored_and_rated() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        let hall = TestHall::on(&url).await;
        let mut ana = account(&hall, "ana").await;
        let mut deep = bot_account(&hall, "deep").await;
        // The bot account's second connection is told too.
        let (mut deep2, _) = again(&hall, &deep).await;
        let sent = ana
            .ok(
                json!({"type": "challenge", "player": deep.player_id, "game": "jungle",
                       "options": {"turn_seconds": 30}}),
            )
            .await["challenge"]
            .clone();
        let id = sent["id"].as_str().unwrap().to_owned();
        assert_eq!(sent["from"]["id"], json!(ana.player_id));
        assert_eq!(sent["to"][0]["bot"], true, "{sent}");
        assert_eq!(sent["options"]["turn_seconds"], 30, "{sent}");
        assert!(sent["expires_in_ms"].as_u64().unwrap() > 50_000, "{sent}");
        for client in [&mut deep, &mut deep2] {
            let seen = challenged(client, &id).await;
            assert_eq!(seen["from"]["name"], "ana");
            assert_eq!(seen["game"], "jungle");
        }
        // Only the challenged answer; the challenger does not accept for them.
        ana.fails(
            json!({"type": "accept_challenge", "challenge": id}),
            "forbidden",
        )
        .await;
        deep.ok(json!({"type": "accept_challenge", "challenge": id}))
            .await;
        let (room, seat) = sit(&mut ana, &id).await;
        assert_eq!(seat, 0, "the challenger sits first");
        let (deep_room, deep_seat) = sit(&mut deep, &id).await;
        assert_eq!((deep_room.as_str(), deep_seat), (room.as_str(), 1));
        deep2
            .wait_for(|v| v["type"] == "challenge_room" && v["seat"] == 1)
            .await;
        // The room is private: not in the hall list.
        let page = ana.ok(json!({"type": "hall_page", "game": "jungle"})).await;
        assert_eq!(page["total"], 0, "{page}");
        // Accepted once: the challenge is no longer open.
        deep.fails(
            json!({"type": "decline_challenge", "challenge": id}),
            "invalid",
        )
        .await;

        ana.event("turn").await;
        deep.ok(json!({"type": "resign", "room": room})).await;
        let over = ana.event("game_over").await;
        let result = &over["event"]["result"];
        assert_eq!(result["practice"], false, "{result}");
        let lines = result["players"].as_array().unwrap();
        assert_eq!(lines[0]["bot"], false, "{result}");
        assert_eq!(lines[1]["bot"], true, "{result}");
        assert_eq!(lines[1]["player_id"], json!(deep.player_id));
        assert!(lines[0]["delta"].as_i64().unwrap() > 0, "scored: {result}");
        assert!(lines[1]["rating"].is_object(), "rated: {result}");
        // The challenger's games name the opponent as a bot account.
        let games = ana.ok(json!({"type": "my_games"})).await;
        let seated = &games["games"][0]["players"];
        assert_eq!(seated[1]["bot_account"], true, "{games}");
        assert!(seated[0].get("bot_account").is_none(), "{games}");

        // The leaderboards mark the bot account, and leave it out when asked.
        let board = ana
            .ok(json!({"type": "leaderboard", "game": "jungle", "by": "rating"}))
            .await;
        let entries = board["entries"].as_array().unwrap();
        assert_eq!(entries.len(), 2, "{board}");
        let marked: Vec<(i64, bool)> = entries
            .iter()
            .map(|e| {
                (
                    e["player"]["id"].as_i64().unwrap(),
                    e["player"]["bot"] == true,
                )
            })
            .collect();
        assert!(marked.contains(&(deep.player_id.unwrap(), true)), "{board}");
        assert!(marked.contains(&(ana.player_id.unwrap(), false)), "{board}");
        for game in [json!("jungle"), Value::Null] {
            let people = ana
                .ok(json!({"type": "leaderboard", "game": game, "bots": false}))
                .await;
            let ids: Vec<_> = people["entries"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["player"]["id"].clone())
                .collect();
            assert_eq!(ids, vec![json!(ana.player_id)], "{people}");
        }
        hall.stop().await;
    }
}

#[tokio::test]
async fn p_challenge_of_flight_seats_more_challenged_players_and_hall_bots() {
    let hall = TestHall::start().await;
    let mut ana = account(&hall, "ana").await;
    let mut bo = account(&hall, "bo").await;
    let mut cy = bot_account(&hall, "cy").await;
    let seats = json!([{"player": cy.player_id}, {"bot": "random"}]);
    let id = challenge(&mut ana, bo.player_id, "flight", json!({"seats": seats})).await;
    for client in [&mut bo, &mut cy] {
        let seen = challenged(client, &id).await;
        assert_eq!(seen["to"].as_array().unwrap().len(), 2, "{seen}");
        assert_eq!(seen["options"]["seats"], 4, "{seen}");
    }
    cy.ok(json!({"type": "accept_challenge", "challenge": id}))
        .await;
    // One of two accepted: no room yet.
    assert_eq!(hall.hall.room_count(), 0);
    bo.ok(json!({"type": "accept_challenge", "challenge": id}))
        .await;
    let mut seats_taken = Vec::new();
    for client in [&mut ana, &mut bo, &mut cy] {
        seats_taken.push(sit(client, &id).await.1);
    }
    assert_eq!(seats_taken, vec![0, 1, 2]);
    let snapshot = ana.wait_for(|v| v["type"] == "snapshot").await;
    assert_eq!(snapshot["state"]["seats"][3]["bot"], "random", "{snapshot}");
    // Every seat taken and ready: the game runs.
    ana.event("game_started").await;
    hall.stop().await;
}

#[tokio::test]
async fn p_challenge_declined_or_cancelled_ends_for_every_party() {
    let hall = TestHall::start().await;
    let mut ana = account(&hall, "ana").await;
    let mut bo = account(&hall, "bo").await;
    let mut cy = hall.guest("cy").await;

    let id = challenge(&mut ana, bo.player_id, "jungle", json!({})).await;
    challenged(&mut bo, &id).await;
    // A stranger can neither decline nor cancel it.
    cy.fails(
        json!({"type": "decline_challenge", "challenge": id}),
        "forbidden",
    )
    .await;
    cy.fails(
        json!({"type": "cancel_challenge", "challenge": id}),
        "forbidden",
    )
    .await;
    bo.fails(
        json!({"type": "cancel_challenge", "challenge": id}),
        "forbidden",
    )
    .await;
    bo.ok(json!({"type": "decline_challenge", "challenge": id}))
        .await;
    let bo_id = bo.player_id;
    for client in [&mut ana, &mut bo] {
        let end = ended(client, &id).await;
        assert_eq!(end["reason"], "declined");
        assert_eq!(end["by"]["id"], json!(bo_id));
    }
    bo.fails(
        json!({"type": "accept_challenge", "challenge": id}),
        "invalid",
    )
    .await;

    let id = challenge(&mut ana, bo.player_id, "jungle", json!({})).await;
    challenged(&mut bo, &id).await;
    ana.ok(json!({"type": "cancel_challenge", "challenge": id}))
        .await;
    for client in [&mut ana, &mut bo] {
        let end = ended(client, &id).await;
        assert_eq!(end["reason"], "cancelled");
        assert_eq!(end["by"]["name"], "ana");
    }
    bo.fails(
        json!({"type": "accept_challenge", "challenge": id}),
        "invalid",
    )
    .await;
    assert_eq!(hall.hall.room_count(), 0, "no room was opened");
    hall.stop().await;
}

#[tokio::test]
async fn p_challenge_lapses_unanswered() {
    let (hall, mut ana, mut bo) =
        ana_and_bo(|config| config.challenge_lapse = Duration::from_millis(800)).await;
    let id = challenge(&mut ana, bo.player_id, "jungle", json!({})).await;
    let seen = challenged(&mut bo, &id).await;
    assert!(seen["expires_in_ms"].as_u64().unwrap() <= 800, "{seen}");
    for client in [&mut ana, &mut bo] {
        let end = ended(client, &id).await;
        assert_eq!(end["reason"], "lapsed");
        assert!(end["by"].is_null(), "{end}");
    }
    bo.fails(
        json!({"type": "accept_challenge", "challenge": id}),
        "invalid",
    )
    .await;
    assert_eq!(hall.hall.room_count(), 0);
    hall.stop().await;
}

/// P-CHALLENGE: the seats of an accepted challenge's room are held as after a reconnection
/// (P-DISCONNECT): one nobody comes to is freed when the grace ends, and a room nobody came to
/// closes (its seats would count against its players' seat limit for ever).
#[tokio::test]
async fn p_challenge_room_seats_nobody_takes_are_freed_and_an_empty_room_closes() {
    // The grace: 800 ms, twice as long again while a loaded machine did not let Ana sit
    // within it (the seats are held from the accept on: a sit answered sooner was in time).
    let mut grace = Duration::from_millis(800);
    let (hall, mut ana, mut bo, room) = loop {
        assert!(
            grace <= Duration::from_secs(26),
            "Ana never sat within the grace"
        );
        let (hall, mut ana, mut bo) = ana_and_bo(|config| config.reconnect_grace = grace).await;
        // Ana comes, Bo does not: Bo's seat is freed, Ana's room stays.
        let id = challenge(&mut ana, bo.player_id, "jungle", json!({})).await;
        challenged(&mut bo, &id).await;
        let accepted = tokio::time::Instant::now();
        bo.ok(json!({"type": "accept_challenge", "challenge": id}))
            .await;
        let opened = ana
            .wait_for(|v| v["type"] == "challenge_room" && v["challenge"] == json!(id))
            .await;
        let room = opened["room"].as_str().unwrap().to_owned();
        let joined = ana
            .call(json!({"type": "join_room", "room": room, "seat": opened["seat"]}))
            .await;
        if joined["type"] == "ack" && accepted.elapsed() < grace {
            assert_eq!(joined["result"]["seat"], opened["seat"], "{joined}");
            ana.room = Some(room.clone());
            break (hall, ana, bo, room);
        }
        hall.stop().await;
        grace *= 2;
    };
    let left = ana
        .wait_for(|v| v["type"] == "event" && v["event"]["kind"] == "left")
        .await;
    assert_eq!(left["event"]["seat"], 1, "{left}");
    assert_eq!(hall.hall.room_count(), 1);
    ana.ok(json!({"type": "leave_room", "room": room})).await;

    // Nobody comes: the room closes.
    let id = challenge(&mut bo, ana.player_id, "jungle", json!({})).await;
    challenged(&mut ana, &id).await;
    ana.ok(json!({"type": "accept_challenge", "challenge": id}))
        .await;
    bo.wait_for(|v| v["type"] == "challenge_room").await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while hall.hall.room_count() > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the room nobody came to is still open"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    hall.stop().await;
}

#[tokio::test]
async fn p_challenge_reaches_a_player_who_signs_in_while_it_is_open() {
    let hall = TestHall::start().await;
    let mut ana = account(&hall, "ana").await;
    let bo = account(&hall, "bo").await;
    let (token, bo_id) = (bo.token.clone(), bo.player_id);
    bo.close().await;
    let id = challenge(&mut ana, bo_id, "jungle", json!({})).await;
    // Back with the saved token: the challenge follows the sign-in's answer.
    let mut back = hall.client().await;
    let auth = back.send(json!({"type": "auth", "token": token})).await;
    let first = back.next().await;
    assert_eq!(first["id"], json!(auth), "the answer first: {first}");
    assert_eq!(first["type"], "ack");
    let seen = back.next().await;
    assert_eq!(seen["type"], "challenge", "{seen}");
    assert_eq!(seen["challenge"]["id"], json!(id));
    assert!(seen["challenge"]["expires_in_ms"].as_u64().unwrap() <= 60_000);
    back.ok(json!({"type": "accept_challenge", "challenge": id}))
        .await;
    sit(&mut back, &id).await;
    sit(&mut ana, &id).await;
    // Ana's arrival starts the game: Bo, there already, is told (Ana's join brings it).
    back.event("game_started").await;
    hall.stop().await;
}

#[tokio::test]
async fn p_challenge_flood_and_bad_challenges_are_refused_and_change_nothing() {
    let hall = TestHall::start().await;
    let mut ana = account(&hall, "ana").await;
    let mut bo = account(&hall, "bo").await;
    let gus = hall.guest("gus").await;
    let to = bo.player_id;
    let refusals = [
        (
            json!({"player": ana.player_id, "game": "jungle"}),
            "invalid",
        ),
        (json!({"player": 999_999, "game": "jungle"}), "no_player"),
        (
            json!({"player": gus.player_id, "game": "jungle"}),
            "forbidden",
        ),
        (
            json!({"player": to, "game": "jungle", "options": {"level": 99}}),
            "invalid",
        ),
        (
            json!({"player": to, "game": "jungle", "options": 3}),
            "invalid",
        ),
        (
            json!({"player": to, "game": "jungle", "seats": [{"bot": "easy"}]}),
            "invalid",
        ),
        (
            json!({"player": to, "game": "flight", "seats": [{"bot": "genius"}]}),
            "invalid",
        ),
        (
            json!({"player": to, "game": "flight", "seats": [{"player": to}]}),
            "invalid",
        ),
        (
            json!({"player": to, "game": "flight", "options": {"seats": 4}}),
            "invalid",
        ),
        (json!({"player": to, "game": "chess"}), "bad_message"),
    ];
    for (mut command, code) in refusals {
        command["type"] = json!("challenge");
        ana.fails(command, code).await;
    }
    // A player with no name yet cannot challenge either.
    let mut nobody = hall.client().await;
    nobody
        .fails(
            json!({"type": "challenge", "player": to, "game": "jungle"}),
            "unauthenticated",
        )
        .await;

    // Three open at once; the fourth is a flood, refused until one is answered.
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(challenge(&mut ana, bo.player_id, "jungle", json!({})).await);
    }
    let refused = ana
        .fails(
            json!({"type": "challenge", "player": to, "game": "jungle"}),
            "rate_limited",
        )
        .await;
    assert!(
        refused["message"].as_str().unwrap().contains("at most 3"),
        "{refused}"
    );
    // Bo was told of the three, and of nothing else.
    for id in &ids {
        challenged(&mut bo, id).await;
    }
    let pending = bo.inbox.iter().filter(|v| v["type"] == "challenge").count();
    assert_eq!(pending, 0, "{:?}", bo.inbox);
    bo.ok(json!({"type": "decline_challenge", "challenge": ids[0]}))
        .await;
    challenge(&mut ana, bo.player_id, "jungle", json!({})).await;
    hall.stop().await;
}

/// P-CHALLENGE: a flight challenge of three seats sent without options (as the page sends it)
/// makes a table of three, and the game starts as soon as every party has sat down: nobody
/// presses Ready.
#[tokio::test]
async fn p_challenge_of_three_flight_seats_without_options_starts_a_table_of_three_on_accept() {
    let hall = TestHall::start().await;
    let mut ana = account(&hall, "ana").await;
    let mut bo = account(&hall, "bo").await;
    let seats = json!([{"bot": "random"}]);
    let id = challenge(&mut ana, bo.player_id, "flight", json!({"seats": seats})).await;
    let seen = challenged(&mut bo, &id).await;
    assert_eq!(seen["options"]["seats"], 3, "{seen}");
    bo.ok(json!({"type": "accept_challenge", "challenge": id}))
        .await;
    sit(&mut ana, &id).await;
    // One party sat: the game waits for the other.
    let snapshot = ana.wait_for(|v| v["type"] == "snapshot").await;
    assert_eq!(snapshot["state"]["seats"].as_array().unwrap().len(), 3);
    assert_eq!(snapshot["state"]["status"], "waiting", "{snapshot}");
    sit(&mut bo, &id).await;
    let started = ana.event("game_started").await;
    assert!(
        ana.inbox
            .iter()
            .chain(bo.inbox.iter())
            .all(|v| v["type"] != "error"),
        "{started}"
    );
    hall.stop().await;
}

/// P-CHALLENGE: each player chooses who may challenge them — everyone, registered players, or
/// nobody — and a refusal is `challenge_refused`, which changes nothing.
#[tokio::test]
async fn p_challenge_settings_say_who_may_challenge_a_player() {
    let hall = TestHall::start().await;
    let mut ana = account(&hall, "ana").await;
    let mut bo = account(&hall, "bo").await;
    let mut gus = hall.guest("gus").await;
    let jungle = |to: Option<i64>| json!({"type": "challenge", "player": to, "game": "jungle"});
    let settings = bo.ok(json!({"type": "challenge_settings"})).await;
    assert_eq!(settings, json!({"challenges": "everyone", "blocked": []}));
    gus.ok(jungle(bo.player_id)).await;

    let set = bo
        .ok(json!({"type": "set_challenge_policy", "challenges": "registered"}))
        .await;
    assert_eq!(set["challenges"], "registered", "{set}");
    let refused = gus.fails(jungle(bo.player_id), "challenge_refused").await;
    assert!(
        refused["message"].as_str().unwrap().contains("bo"),
        "{refused}"
    );
    let id = challenge(&mut ana, bo.player_id, "jungle", json!({})).await;
    challenged(&mut bo, &id).await;

    bo.ok(json!({"type": "set_challenge_policy", "challenges": "nobody"}))
        .await;
    ana.fails(jungle(bo.player_id), "challenge_refused").await;
    // The setting is kept: a new connection reads it back.
    let (mut bo2, _) = again(&hall, &bo).await;
    let kept = bo2.ok(json!({"type": "challenge_settings"})).await;
    assert_eq!(kept["challenges"], "nobody", "{kept}");
    bo2.fails(
        json!({"type": "set_challenge_policy", "challenges": "friends"}),
        "bad_message",
    )
    .await;
    let mut nobody = hall.client().await;
    nobody
        .fails(json!({"type": "challenge_settings"}), "unauthenticated")
        .await;
    hall.stop().await;
}

/// P-CHALLENGE: a block stops challenges either way (the blocked player is not told why),
/// keeps the two apart in quick match, and is taken back by `unblock`.
#[tokio::test]
async fn p_challenge_a_block_stops_challenges_either_way_and_quick_match_together() {
    let hall = TestHall::start().await;
    let mut ana = account(&hall, "ana").await;
    let mut bo = account(&hall, "bo").await;
    let mut cy = account(&hall, "cy").await;
    let jungle = |to: Option<i64>| json!({"type": "challenge", "player": to, "game": "jungle"});
    let blocked = ana
        .ok(json!({"type": "block", "player": bo.player_id}))
        .await;
    assert_eq!(
        blocked["blocked"][0]["id"],
        json!(bo.player_id),
        "{blocked}"
    );
    // Twice is one block; oneself and nobody are refused.
    let again_blocked = ana
        .ok(json!({"type": "block", "player": bo.player_id}))
        .await;
    assert_eq!(again_blocked["blocked"].as_array().unwrap().len(), 1);
    ana.fails(json!({"type": "block", "player": ana.player_id}), "invalid")
        .await;
    ana.fails(json!({"type": "block", "player": 999_999}), "no_player")
        .await;

    let refused = bo.fails(jungle(ana.player_id), "challenge_refused").await;
    assert!(
        !refused["message"].as_str().unwrap().contains("block"),
        "the blocked player is not told: {refused}"
    );
    ana.fails(jungle(bo.player_id), "challenge_refused").await;
    challenge(&mut cy, ana.player_id, "jungle", json!({})).await;

    // Quick match: Ana waits in a room of her own; Bo is not put with her but in a room of
    // his own; Cy, blocked by nobody, joins one of the two.
    let waiting = ana
        .ok(json!({"type": "quick_match", "game": "jungle"}))
        .await;
    let room = waiting["room"].as_str().unwrap().to_owned();
    let bo_match = bo
        .ok(json!({"type": "quick_match", "game": "jungle"}))
        .await;
    assert_ne!(bo_match["room"], json!(room), "{bo_match}");
    assert_eq!(bo_match["seat"], 0, "a room of his own: {bo_match}");
    let cy_match = cy
        .ok(json!({"type": "quick_match", "game": "jungle"}))
        .await;
    assert_eq!(cy_match["created"], false, "{cy_match}");
    assert!(
        cy_match["room"] == json!(room) || cy_match["room"] == bo_match["room"],
        "{cy_match}"
    );

    let unblocked = ana
        .ok(json!({"type": "unblock", "player": bo.player_id}))
        .await;
    assert_eq!(unblocked["blocked"], json!([]), "{unblocked}");
    challenge(&mut bo, ana.player_id, "jungle", json!({})).await;
    hall.stop().await;
}

/// P-CHALLENGE: at most 3 open challenges wait for one player, from however many challengers;
/// the challenger's every page is told of what they sent (also on a later sign-in), with which
/// of the challenged are connected, and every party of each acceptance.
#[tokio::test]
async fn p_challenge_three_wait_for_one_player_and_the_challenger_sees_them_pending() {
    let hall = TestHall::start().await;
    let mut bo = account(&hall, "bo").await;
    let mut challengers = Vec::new();
    for name in ["ana", "cy", "di", "ed"] {
        challengers.push(account(&hall, name).await);
    }
    let mut ids = Vec::new();
    for client in challengers.iter_mut().take(3) {
        ids.push(challenge(client, bo.player_id, "jungle", json!({})).await);
    }
    let fourth = challengers[3]
        .fails(
            json!({"type": "challenge", "player": bo.player_id, "game": "jungle"}),
            "challenge_refused",
        )
        .await;
    assert!(
        fourth["message"].as_str().unwrap().contains("3 challenges"),
        "{fourth}"
    );
    bo.ok(json!({"type": "decline_challenge", "challenge": ids[0]}))
        .await;
    challenge(&mut challengers[3], bo.player_id, "jungle", json!({})).await;

    // Cy's open challenge: sent to Cy's other pages, shown with Bo online.
    let cy = &mut challengers[1];
    let id = ids[1].clone();
    let sent = cy
        .wait_for(|v| v["type"] == "challenge_sent" && v["challenge"]["id"] == json!(id))
        .await;
    assert_eq!(sent["challenge"]["online"], json!([bo.player_id]), "{sent}");
    let (mut cy_again, _) = again(&hall, cy).await;
    let pending = cy_again
        .wait_for(|v| v["type"] == "challenge_sent" && v["challenge"]["id"] == json!(id))
        .await;
    assert_eq!(pending["challenge"]["from"]["name"], "cy", "{pending}");
    hall.stop().await;
}

/// P-CHALLENGE: every party is told when one of several challenged players accepts.
#[tokio::test]
async fn p_challenge_each_acceptance_is_told_to_every_party() {
    let hall = TestHall::start().await;
    let mut ana = account(&hall, "ana").await;
    let mut bo = account(&hall, "bo").await;
    let mut cy = account(&hall, "cy").await;
    let seats = json!([{"player": cy.player_id}]);
    let id = challenge(&mut ana, bo.player_id, "flight", json!({"seats": seats})).await;
    challenged(&mut bo, &id).await;
    bo.ok(json!({"type": "accept_challenge", "challenge": id}))
        .await;
    for client in [&mut ana, &mut cy] {
        let told = client.wait_for(|v| v["type"] == "challenge_accepted").await;
        assert_eq!(told["challenge"], json!(id));
        assert_eq!(told["player"]["name"], "bo", "{told}");
    }
    let seen = challenged(&mut cy, &id).await;
    assert_eq!(
        seen["accepted"],
        json!([]),
        "sent before Bo accepted: {seen}"
    );
    hall.stop().await;
}

/// P-CHALLENGE: whom to challenge — the registered players connected now, by name, the asker
/// left out, guests and those gone not listed, each saying whether they sit in a room.
#[tokio::test]
async fn p_challenge_players_online_lists_whom_one_may_challenge() {
    let hall = TestHall::start().await;
    let mut zed = account(&hall, "zed").await;
    let mut ana = account(&hall, "ana").await;
    let bo = account(&hall, "bo").await;
    let _gus = hall.guest("gus").await;
    let names = |v: &Value| -> Vec<(String, bool)> {
        v["online"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                (
                    o["player"]["name"].as_str().unwrap().to_owned(),
                    o["seated"] == true,
                )
            })
            .collect()
    };
    zed.create("jungle", json!({})).await;
    let listed = ana.ok(json!({"type": "players_online"})).await;
    assert_eq!(
        names(&listed),
        [("bo".to_owned(), false), ("zed".to_owned(), true)],
        "{listed}"
    );
    assert_eq!(listed["total_online"], 2);
    let one = ana.ok(json!({"type": "players_online", "limit": 1})).await;
    assert_eq!(names(&one), [("bo".to_owned(), false)], "{one}");
    assert_eq!(one["total_online"], 2);
    // Bo goes: no longer listed once the hall has let the connection go.
    bo.close().await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let listed = ana.ok(json!({"type": "players_online"})).await;
        if names(&listed) == [("zed".to_owned(), true)] {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{listed}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut nobody = hall.client().await;
    nobody
        .fails(json!({"type": "players_online"}), "unauthenticated")
        .await;
    hall.stop().await;
}
