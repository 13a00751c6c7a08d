//! `hangar verify` and `hangar replay`, the command-line half of P-FAIR-DICE and P-RECORD,
//! on a record got the way a person gets one: a flight game played to its end on a real
//! `hangar serve` (the person's seat on auto-play against a bot), then `GET /api/games/{id}`.
//! A record as served verifies; one roll changed, the seed changed, or the seed and its
//! commitment both replaced are refused; the replay prints one line per action. A jungle
//! record verifies and replays too, and one with a move changed is refused.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::cli_common;

use crate::hall_common;

use cli_common::hangar;
use std::process::Command;

use hall_common::{Server, guest, http_get};
use hangar_dice::Seed;
use serde_json::{Value, json};

/// Plays a game of `game` against a random bot with the person's seat on auto-play, and
/// downloads its record as the hall serves it.
async fn finished_record(port: u16, game: &str, options: Value) -> Value {
    let mut c = guest(port, "ann").await;
    let created = c
        .ok(json!({"type": "create_room", "game": game, "options": options}))
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    c.ok(json!({"type": "add_bot", "room": room, "seat": 1, "bot": "random"}))
        .await;
    c.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    c.wait_for(|v| v["event"]["kind"] == "game_started").await;
    c.ok(json!({"type": "autoplay", "room": room, "on": true}))
        .await;
    let over = c.wait_for(|v| v["event"]["kind"] == "game_over").await;
    let id = over["event"]["result"]["game_id"]
        .as_i64()
        .expect("the result names its game");
    let (status, body) = http_get(port, &format!("/api/games/{id}")).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// Runs `hangar <command>` on `record` written to a file; returns (success, stdout, stderr).
fn run(command: &str, record: &Value) -> (bool, String, String) {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), record.to_string()).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_hangar"))
        .arg(command)
        .arg(file.path())
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// The index and value of the first recorded roll.
fn first_roll(record: &Value) -> (usize, u64) {
    record["actions"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .find_map(|(i, a)| a["roll"].as_u64().map(|r| (i, r)))
        .expect("a flight game rolls")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_fair_dice_verify_and_p_record_replay_on_a_served_record() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("records.db");
    let hall = Server::start(&db.display().to_string(), &[]).await;
    let record = finished_record(hall.port, "flight", json!({"seats": 2, "planes": 2})).await;
    assert_eq!(record["format"], "hangar-record/1");
    let actions = record["actions"].as_array().unwrap();
    let rolls = actions.iter().filter(|a| a["roll"].is_u64()).count();
    assert!(rolls > 0);

    // P-FAIR-DICE: the record as served checks out, every roll counted.
    let (ok, out, err) = run("verify", &record);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains(&format!(
            "{rolls} rolls re-derived from the seed and equal; {} actions replay legally; the game is over",
            actions.len()
        )),
        "{out}"
    );

    // `-` reads the record from standard input, as piped from the API.
    let piped = hangar(&["verify", "-"], record.to_string());
    assert!(piped.status.success());
    assert_eq!(String::from_utf8(piped.stdout).unwrap(), out);

    // One roll changed: refused, naming the action, the forged value and the seed's.
    let (index, value) = first_roll(&record);
    let forged_value = value % 6 + 1;
    let mut forged = record.clone();
    forged["actions"][index]["roll"] = json!(forged_value);
    let (ok, out, err) = run("verify", &forged);
    assert!(!ok, "a changed roll verified: {out}");
    assert!(
        err.contains(&format!(
            "action {index}: recorded roll {forged_value}, the seed gives {value}"
        )),
        "{err}"
    );

    // A wrong seed: its sha256 is not the commitment published at the start.
    let seed = record["seed"].as_str().unwrap();
    let flipped = if seed.starts_with('0') { "1" } else { "0" };
    let mut wrong = record.clone();
    wrong["seed"] = json!(format!("{flipped}{}", &seed[1..]));
    let (ok, out, err) = run("verify", &wrong);
    assert!(!ok, "a wrong seed verified: {out}");
    assert!(
        err.contains("the seed does not match the commitment"),
        "{err}"
    );

    // A wrong seed with a commitment made for it: the commitment now matches, but the dice
    // it gives are not the recorded ones (or the recorded moves are no longer legal).
    let other = Seed::from_u64(7);
    assert_ne!(other.to_string(), seed);
    let mut swapped = record.clone();
    swapped["seed"] = json!(other.to_string());
    swapped["commitment"] = json!(other.commitment());
    let (ok, out, err) = run("verify", &swapped);
    assert!(!ok, "another seed with its own commitment verified: {out}");
    assert!(
        err.contains("recorded roll") || err.contains("is not legal"),
        "{err}"
    );

    // P-RECORD: the replay prints a heading, one numbered line per action with the rolls as
    // recorded, and the result.
    let (ok, out, err) = run("replay", &record);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), actions.len() + 2, "{out}");
    assert!(lines[0].starts_with(&format!("flight game {}", record["game_id"])));
    assert!(lines[0].contains(record["commitment"].as_str().unwrap()));
    for (i, (line, action)) in lines[1..].iter().zip(actions).enumerate() {
        assert!(
            line.trim_start()
                .starts_with(&format!("{}. seat {}", i + 1, action["seat"])),
            "{line}"
        );
        if let Some(roll) = action["roll"].as_u64() {
            assert!(line.contains(&format!("rolls {roll}")), "{line}");
        }
        assert!(line.contains("→ planes"), "{line}");
    }
    assert!(lines.last().unwrap().starts_with("result: "), "{out}");
    // A replay of a forged record is refused like its verification.
    let (ok, _, err) = run("replay", &forged);
    assert!(!ok && err.contains("recorded roll"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_record_jungle_verify_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("records.db");
    let hall = Server::start(&db.display().to_string(), &[]).await;
    let record = finished_record(hall.port, "jungle", json!({})).await;
    let actions = record["actions"].as_array().unwrap();
    let (ok, out, err) = run("verify", &record);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains(&format!(
            "0 rolls re-derived from the seed and equal; {} actions replay legally; the game is over",
            actions.len()
        )),
        "{out}"
    );

    // The replay shows the position after every action.
    let (ok, out, err) = run("replay", &record);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), actions.len() + 2, "{out}");
    assert!(lines[0].starts_with("jungle game"));
    for (line, action) in lines[1..].iter().zip(actions) {
        if let Some(m) = action["action"]["move"].as_str() {
            assert!(line.contains(&format!("plays {m}")), "{line}");
        }
        let (_, fen) = line
            .split_once("→ ")
            .expect("the position follows the action");
        assert!(fen.parse::<hangar_jungle::Position>().is_ok(), "{line}");
    }

    // A move changed into one that cannot be played (red's den d1 is always empty) is refused.
    let index = actions
        .iter()
        .position(|a| a["action"]["move"].is_string())
        .expect("a jungle game has moves");
    let mut forged = record.clone();
    forged["actions"][index]["action"]["move"] = json!("d1d2");
    let (ok, out, err) = run("verify", &forged);
    assert!(!ok, "a changed move verified: {out}");
    assert!(
        err.contains(&format!("action {index} is not legal")),
        "{err}"
    );
}

