//! P-ARENA in cluster mode: an arena runs on one node, its players play through another, and
//! it survives the kill -9 of its node with its standings. Two `hangar serve --cluster` nodes
//! on PostgreSQL and a real `nats-server`; needs HANGAR_TEST_POSTGRES_URL and `nats-server`
//! (required under CI; elsewhere the test says what is missing and returns).
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::hall_common;

use std::time::{Duration, Instant};

use futures_util::SinkExt;
use hall_common::cluster::{cluster_parts, node};
use hall_common::{Client, WAIT, admin_ok, closed, guest};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// Sends a command and returns its answer frame, ack or error.
async fn answer(c: &mut Client, mut command: Value) -> Value {
    c.id += 1;
    command["id"] = json!(c.id);
    c.ws.send(Message::text(command.to_string())).await.unwrap();
    let id = c.id;
    c.wait_for(move |v| v["id"] == id).await
}

/// Sends `command` until it is acknowledged (the arena may be on its way to another node):
/// its result.
async fn ok_eventually(c: &mut Client, command: Value) -> Value {
    let deadline = Instant::now() + WAIT;
    loop {
        let frame = answer(c, command.clone()).await;
        if frame["type"] == "ack" {
            return frame["result"].clone();
        }
        assert!(Instant::now() < deadline, "{command} → {frame}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Waits until the node of `c` lists arena `id`.
async fn listed(c: &mut Client, id: i64) -> Value {
    let deadline = Instant::now() + WAIT;
    loop {
        let list = c.ok(json!({"type": "arenas"})).await;
        if let Some(arena) = list["arenas"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["id"] == id)
        {
            return arena.clone();
        }
        assert!(
            Instant::now() < deadline,
            "arena {id} is never listed: {list}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The room of the client's next game of arena `id` (the arena seats the player there).
async fn next_game(c: &mut Client, id: i64) -> String {
    let game = c
        .wait_for(|v| v["type"] == "arena_game" && v["arena"] == id)
        .await;
    let room = game["room"].as_str().unwrap().to_owned();
    c.room = room.clone();
    c.seat = game["seat"].as_u64().unwrap();
    room
}

/// Waits until the client's arena game runs: the first seated sees it start, the second is
/// sent the room with it started.
async fn playing(c: &mut Client) {
    c.wait_for(|v| {
        v["event"]["kind"] == "game_started"
            || (v["type"] == "snapshot" && v["state"]["status"] == "playing")
    })
    .await;
}

/// Waits for a table of arena `id` whose own line of the client satisfies `pred`.
async fn my_line(c: &mut Client, pred: impl Fn(&Value) -> bool) -> Value {
    c.wait_for(|v| v["type"] == "arena" && pred(&v["me"])).await["me"].clone()
}

/// The client's line in the standings `table` (an `arena_subscribe` answer).
fn line_of<'a>(table: &'a Value, name: &str) -> &'a Value {
    table["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|line| line["name"] == name)
        .unwrap_or_else(|| panic!("{name} is not in {table}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_runs_on_one_node_plays_through_another_and_survives_its_kill() {
    let Some((nats, database)) = cluster_parts().await else {
        return;
    };
    // The arena's node is the one that runs when it is made.
    let owner = node(&nats, &database).await;
    let made = admin_ok(
        &database,
        &[
            "arena",
            "create",
            "--game",
            "jungle",
            "--start",
            "now",
            "--minutes",
            "30",
            "--turn-seconds",
            "120",
            "--name",
            "Cluster blitz",
        ],
    );
    let arena = made["arena"].as_i64().unwrap();
    let mut watcher = guest(owner.port, "watcher").await;
    listed(&mut watcher, arena).await;
    drop(watcher);

    // Both players are on the other node: the arena reaches them through it.
    let other = node(&nats, &database).await;
    let mut a = guest(other.port, "ana").await;
    let mut b = guest(other.port, "bo").await;
    let summary = listed(&mut a, arena).await;
    assert_eq!(
        (summary["name"].as_str(), summary["status"].as_str()),
        (Some("Cluster blitz"), Some("running")),
        "{summary}"
    );
    for c in [&mut a, &mut b] {
        c.ok(json!({"type": "arena_join", "arena": arena})).await;
    }
    let first = next_game(&mut a, arena).await;
    assert_eq!(next_game(&mut b, arena).await, first, "paired together");
    for c in [&mut a, &mut b] {
        playing(c).await;
    }
    // Ana resigns through her node; Bo wins 2 points, seen through his.
    a.ok(json!({"type": "resign", "room": first})).await;
    let line = my_line(&mut b, |me| me["games"] == 1).await;
    assert_eq!(line["points"], 2, "{line}");

    // Paired again at once; the second game runs when the arena's node dies.
    let second = next_game(&mut a, arena).await;
    assert_eq!(next_game(&mut b, arena).await, second);
    assert_ne!(second, first);
    for c in [&mut a, &mut b] {
        playing(c).await;
    }
    owner.kill();
    // The node left tells the connections that reached the dead node to come back (1012)
    // once it has taken its rooms and arenas over.
    for c in [&mut a, &mut b] {
        assert_eq!(closed(c).await.0, 1012);
    }
    let mut back = Vec::new();
    for old in [&a, &b] {
        let mut c = Client::connect(other.port).await;
        c.ok(json!({"type": "auth", "token": old.token})).await;
        c.token = old.token.clone();
        back.push(c);
    }
    let [mut a, mut b]: [Client; 2] = back.try_into().ok().unwrap();

    // The standings survived, and the arena runs here now.
    let table = ok_eventually(&mut a, json!({"type": "arena_subscribe", "arena": arena})).await;
    assert_eq!(table["arena"]["status"], "running", "{table}");
    assert_eq!(line_of(&table, "bo")["points"], 2, "{table}");
    assert_eq!(line_of(&table, "ana")["points"], 0, "{table}");
    assert_eq!(table["me"]["name"], "ana");
    b.ok(json!({"type": "arena_subscribe", "arena": arena}))
        .await;

    // The game that ran through the kill is rebuilt here and counts when it ends.
    let joined = ok_eventually(&mut b, json!({"type": "join_room", "room": second})).await;
    assert_eq!(joined["seat"].as_u64(), Some(b.seat), "{joined}");
    b.ok(json!({"type": "resign", "room": second})).await;
    for c in [&mut a, &mut b] {
        let line = my_line(c, |me| me["games"] == 2).await;
        assert_eq!(line["points"], 2, "each won once and lost once: {line}");
    }
}
