//! An orderly stop (SIGTERM, as systemd or an orchestrator sends it) drains the hall: every
//! WebSocket is closed with 1012 ("the hall restarts: reconnect") so that clients reconnect at
//! once, and the process exits cleanly after its store has closed. And a running hall's process
//! has transparent huge pages off (their faults were the 10,000-client latency tail).
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::hall_common;

use futures_util::StreamExt;
use hall_common::{Server, guest};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_closes_every_socket_with_a_reconnect_code_and_exits_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("hall.db").display().to_string();
    let server = Server::start(&db, &[]).await;
    // One signed-in player, one bare socket.
    let _player = guest(server.port, "ann").await;
    let (mut socket, _) =
        tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{}/ws", server.port))
            .await
            .unwrap();
    let status = server.terminate();
    assert!(status.success(), "the hall exits cleanly: {status}");
    let mut close = None;
    while let Some(Ok(message)) = socket.next().await {
        if let Message::Close(frame) = message {
            close = frame;
            break;
        }
    }
    let close = close.expect("a close frame before the socket ended");
    assert_eq!(close.code, CloseCode::Restart);
    assert!(close.reason.contains("reconnect"), "{}", close.reason);
}

/// An orchestrator may stop the hall as soon as it reports itself open; the signal must drain
/// it, not kill it with the default action (the handler was once installed only when the
/// serve loop first ran, after the "open" line).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_the_moment_the_hall_is_open_still_drains_it() {
    let dir = tempfile::tempdir().unwrap();
    for attempt in 0..8 {
        let db = dir.path().join(format!("hall{attempt}.db"));
        let server = Server::start(&db.display().to_string(), &[]).await;
        let status = server.terminate();
        assert!(status.success(), "attempt {attempt}: {status}");
    }
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_halls_process_runs_without_transparent_huge_pages() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("hall.db").display().to_string();
    let server = Server::start(&db, &[]).await;
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.pid())).unwrap();
    let thp = status
        .lines()
        .find_map(|line| line.strip_prefix("THP_enabled:"))
        .expect("the kernel reports THP_enabled (Linux 5.0 and later)");
    assert_eq!(
        thp.trim(),
        "0",
        "transparent huge pages are off for the hall"
    );
    assert!(server.terminate().success());
}
