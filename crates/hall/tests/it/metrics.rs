//! `/metrics` in the Prometheus text format: the figures an operator watches move with what
//! the hall does (games, actions, latencies, refused connections, gauges).
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use common::{TestHall, http_get_text};
use serde_json::json;

/// The value of the sample `name` (with its labels, as rendered), if present.
fn sample(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .find_map(|line| {
            line.strip_prefix(name)?
                .strip_prefix(' ')?
                .trim()
                .parse()
                .ok()
        })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_games_actions_and_latencies() {
    let hall = TestHall::start().await;
    let mut red = hall.guest("red").await;
    let code = red.create("jungle", json!({})).await;
    let mut yellow = hall.guest("yellow").await;
    yellow.join(&code).await;
    red.ready().await;
    yellow.ready().await;
    let started = red.event("game_started").await;
    let (mut first, mut second) = if red.seat == Some(0) {
        (red, yellow)
    } else {
        (yellow, red)
    };
    let mv = started["event"]["game"]["moves"][0].clone();
    first
        .ok(json!({"type": "move", "room": code, "move": mv}))
        .await;
    second.ok(json!({"type": "resign", "room": code})).await;
    first.event("game_over").await;

    let (status, text) = http_get_text(hall.addr, "/metrics").await;
    assert_eq!(status, 200);
    // Counters are shared by the halls of this test process: at least this hall's part.
    assert!(
        sample(&text, "hangar_games_started_total{game=\"jungle\"}").unwrap() >= 1.0,
        "{text}"
    );
    assert!(
        sample(
            &text,
            "hangar_games_finished_total{game=\"jungle\",practice=\"false\"}"
        )
        .unwrap()
            >= 1.0,
        "{text}"
    );
    assert!(
        sample(&text, "hangar_actions_stored_total").unwrap() >= 2.0,
        "{text}"
    );
    assert!(
        sample(&text, "hangar_ack_seconds_count").unwrap() >= 1.0,
        "{text}"
    );
    assert!(
        sample(&text, "hangar_commit_seconds_count").unwrap() >= 1.0,
        "{text}"
    );
    assert!(
        text.contains("hangar_ack_seconds_bucket{le=\"0.005\"}"),
        "{text}"
    );
    assert_eq!(sample(&text, "hangar_storage_healthy"), Some(1.0), "{text}");
    assert!(
        sample(&text, "hangar_connections").unwrap() >= 2.0,
        "{text}"
    );
    assert!(sample(&text, "hangar_rooms").unwrap() >= 1.0, "{text}");
    hall.stop().await;
}
