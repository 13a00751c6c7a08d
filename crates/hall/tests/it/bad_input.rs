//! Bad input gets a clear error naming the command id and changes nothing (platform §5,
//! P-AUTH): malformed JSON, unknown type, oversized frame, out of turn, illegal move, wrong or
//! missing token, repeated id (floods: `abuse_flood.rs`).
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use common::{Client, TestHall};
use serde_json::{Value, json};

/// The room's game, seats and turn as a fresh watcher sees them (the version is left out:
/// watchers coming and going are events too).
async fn room_state(hall: &TestHall, code: &str) -> Value {
    let mut watcher = hall.client().await;
    watcher.ok(json!({"type": "spectate", "room": code})).await;
    let snapshot = watcher.wait_for(|v| v["type"] == "snapshot").await;
    watcher.close().await;
    let state = &snapshot["state"];
    json!([state["game"], state["seats"], state["turn"]])
}

/// A running two-player flight game; returns (player on turn, the other, code).
async fn flight_pair(hall: &TestHall) -> (Client, Client, String) {
    let mut a = hall.guest("a").await;
    let code = a.create("flight", json!({"seats": 2, "planes": 2})).await;
    let mut b = hall.guest("b").await;
    b.join(&code).await;
    a.ready().await;
    b.ready().await;
    let turn = a.event("turn").await;
    b.event("turn").await;
    if turn["event"]["seat"] == json!(a.seat.unwrap()) {
        (a, b, code)
    } else {
        (b, a, code)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_unknown_and_oversized_messages_get_errors_and_the_socket_stays() {
    let hall = TestHall::start().await;
    let mut c = hall.client().await;
    c.send_text("{this is not json").await;
    let e = c.next().await;
    assert_eq!(
        (e["type"].as_str(), e["code"].as_str()),
        (Some("error"), Some("bad_message"))
    );
    assert_eq!(e["id"], Value::Null);

    c.send_text(r#"{"type":"teleport","id":41}"#).await;
    let e = c.next().await;
    assert_eq!(
        (e["code"].as_str(), &e["id"]),
        (Some("unknown_type"), &json!(41))
    );

    c.send_text(r#"{"type":"roll","id":42}"#).await;
    let e = c.next().await;
    assert_eq!(
        (e["code"].as_str(), &e["id"]),
        (Some("bad_message"), &json!(42)),
        "missing room"
    );

    c.send_text(r#"[1,2,3]"#).await;
    assert_eq!(c.next().await["code"], "bad_message");

    let big = format!(
        r#"{{"type":"chat","id":43,"room":"X","text":"{}"}}"#,
        "x".repeat(5000)
    );
    c.send_text(&big).await;
    let e = c.next().await;
    assert_eq!(
        (e["code"].as_str(), &e["id"]),
        (Some("too_large"), &json!(43))
    );

    // Still connected and answering.
    c.ok(json!({"type": "ping"})).await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_huge_frame_closes_with_a_reason() {
    let hall = TestHall::start().await;
    let mut c = hall.client().await;
    c.send_text(&"y".repeat(100_000)).await;
    let closed = tokio::time::timeout(common::WAIT, async {
        loop {
            match c_next_raw(&mut c).await {
                Some(tokio_tungstenite::tungstenite::Message::Close(frame)) => return frame,
                Some(_) => continue,
                None => return None,
            }
        }
    })
    .await
    .unwrap();
    let frame = closed.expect("a close frame with a reason");
    assert_eq!(u16::from(frame.code), 1009);
    assert!(!frame.reason.is_empty());
    hall.stop().await;
}

async fn c_next_raw(c: &mut Client) -> Option<tokio_tungstenite::tungstenite::Message> {
    c.raw_next().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_and_wrong_tokens_are_refused() {
    let hall = TestHall::start().await;
    let mut c = hall.client().await;
    c.fails(
        json!({"type": "create_room", "game": "flight"}),
        "unauthenticated",
    )
    .await;
    c.fails(
        json!({"type": "quick_match", "game": "flight"}),
        "unauthenticated",
    )
    .await;
    c.fails(json!({"type": "auth", "token": "not-a-token"}), "bad_token")
        .await;
    c.fails(
        json!({"type": "auth", "token": "00000000000000000000000000000000"}),
        "bad_token",
    )
    .await;
    c.fails(json!({"type": "my_games"}), "unauthenticated")
        .await;
    // A real token works, on a new connection too (P-GUEST).
    let mut g = hall.guest("gus").await;
    let token = g.token.clone().unwrap();
    let code = g.create("flight", json!({})).await;
    c.fails(
        json!({"type": "ready", "room": code, "ready": true}),
        "unauthenticated",
    )
    .await;
    let me = c.ok(json!({"type": "auth", "token": token})).await;
    assert_eq!(me["player"]["name"], "gus");
    assert_eq!(me["rooms"], json!([code]));
    hall.stop().await;
}

/// A move or an item is typed where the room reads the command; one that does not read is
/// refused only after the checks a move passes first, as when the game read the text: out of
/// turn is still `not_your_turn`, and on turn the game's own words.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_auth_a_move_that_does_not_read_is_refused_after_the_turn_is_checked() {
    let hall = TestHall::start().await;
    let (mut on_turn, mut other, code) = flight_pair(&hall).await;
    let before = room_state(&hall, &code).await;
    for command in [
        json!({"type": "move", "room": code, "plane": 300}),
        json!({"type": "move", "room": code, "move": "zz"}),
        json!({"type": "use_item", "room": code, "item": "umbrella"}),
    ] {
        other.fails(command.clone(), "not_your_turn").await;
        let refused = on_turn.fails(command.clone(), "illegal").await;
        let message = refused["message"].as_str().unwrap();
        assert!(
            ["no such plane", "a flight move names", "unknown item"]
                .iter()
                .any(|words| message.contains(words)),
            "{command}: {message}"
        );
    }
    // An item is read before its bytes are asked for: a booster in any spelling the game
    // takes throws a die, so it carries the roller's bytes.
    on_turn
        .fails(
            json!({"type": "use_item", "room": code, "item": "Booster"}),
            "invalid",
        )
        .await;
    assert_eq!(before, room_state(&hall, &code).await, "nothing changed");
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_auth_out_of_turn_and_illegal_actions_change_nothing() {
    let hall = TestHall::start().await;
    let (mut on_turn, mut other, code) = flight_pair(&hall).await;
    let before = room_state(&hall, &code).await;
    other
        .fails(
            json!({"type": "roll", "room": code, "entropy": common::entropy()}),
            "not_your_turn",
        )
        .await;
    on_turn
        .fails(json!({"type": "move", "room": code, "plane": 0}), "illegal")
        .await;
    on_turn
        .fails(
            json!({"type": "move", "room": code, "move": "e3e4"}),
            "illegal",
        )
        .await;
    on_turn
        .fails(json!({"type": "move", "room": code}), "bad_message")
        .await;
    on_turn
        .fails(
            json!({"type": "use_item", "room": code, "item": "booster", "entropy": common::entropy()}),
            "illegal",
        )
        .await;
    on_turn
        .fails(json!({"type": "resign", "room": code}), "too_early")
        .await;
    on_turn
        .fails(json!({"type": "offer_draw", "room": code}), "illegal")
        .await;
    on_turn
        .fails(
            json!({"type": "leave_room", "room": code}),
            "confirm_escape",
        )
        .await;
    on_turn
        .fails(
            json!({"type": "add_bot", "room": code, "seat": 1, "bot": "random"}),
            "already_playing",
        )
        .await;
    on_turn
        .fails(
            json!({"type": "roll", "room": "NOSUCH", "entropy": common::entropy()}),
            "no_room",
        )
        .await;
    // A watcher acts on nothing (P-SPECTATE).
    let mut watcher = hall.guest("w").await;
    watcher.ok(json!({"type": "spectate", "room": code})).await;
    watcher
        .fails(
            json!({"type": "roll", "room": code, "entropy": common::entropy()}),
            "spectator",
        )
        .await;
    let after = room_state(&hall, &code).await;
    assert_eq!(before, after, "no refused action changed the room");
    // And a legal one does.
    on_turn
        .ok(json!({"type": "roll", "room": code, "entropy": common::entropy()}))
        .await;
    assert_ne!(room_state(&hall, &code).await, before);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeated_command_id_is_handled_once() {
    let hall = TestHall::start().await;
    let (mut on_turn, _other, code) = flight_pair(&hall).await;
    let roll = json!({"type": "roll", "room": code, "id": 777, "entropy": common::entropy()});
    on_turn.send_text(&roll.to_string()).await;
    let first = on_turn.answer(777).await;
    assert_eq!(first["type"], "ack");
    let state = room_state(&hall, &code).await;
    on_turn.send_text(&roll.to_string()).await;
    let again = on_turn.answer(777).await;
    assert_eq!(again["repeat"], true);
    assert_eq!(again["result"], first["result"], "the same answer again");
    assert_eq!(room_state(&hall, &code).await, state, "run once");
    // Over a new connection with the same client id too.
    let mut c = hall.client().await;
    let mut p = hall.guest("p").await;
    p.ok(json!({"type": "auth", "token": p.token.clone().unwrap(), "client": "tab-1"}))
        .await;
    p.send_text(&json!({"type": "create_room", "game": "jungle", "id": 900}).to_string())
        .await;
    let first = p.answer(900).await;
    let token = p.token.clone().unwrap();
    c.ok(json!({"type": "auth", "token": token, "client": "tab-1"}))
        .await;
    c.send_text(&json!({"type": "create_room", "game": "jungle", "id": 900}).to_string())
        .await;
    let again = c.answer(900).await;
    assert_eq!(again["repeat"], true, "{again} after {first}");
    assert_eq!(
        again["result"]["room"], first["result"]["room"],
        "no second room"
    );
    hall.stop().await;
}
