//! Bad input to the rule engines' command lines gets a clear answer in the promised form:
//! bytes that are not UTF-8 are a JSON `bad request`, a Jungle position whose side that
//! moved last has no pieces is refused (J-WIN-WIPE), and options given beside a position
//! are set over its own instead of replacing them.
#![allow(clippy::unwrap_used)]

use crate::cli_common;

use cli_common::hangar;
use std::process::Output;

use serde_json::Value;

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {:?} / {:?}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

const NOT_UTF8: &[u8] = b"{\"request\":\"new\",\"players\":[\"red\xff\xfe\"]}";

#[test]
fn rules_flight_answers_bytes_that_are_not_utf8_in_json() {
    let out = hangar(&["rules", "flight"], NOT_UTF8);
    assert!(!out.status.success());
    let answer = json(&out);
    assert_eq!(answer["ok"], false);
    assert!(
        answer["error"].as_str().unwrap().contains("UTF-8"),
        "{answer}"
    );
}

#[test]
fn rules_jungle_answers_bytes_that_are_not_utf8_in_json() {
    let out = hangar(&["rules", "jungle"], NOT_UTF8);
    assert!(!out.status.success());
    let answer = json(&out);
    assert_eq!(
        (answer["type"].as_str(), answer["error"].as_str()),
        (Some("error"), Some("bad_request"))
    );
}

#[test]
fn j_win_wipe_a_position_whose_last_mover_has_no_pieces_is_refused() {
    // Red to move, yellow without pieces: yellow cannot have moved last.
    let request = br#"{"type":"legal_moves","position":"7/7/7/7/7/7/7/7/L6 r"}"#;
    let out = hangar(&["rules", "jungle"], request);
    assert!(!out.status.success());
    let answer = json(&out);
    assert_eq!(answer["error"], "bad_position", "{answer}");
    assert!(
        answer["message"].as_str().unwrap().contains("no pieces"),
        "{answer}"
    );
    // Yellow to move without pieces: a finished game, reported as such.
    let request = br#"{"type":"legal_moves","position":"7/7/7/7/7/7/7/7/L6 y"}"#;
    let answer = json(&hangar(&["rules", "jungle"], request));
    assert_eq!(answer["outcome"]["reason"], "no-pieces", "{answer}");
}

#[test]
fn rules_jungle_options_are_set_over_the_positions_own() {
    let request = br#"{"type":"legal_moves","position":"l6/7/7/7/P6/7/7/7/7 r leopard-leaps=true","options":{"elephant-takes-rat":true}}"#;
    let out = hangar(&["rules", "jungle"], request);
    assert!(out.status.success(), "{:?}", json(&out));
    let position = json(&out)["position"].as_str().unwrap().to_owned();
    assert!(position.contains("leopard-leaps=true"), "{position}");
    assert!(position.contains("elephant-takes-rat=true"), "{position}");
}

#[test]
fn perft_options_are_set_over_the_positions_own() {
    let fen = "l6/7/7/7/P6/7/7/7/7 r leopard-leaps=true";
    let count = |extra: &[&str]| {
        let mut args = vec!["perft", "2", "--fen", fen];
        args.extend_from_slice(extra);
        let out = hangar(&args, b"");
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines()
            .find_map(|l| l.strip_prefix("nodes "))
            .unwrap()
            .to_owned()
    };
    // An option the position does not depend on changes nothing: the leap is kept.
    assert_eq!(count(&["--option", "elephant-takes-rat=true"]), count(&[]));
}
