//! `hangar rules flight`: JSON in, JSON out, run as a real process (docs/flight-json.md).
#![allow(clippy::unwrap_used)]

use crate::cli_common;

use cli_common::hangar;

use serde_json::{Value, json};

/// Runs the binary with `request` on stdin; returns (exit success, answer).
fn rules(request: &Value) -> (bool, Value) {
    rules_text(&request.to_string())
}

fn rules_text(text: &str) -> (bool, Value) {
    let out = hangar(&["rules", "flight"], text);
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    (out.status.success(), answer)
}

fn new_game() -> Value {
    let (ok, answer) = rules(&json!({
        "request": "new", "preset": "traditional", "players": ["red", "blue"], "first": "red"
    }));
    assert!(ok);
    assert_eq!(answer["ok"], true);
    answer["position"].clone()
}

#[test]
fn new_gives_the_start_position() {
    let position = new_game();
    assert_eq!(position["turn"], "red");
    assert_eq!(position["players"][0]["planes"], json!([-1, -1, -1, -1]));
    assert_eq!(position["options"]["stacks"], "block");
}

#[test]
fn moves_for_a_roll() {
    let mut position = new_game();
    let (ok, answer) = rules(&json!({"request": "moves", "position": position, "roll": 3}));
    assert!(ok);
    assert_eq!(
        answer["moves"],
        json!([]),
        "F-TAKEOFF: nothing takes off on 3"
    );
    let (_, answer) = rules(&json!({"request": "moves", "position": position, "roll": 6}));
    assert_eq!(
        answer["moves"].as_array().unwrap().len(),
        1,
        "F-D-SAME: one take-off choice"
    );
    assert_eq!(answer["moves"][0]["to"], 0);
    position["players"][0]["planes"] = json!([3, 15, -1, -1]);
    position["players"][1]["planes"] = json!([53, -1, -1, -1]);
    let (_, answer) = rules(&json!({"request": "moves", "position": position, "roll": 3}));
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[1]["to"], 34, "F-FLY");
    assert_eq!(
        moves[1]["captures"],
        json!([{"colour": "blue", "plane": 0}]),
        "F-CROSS"
    );
}

