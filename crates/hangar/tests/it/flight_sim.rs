//! `hangar sim --game flight`: the report holds every field, and a seed gives the same games
//! whatever the thread count.

#![allow(clippy::unwrap_used)] // Tests fail loudly on any error.

use std::process::Command;

fn sim(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_hangar"))
        .args(["sim", "--game", "flight"])
        .args(args)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    let (ok, out, err) = sim(&all);
    assert!(ok, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn the_text_report_has_rates_intervals_turns_and_speed() {
    let (ok, out, err) = sim(&[
        "--players",
        "4",
        "--bots",
        "random,heuristic,random,random",
        "--games",
        "40",
        "--seed",
        "3",
    ]);
    assert!(ok, "{err}");
    for needle in [
        "seat",
        "per bot",
        "win rate",
        "95% CI",
        "mean turns per game",
        "games/s",
        "turns/s",
    ] {
        assert!(out.contains(needle), "missing {needle}: {out}");
    }
    assert!(out.contains("heuristic") && out.contains("random"));
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let base = [
        "--players",
        "3",
        "--bots",
        "random,heuristic,search:depth=1",
        "--games",
        "30",
    ];
    let mut one = json(&[&base[..], &["--seed", "8", "--threads", "1"]].concat());
    let mut three = json(&[&base[..], &["--seed", "8", "--threads", "3"]].concat());
    assert_eq!(one["threads"], 1);
    assert_eq!(three["threads"], 3);
    for report in [&mut one, &mut three] {
        for key in ["threads", "seconds", "games_per_second", "turns_per_second"] {
            report.as_object_mut().unwrap().remove(key);
        }
    }
    assert_eq!(one, three);
    let other = json(&[&base[..], &["--seed", "9", "--threads", "1"]].concat());
    assert_ne!(one["turns"], other["turns"], "another seed, other games");
}

#[test]
fn wins_add_up_and_intervals_hold_the_rate() {
    let report = json(&[
        "--players",
        "2",
        "--bots",
        "heuristic,random",
        "--games",
        "50",
        "--seed",
        "4",
    ]);
    let seats = report["seats"].as_array().unwrap();
    let wins: u64 = seats.iter().map(|s| s["wins"].as_u64().unwrap()).sum();
    assert_eq!(wins, 50, "one winner per two-player game");
    for seat in seats {
        let (low, rate, high) = (
            seat["ci_low"].as_f64().unwrap(),
            seat["win_rate"].as_f64().unwrap(),
            seat["ci_high"].as_f64().unwrap(),
        );
        assert!(low <= rate && rate <= high, "{seat}");
    }
    assert!(report["mean_turns"].as_f64().unwrap() > 10.0);
    assert_eq!(report["bots"].as_array().unwrap().len(), 2);
}

#[test]
fn team_games_count_both_partners_as_winners() {
    let report = json(&[
        "--players",
        "4",
        "--bots",
        "heuristic,random,heuristic,random",
        "--option",
        "teams=true",
        "--games",
        "20",
    ]);
    let wins: u64 = report["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["wins"].as_u64().unwrap())
        .sum();
    assert_eq!(wins, 40, "two winners per team game");
}

#[test]
fn bad_arguments_are_refused_with_a_reason() {
    let (ok, _, err) = sim(&["--players", "5"]);
    assert!(!ok && err.contains("2 to 4"), "{err}");
    let (ok, _, err) = sim(&["--players", "3", "--bots", "random,random"]);
    assert!(!ok && err.contains("one per seat"), "{err}");
    let (ok, _, err) = sim(&["--players", "3", "--option", "teams=true", "--games", "1"]);
    assert!(!ok && !err.is_empty());
    let (ok, _, err) = sim(&["--rules", "modern"]);
    assert!(!ok && err.contains("preset"), "{err}");
}

/// `--option items=true --option weather=true`: bot games with items and weather (§7–8)
/// run to the end, reproducibly.
#[test]
fn items_and_weather_options_are_simulated() {
    let args = [
        "--players",
        "4",
        "--bots",
        "random,heuristic,random,heuristic",
        "--games",
        "30",
        "--seed",
        "8",
        "--option",
        "items=true",
        "--option",
        "weather=true",
    ];
    let a = json(&args);
    let b = json(&args);
    assert_eq!(a["turns"], b["turns"]);
    assert_eq!(a["seats"], b["seats"]);
    let wins: u64 = a["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["wins"].as_u64().unwrap())
        .sum();
    assert_eq!(wins, 30, "every game ends with a winner");
    let (ok, out, err) = sim(&args);
    assert!(ok, "{err}");
    assert!(out.contains("items=true"), "{out}");
}

/// `--clock cpu`: clocked bots measure their budgets in the deciding thread's CPU time; the
/// report names the clock, and jungle (whose bots keep the wall clock) refuses it.
#[test]
fn the_cpu_clock_is_named_in_the_report() {
    let report = json(&[
        "--players",
        "2",
        "--bots",
        "rollout:n=16,ms=1,heuristic",
        "--games",
        "4",
        "--clock",
        "cpu",
    ]);
    let text = report.to_string();
    assert!(text.contains("clock=cpu"), "{text}");
    let (ok, _, err) = sim(&["--clock", "sundial"]);
    assert!(!ok && err.contains("sundial"), "{err}");
    let output = Command::new(env!("CARGO_BIN_EXE_hangar"))
        .args(["sim", "--game", "jungle", "--clock", "cpu", "--games", "1"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8(output.stderr).unwrap().contains("flight"));
}
