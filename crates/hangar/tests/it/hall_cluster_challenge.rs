//! P-CHALLENGE in cluster mode: the challenger and the challenged on different nodes. The
//! challenge reaches the other node's player at once and on a later sign-in there; a decline
//! ends it on both; an accept opens the room on the accepting node, the challenger is told its
//! seat through its own node, and both play there. Needs HANGAR_TEST_POSTGRES_URL and
//! `nats-server` (as `hall_cluster.rs`).
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::hall_common;

use futures_util::SinkExt;
use hall_common::Client;
use hall_common::cluster::{cluster_parts, node};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// A new account on the node at `port`: its client (token kept) and id.
async fn account(port: u16, name: &str) -> (Client, i64) {
    let mut c = Client::connect(port).await;
    let r = c
        .ok(json!({"type": "register", "name": name, "password": "long enough"}))
        .await;
    c.token = r["token"].as_str().unwrap().to_owned();
    (c, r["player"]["id"].as_i64().unwrap())
}

/// `from` challenges player `to` to jungle; the challenge's id.
async fn challenge(from: &mut Client, to: i64) -> String {
    let r = from
        .ok(json!({"type": "challenge", "player": to, "game": "jungle"}))
        .await;
    r["challenge"]["id"].as_str().unwrap().to_owned()
}

/// Waits for the message of `kind` about challenge `id`.
async fn told(c: &mut Client, kind: &str, id: &str) -> Value {
    let (kind, id) = (kind.to_owned(), id.to_owned());
    c.wait_for(move |v| {
        v["type"] == kind.as_str()
            && (v["challenge"] == id.as_str() || v["challenge"]["id"] == id.as_str())
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_challenge_between_players_on_two_nodes() {
    let Some((nats, database)) = cluster_parts().await else {
        return;
    };
    let nodes = [node(&nats, &database).await, node(&nats, &database).await];
    let (mut ana, _) = account(nodes[0].port, "ana").await;
    let (mut bo, bo_id) = account(nodes[1].port, "bo").await;

    // Declined on the other node: over for both.
    let id = challenge(&mut ana, bo_id).await;
    let seen = told(&mut bo, "challenge", &id).await;
    assert_eq!(seen["challenge"]["from"]["name"], "ana", "{seen}");
    bo.ok(json!({"type": "decline_challenge", "challenge": id}))
        .await;
    let end = told(&mut ana, "challenge_ended", &id).await;
    assert_eq!(end["reason"], "declined", "{end}");
    assert_eq!(end["by"]["id"], bo_id);

    // Sent while Bo is away; Bo signs in again on the other node and gets it after the ack.
    let token = bo.token.clone();
    drop(bo);
    let id = challenge(&mut ana, bo_id).await;
    let mut bo = Client::connect(nodes[1].port).await;
    bo.token = token.clone();
    bo.id += 1;
    let auth = json!({"type": "auth", "id": bo.id, "token": token});
    bo.ws.send(Message::text(auth.to_string())).await.unwrap();
    let first = bo.read().await;
    assert_eq!(
        (first["type"].as_str(), first["id"].as_u64()),
        (Some("ack"), Some(bo.id))
    );
    let seen = bo.read().await;
    assert_eq!(seen["type"], "challenge", "{seen}");
    assert_eq!(seen["challenge"]["id"], id.as_str());

    // Accepted on the other node: the room opens there; each party is told its seat through
    // its own node and plays.
    bo.ok(json!({"type": "accept_challenge", "challenge": id}))
        .await;
    let mut seats = Vec::new();
    for c in [&mut ana, &mut bo] {
        let roomed = told(c, "challenge_room", &id).await;
        let room = roomed["room"].as_str().unwrap().to_owned();
        let seat = roomed["seat"].as_u64().unwrap();
        let joined = c
            .ok(json!({"type": "join_room", "room": room, "seat": seat}))
            .await;
        assert_eq!(joined["seat"], seat, "{joined}");
        c.room = room;
        seats.push(seat);
    }
    assert_eq!(seats, vec![0, 1]);
    assert_eq!(ana.room, bo.room);
    // Nobody readies: the game starts once both have sat down (P-CHALLENGE).
    for c in [&mut ana, &mut bo] {
        c.wait_for(|v| v["event"]["kind"] == "game_started").await;
    }
}
