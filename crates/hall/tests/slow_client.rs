//! A member that cannot keep up is disconnected, not forgotten (P-DISCONNECT): its
//! seat is held for the reconnection grace with auto-play, then freed, and the room closes
//! once everyone has gone. Its own test binary: it shrinks every outbox of the process.
#![allow(clippy::unwrap_used)] // tests fail loudly

mod common;

use std::time::Duration;

use common::{TestHall, WAIT, sqlite_url, test_config};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpSocket;
use tokio_tungstenite::client_async;
use tokio_tungstenite::tungstenite::Message;

type Raw = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// Sends a command with `id` on a raw connection and reads until its answer.
async fn call(ws: &mut Raw, mut command: Value, id: u64) -> Value {
    command["id"] = json!(id);
    ws.send(Message::text(command.to_string())).await.unwrap();
    loop {
        let frame = tokio::time::timeout(WAIT, ws.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        let Message::Text(text) = frame else { continue };
        let value: Value = serde_json::from_str(&text).unwrap();
        if value["id"] == id && (value["type"] == "ack" || value["type"] == "error") {
            assert_eq!(value["type"], "ack", "{command} answered {value}");
            return value;
        }
    }
}

/// P-DISCONNECT: a seated player whose connection stops reading while its room plays fast
/// is cut off and handled as a disconnection: others see it `away`, then `out` after the
/// grace (or the game ends first), and the room closes once the watcher has gone too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_disconnect_a_client_that_stops_reading_loses_its_seat_like_a_closed_socket() {
    // A few queued batches are "too far behind" here (instead of megabytes of buffers).
    hangar_hall::outbox::set_outbox_capacity(4);
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.reconnect_grace = Duration::from_millis(500);
    // Turns of 60 × 10 ms: the silent player's turns time out quickly.
    config.turn_unit = Duration::from_millis(10);
    // Bots a little slower than instant: the flood below fills the pipe while the game is on.
    config.bot_delay = Duration::from_millis(5);
    // Every event leaves at once: one queued batch per action for each member.
    config.broadcast_delay = Duration::ZERO;
    let hall = TestHall::with(dir, config).await;

    // The slow player's connection, with a tiny receive buffer.
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(2048).unwrap();
    let stream = socket.connect(hall.addr).await.unwrap();
    let (ws, _) = client_async(format!("ws://{}/ws", hall.addr), stream)
        .await
        .unwrap();
    let mut slow = ws;
    call(&mut slow, json!({"type": "guest", "name": "slow"}), 1).await;
    let created = call(
        &mut slow,
        json!({"type": "create_room", "game": "flight", "options": {"seats": 4, "planes": 4}}),
        2,
    )
    .await;
    let code = created["result"]["room"].as_str().unwrap().to_owned();
    for seat in 1..4 {
        let add = json!({"type": "add_bot", "room": code, "seat": seat, "bot": "random"});
        call(&mut slow, add, 10 + seat).await;
    }
    let mut watcher = hall.client().await;
    watcher.ok(json!({"type": "spectate", "room": code})).await;
    // From here on the slow player reads nothing: its turns time out, auto-play takes over
    // (P-AUTOPLAY) and the game plays itself, fast.
    let ready = json!({"type": "ready", "room": code, "ready": true, "id": 20});
    slow.send(Message::text(ready.to_string())).await.unwrap();
    // Its own unread answers fill the socket's buffers alongside the game's events (the
    // kernel's buffers would otherwise take a whole game's events).
    // The hall may cut the connection before the flood is all sent: then it stops.
    for id in 100..150_100 {
        let ping = json!({"type": "ping", "id": id}).to_string();
        if slow.feed(Message::text(ping)).await.is_err() {
            break;
        }
    }
    let _ = slow.flush().await;

    let away = watcher
        .wait_for(|v| v["event"]["kind"] == "away" || v["event"]["kind"] == "game_over")
        .await;
    assert_eq!(
        away["event"]["kind"], "away",
        "the slow player is away: {away}"
    );
    assert_eq!(away["event"]["seat"], 0);
    let after = watcher
        .wait_for(|v| {
            (v["event"]["kind"] == "out" && v["event"]["seat"] == 0)
                || v["event"]["kind"] == "game_over"
        })
        .await;
    if after["event"]["kind"] == "out" {
        assert_eq!(after["event"]["reason"], "disconnected", "{after}");
    }
    watcher.close().await;
    // The room closes once nobody is left in it.
    let deadline = tokio::time::Instant::now() + 2 * WAIT;
    loop {
        let (_, health) = hall.get("/health").await;
        if health["rooms"] == 0 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the room never closed: {health}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    drop(slow);
    hall.stop().await;
}
