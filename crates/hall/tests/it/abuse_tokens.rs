//! Sessions end. A sign-in token expires after its lifetime, and a player can revoke every
//! token of theirs at once (`sign_out_everywhere`): a stolen or forgotten token stops
//! working, over the WebSocket and the HTTP API alike.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::time::Duration;

use common::TestHall;
use serde_json::json;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

/// A hall whose sign-in tokens live `lifetime`.
async fn hall_with_lifetime(lifetime: Duration) -> TestHall {
    let dir = tempfile::tempdir().unwrap();
    let mut config = common::test_config(common::sqlite_url(&dir));
    config.limits.token_lifetime = lifetime;
    TestHall::with(dir, config).await
}

/// Signs in with `token` on a fresh connection: the answer (`ack` or `error`).
async fn auth(hall: &TestHall, token: &str) -> serde_json::Value {
    let mut c = hall.client().await;
    c.call(json!({"type": "auth", "token": token})).await
}

/// The tests' lifetimes are short; a loaded machine may take longer than one between two
/// steps that must come within it. A step answered sooner than the lifetime after the
/// moment its clock started surely came in time; one that did not is run again with the
/// lifetime doubled (up to this many times).
const LONGER: u32 = 6;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_guest_a_token_expires_after_its_lifetime() {
    let mut lifetime = Duration::from_millis(400);
    let (hall, token) = 'run: {
        for _ in 0..LONGER {
            let hall = hall_with_lifetime(lifetime).await;
            let issued = Instant::now();
            let ana = hall.guest("ana").await;
            let token = ana.token.clone().unwrap();
            let answer = auth(&hall, &token).await;
            if issued.elapsed() < lifetime {
                assert_eq!(answer["type"], "ack", "used within its lifetime: {answer}");
                break 'run (hall, token);
            }
            hall.stop().await;
            lifetime *= 2;
        }
        panic!("the token was never used within its lifetime");
    };
    // The sign-in was a use: the token lives until a lifetime after it, and no longer.
    tokio::time::sleep(lifetime * 2).await;
    // A fresh connection: the earlier one's own sign-in ran out with the token.
    let expired = auth(&hall, &token).await;
    assert_eq!(expired["code"], "bad_token", "{expired}");
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
    let mut lifetime = Duration::from_millis(900);
    let (hall, token) = 'run: {
        'again: for _ in 0..LONGER {
            let hall = hall_with_lifetime(lifetime).await;
            let mut last_use = Instant::now();
            let ana = hall.guest("ana").await;
            let token = ana.token.clone().unwrap();
            let issued = last_use;
            for _ in 0..3 {
                // Each use comes before the lifetime since the last one is over, and together
                // they outlast the lifetime since the token was issued.
                tokio::time::sleep(lifetime / 2).await;
                let asked = Instant::now();
                let answer = auth(&hall, &token).await;
                if last_use.elapsed() >= lifetime {
                    hall.stop().await;
                    lifetime *= 2;
                    continue 'again;
                }
                assert_eq!(answer["type"], "ack", "used within its lifetime: {answer}");
                last_use = asked;
            }
            assert!(last_use - issued > lifetime, "outlived its first lifetime");
            break 'run (hall, token);
        }
        panic!("the token was never used within its lifetime");
    };
    tokio::time::sleep(lifetime * 2).await;
    let refused = auth(&hall, &token).await;
    assert_eq!(refused["code"], "bad_token", "{refused}");
    hall.stop().await;
}

/// A connection speaks for its player no longer than the sign-in's token lives: past it, the
/// next frame it sends closes it (1008), and the player signs in again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_guest_a_socket_whose_sign_in_expired_is_closed() {
    let mut lifetime = Duration::from_millis(400);
    let (hall, mut ana) = 'run: {
        for _ in 0..LONGER {
            let hall = hall_with_lifetime(lifetime).await;
            let issued = Instant::now();
            let mut ana = hall.guest("ana").await;
            // Answered while the sign-in lives (a close here ends the socket: run again).
            ana.send_text(r#"{"type":"ping","id":1}"#).await;
            let answered = loop {
                match ana.raw_next().await {
                    Some(Message::Text(text)) if text.contains(r#""id":1"#) => break true,
                    Some(Message::Close(_)) | None => break false,
                    Some(_) => {}
                }
            };
            if issued.elapsed() < lifetime {
                assert!(answered, "closed within the sign-in's lifetime");
                break 'run (hall, ana);
            }
            hall.stop().await;
            lifetime *= 2;
        }
        panic!("the socket was never used within the sign-in's lifetime");
    };
    tokio::time::sleep(lifetime * 2).await;
    ana.send_text(r#"{"type":"ping","id":99}"#).await;
    let close = loop {
        match ana.raw_next().await {
            Some(Message::Close(frame)) => break frame,
            Some(Message::Text(text)) => {
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
