//! Slow HTTP. A connection that does not finish sending a request's headers in time, or
//! sends nothing at all, is closed, so half-sent requests cannot hold the hall's files, while
//! `/health` and WebSockets keep answering.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::time::Duration;

use common::TestHall;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Reads until the server closes the connection; what it sent before, if anything.
async fn closed_by_server(stream: &mut TcpStream) -> String {
    let mut seen = Vec::new();
    let read = async {
        let mut buf = [0u8; 1024];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => seen.extend_from_slice(&buf[..n]),
            }
        }
    };
    tokio::time::timeout(common::WAIT, read)
        .await
        .expect("the server closes a slow connection");
    String::from_utf8_lossy(&seen).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_headers_and_silent_sockets_are_closed_after_the_header_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = common::test_config(common::sqlite_url(&dir));
    config.limits.header_timeout = Duration::from_millis(300);
    let hall = TestHall::with(dir, config).await;

    let mut half = TcpStream::connect(hall.addr).await.unwrap();
    half.write_all(b"GET /health HTTP/1.1\r\nHost: hall\r\nX-Slow: ")
        .await
        .unwrap();
    let mut silent = TcpStream::connect(hall.addr).await.unwrap();
    // Meanwhile the hall answers others, over HTTP and WebSocket.
    let (status, _) = hall.get("/health").await;
    assert_eq!(status, 200);
    let mut player = hall.guest("ana").await;

    let answered = closed_by_server(&mut half).await;
    assert!(!answered.contains("200 OK"), "{answered}");
    closed_by_server(&mut silent).await;
    // A WebSocket is past its headers: it stays, quiet or not.
    tokio::time::sleep(Duration::from_millis(600)).await;
    player.ok(json!({"type": "ping"})).await;
    hall.stop().await;
}
