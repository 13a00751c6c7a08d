//! Connections. One address cannot take every socket, the hall refuses
//! cleanly (HTTP 503) when full while `/health` still answers, and a silent WebSocket is
//! closed while one that answers pings stays.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::time::Duration;

use common::TestHall;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::{Error, Message};

/// A hall with these limits changed from the test settings.
async fn hall_with(change: impl FnOnce(&mut hangar_hall::Limits)) -> TestHall {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut config = common::test_config(common::sqlite_url(&dir));
    change(&mut config.limits);
    TestHall::with(dir, config).await
}

/// The HTTP status a WebSocket upgrade was refused with, or `None` if it was accepted.
async fn refused_with(hall: &TestHall) -> Option<u16> {
    match connect_async(format!("ws://{}/ws", hall.addr)).await {
        Ok(_) => None,
        Err(Error::Http(response)) => Some(response.status().as_u16()),
        Err(e) => panic!("unexpected failure: {e}"),
    }
}

/// Polls until `f` gives true, for at most the test wait.
async fn eventually<F: std::future::Future<Output = bool>>(mut f: impl FnMut() -> F) -> bool {
    let deadline = tokio::time::Instant::now() + common::WAIT;
    while tokio::time::Instant::now() < deadline {
        if f().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_at_most_its_cap_of_connections() {
    let hall = hall_with(|l| l.max_connections_per_address = 3).await;
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(hall.client().await);
    }
    assert_eq!(refused_with(&hall).await, Some(429));
    let (status, health) = hall.get("/health").await;
    assert_eq!((status, health["connections"].as_u64()), (200, Some(3)));
    // A place comes back when a connection closes.
    held.pop().unwrap().close().await;
    assert!(eventually(|| async { hall.hall.connection_count() == 2 }).await);
    assert_eq!(refused_with(&hall).await, None);
    // The held connections were not hurt.
    held[0].ok(json!({"type": "ping"})).await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_hall_refuses_with_503_and_health_still_answers() {
    let hall = hall_with(|l| l.max_connections = 4).await;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(hall.client().await);
    }
    for _ in 0..3 {
        assert_eq!(refused_with(&hall).await, Some(503));
    }
    let (status, health) = hall.get("/health").await;
    assert_eq!(status, 200);
    assert_eq!(health["connections"], 4);
    held[3].ok(json!({"type": "ping"})).await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_socket_is_closed_and_one_answering_pings_stays() {
    let idle = Duration::from_millis(600);
    let hall = hall_with(|l| l.idle_timeout = idle).await;
    let url = format!("ws://{}/ws", hall.addr);
    let (mut silent, _) = connect_async(&url).await.unwrap();
    let (mut alive, _) = connect_async(&url).await.unwrap();
    // The live client reads (tungstenite answers each ping with a pong) but sends nothing,
    // until told to stop: it is read without a gap until the test speaks on it.
    let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
    let reader = tokio::spawn(async move {
        let mut pings = 0;
        loop {
            tokio::select! {
                _ = &mut stopped => break,
                message = alive.next() => {
                    let message = message.expect("the live socket stays open").unwrap();
                    if message.is_ping() {
                        pings += 1;
                    }
                    assert!(!message.is_close(), "a client answering pings was closed");
                }
            }
        }
        (alive, pings)
    });
    // The silent client reads nothing for four idle timeouts, so it answers no ping.
    tokio::time::sleep(idle * 4).await;
    let mut close = None;
    while let Ok(Some(Ok(message))) = tokio::time::timeout(common::WAIT, silent.next()).await {
        if let Message::Close(frame) = message {
            close = frame;
        }
    }
    let close = close.expect("the silent socket got a close frame");
    assert_eq!(u16::from(close.code), 1001);
    stop.send(()).unwrap();
    let (mut alive, pings) = reader.await.unwrap();
    assert!(pings > 0, "the server pings a quiet socket");
    alive
        .send(Message::text(json!({"type": "ping", "id": 1}).to_string()))
        .await
        .unwrap();
    let answer = loop {
        match alive.next().await {
            Some(Ok(Message::Text(text))) => break text,
            Some(Ok(_)) => continue,
            other => panic!("the live socket was lost: {other:?}"),
        }
    };
    assert!(answer.contains("\"ack\""), "{answer}");
    assert!(eventually(|| async { hall.hall.connection_count() == 1 }).await);
    hall.stop().await;
}
