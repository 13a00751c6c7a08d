//! What the hall really sends reads as the wire types of `hangar_protocol`: every frame
//! of a flight game and of a jungle game (against bots), with the hall list followed, is read
//! as its type, and room events as a `RoomEvent` or a `GameEvent`. Together with
//! `protocol_doc.rs` (the document against the types) this ties the document to the server.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::collections::BTreeSet;

use common::{Client, TestHall};
use hangar_protocol::{
    Answer, GameEvent, HallMessage, RoomEvent, RoomMessage, Welcome, names_variant,
};
use serde_json::{Value, json};

/// Reads one frame as its type (from its text, as a client would); returns the event kind of
/// an `event` frame.
fn check(frame: &Value) -> Option<String> {
    let text = frame.to_string();
    let kind = frame["type"].as_str().unwrap();
    match kind {
        "welcome" => drop(serde_json::from_str::<Welcome>(&text).unwrap()),
        "ack" | "error" => {
            drop(serde_json::from_str::<Answer>(&text).unwrap_or_else(|e| panic!("{text}: {e}")))
        }
        "hall" | "hall_room" | "hall_room_removed" => drop(
            serde_json::from_str::<HallMessage>(&text).unwrap_or_else(|e| panic!("{text}: {e}")),
        ),
        "snapshot" | "event" => {
            serde_json::from_str::<RoomMessage>(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let event = frame.get("event")?;
            let name = event["kind"].as_str().unwrap();
            let text = event.to_string();
            if names_variant::<RoomEvent>("kind", name) {
                serde_json::from_str::<RoomEvent>(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            } else {
                serde_json::from_str::<GameEvent>(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            }
            return Some(name.to_owned());
        }
        other => panic!("the server sent a frame of type {other:?}: {text}"),
    }
    None
}

/// Reads frames until a `game_over` event, checking each; `act` answers this seat's turns.
async fn follow(
    client: &mut Client,
    kinds: &mut BTreeSet<String>,
    mut act: impl FnMut(&Value) -> Vec<Value>,
) {
    loop {
        let frame = client.next().await;
        if let Some(kind) = check(&frame) {
            kinds.insert(kind.clone());
            if kind == "game_over" {
                return;
            }
            for command in act(&frame["event"]) {
                client.send(command).await;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_frame_of_a_flight_and_a_jungle_game_reads_as_its_wire_type() {
    let hall = TestHall::start().await;
    let mut watcher = hall.client().await;
    watcher
        .ok(json!({"type": "hall_subscribe", "game": "flight"}))
        .await;

    let mut kinds = BTreeSet::new();
    // A test client has read its `welcome` already: this is the frame it read.
    let welcome = serde_json::from_str::<Value>(&hangar_protocol::welcome_frame()).unwrap();
    check(&welcome);
    let mut a = hall.guest("ann").await;
    let code = a.create("flight", json!({"seats": 2, "planes": 2})).await;
    a.ok(json!({"type": "add_bot", "room": code, "seat": 1, "bot": "random"}))
        .await;
    a.ready().await;
    let (room, me) = (code.clone(), a.seat.unwrap());
    let mut moves: Vec<Value> = Vec::new();
    follow(&mut a, &mut kinds, |event| {
        match event["kind"].as_str().unwrap() {
            "rolled" => moves = event["moves"].as_array().cloned().unwrap_or_default(),
            "turn" if event["seat"] == json!(me) => {
                return vec![if event["need"] == "roll" {
                    json!({"type": "roll", "room": room, "entropy": common::entropy()})
                } else {
                    json!({"type": "move", "room": room, "plane": moves[0]["plane"]})
                }];
            }
            _ => {}
        }
        Vec::new()
    })
    .await;

    let mut j = hall.guest("jo").await;
    let code = j.create("jungle", json!({})).await;
    j.ok(json!({"type": "add_bot", "room": code, "seat": 1, "bot": "random"}))
        .await;
    j.ready().await;
    let (room, me) = (code.clone(), j.seat.unwrap());
    let (mut moves, mut turns) = (Vec::new(), 0);
    follow(&mut j, &mut kinds, |event| {
        if let Some(list) = event["game"]["moves"].as_array() {
            moves = list.clone();
        }
        if event["kind"] == "turn" && event["seat"] == json!(me) {
            turns += 1;
            // A draw offered then a move (the bot's move declines it), then a resignation.
            return match turns {
                1 => vec![
                    json!({"type": "offer_draw", "room": room}),
                    json!({"type": "move", "room": room, "move": moves[0]}),
                ],
                _ => vec![json!({"type": "resign", "room": room})],
            };
        }
        Vec::new()
    })
    .await;
    // Everything else each connection was sent (answers, the hall list) is checked too: a
    // ping's ack comes after all of it.
    for client in [&mut a, &mut j, &mut watcher] {
        let id = client.send(json!({"type": "ping"})).await;
        loop {
            let frame = client.next().await;
            check(&frame);
            if frame["id"] == json!(id) {
                break;
            }
        }
    }
    let expected = [
        "bot_added",
        "ready",
        "game_started",
        "turn",
        "rolled",
        "moved",
        "jungle_moved",
        "draw_offered",
        "draw_declined",
        "out",
        "game_over",
    ];
    for kind in expected {
        assert!(kinds.contains(kind), "no {kind} event seen: {kinds:?}");
    }
    hall.stop().await;
}
