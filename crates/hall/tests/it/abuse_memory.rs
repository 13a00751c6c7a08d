//! Memory a client makes the hall keep comes back. Answers remembered for
//! repeated ids are bounded per (player, client) and dropped after the last connection of
//! that client closed and a resume window passed; the client string itself is bounded.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::time::Duration;

use common::{Client, TestHall};
use serde_json::json;

/// A hall whose answer memories are kept `window` after their last connection closed.
async fn hall_with_window(window: Duration) -> TestHall {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut config = common::test_config(common::sqlite_url(&dir));
    config.limits.answer_window = window;
    TestHall::with(dir, config).await
}

/// Polls `f` until it is true, failing after the test wait.
async fn eventually(mut f: impl FnMut() -> bool) -> bool {
    let deadline = tokio::time::Instant::now() + common::WAIT;
    while tokio::time::Instant::now() < deadline {
        if f() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answer_memories_of_closed_connections_are_dropped_after_the_window() {
    let hall = hall_with_window(Duration::from_millis(200)).await;
    let mut clients = Vec::new();
    for n in 0..20 {
        let mut c: Client = hall.client().await;
        c.ok(json!({"type": "guest", "name": format!("g{n}"), "client": format!("fresh-{n}")}))
            .await;
        c.create("flight", json!({})).await;
        clients.push(c);
    }
    assert_eq!(
        hall.hall.answers.size().0,
        20,
        "one memory per signed-in client"
    );
    for c in clients {
        c.close().await;
    }
    assert!(
        eventually(|| hall.hall.answers.size() == (0, 0)).await,
        "memories left after every connection closed: {:?}",
        hall.hall.answers.size()
    );
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeated_id_is_still_answered_once_after_a_reconnect_within_the_window() {
    let hall = hall_with_window(Duration::from_secs(600)).await;
    let mut c = hall.client().await;
    let token = c
        .ok(json!({"type": "guest", "name": "ana", "client": "page-1"}))
        .await["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let create = json!({"type": "create_room", "id": 77, "game": "flight", "options": {}});
    c.send_text(&create.to_string()).await;
    let first = c.answer(77).await;
    assert_eq!(first["type"], "ack");
    c.close().await;

    let mut again = hall.client().await;
    again
        .ok(json!({"type": "auth", "token": token, "client": "page-1"}))
        .await;
    again.send_text(&create.to_string()).await;
    let repeat = again.answer(77).await;
    assert_eq!(repeat["repeat"], true, "{repeat}");
    assert_eq!(repeat["result"]["room"], first["result"]["room"]);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_lists_are_not_remembered() {
    let hall = TestHall::start().await;
    let mut c = hall.client().await;
    c.ok(json!({"type": "guest", "name": "ana", "client": "page-1"}))
        .await;
    let (_, before) = hall.hall.answers.size();
    for _ in 0..40 {
        c.ok(json!({"type": "leaderboard", "limit": 100})).await;
        c.ok(json!({"type": "my_games", "limit": 100})).await;
    }
    assert_eq!(hall.hall.answers.size().1, before, "reads are not kept");
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_string_is_bounded() {
    let hall = TestHall::start().await;
    let mut c = hall.client().await;
    c.fails(
        json!({"type": "guest", "name": "ana", "client": "c".repeat(65)}),
        "invalid",
    )
    .await;
    assert_eq!(hall.hall.answers.size().0, 0);
    c.ok(json!({"type": "guest", "name": "ana", "client": "c".repeat(64)}))
        .await;
    hall.stop().await;
}
