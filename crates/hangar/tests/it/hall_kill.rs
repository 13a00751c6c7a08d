//! P-DURABLE at the busiest moment: a kill right after an acknowledgement, while bot games
//! stream and a scored game has just ended, loses neither that game, its score changes nor the
//! acknowledged action (on SQLite, and on PostgreSQL when HANGAR_TEST_POSTGRES_URL is set).
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::hall_common;

use futures_util::StreamExt;
use hall_common::{
    Client, PLAYED, Server, WAIT, databases, decision, guest, http_get, play, rejoin,
    snapshot_game, start_game,
};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// A person on auto-play with three random bots: a practice game that streams actions (and
/// writes) on its own until it ends.
async fn bot_stream(port: u16, name: &str) -> Client {
    let mut s = guest(port, name).await;
    let created = s
        .ok(json!({"type": "create_room", "game": "flight", "options": {"seats": 4}}))
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    for seat in 1..4 {
        s.ok(json!({"type": "add_bot", "room": room, "seat": seat, "bot": "random"}))
            .await;
    }
    s.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    s.wait_for(|v| v["event"]["kind"] == "game_started").await;
    s.ok(json!({"type": "autoplay", "room": room, "on": true}))
        .await;
    s.room = room;
    s
}

/// Reads what the killed server had sent `c` until the connection breaks; whether one of the
/// frames was the end of its game.
async fn saw_game_over(c: &mut Client) -> bool {
    if c.kept.iter().any(|v| v["event"]["kind"] == "game_over") {
        return true;
    }
    while let Ok(Some(Ok(m))) = tokio::time::timeout(WAIT, c.ws.next()).await {
        if let Message::Text(t) = m {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["event"]["kind"] == "game_over" {
                return true;
            }
        }
    }
    false
}

/// P-DURABLE ("no finished game or score change is lost", "every game goes on from its last
/// acknowledged action") at the busiest moment: two bot games stream, a scored game between two
/// people has just ended, and the server is killed right after it acknowledges a jungle move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_kill_9_right_after_an_ack_keeps_the_finished_game_scores_and_the_move() {
    let dir = tempfile::tempdir().unwrap();
    for database in databases(&dir).await {
        kill_right_after_an_ack(&database).await;
    }
}

async fn kill_right_after_an_ack(database: &str) {
    let server = Server::start(database, PLAYED).await;
    let port = server.port;
    // A jungle game between two people, a few plies in, waits for its next move.
    let (mut jungle, jungle_room, game) = start_game(port, "jungle", json!({})).await;
    assert!(play(&mut jungle, &jungle_room, game, 4).await.is_none());
    let before = snapshot_game(port, &jungle_room).await;
    let mut streams = vec![bot_stream(port, "s1").await, bot_stream(port, "s2").await];
    // A scored flight game: two people, both on auto-play, played to its end.
    let (mut duel, duel_room, _) =
        start_game(port, "flight", json!({"seats": 2, "planes": 2})).await;
    for p in &mut duel {
        p.ok(json!({"type": "autoplay", "room": duel_room, "on": true}))
            .await;
    }
    let over = duel[0]
        .wait_for(|v| v["event"]["kind"] == "game_over")
        .await;
    let result = over["event"]["result"].clone();
    assert_eq!(result["reason"], "finished");
    // At once: the next jungle move, acknowledged, then the kill.
    let (seat, command) = decision(&jungle_room, &before).unwrap();
    let mover = jungle.iter_mut().find(|p| p.seat == seat).unwrap();
    mover.ok(command.clone()).await;
    server.kill();
    let mut streaming = 0;
    for s in &mut streams {
        streaming += usize::from(!saw_game_over(s).await);
    }
    assert!(
        streaming > 0,
        "a bot game was still streaming at the kill ({database})"
    );

    let server = Server::start(database, PLAYED).await;
    let port = server.port;
    // The finished game is stored with its result, and verifies.
    let game_id = result["game_id"].as_i64().unwrap();
    let (status, record) = http_get(port, &format!("/api/games/{game_id}")).await;
    assert_eq!(status, 200, "the finished game survived ({database})");
    let stored = &record["result"];
    assert_eq!(
        stored["reason"], "finished",
        "the game is stored as finished ({database})"
    );
    let verified = hangar_games::record::verify(&record);
    assert!(
        verified.as_ref().is_ok_and(|v| v.over),
        "the record replays to the end ({database}): {verified:?}"
    );
    // Each person's score change survived: the score they sign in with is 1000 + delta (the
    // winner's is at least v = 50, the loser's unfinished plane).
    let players = result["players"].as_array().unwrap();
    assert!(
        players
            .iter()
            .any(|p| p["rank"] == 1 && p["delta"].as_i64().unwrap() >= 50)
    );
    for (seat, p) in duel.iter().enumerate() {
        let line = &result["players"][seat];
        assert_eq!(stored["players"][seat]["delta"], line["delta"]);
        let delta = line["delta"].as_i64().unwrap();
        let mut again = Client::connect(port).await;
        let me = again.ok(json!({"type": "auth", "token": p.token})).await;
        assert_eq!(
            me["player"]["score"].as_i64().unwrap(),
            1000 + delta,
            "seat {seat}'s score change survived ({database})"
        );
        assert_eq!(me["player"]["score"], line["score"]);
    }
    // The acknowledged move survived: the jungle game goes on from it.
    let (_jungle, after) = rejoin(port, &jungle).await;
    assert_eq!(
        after["last"], command["move"],
        "the acknowledged move is the last one played ({database})"
    );
    assert_eq!(
        after["plies"].as_u64().unwrap(),
        before["plies"].as_u64().unwrap() + 1,
        "the acknowledged move is kept ({database})"
    );
    server.kill();
}
