//! The lobby holds against many rooms: the hall list comes a page at a time (no frame grows
//! with the number of rooms), and one player holds seats in at most three rooms, so a few
//! connections cannot fill the lobby or sit in every public room (docs/security.md).
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use common::TestHall;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hall_list_comes_in_pages_whatever_the_number_of_rooms() {
    let hall = TestHall::start().await;
    let mut creators = Vec::new();
    for i in 0..40 {
        let mut guest = hall.guest(&format!("g{i}")).await;
        for _ in 0..3 {
            guest.create("flight", json!({})).await;
        }
        creators.push(guest);
    }
    let mut watcher = hall.guest("watcher").await;
    watcher
        .ok(json!({"type": "hall_subscribe", "game": "flight"}))
        .await;
    let list = watcher.wait_for(|v| v["type"] == "hall").await;
    assert_eq!(list["total"], 120);
    assert_eq!(
        list["rooms"].as_array().unwrap().len(),
        100,
        "the first page only"
    );
    let rest = watcher
        .ok(json!({"type": "hall_page", "game": "flight", "offset": 100}))
        .await;
    assert_eq!(rest["total"], 120);
    assert_eq!(rest["rooms"].as_array().unwrap().len(), 20);
    let first: Vec<&str> = list["rooms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap())
        .collect();
    assert!(
        rest["rooms"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| !first.contains(&r["code"].as_str().unwrap())),
        "pages do not overlap"
    );
    // A page is bounded however large the limit asked.
    let big = watcher
        .ok(json!({"type": "hall_page", "game": "flight", "limit": 100000}))
        .await;
    assert_eq!(big["rooms"].as_array().unwrap().len(), 100);
    // Only rooms with a free seat.
    let open = watcher
        .ok(json!({"type": "hall_page", "game": "jungle", "open": true}))
        .await;
    assert_eq!(open["total"], 0);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_player_holds_seats_in_at_most_three_rooms() {
    let hall = TestHall::start().await;
    let mut camper = hall.guest("camper").await;
    let mut host = hall.guest("host").await;
    let other = host.create("jungle", json!({})).await;
    let mut rooms = Vec::new();
    for _ in 0..3 {
        rooms.push(camper.create("flight", json!({})).await);
    }
    let refused = camper
        .fails(
            json!({"type": "create_room", "game": "flight"}),
            "room_limit",
        )
        .await;
    assert!(refused["message"].as_str().unwrap().contains(&rooms[0]));
    camper
        .fails(
            json!({"type": "join_room", "room": other, "seat": 1}),
            "room_limit",
        )
        .await;
    camper
        .fails(
            json!({"type": "quick_match", "game": "jungle"}),
            "room_limit",
        )
        .await;
    // Leaving one room gives the seat back.
    camper
        .ok(json!({"type": "leave_room", "room": rooms[0]}))
        .await;
    let joined = camper.ok(json!({"type": "join_room", "room": other})).await;
    assert_eq!(joined["seat"], 1);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_public_seat_not_readied_in_time_is_freed_and_the_host_may_free_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = common::test_config(common::sqlite_url(&dir));
    config.ready_timeout = std::time::Duration::from_millis(400);
    let hall = TestHall::with(dir, config).await;
    // A public room: the host readies, the camper does not and loses the seat.
    let mut host = hall.guest("host").await;
    let code = host.create("flight", json!({"seats": 3})).await;
    host.ready().await;
    let mut camper = hall.guest("camper").await;
    camper.join(&code).await;
    let left = host
        .wait_for(|v| v["event"]["kind"] == "left" && v["event"]["seat"] == 1)
        .await;
    assert_eq!(left["room"], code.as_str());
    let state = host.ok(json!({"type": "join_room", "room": code})).await;
    assert_eq!(state["seat"], 0, "the ready host keeps the seat");
    // A private room waits for its friends.
    let mut friend = hall.guest("friend").await;
    let private = friend
        .ok(json!({"type": "create_room", "game": "jungle", "private": true}))
        .await["room"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut other = hall.guest("other").await;
    other.join(&private).await;
    tokio::time::sleep(std::time::Duration::from_millis(900)).await;
    let again = other
        .ok(json!({"type": "join_room", "room": private}))
        .await;
    assert_eq!(again["seat"], 1, "a private room keeps its seats");
    // The host frees the seat of a person who is not ready; not of one who is.
    let mut keen = hall.guest("keen").await;
    keen.join(&code).await;
    camper
        .fails(json!({"type": "kick", "room": code, "seat": 1}), "not_host")
        .await;
    host.ok(json!({"type": "kick", "room": code, "seat": 1}))
        .await;
    keen.join(&code).await;
    keen.ready().await;
    host.fails(json!({"type": "kick", "room": code, "seat": 1}), "invalid")
        .await;
    hall.stop().await;
}
