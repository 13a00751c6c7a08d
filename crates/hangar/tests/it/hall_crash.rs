//! P-DURABLE: the real `hangar serve` process is killed (SIGKILL) in the middle of a flight
//! game and a jungle game, restarted on the same database, and both games go on from their
//! last acknowledged action to the end; a room still waiting for its game is reopened with its
//! seats, bots and host. The kill at the busiest moment is in `hall_kill.rs`.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::hall_common;

use hall_common::{Client, PLAYED, Server, guest, play, rejoin, snapshot_game, start_game};
use serde_json::{Value, json};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_games_survive_kill_9_and_finish_after_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.db").display().to_string();
    let server = Server::start(&db, PLAYED).await;
    let port = server.port;

    let (mut flight, flight_room, game) =
        start_game(port, "flight", json!({"seats": 2, "planes": 2})).await;
    assert!(
        play(&mut flight, &flight_room, game, 30).await.is_none(),
        "still running"
    );
    let (mut jungle, jungle_room, game) = start_game(port, "jungle", json!({})).await;
    assert!(play(&mut jungle, &jungle_room, game, 6).await.is_none());
    let flight_before = snapshot_game(port, &flight_room).await;
    let jungle_before = snapshot_game(port, &jungle_room).await;

    server.kill();
    let server = Server::start(&db, PLAYED).await;
    let port = server.port;

    let (mut flight, game) = rejoin(port, &flight).await;
    assert_eq!(
        game, flight_before,
        "flight goes on from its last acknowledged action"
    );
    let (mut jungle, jungle_game) = rejoin(port, &jungle).await;
    assert_eq!(jungle_game, jungle_before, "jungle too");

    let flight_result = play(&mut flight, &flight_room, game, 5000)
        .await
        .expect("flight finishes");
    assert_eq!(flight_result["reason"], "finished");
    let jungle_result = play(&mut jungle, &jungle_room, jungle_game, 5000)
        .await
        .expect("jungle finishes");
    assert!(jungle_result["players"].is_array());
    for p in jungle_result["players"].as_array().unwrap() {
        assert_eq!(
            p["score"].as_i64().unwrap(),
            1000 + p["delta"].as_i64().unwrap()
        );
    }
    server.kill();
}

/// Signs in again with a kept token and sits down in the room the hall says the player is in.
async fn come_back(port: u16, token: &str, room: &str) -> (Client, Value) {
    let mut c = Client::connect(port).await;
    let me = c.ok(json!({"type": "auth", "token": token})).await;
    assert_eq!(
        me["rooms"],
        json!([room]),
        "the hall still seats the player"
    );
    let joined = c.ok(json!({"type": "join_room", "room": room})).await;
    (c, joined)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_waiting_rooms_survive_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("waiting.db").display().to_string();
    let server = Server::start(&db, &[]).await;
    let port = server.port;

    // a hosts a four-seat flight room with a bot; b sits and is ready; c sits.
    let mut a = guest(port, "a").await;
    let created = a
        .ok(json!({"type": "create_room", "game": "flight", "options": {"seats": 4}}))
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    a.ok(json!({"type": "add_bot", "room": room, "seat": 2, "bot": "random"}))
        .await;
    let mut b = guest(port, "b").await;
    assert_eq!(
        b.ok(json!({"type": "join_room", "room": room})).await["seat"],
        1
    );
    b.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    let mut c = guest(port, "c").await;
    assert_eq!(
        c.ok(json!({"type": "join_room", "room": room})).await["seat"],
        3
    );

    server.kill();
    // A short reconnection grace, so that c's held seat is freed within the test.
    let server = Server::start(&db, &["--reconnect-seconds", "4"]).await;
    let port = server.port;

    let (mut a2, joined) = come_back(port, &a.token, &room).await;
    assert_eq!(joined["seat"], 0, "a sits where a sat");
    let snapshot = a2.wait_for(|v| v["type"] == "snapshot").await;
    assert_eq!(
        snapshot["state"]["options"]["turn_seconds"], 20,
        "P-ROOM: `hangar serve`'s default turn timer is 20 s"
    );
    let seats = &snapshot["state"]["seats"];
    assert_eq!(seats[1]["player"]["name"], "b", "b's seat is held");
    assert!(
        seats[1]["away_until"].is_i64(),
        "b is away until a deadline"
    );
    assert_eq!(
        seats[1]["ready"], false,
        "ready is asked again after a restart"
    );
    assert_eq!(seats[2]["bot"], "random", "the bot sits again");
    assert_eq!(seats[3]["player"]["name"], "c");
    let (mut b2, joined) = come_back(port, &b.token, &room).await;
    assert_eq!(joined["seat"], 1, "b sits where b sat");

    // c does not come back: the seat is freed when the grace runs out, and a bot takes it.
    a2.wait_for(|v| v["event"]["kind"] == "left" && v["event"]["seat"] == 3)
        .await;
    a2.ok(json!({"type": "add_bot", "room": room, "seat": 3, "bot": "random"}))
        .await;
    a2.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    b2.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    a2.wait_for(|v| v["event"]["kind"] == "game_started").await;
    // The old connections were cut by the kill.
    drop((a, b, c));
    server.kill();
}
