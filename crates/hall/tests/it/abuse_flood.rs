//! Floods. Every frame a client sends counts against its rate, WebSocket pings included; a
//! message over the rate or the size gets an error, and a client that keeps sending them is
//! closed (1008) after a few, while a well-behaved player on the same hall keeps its
//! connection and its answers.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use common::{Client, TestHall};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

type Socket = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

/// Refused messages a connection may send before it is closed, in these tests.
const REFUSALS: u32 = 5;

/// A hall with the protocol's rate limit (20/s, bursts of 40).
async fn limited_hall() -> TestHall {
    let dir = tempfile::tempdir().unwrap();
    let mut config = common::test_config(common::sqlite_url(&dir));
    config.messages_per_second = hangar_protocol::MESSAGES_PER_SECOND;
    config.message_burst = hangar_protocol::MESSAGE_BURST;
    config.limits.flood_refusals = REFUSALS;
    TestHall::with(dir, config).await
}

async fn raw_socket(hall: &TestHall) -> Socket {
    let (ws, _) = connect_async(format!("ws://{}/ws", hall.addr))
        .await
        .unwrap();
    ws
}

/// What a socket received until it closed: its text frames and its close frame.
async fn read_until_closed(ws: &mut Socket) -> (Vec<Value>, Option<CloseFrame>) {
    let mut texts = Vec::new();
    let read = async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Text(text))) => texts.push(serde_json::from_str(&text).unwrap()),
                Some(Ok(Message::Close(frame))) => return frame,
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return None,
            }
        }
    };
    let close = tokio::time::timeout(common::WAIT, read)
        .await
        .expect("the flooding socket is closed in time");
    (texts, close)
}

/// Counts the error codes among `frames`.
fn errors<'a>(frames: &'a [Value], code: &str) -> Vec<&'a Value> {
    frames
        .iter()
        .filter(|v| v["type"] == "error" && v["code"] == code)
        .collect()
}

/// A flood closes with 1008 and a reason.
fn assert_flood_close(close: Option<CloseFrame>) {
    let close = close.expect("a close frame");
    assert_eq!(u16::from(close.code), 1008, "{close:?}");
    assert!(close.reason.contains("flood"), "{close:?}");
}

/// A player who keeps to the limits is still connected and answered.
async fn still_served(player: &mut Client) {
    for _ in 0..3 {
        player.ok(json!({"type": "ping"})).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_flood_gets_a_few_errors_then_is_closed() {
    let hall = limited_hall().await;
    let mut player = hall.guest("calm").await;
    let mut flooder = raw_socket(&hall).await;
    for id in 0..300u64 {
        let ping = json!({"type": "ping", "id": id}).to_string();
        if flooder.send(Message::text(ping)).await.is_err() {
            break;
        }
    }
    let (frames, close) = read_until_closed(&mut flooder).await;
    assert_flood_close(close);
    let limited = errors(&frames, "rate_limited");
    assert!(
        !limited.is_empty() && limited.len() <= REFUSALS as usize,
        "a few rate_limited errors, not one per message: {}",
        limited.len()
    );
    // The refused commands are named by their ids.
    assert!(limited.iter().all(|e| e["id"].is_u64()), "{limited:?}");
    let acks = frames.iter().filter(|v| v["type"] == "ack").count();
    assert!(
        (40..300).contains(&acks),
        "the burst passes, the flood does not: {acks}"
    );
    still_served(&mut player).await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_pings_count_against_the_rate() {
    let hall = limited_hall().await;
    let mut player = hall.guest("calm").await;
    let mut flooder = raw_socket(&hall).await;
    for _ in 0..300 {
        if flooder
            .send(Message::Ping(Default::default()))
            .await
            .is_err()
        {
            break;
        }
    }
    // A command after the pings: answered only if the pings were not counted.
    let _ = flooder
        .send(Message::text(json!({"type": "ping", "id": 1}).to_string()))
        .await;
    let (frames, close) = read_until_closed(&mut flooder).await;
    assert!(
        frames.iter().all(|v| v["type"] != "ack"),
        "nothing answered after a ping flood: {frames:?}"
    );
    assert_flood_close(close);
    still_served(&mut player).await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_messages_get_a_few_errors_then_close() {
    let hall = limited_hall().await;
    let mut player = hall.guest("calm").await;
    let mut flooder = raw_socket(&hall).await;
    // 60 KB JSON arrays: under the hard frame limit, far over the message size.
    let big = format!("[{}0]", "0,".repeat(30_000));
    for _ in 0..30 {
        if flooder.send(Message::text(big.clone())).await.is_err() {
            break;
        }
    }
    let (frames, close) = read_until_closed(&mut flooder).await;
    assert_flood_close(close);
    let too_large = errors(&frames, "too_large");
    assert!(
        !too_large.is_empty() && too_large.len() <= REFUSALS as usize,
        "a few too_large errors: {}",
        too_large.len()
    );
    still_served(&mut player).await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_slipping_over_the_rate_once_is_not_closed() {
    let hall = limited_hall().await;
    let mut c = hall.client().await;
    // Two over the burst: refused, and forgiven.
    for id in 0..42u64 {
        c.send_text(&json!({"type": "ping", "id": id}).to_string())
            .await;
    }
    let mut limited = 0;
    for _ in 0..42 {
        let v = c.next().await;
        if v["code"] == "rate_limited" {
            limited += 1;
        }
    }
    assert!(limited <= 2, "{limited}");
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    c.ok(json!({"type": "ping"})).await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_flooders_queued_input_is_not_read() {
    let hall = limited_hall().await;
    let mut player = hall.guest("calm").await;
    let mut flooder = raw_socket(&hall).await;
    // The flooder writes and never reads: what it manages to write is what the hall read,
    // plus what the sockets' kernel buffers hold (a few MB on loopback).
    let big = format!("[{}0]", "0,".repeat(30_000));
    let mut written = 0_usize;
    let flood = async {
        while flooder.send(Message::text(big.clone())).await.is_ok() {
            written += big.len();
        }
    };
    // Until the hall has closed the connection (a write fails then): in the tests' time for
    // anything to happen, not a wall clock a loaded machine may miss; what the flooder could
    // write meanwhile is bounded below.
    let ended = tokio::time::timeout(common::WAIT, flood).await;
    assert!(ended.is_ok(), "the hall cut the flooder off");
    assert!(
        written < 32 << 20,
        "the hall stopped reading soon after closing: {} MB written",
        written >> 20
    );
    still_served(&mut player).await;
    hall.stop().await;
}
