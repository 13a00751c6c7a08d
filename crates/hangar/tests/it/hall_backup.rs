//! `hangar backup`: a copy of the SQLite database taken while `hangar serve` runs a game is a
//! database of its own, holding every finished game; a PostgreSQL URL and an existing target
//! are refused with a clear message.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::hall_common;

use std::process::Command;

use hall_common::{Server, start_game};
use hangar_hall::Store;
use serde_json::json;

fn backup(database: &str, out: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hangar"))
        .args(["backup", "--database", database])
        .arg(out)
        .output()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_serving_holds_the_finished_games() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("hall.db").display().to_string();
    let server = Server::start(&db, &[]).await;
    // A jungle game ended by a resignation, and a second game still running.
    let (mut players, room, _) = start_game(server.port, "jungle", json!({})).await;
    players[1].ok(json!({"type": "resign", "room": room})).await;
    let over = players[0]
        .wait_for(|v| v["event"]["kind"] == "game_over")
        .await;
    let finished = over["event"]["result"]["game_id"].as_i64().unwrap();
    let _running = start_game(server.port, "flight", json!({"seats": 2})).await;

    let out = dir.path().join("copy.db");
    let done = backup(&db, &out);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let store = Store::open(&out.display().to_string()).await.unwrap();
    let game = store
        .game(finished)
        .await
        .unwrap()
        .expect("the finished game is in the copy");
    assert_eq!(game.status, "finished");
    assert!(game.result.unwrap().contains("resigned"));
    assert_eq!(
        store.running_games().await.unwrap().len(),
        1,
        "and the running one"
    );
    store.close().await;

    // The same target again, and a PostgreSQL URL: refused, saying why.
    let again = backup(&db, &out);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists already"));
    let pg = backup("postgres://u@localhost/db", &dir.path().join("pg.db"));
    assert!(!pg.status.success());
    assert!(String::from_utf8_lossy(&pg.stderr).contains("pg_dump"));
    server.kill();
}
