//! The Jungle commands of the `hangar` binary, run as a user would: perft, rules jungle,
//! sim --game jungle and play --game jungle.

use crate::cli_common;

use std::process::Output;

use cli_common::hangar;

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn json(output: &Output) -> serde_json::Value {
    serde_json::from_str(stdout(output).trim()).expect("one JSON document on stdout")
}

#[test]
fn perft_prints_the_given_count_and_speed() {
    let out = hangar(&["perft", "3"], "");
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("nodes 12240"), "{text}");
    assert!(text.contains("nodes/s"), "{text}");
}

#[test]
fn perft_divide_lists_every_first_move() {
    let out = hangar(&["perft", "--divide", "2"], "");
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().filter(|l| l.contains(": ")).collect();
    assert_eq!(lines.len(), 24, "{text}");
    assert!(lines.iter().all(|l| l.ends_with(": 24")), "{text}");
    assert!(text.contains("nodes 576"));
}

#[test]
fn perft_takes_a_position_and_options() {
    // A red leopard on a5 alone with a yellow lion: 2 moves, 3 with leopard-leaps (J-LEAP).
    let fen = "l6/7/7/7/P6/7/7/7/7 r";
    let plain = hangar(&["perft", "--fen", fen, "1"], "");
    assert!(stdout(&plain).contains("nodes 2\n"), "{}", stdout(&plain));
    let leaps = hangar(
        &["perft", "--fen", fen, "--option", "leopard-leaps=true", "1"],
        "",
    );
    assert!(stdout(&leaps).contains("nodes 3\n"), "{}", stdout(&leaps));
}

#[test]
fn perft_refuses_bad_input() {
    for args in [
        &["perft", "--fen", "nonsense", "2"][..],
        &["perft", "--fen", "7/7/7/7/7/7/7/7/3L3 r", "1"],
        &["perft", "--option", "colour=blue", "1"],
    ] {
        let out = hangar(args, "");
        assert!(!out.status.success(), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn rules_jungle_lists_legal_moves() {
    let out = hangar(&["rules", "jungle"], r#"{"type":"legal_moves"}"#);
    assert!(out.status.success());
    let v = json(&out);
    assert_eq!(v["type"], "legal_moves");
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(24));
    assert_eq!(v["outcome"], serde_json::Value::Null);
}

#[test]
fn rules_jungle_plays_a_move_and_reports_the_capture_and_result() {
    let request = r#"{"type":"play","position":"l6/3L3/7/7/7/7/7/7/7 r","move":"d8d9"}"#;
    let out = hangar(&["rules", "jungle"], request);
    assert!(out.status.success(), "{}", stdout(&out));
    let v = json(&out);
    assert_eq!(v["type"], "played");
    assert_eq!(v["outcome"]["result"], "win");
    assert_eq!(v["outcome"]["winner"], "red");
    assert_eq!(v["outcome"]["reason"], "den");
    let request = r#"{"type":"play","position":"7/7/7/7/7/7/c6/D6/l6 r","move":"a2a3"}"#;
    let v = json(&hangar(&["rules", "jungle"], request));
    assert_eq!(v["captured"], "cat");
}

#[test]
fn rules_jungle_applies_history_for_j_repeat() {
    let request = r#"{"type":"play","moves":["a1a2","g9g8","a2a1","g8g9","a1a2","g9g8","a2a1"],"move":"g8g9"}"#;
    let out = hangar(&["rules", "jungle"], request);
    assert!(!out.status.success());
    let v = json(&out);
    assert_eq!(v["type"], "error");
    assert_eq!(v["error"], "repetition");
    let request =
        r#"{"type":"legal_moves","moves":["a1a2","g9g8","a2a1","g8g9","a1a2","g9g8","a2a1"]}"#;
    let v = json(&hangar(&["rules", "jungle"], request));
    assert_eq!(v["refused"], serde_json::json!(["g8g9"]));
}

#[test]
fn rules_jungle_refuses_bad_input_with_json_and_a_failure_status() {
    for (request, kind) in [
        ("{", "bad_request"),
        (r#"{"type":"play","move":"e3e4"}"#, "illegal_move"),
        (r#"{"type":"play","move":"x"}"#, "bad_move"),
        (
            r#"{"type":"legal_moves","position":"7/7/7/7/7/7/7/7/3L3 r"}"#,
            "bad_position",
        ),
    ] {
        let out = hangar(&["rules", "jungle"], request);
        assert!(!out.status.success(), "{request}");
        let v = json(&out);
        assert_eq!(v["error"], kind, "{request}");
        assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
}

#[test]
fn sim_is_deterministic_for_a_seed() {
    let args = [
        "sim",
        "--game",
        "jungle",
        "--bots",
        "ab:depth=1,random",
        "--games",
        "6",
        "--seed",
        "9",
        "--json",
    ];
    let a = json(&hangar(&args, ""));
    let b = json(&hangar(&[&args[..], &["--threads", "1"]].concat(), ""));
    for key in [
        "wins",
        "draws",
        "losses",
        "average_plies",
        "wins_as_red",
        "wins_as_yellow",
    ] {
        assert_eq!(a[key], b[key], "{key}");
    }
    let total: u64 = ["wins", "draws", "losses"]
        .iter()
        .map(|k| a[k]["count"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 6);
    assert!(a["wins"]["low"].as_f64().unwrap() <= a["wins"]["rate"].as_f64().unwrap());
}

#[test]
fn sim_prints_wins_with_confidence_intervals() {
    let out = hangar(
        &[
            "sim",
            "--game",
            "jungle",
            "--bots",
            "random,random",
            "--games",
            "2",
            "--seed",
            "1",
        ],
        "",
    );
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("95% CI"), "{text}");
}

#[test]
fn sim_refuses_bad_bots() {
    for bots in [
        "random",
        "random,random,random",
        "ab:depth=x,random",
        "alphazero,random",
    ] {
        let out = hangar(
            &["sim", "--game", "jungle", "--bots", bots, "--games", "1"],
            "",
        );
        assert!(!out.status.success(), "{bots}");
    }
}

#[test]
fn play_reads_moves_and_the_bot_replies() {
    let out = hangar(
        &["play", "--game", "jungle", "--bot", "random", "--seed", "3"],
        "e3e4\na1a2\nquit\n",
    );
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("refused: illegal move e3e4"), "{text}");
    assert_eq!(text.matches("bot plays").count(), 1, "{text}");
    assert!(text.contains(" 9  l"), "the board is drawn: {text}");
}

#[test]
fn play_as_yellow_lets_the_bot_start() {
    let out = hangar(
        &[
            "play",
            "--game",
            "jungle",
            "--bot",
            "ab:depth=1",
            "--option",
            "side=yellow",
            "--seed",
            "3",
        ],
        "",
    );
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("you play yellow"), "{text}");
    assert!(text.contains("bot plays"), "{text}");
}
