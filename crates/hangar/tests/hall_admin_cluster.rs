//! `hangar admin` on a cluster of two `hangar serve --cluster` nodes (PostgreSQL and a real
//! `nats-server`): a ban closes the player's sockets on both nodes, and closing a room played
//! across the nodes reaches the node that owns it and the member on the other. Needs
//! HANGAR_TEST_POSTGRES_URL and `nats-server` (required under CI; elsewhere the test says what
//! is missing and returns).
#![allow(clippy::unwrap_used)] // tests fail loudly

mod hall_common;

use std::io::BufRead;
use std::process::{Child, Command, Stdio};

use futures_util::StreamExt;
use hall_common::{Client, PLAYED, Server, WAIT, guest, play, postgres_database, under_ci};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// A `nats-server` on a port of its own choosing, killed with the test.
struct Nats {
    child: Child,
    url: String,
}

impl Nats {
    /// Starts `nats-server` (HANGAR_TEST_NATS_SERVER, else the one on the PATH or in
    /// /usr/sbin); `None` when there is none (an error under CI).
    fn start() -> Option<Nats> {
        let binary = std::env::var("HANGAR_TEST_NATS_SERVER").ok().or_else(|| {
            ["nats-server", "/usr/sbin/nats-server"]
                .into_iter()
                .find(|b| Command::new(b).arg("--version").output().is_ok())
                .map(str::to_owned)
        });
        let Some(binary) = binary else {
            assert!(!under_ci(), "CI=true but nats-server is not installed");
            eprintln!("nats-server is not installed: the cluster test did not run");
            return None;
        };
        let mut child = Command::new(binary)
            .args(["-a", "127.0.0.1", "-p", "-1"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let log = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(log).lines() {
                let Ok(line) = line else { break };
                if let Some((_, addr)) = line.split_once("Listening for client connections on ") {
                    let _ = tx.send(addr.trim().to_owned());
                }
            }
        });
        let addr = rx.recv_timeout(WAIT).expect("nats-server tells its port");
        Some(Nats {
            child,
            url: format!("nats://{addr}"),
        })
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs an admin command that must succeed: its JSON line.
fn admin_ok(database: &str, args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_hangar"))
        .args(["admin", "--database", database])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "hangar admin {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Reads until the server closes the socket: its close code and reason.
async fn closed(c: &mut Client) -> (u16, String) {
    loop {
        let m = tokio::time::timeout(WAIT, c.ws.next())
            .await
            .expect("the socket is closed in time")
            .expect("a close frame comes before the end")
            .unwrap();
        if let Message::Close(frame) = m {
            let frame = frame.expect("the close says why");
            return (u16::from(frame.code), frame.reason.to_string());
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_account_admin_orders_reach_every_node_of_a_cluster() {
    let Some(nats) = Nats::start() else {
        return;
    };
    let Some(database) = postgres_database().await else {
        eprintln!("HANGAR_TEST_POSTGRES_URL is not set: the cluster test did not run");
        return;
    };
    let flags = [PLAYED, &["--cluster", &nats.url]].concat();
    let nodes = [
        Server::start(&database, &flags).await,
        Server::start(&database, &flags).await,
    ];

    // A jungle game owned by the first node, its second player on the other node.
    let mut a = guest(nodes[0].port, "ana").await;
    let created = a
        .ok(json!({"type": "create_room", "game": "jungle", "options": {}}))
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    a.room = room.clone();
    let mut b = guest(nodes[1].port, "bo").await;
    let joined = b.ok(json!({"type": "join_room", "room": room})).await;
    b.room = room.clone();
    b.seat = joined["seat"].as_u64().unwrap();
    a.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    b.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    let started = a.wait_for(|v| v["event"]["kind"] == "game_started").await;
    let mut players = vec![a, b];
    assert!(
        play(&mut players, &room, started["event"]["game"].clone(), 4)
            .await
            .is_none()
    );

    let done = admin_ok(&database, &["close-room", &room]);
    assert_eq!(done["done"], "close_room", "{done}");
    for p in &mut players {
        let over = p.wait_for(|v| v["event"]["kind"] == "game_over").await;
        assert_eq!(over["event"]["result"]["reason"], "closed");
        p.wait_for(|v| v["event"]["kind"] == "closed").await;
    }

    // One player signed in on both nodes: a ban closes both sockets.
    let mut here = guest(nodes[0].port, "cy").await;
    let mut there = Client::connect(nodes[1].port).await;
    there.ok(json!({"type": "auth", "token": here.token})).await;
    admin_ok(&database, &["ban", "cy", "--reason", "testing"]);
    for c in [&mut here, &mut there] {
        let (code, reason) = closed(c).await;
        assert_eq!(code, 1008);
        assert!(reason.contains("banned"), "{reason}");
    }
}
