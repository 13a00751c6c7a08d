//! `hangar play --game flight` driven through a pipe: the board, the die, the choice of plane.

#![allow(clippy::unwrap_used)] // Tests fail loudly on any error.

use crate::cli_common;

use cli_common::hangar;

fn play(args: &[&str], input: &str) -> (bool, String, String) {
    let output = hangar(&[&["play"], args].concat(), input);
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn a_piped_game_is_played_to_the_end() {
    // Always answering "1", then "2", … is enough: a refused answer is asked again.
    let answers: String = (0..3000).map(|i| format!("{}\n", i % 4 + 1)).collect();
    let (ok, out, err) = play(
        &["--players", "2", "--seed", "5", "--bot", "random"],
        &answers,
    );
    assert!(ok, "{err}");
    assert!(out.contains("you are"), "{out}");
    assert!(out.contains(" rolls "), "the die is shown");
    assert!(
        out.contains("your move — plane number"),
        "choices are asked for"
    );
    assert!(out.contains("game over"), "{out}");
    assert!(out.contains("rank 1: "), "ranks are printed");
    // The board: 15 rows of the cross with plane marks such as R1 or B2.
    assert!(
        out.lines().any(|l| l.contains(" .  .  .")),
        "the track is drawn"
    );
}

#[test]
fn quitting_and_bad_answers_are_handled() {
    // With seed 9 the human is asked for a plane before the game ends.
    let (ok, out, _) = play(&["--players", "4", "--seed", "9"], "x\n9\nq\n");
    assert!(ok);
    assert!(out.contains("`x` is not a plane that can move"), "{out}");
    assert!(out.contains("`9` is not a plane that can move"), "{out}");
    assert!(out.contains("you left the game"), "{out}");
    assert!(!out.contains("game over"), "{out}");
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let answers = "1\n".repeat(2000);
    let a = play(
        &["--players", "3", "--seed", "21", "--bot", "heuristic"],
        &answers,
    )
    .1;
    let b = play(
        &["--players", "3", "--seed", "21", "--bot", "heuristic"],
        &answers,
    )
    .1;
    assert_eq!(a, b);
}

#[test]
fn bad_settings_are_refused() {
    let (ok, _, err) = play(&["--bot", "nobody"], "");
    assert!(!ok);
    assert!(err.contains("unknown bot"), "{err}");
    let (ok, _, err) = play(&["--option", "stacks=sideways"], "");
    assert!(!ok);
    assert!(err.contains("stacks"), "{err}");
}

/// `--option items=true --option weather=true`: the board shows items and weather, the human
/// is offered the items it holds before rolling, and the game still ends.
#[test]
fn a_piped_game_with_items_and_weather() {
    // Answer every question with a plane number or an item name in turn; Enter rolls.
    let answers: String = (0..6000)
        .map(|i| match i % 6 {
            4 => "booster\n".to_owned(),
            5 => "six_die\n".to_owned(),
            k => format!("{}\n", k + 1),
        })
        .collect();
    let (ok, out, err) = play(
        &[
            "--players",
            "2",
            "--seed",
            "5",
            "--bot",
            "random",
            "--option",
            "items=true",
            "--option",
            "weather=true",
        ],
        &answers,
    );
    assert!(ok, "{err}");
    assert!(out.contains("weather: "), "{out}");
    assert!(out.contains("an item appears"), "{out}");
    assert!(out.contains("items on the board:"), "{out}");
    assert!(out.contains("game over"), "{out}");
}
