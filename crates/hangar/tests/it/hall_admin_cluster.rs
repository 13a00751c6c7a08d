//! `hangar admin` on a cluster of two `hangar serve --cluster` nodes (PostgreSQL and a real
//! `nats-server`): a ban closes the player's sockets on both nodes, and closing a room played
//! across the nodes reaches the node that owns it and the member on the other. Needs
//! HANGAR_TEST_POSTGRES_URL and `nats-server` (required under CI; elsewhere the test says what
//! is missing and returns).
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::hall_common;

use hall_common::cluster::{cluster_parts, node};
use hall_common::{Client, admin_ok, closed, guest, play, start_game_on};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_account_admin_orders_reach_every_node_of_a_cluster() {
    let Some((nats, database)) = cluster_parts().await else {
        return;
    };
    let nodes = [node(&nats, &database).await, node(&nats, &database).await];

    // A jungle game owned by the first node, its second player on the other node.
    let (mut players, room, game) =
        start_game_on([nodes[0].port, nodes[1].port], "jungle", json!({})).await;
    assert!(play(&mut players, &room, game, 4).await.is_none());

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
