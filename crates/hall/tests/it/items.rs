//! Items and weather in the hall (F-ITEM-SPAWN, F-ITEM-PICK, F-ITEM-USE, F-WEATHER): a room
//! with both options plays to the end over real sockets, players use the items they pick up,
//! and the record verifies and replays with every chance draw re-derived from the seed.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use common::{Client, TestHall};
use serde_json::{Value, json};

/// What one seat saw and did in a game.
#[derive(Default)]
struct Seen {
    items_used: usize,
    items_on_board: usize,
    weather_seen: bool,
}

/// Plays a seat to the end, using the first item it holds before each roll.
async fn play_using_items(client: &mut Client) -> (Value, Seen) {
    let room = client.room.clone().unwrap();
    let me = client.seat.unwrap();
    let mut moves: Vec<Value> = Vec::new();
    let mut view = Value::Null;
    let mut seen = Seen::default();
    loop {
        let v = client.next().await;
        if v["type"] != "event" {
            continue;
        }
        let event = &v["event"];
        if event["game"].is_object() {
            view = event["game"].clone();
            seen.items_on_board = seen
                .items_on_board
                .max(view["items"].as_array().unwrap().len());
            seen.weather_seen |= view["weather"].is_object();
        }
        match event["kind"].as_str().unwrap_or_default() {
            "game_over" => return (event["result"].clone(), seen),
            "rolled" => moves = event["moves"].as_array().cloned().unwrap_or_default(),
            "turn" if event["seat"] == json!(me) => {
                let held = view["bars"][me].as_array().cloned().unwrap_or_default();
                let command = if event["need"] == "roll" {
                    match held.first() {
                        Some(item) => {
                            seen.items_used += 1;
                            // The bar shown until the next view still lists it.
                            view["bars"][me] = json!(held[1..]);
                            json!({"type": "use_item", "room": room, "item": item, "entropy": common::entropy()})
                        }
                        None => json!({"type": "roll", "room": room, "entropy": common::entropy()}),
                    }
                } else {
                    json!({"type": "move", "room": room, "plane": moves[0]["plane"].clone()})
                };
                let answer = client.call(command.clone()).await;
                assert_eq!(answer["type"], "ack", "{command} → {answer}");
                // A roll, with or without an item, is acknowledged with the value it gave.
                if command["type"] != "move" {
                    let value = answer["result"]["value"].as_u64();
                    assert!(
                        value.is_some_and(|v| (1..=6).contains(&v)),
                        "{command} → {answer}"
                    );
                }
            }
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn f_item_use_and_f_weather_a_room_with_items_and_weather_plays_to_the_end() {
    let hall = TestHall::start().await;
    let mut used = 0;
    // A game where nobody picks an item up is possible: play until one was used (F-ITEM-PICK).
    for _ in 0..5 {
        let mut a = hall.guest("ana").await;
        let code = a
            .create(
                "flight",
                json!({"seats": 2, "planes": 2, "items": true, "weather": true}),
            )
            .await;
        let mut b = hall.guest("bo").await;
        b.join(&code).await;
        a.ready().await;
        b.ready().await;
        let ta = tokio::spawn(async move { play_using_items(&mut a).await });
        let tb = tokio::spawn(async move { play_using_items(&mut b).await });
        let ((ra, sa), (rb, sb)) = (ta.await.unwrap(), tb.await.unwrap());
        assert_eq!(ra, rb);
        assert_eq!(ra["reason"], "finished");
        // F-ITEM-SPAWN: items appear, never more than two at once; F-WEATHER: a cell appears.
        assert!(sa.items_on_board >= 1 && sa.items_on_board <= 2);
        assert!(sa.weather_seen && sb.weather_seen);
        // P-FAIR-DICE: every roll and every chance draw follows from the revealed seed.
        let game_id = ra["game_id"].as_i64().unwrap();
        let (status, record) = hall.get(&format!("/api/games/{game_id}")).await;
        assert_eq!(status, 200);
        let verified = hangar_games::record::verify(&record).unwrap();
        assert!(verified.over);
        let (status, _) = hall.get(&format!("/api/games/{game_id}/replay")).await;
        assert_eq!(status, 200);
        used += sa.items_used + sb.items_used;
        if used > 0 {
            break;
        }
    }
    assert!(
        used > 0,
        "five games and no item was ever picked up and used"
    );
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn f_item_use_an_item_not_held_is_refused_and_changes_nothing() {
    let hall = TestHall::start().await;
    let mut a = hall.guest("ana").await;
    let code = a.create("flight", json!({"seats": 2, "items": true})).await;
    let mut b = hall.guest("bo").await;
    b.join(&code).await;
    a.ready().await;
    b.ready().await;
    let turn = a.event("turn").await;
    let mut on_turn = if turn["event"]["seat"] == json!(0) {
        a
    } else {
        b
    };
    for item in ["booster", "six_die", "umbrella"] {
        on_turn
            .fails(
                json!({"type": "use_item", "room": code, "item": item, "entropy": common::entropy()}),
                "illegal",
            )
            .await;
    }
    // Nothing changed: the roll is still this player's to throw.
    let rolled = on_turn
        .ok(json!({"type": "roll", "room": code, "entropy": common::entropy()}))
        .await;
    assert!(rolled.is_object());
    hall.stop().await;
}
