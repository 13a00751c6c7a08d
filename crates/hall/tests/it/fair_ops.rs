//! Operational leaks closed (issue 34): static files stay inside the web directory (no
//! dotfiles, no symlink out) and carry a Content-Security-Policy with `frame-ancestors
//! 'none'`; `/metrics` asks for its bearer token; `hangar admin` cannot mistake a guest for an
//! account of the same name; a banned guest is told `banned`.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::net::SocketAddr;

use common::{TestHall, get_as, sqlite_url, test_config};
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A GET with an optional header: the status line's code and the whole head and body.
async fn raw_get(addr: SocketAddr, path: &str, header: &str) -> (u16, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{header}Connection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8_lossy(&response).to_string();
    (text[9..12].parse().unwrap(), text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn static_files_stay_in_the_web_directory_and_carry_a_csp() {
    let dir = tempfile::tempdir().unwrap();
    let web = dir.path().join("web");
    std::fs::create_dir(&web).unwrap();
    std::fs::write(web.join("index.html"), "<!doctype html><p>hall</p>").unwrap();
    std::fs::write(web.join(".env"), "SECRET=1").unwrap();
    std::fs::write(dir.path().join("outside.txt"), "SECRET=2").unwrap();
    std::os::unix::fs::symlink(dir.path().join("outside.txt"), web.join("out.txt")).unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.web_dir = Some(web);
    let hall = TestHall::with(dir, config).await;
    for path in ["/.env", "/%2eenv", "/out.txt"] {
        let (status, text) = raw_get(hall.addr, path, "").await;
        assert_eq!(status, 404, "{path}: {text}");
        assert!(!text.contains("SECRET"), "{path}: {text}");
    }
    let (status, page) = raw_get(hall.addr, "/", "").await;
    assert_eq!(status, 200, "{page}");
    let head = page.to_ascii_lowercase();
    assert!(head.contains("content-security-policy:"), "{page}");
    assert!(head.contains("frame-ancestors 'none'"), "{page}");
    assert!(head.contains("script-src 'self'"), "{page}");
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_ask_for_their_bearer_token() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.metrics_token = Some("s3cret-metrics".to_owned());
    let hall = TestHall::with(dir, config).await;
    assert_eq!(raw_get(hall.addr, "/metrics", "").await.0, 404);
    let wrong = "Authorization: Bearer nope\r\n";
    assert_eq!(raw_get(hall.addr, "/metrics", wrong).await.0, 404);
    let right = "Authorization: Bearer s3cret-metrics\r\n";
    let (status, text) = raw_get(hall.addr, "/metrics", right).await;
    assert_eq!(status, 200, "{text}");
    assert!(text.contains("hangar_"), "{text}");
    // `/health` stays open (load balancers), and says nothing about files.
    let (status, health) = get_as(hall.addr, "/health", None).await;
    assert_eq!(status, 200);
    assert!(!health.to_string().contains('/'), "{health}");
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_of_a_guest_and_an_account_is_ambiguous_and_a_banned_guest_is_told() {
    let hall = TestHall::start().await;
    // A guest named before the account was (a guest never takes an account's name, P-ACCOUNT,
    // but an account may take a name a guest holds).
    let guest = hall.guest("ana").await;
    let mut account = hall.client().await;
    account
        .ok(json!({"type": "register", "name": "Ana", "password": "correct horse"}))
        .await;
    let found = hall.hall.store.players_named("ana").await.unwrap();
    assert_eq!(
        found.len(),
        2,
        "the account and the guest: `--id` is asked for"
    );
    // The guest banned by id: its token is answered `banned`, with the reason.
    let id = guest.player_id.unwrap();
    let token = guest.token.clone().unwrap();
    hall.hall.store.ban(id, "cheating").await.unwrap();
    let mut again = hall.client().await;
    let answer = again
        .fails(json!({"type": "auth", "token": token}), "banned")
        .await;
    assert!(answer["message"].as_str().unwrap().contains("cheating"));
    hall.stop().await;
}
