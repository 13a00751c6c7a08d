//! Silent TCP connections cannot pile up to the file limit: past the TCP cap (the WebSocket
//! cap `--max-connections` and an eighth of it for plain HTTP, at least 16) a connection is
//! closed as soon as it is accepted, instead of being held until its header timeout; once
//! one is let go, the hall answers again. Nor can one address's silent sockets take that room
//! from everyone else: past four times `--max-connections-per-address` plain HTTP connections
//! from one address, its next one is closed as accepted while other addresses are served.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::time::Duration;

use common::{TestHall, WAIT};
use hangar_hall::server::{HTTP_CONNECTIONS_PER_WEBSOCKET, tcp_cap};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// Whether the hall closes `socket` within the tests' wait.
async fn closed(socket: &mut TcpStream) -> bool {
    closed_within(socket, WAIT).await
}

/// Whether the hall closes `socket` within `time` (a held socket reads nothing).
async fn closed_within(socket: &mut TcpStream, time: Duration) -> bool {
    let mut byte = [0_u8; 1];
    matches!(
        tokio::time::timeout(time, socket.read(&mut byte)).await,
        Ok(Ok(0) | Err(_))
    )
}

/// A connection to `addr` from the loopback address `from` (Linux routes all of 127/8 to
/// loopback, so a test can be several clients).
async fn connect_from(from: [u8; 4], addr: std::net::SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind((std::net::Ipv4Addr::from(from), 0).into())?;
    socket.connect(addr).await
}

/// `GET /health`'s status, or `None` when the connection was closed unanswered.
async fn health(addr: std::net::SocketAddr) -> Option<u16> {
    health_from([127, 0, 0, 1], addr).await
}

/// `GET /health`'s status asked from the loopback address `from`.
async fn health_from(from: [u8; 4], addr: std::net::SocketAddr) -> Option<u16> {
    let mut stream = connect_from(from, addr).await.ok()?;
    let request = format!("GET /health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.ok()?;
    let text = String::from_utf8_lossy(&response).to_string();
    text.get(9..12)?.parse().ok()
}

/// `GET /health`'s status asked from `from` again and again until it is answered (`None`
/// when it is not within the tests' wait).
async fn health_soon(from: [u8; 4], addr: std::net::SocketAddr) -> Option<u16> {
    let answered = async {
        loop {
            if let Some(status) = health_from(from, addr).await {
                return status;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(WAIT, answered).await.ok()
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
    let answered = health_soon([127, 0, 0, 1], hall.addr).await;
    assert_eq!(
        answered,
        Some(200),
        "the hall answers once a connection is let go"
    );
    drop(held);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_connections_past_an_address_cap_are_closed_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = common::test_config(common::sqlite_url(&dir));
    config.limits.max_connections = 1000;
    config.limits.max_connections_per_address = 3;
    config.limits.header_timeout = Duration::from_secs(600);
    let hall = TestHall::with(dir, config).await;
    let crowd = [127, 0, 0, 2];

    let cap = 3 * HTTP_CONNECTIONS_PER_WEBSOCKET;
    let mut held = Vec::new();
    for _ in 0..cap {
        held.push(connect_from(crowd, hall.addr).await.unwrap());
    }
    for n in 0..5 {
        let mut extra = connect_from(crowd, hall.addr).await.unwrap();
        assert!(
            closed(&mut extra).await,
            "connection {n} past the address's cap is closed"
        );
    }
    assert_eq!(
        health_from(crowd, hall.addr).await,
        None,
        "the address's cap is full"
    );
    // Every other address is served as before.
    assert_eq!(health_from([127, 0, 0, 3], hall.addr).await, Some(200));
    assert_eq!(health(hall.addr).await, Some(200));
    for socket in &mut held {
        assert!(
            !closed_within(socket, Duration::from_millis(200)).await,
            "held"
        );
    }

    // One let go: the address is served again.
    drop(held.pop());
    let answered = health_soon(crowd, hall.addr).await;
    assert_eq!(
        answered,
        Some(200),
        "the address is served once one of its connections is let go"
    );
    drop(held);
    hall.stop().await;
}
