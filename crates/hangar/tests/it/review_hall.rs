//! P-REVIEW: the command line and the hall agree. A real `hangar serve` reviews a finished
//! Jungle game and a finished flight game (`GET /api/games/{id}/review`), and the real
//! `hangar review RECORD.json --json` on the record that hall serves prints the same review.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::cli_common;
use crate::hall_common;

use std::time::{Duration, Instant};

use cli_common::hangar;
use hall_common::{PLAYED, Server, http_get, play, start_game};
use serde_json::{Value, json};

/// The hall's review of game `id`, once computed (202 answers until then).
async fn hall_review(port: u16, id: i64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (status, body) = http_get(port, &format!("/api/games/{id}/review")).await;
        match status {
            200 => return body,
            202 => assert!(
                Instant::now() < deadline,
                "the review takes too long: {body}"
            ),
            _ => panic!("review of game {id}: {status} {body}"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `hangar review RECORD --json` on the record the hall serves for game `id`.
async fn cli_review(port: u16, id: i64) -> Value {
    let (status, record) = http_get(port, &format!("/api/games/{id}")).await;
    assert_eq!(status, 200, "{record}");
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), record.to_string()).unwrap();
    let output = hangar(&["review", file.path().to_str().unwrap(), "--json"], "");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Both sides' numbers are read by the same parser from the same shortest decimals.
    serde_json::from_slice(&output.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_review_the_cli_and_the_hall_give_the_same_review_of_a_finished_game() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("review.db").display().to_string();
    let server = Server::start(&database, PLAYED).await;
    let port = server.port;

    // Jungle: six plies, then a resignation.
    let (mut players, room, game) = start_game(port, "jungle", json!({})).await;
    assert!(play(&mut players, &room, game, 6).await.is_none());
    players[0].ok(json!({"type": "resign", "room": room})).await;
    let over = players[1]
        .wait_for(|v| v["event"]["kind"] == "game_over")
        .await;
    let jungle = over["event"]["result"]["game_id"].as_i64().unwrap();

    // Flight: two planes each, played to the end.
    let (mut players, room, game) =
        start_game(port, "flight", json!({"seats": 2, "planes": 2})).await;
    let result = play(&mut players, &room, game, 100_000).await.unwrap();
    let flight = result["game_id"].as_i64().unwrap();

    for (id, kind) in [(jungle, "jungle"), (flight, "flight")] {
        let hall = hall_review(port, id).await;
        assert_eq!(hall["game"], kind);
        assert_eq!(hall["game_id"], json!(id));
        assert_eq!(hall, cli_review(port, id).await, "game {id}");
    }
    drop(server);
}
