//! Signing out everywhere ends live sessions too: a player's other open connections on the
//! hall are closed (1008, with the reason), not only their tokens revoked, so that a socket
//! signed in with a stolen token stops working at once.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use common::{TestHall, WAIT};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_account_sign_out_everywhere_closes_the_players_other_connections() {
    let hall = TestHall::start().await;
    let mut phone = hall.client().await;
    let registered = phone
        .ok(json!({"type": "register", "name": "ana", "password": "correct horse"}))
        .await;
    // The thief's socket, signed in with ana's token.
    let token = registered["token"].clone();
    let mut thief = hall.client().await;
    thief.ok(json!({"type": "auth", "token": token})).await;
    // Someone else's connection is left alone.
    let mut bystander = hall.guest("bo").await;

    phone.ok(json!({"type": "sign_out_everywhere"})).await;

    let closed = tokio::time::timeout(WAIT, async {
        loop {
            match thief.raw_next().await {
                Some(Message::Close(frame)) => return frame,
                Some(_) => continue,
                None => return None,
            }
        }
    })
    .await
    .expect("the other connection is closed in time");
    let frame = closed.expect("a close frame with a reason");
    assert_eq!(u16::from(frame.code), 1008, "{frame:?}");
    assert!(frame.reason.contains("signed out"), "{frame:?}");

    // Its token is refused on reconnection; the one that signed out keeps working, and so
    // does the bystander.
    let mut again = hall.client().await;
    again
        .fails(json!({"type": "auth", "token": token}), "bad_token")
        .await;
    phone.ok(json!({"type": "ping"})).await;
    bystander.ok(json!({"type": "ping"})).await;
    hall.stop().await;
}