/// Plays a two-seat flight game as a person against a random bot, rolling with fresh bytes of
/// its own (P-FAIR-DICE), and downloads its record.
async fn person_flight_record(port: u16) -> Value {
    let mut c = guest(port, "pia").await;
    let created = c
        .ok(json!({"type": "create_room", "game": "flight", "options": {"seats": 2, "planes": 2}}))
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    c.ok(json!({"type": "add_bot", "room": room, "seat": 1, "bot": "random"}))
        .await;
    c.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    let mut moves = Value::Null;
    let id = loop {
        let v = c
            .wait_for(|v| {
                v["type"] == "event"
                    && matches!(
                        v["event"]["kind"].as_str(),
                        Some("turn" | "rolled" | "game_over")
                    )
            })
            .await;
        let event = &v["event"];
        match event["kind"].as_str().unwrap() {
            "game_over" => break event["result"]["game_id"].as_i64().unwrap(),
            "rolled" => moves = event["moves"].clone(),
            _ if event["seat"] == 0 && event["need"] == "roll" => {
                let bytes = hangar_dice::Entropy::random().to_string();
                c.ok(json!({"type": "roll", "room": room, "entropy": bytes}))
                    .await;
            }
            _ if event["seat"] == 0 => {
                c.ok(json!({"type": "move", "room": room, "plane": moves[0]["plane"]}))
                    .await;
            }
            _ => {}
        }
    };
    let (status, body) = http_get(port, &format!("/api/games/{id}")).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// P-FAIR-DICE: `hangar verify` re-derives a person's rolls from the seed and the recorded
/// bytes, says which rolls were the player's own and which the hall's, and refuses a record
/// with one byte of one roll's entropy changed, naming that roll.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_fair_dice_verify_names_own_rolls_and_a_forged_entropy_byte() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("records.db");
    let hall = Server::start(&db.display().to_string(), &[]).await;
    let record = person_flight_record(hall.port).await;
    assert_eq!(record["dice"], "per_roll");
    let (ok, out, err) = run("verify", &record);
    assert!(ok, "{out}{err}");
    let actions = record["actions"].as_array().unwrap();
    let own = actions.iter().filter(|a| a["entropy"].is_string()).count();
    assert!(own > 0);
    assert!(
        out.contains(&format!("dice per_roll: {own} of the players' own rolls")),
        "{out}"
    );
    assert!(
        out.contains("(own bytes)") && out.contains("(hall)"),
        "{out}"
    );

    // One byte of one of the person's rolls changed, so that its die changes: refused, the
    // roll named.
    let index = actions
        .iter()
        .position(|a| a["entropy"].is_string())
        .unwrap();
    let text = actions[index]["entropy"].as_str().unwrap().to_owned();
    let failure = (1..=255u8)
        .find_map(|x| {
            let byte = u8::from_str_radix(&text[..2], 16).unwrap() ^ x;
            let mut forged = record.clone();
            forged["actions"][index]["entropy"] = json!(format!("{byte:02x}{}", &text[2..]));
            let (ok, _, err) = run("verify", &forged);
            assert!(!ok, "a changed entropy byte verified");
            err.contains("recorded roll").then_some(err)
        })
        .expect("some byte changes the die");
    assert!(
        failure.contains(&format!("action {index}: recorded roll")),
        "{failure}"
    );
    assert!(failure.contains("(roll "), "{failure}");
}
