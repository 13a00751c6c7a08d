//! Sessions end. A sign-in token expires after its lifetime, and a player can revoke every
//! token of theirs at once (`sign_out_everywhere`): a stolen or forgotten token stops
//! working, over the WebSocket and the HTTP API alike.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::time::Duration;

use common::TestHall;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_guest_a_token_expires_after_its_lifetime() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = common::test_config(common::sqlite_url(&dir));
    let lifetime = Duration::from_millis(400);
    config.limits.token_lifetime = lifetime;
    let hall = TestHall::with(dir, config).await;
    let ana = hall.guest("ana").await;
    let token = ana.token.clone().unwrap();
    let mut c = hall.client().await;
    c.ok(json!({"type": "auth", "token": token})).await;
    tokio::time::sleep(lifetime * 2).await;
    // A fresh connection: `c`'s own sign-in ran out with the token, and `c` is closed.
    let mut c = hall.client().await;
    let expired = c
        .fails(json!({"type": "auth", "token": token}), "bad_token")
        .await;
    assert!(
        expired["message"].as_str().unwrap().contains("expired"),
        "{expired}"
    );
    hall.stop().await;
}

/// A token's lifetime runs from its last use (sliding): a player who keeps coming back keeps
/// their identity, one who stays away longer than the lifetime signs in again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_guest_a_token_used_again_lives_again_from_its_use() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = common::test_config(common::sqlite_url(&dir));
    let lifetime = Duration::from_millis(900);
    config.limits.token_lifetime = lifetime;
    let hall = TestHall::with(dir, config).await;
    let ana = hall.guest("ana").await;
    let token = ana.token.clone().unwrap();
    for _ in 0..3 {
        // Each use comes before the lifetime since the last one is over, and together they
        // outlast the lifetime since the token was issued.
        tokio::time::sleep(lifetime / 2).await;
        let mut c = hall.client().await;
        c.ok(json!({"type": "auth", "token": token})).await;
    }
    tokio::time::sleep(lifetime * 2).await;
    let mut c = hall.client().await;
    c.fails(json!({"type": "auth", "token": token}), "bad_token")
        .await;
    hall.stop().await;
}

/// A connection speaks for its player no longer than the sign-in's token lives: past it, the
/// next frame it sends closes it (1008), and the player signs in again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_guest_a_socket_whose_sign_in_expired_is_closed() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = common::test_config(common::sqlite_url(&dir));
    let lifetime = Duration::from_millis(400);
    config.limits.token_lifetime = lifetime;
    let hall = TestHall::with(dir, config).await;
    let mut ana = hall.guest("ana").await;
    ana.ok(json!({"type": "ping"})).await;
    tokio::time::sleep(lifetime * 2).await;
    ana.send_text(r#"{"type":"ping","id":99}"#).await;
    let close = loop {
        match ana.raw_next().await {
            Some(tokio_tungstenite::tungstenite::Message::Close(frame)) => break frame,
            Some(tokio_tungstenite::tungstenite::Message::Text(text)) => {
                assert!(
                    !text.contains(r#""id":99"#),
                    "answered after expiry: {text}"
                );
            }
            Some(_) => {}
            None => panic!("the socket ended without a close frame"),
        }
    };
    let close = close.expect("the close says why");
    assert_eq!(u16::from(close.code), 1008);
    assert!(close.reason.contains("expired"), "{}", close.reason);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_account_sign_out_everywhere_revokes_every_token() {
    let hall = TestHall::start().await;
    let mut phone = hall.client().await;
    let first = phone
        .ok(json!({"type": "register", "name": "ana", "password": "correct horse"}))
        .await;
    let mut laptop = hall.client().await;
    let second = laptop
        .ok(json!({"type": "login", "name": "ana", "password": "correct horse"}))
        .await;
    let tokens = [first["token"].clone(), second["token"].clone()];
    // Someone else cannot sign ana out; ana can, from any device.
    let mut stranger = hall.guest("eve").await;
    stranger.ok(json!({"type": "sign_out_everywhere"})).await;
    let mut check = hall.client().await;
    check.ok(json!({"type": "auth", "token": tokens[0]})).await;
    laptop.ok(json!({"type": "sign_out_everywhere"})).await;
    // `check` spoke for ana: signing out everywhere closed it (see abuse_sessions.rs).
    let mut check = hall.client().await;
    for token in &tokens {
        check
            .fails(json!({"type": "auth", "token": token}), "bad_token")
            .await;
    }
    // Without a sign-in there is nothing to sign out.
    hall.client()
        .await
        .fails(json!({"type": "sign_out_everywhere"}), "unauthenticated")
        .await;
    hall.stop().await;
}