#[test]
fn play_gives_position_and_events() {
    let position = new_game();
    let (ok, answer) = rules(&json!({
        "request": "play", "position": position,
        "actions": [{"type": "roll", "value": 6}, {"type": "move", "plane": 2}]
    }));
    assert!(ok, "{answer}");
    assert_eq!(
        answer["position"]["players"][0]["planes"],
        json!([-1, -1, 0, -1])
    );
    let types: Vec<&str> = answer["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(types, vec!["rolled", "took_off", "bonus_roll"]);
    assert_eq!(answer["phase"], json!({"type": "roll"}));
}

#[test]
fn bad_requests_give_json_errors() {
    let position = new_game();
    let (ok, answer) = rules(&json!({
        "request": "play", "position": position, "action": {"type": "move", "plane": 0}
    }));
    assert!(!ok);
    assert_eq!(answer["ok"], false);
    assert!(
        answer["error"].as_str().unwrap().contains("rolled"),
        "{answer}"
    );
    let mut impossible = position.clone();
    impossible["players"][1]["colour"] = json!("yellow");
    let (ok, answer) = rules(&json!({"request": "moves", "position": impossible, "roll": 2}));
    assert!(!ok);
    assert!(
        answer["error"].as_str().unwrap().contains("opposite"),
        "{answer}"
    );
    let (ok, answer) = rules_text("not json");
    assert!(!ok);
    assert!(answer["error"].as_str().unwrap().starts_with("bad request"));
    let (ok, _) = rules(&json!({"request": "moves", "position": position, "roll": 7}));
    assert!(!ok);
}

/// F-ITEM-SPAWN, F-WEATHER, F-ITEM-USE over JSON: a new game with items and weather awaits
/// draws, `draw` actions settle them, and an item in the bar is used before rolling.
#[test]
fn items_and_weather_through_json() {
    let (ok, answer) = rules(&json!({
        "request": "new", "players": ["red", "blue"], "first": "red",
        "options": {"items": true, "weather": true}
    }));
    assert!(ok, "{answer}");
    assert_eq!(answer["phase"], json!({"type": "draw", "what": "weather"}));
    assert_eq!(answer["draw_choices"], 156);
    let (ok, answer) = rules(&json!({
        "request": "play", "position": answer["position"],
        "actions": [{"type": "draw", "index": 40}, {"type": "draw", "index": 21}]
    }));
    assert!(ok, "{answer}");
    assert_eq!(answer["phase"], json!({"type": "roll"}));
    assert_eq!(
        answer["events"],
        json!([
            {"type": "weather_appeared", "weather": "tailwind", "square": 13},
            {"type": "item_appeared", "item": "booster", "square": 10}
        ])
    );
    assert_eq!(
        answer["position"]["weather"],
        json!({"square": 13, "weather": "tailwind"})
    );
    assert_eq!(
        answer["position"]["items"],
        json!([{"square": 10, "item": "booster"}])
    );
    // Red holds a six die: using it throws a 6 at once, which takes a plane off.
    let mut position = answer["position"].clone();
    position["players"][0]["items"] = json!(["six_die"]);
    let (ok, answer) = rules(&json!({
        "request": "play", "position": position,
        "actions": [{"type": "use_item", "item": "six_die"}, {"type": "move", "plane": 0}]
    }));
    assert!(ok, "{answer}");
    assert_eq!(
        answer["events"][0],
        json!({"type": "item_used", "colour": "red", "item": "six_die"})
    );
    assert_eq!(
        answer["events"][1],
        json!({"type": "rolled", "colour": "red", "value": 6})
    );
    assert_eq!(answer["position"]["players"][0]["planes"][0], 0);
    // Using an item one does not hold is refused.
    let (ok, answer) = rules(&json!({
        "request": "play", "position": answer["position"],
        "action": {"type": "use_item", "item": "booster"}
    }));
    assert!(!ok);
    assert!(
        answer["error"].as_str().unwrap().contains("no booster"),
        "{answer}"
    );
}

/// P-FAIR-DICE: `derive_roll` gives outside checkers roll k of a per-roll game from (seed, k,
/// the roller's bytes): the test vector of protocol.md §10.
#[test]
fn p_fair_dice_derive_roll_gives_the_protocol_test_vector() {
    let seed = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    let bytes = "f0e1d2c3b4a5968778695a4b3c2d1e0f";
    let cases = [
        (
            0,
            Some(bytes),
            "ed3f5c0843bebaf323fe47177cab59e9f6a44cdef1f3ff82871a965d4a721794",
            5,
            55,
        ),
        (
            7,
            Some(bytes),
            "499bb87e181c33a8b391d9ba808dce5ebdbc49e32822aa8c4ef0cd2d8d26a14a",
            4,
            108,
        ),
        (
            7,
            None,
            "dd12e3f09e85b8f1646d96744e4ecc0468d4e071ac6be42f731dd79a3bb857e2",
            4,
            23,
        ),
        (
            7,
            Some("f0e1d2c3b4a5968778695a4b3c2d1e0e"),
            "c2d587e6a4c43650baa1c8fa3b8173e716024661c5f8475cdbb769616957dbb8",
            4,
            65,
        ),
    ];
    for (k, entropy, key, die, draw) in cases {
        let (ok, answer) = rules(&json!({
            "request": "derive_roll", "seed": seed, "k": k, "entropy": entropy, "below": [156]
        }));
        assert!(ok, "{answer}");
        assert_eq!(answer["key"], key, "k {k}");
        assert_eq!(answer["die"], die, "k {k}");
        assert_eq!(answer["draws"], json!([draw]), "k {k}");
    }
    // Bytes that are no entropy (15 bytes) are refused.
    let (ok, answer) = rules(&json!({
        "request": "derive_roll", "seed": seed, "k": 0, "entropy": "00".repeat(15)
    }));
    assert!(!ok && answer["ok"] == false, "{answer}");
}
