//! The parts of a cluster for tests: a real `nats-server`, a fresh PostgreSQL database, and
//! `hangar serve --cluster` nodes on them.

use std::io::BufRead;
use std::process::{Child, Command, Stdio};

use serde_json::json;

use super::{Client, PLAYED, Server, WAIT, guest, postgres_database, under_ci};

/// A `nats-server` on a port of its own choosing, killed with the test.
pub struct Nats {
    child: Child,
    /// Where the nodes reach it.
    pub url: String,
}

impl Nats {
    /// Starts `nats-server` (HANGAR_TEST_NATS_SERVER, else the one on the PATH or in
    /// /usr/sbin); `None` when there is none (an error under CI).
    pub fn start() -> Option<Nats> {
        let binary = std::env::var("HANGAR_TEST_NATS_SERVER").ok().or_else(|| {
            [
                "nats-server",
                "/usr/sbin/nats-server",
                "/usr/bin/nats-server",
            ]
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

/// NATS and a PostgreSQL database for a cluster, or `None` when this machine has not both.
pub async fn cluster_parts() -> Option<(Nats, String)> {
    let nats = Nats::start()?;
    let Some(database) = postgres_database().await else {
        eprintln!("HANGAR_TEST_POSTGRES_URL is not set: the cluster test did not run");
        return None;
    };
    Some((nats, database))
}

/// A node of the cluster.
pub async fn node(nats: &Nats, database: &str) -> Server {
    Server::start(database, &[PLAYED, &["--cluster", &nats.url]].concat()).await
}

/// A guest on `port` who joins `room` and is ready.
pub async fn joiner(port: u16, name: &str, room: &str) -> Client {
    let mut c = guest(port, name).await;
    let joined = c.ok(json!({"type": "join_room", "room": room})).await;
    c.room = room.to_owned();
    c.seat = joined["seat"].as_u64().unwrap();
    c
}
