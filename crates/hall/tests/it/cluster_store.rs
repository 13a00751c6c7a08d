//! The store's side of cluster mode on a real PostgreSQL database: a node's writes are fenced
//! by its lease, a takeover moves a dead node's rooms and their logs to the adopter, and nodes
//! number their journal rows in ranges of their own.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::time::Duration;

use hangar_hall::Store;
use hangar_hall::store::{NewGame, SEQ_RANGE};
use serde_json::json;

/// A game of room `room` as a room stores it when it starts.
fn new_game(room: &str) -> NewGame {
    NewGame {
        room: room.into(),
        game: "flight".into(),
        private: false,
        options: json!({"seats": 2}).to_string(),
        seats: json!([]).to_string(),
        seed: hangar_dice::Seed::from_u64(7).to_string(),
        commitment: hangar_dice::Seed::from_u64(7).commitment(),
        dice: hangar_dice::DiceScheme::PerRoll,
    }
}

/// Two stores on one fresh PostgreSQL database, or `None` (said) without one.
async fn two_nodes() -> Option<(Store, Store)> {
    let Some(url) = common::fresh_postgres().await else {
        assert!(
            !common::under_ci(),
            "CI=true needs HANGAR_TEST_POSTGRES_URL"
        );
        eprintln!("HANGAR_TEST_POSTGRES_URL is not set: this PostgreSQL test did not run");
        return None;
    };
    Some((
        Store::open(&url).await.unwrap(),
        Store::open(&url).await.unwrap(),
    ))
}

/// P-DURABLE in a cluster, "no game is ever owned by two nodes at once": once a node's lease
/// has run out and another node took its rooms over, every write of the old node is refused
/// by the store (fencing) — its late action is not in the game's log, the adopter's is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_a_node_whose_lease_ran_out_can_no_longer_write() {
    let Some((old, adopter)) = two_nodes().await else {
        return;
    };
    let short = Duration::from_millis(600);
    let scope = old
        .register_node("old", "127.0.0.1:1", short)
        .await
        .unwrap();
    let other = adopter
        .register_node("adopter", "127.0.0.1:2", Duration::from_secs(60))
        .await
        .unwrap();
    assert_ne!(
        scope.seq_base, other.seq_base,
        "each node has its journal range"
    );
    old.claim_room("ROOM01").await.unwrap();
    let game = old.start_game(&new_game("ROOM01")).await.unwrap();
    for idx in 0..3 {
        old.append_action(game, idx, format!(r#"{{"old":{idx}}}"#))
            .await
            .unwrap();
    }
    assert_eq!(
        adopter.room_owner("ROOM01").await.unwrap().as_deref(),
        Some("old")
    );
    // The old node stops renewing (paused, cut off): its lease runs out, the adopter takes
    // its rooms and their logs.
    tokio::time::sleep(short + Duration::from_millis(200)).await;
    assert_eq!(
        adopter.expired_nodes().await.unwrap(),
        vec!["old".to_owned()]
    );
    assert_eq!(
        adopter.adopt_rooms_of("old").await.unwrap(),
        Some(vec!["ROOM01".to_owned()])
    );
    assert_eq!(
        adopter.room_owner("ROOM01").await.unwrap().as_deref(),
        Some("adopter")
    );
    // The old node's late write and its renewal are refused; nothing of them is stored.
    let late = old.append_action(game, 3, r#"{"old":3}"#.to_owned()).await;
    assert!(late.is_err(), "a fenced node's action was stored");
    assert!(old.renew_lease(short).await.is_err());
    // The adopter's game goes on from the stored log, its actions in its own range.
    adopter
        .append_action(game, 3, r#"{"adopter":3}"#.to_owned())
        .await
        .unwrap();
    let stored = adopter.game(game).await.unwrap().unwrap();
    assert_eq!(
        stored.actions,
        vec![
            r#"{"old":0}"#,
            r#"{"old":1}"#,
            r#"{"old":2}"#,
            r#"{"adopter":3}"#
        ]
    );
    // A second adopter finds nothing left to take.
    assert_eq!(adopter.adopt_rooms_of("old").await.unwrap(), None);
}

/// Nodes that act at once never share a journal sequence number (each numbers its rows from
/// its own base), and each node's journal trims only its own rows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_two_nodes_append_at_once_without_sharing_journal_numbers() {
    let Some((a, b)) = two_nodes().await else {
        return;
    };
    let lease = Duration::from_secs(60);
    let scope_a = a.register_node("a", "127.0.0.1:1", lease).await.unwrap();
    let scope_b = b.register_node("b", "127.0.0.1:2", lease).await.unwrap();
    assert_eq!((scope_b.seq_base - scope_a.seq_base).abs() % SEQ_RANGE, 0);
    a.claim_room("AAAAAA").await.unwrap();
    b.claim_room("BBBBBB").await.unwrap();
    let game_a = a.start_game(&new_game("AAAAAA")).await.unwrap();
    let game_b = b.start_game(&new_game("BBBBBB")).await.unwrap();
    // Enough actions for each node's writer to chunk and trim its journal as it goes.
    let (ra, rb) = tokio::join!(
        async {
            for idx in 0..200 {
                a.append_action(game_a, idx, format!("{{\"a\":{idx}}}"))
                    .await
                    .unwrap();
            }
        },
        async {
            for idx in 0..200 {
                b.append_action(game_b, idx, format!("{{\"b\":{idx}}}"))
                    .await
                    .unwrap();
            }
        }
    );
    let ((), ()) = (ra, rb);
    tokio::time::sleep(Duration::from_millis(200)).await;
    for (store, game, key) in [(&a, game_a, "a"), (&b, game_b, "b")] {
        let stored = store.game(game).await.unwrap().unwrap();
        let expected: Vec<String> = (0..200).map(|i| format!("{{\"{key}\":{i}}}")).collect();
        assert_eq!(stored.actions, expected, "game of node {key}");
    }
}
