//! Silent TCP connections cannot pile up to the file limit: past the TCP cap (the WebSocket
//! cap `--max-connections` and an eighth of it for plain HTTP, at least 16) a connection is
//! closed as soon as it is accepted, instead of being held until its header timeout; once
//! one is let go, the hall answers again.
#![allow(clippy::unwrap_used)] // tests fail loudly

mod common;

use std::time::Duration;

use common::{TestHall, WAIT};
use hangar_hall::server::tcp_cap;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// What reading a socket gives: `None` while it is held open, else closed.
async fn closed(socket: &mut TcpStream) -> bool {
    let mut byte = [0_u8; 1];
    matches!(
        tokio::time::timeout(WAIT, socket.read(&mut byte)).await,
        Ok(Ok(0) | Err(_))
    )
}

/// `GET /health`'s status, or `None` when the connection was closed unanswered.
async fn health(addr: std::net::SocketAddr) -> Option<u16> {
    let mut stream = TcpStream::connect(addr).await.ok()?;
    let request = format!("GET /health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.ok()?;
    let text = String::from_utf8_lossy(&response).to_string();
    text.get(9..12)?.parse().ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_past_the_tcp_cap_are_closed_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = common::test_config(common::sqlite_url(&dir));
    config.limits.max_connections = 4;
    // Silent sockets are held for this long: only the cap can close them within the test.
    config.limits.header_timeout = Duration::from_secs(600);
    let cap = tcp_cap(config.limits.max_connections);
    assert_eq!(cap, 20);
    let hall = TestHall::with(dir, config).await;

    // Sockets that connect and send nothing, up to the cap: held.
    let mut held = Vec::new();
    for _ in 0..cap {
        held.push(TcpStream::connect(hall.addr).await.unwrap());
    }
    assert_eq!(health(hall.addr).await, None, "the cap is full");
    // Past the cap: closed as accepted, not held for the header timeout.
    for n in 0..10 {
        let mut extra = TcpStream::connect(hall.addr).await.unwrap();
        assert!(
            closed(&mut extra).await,
            "connection {n} past the cap is closed"
        );
    }

    // One let go: the hall answers again.
    drop(held.pop());
    let answered = tokio::time::timeout(WAIT, async {
        loop {
            if let Some(status) = health(hall.addr).await {
                return status;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the hall answers once a connection is let go");
    assert_eq!(answered, 200);
    drop(held);
    hall.stop().await;
}
