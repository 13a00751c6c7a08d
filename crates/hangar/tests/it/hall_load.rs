//! `hangar load` end to end: it starts a real `hangar serve`, its swarm plays real flight games
//! over WebSockets, and its report gives every figure docs/benchmarks.md quotes. And `hangar
//! attack`, which measures what abusive clients cost a hall it starts.
#![allow(clippy::unwrap_used)] // tests fail loudly

use std::process::Command;

/// The number after `label` on the report line that starts with it.
fn figure(report: &str, label: &str) -> u64 {
    let line = report
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no `{label}` line in:\n{report}"));
    line[label.len()..]
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no number in `{line}`"))
}

/// The report line that starts with `label`, without the label.
fn line<'a>(report: &'a str, label: &str) -> &'a str {
    report
        .lines()
        .find_map(|l| l.strip_prefix(label))
        .unwrap_or_else(|| panic!("no `{label}` line in:\n{report}"))
}

/// Every number of a report line, in order: the words that are numbers once the brackets and
/// punctuation around them are taken off (`p99` is a word, not a number).
fn numbers(line: &str) -> Vec<f64> {
    line.split_whitespace()
        .filter_map(|word| word.trim_matches(|c| "(),;:".contains(c)).parse().ok())
        .collect()
}

#[test]
fn load_plays_games_to_the_end_and_reports_every_figure() {
    let out = Command::new(env!("CARGO_BIN_EXE_hangar"))
        .args(["load", "--clients", "8", "--think", "0", "--seconds", "2"])
        .arg("--finish")
        .env("HANGAR_LOG", "warn")
        .output()
        .expect("hangar load runs");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "hangar load failed:\n{report}");

    let started = figure(&report, "games started");
    assert!(started >= 2, "both tables start a game:\n{report}");
    // `--finish`: every game started is played to its end.
    assert_eq!(figure(&report, "games finished"), started, "{report}");
    assert!(figure(&report, "actions") > 0, "{report}");
    assert_eq!(figure(&report, "errors"), 0, "{report}");
    // Every figure is there and holds together, not only its label.
    let start = numbers(line(&report, "start phase"));
    assert!(start[0] >= 2.0, "the games of the start phase: {start:?}");
    let ack = numbers(line(&report, "ack latency"));
    assert!(
        ack.len() == 3 && ack[0] <= ack[1] && ack[1] <= ack[2] && ack[2] > 0.0,
        "ack p50 ≤ p99 ≤ max: {ack:?}"
    );
    let cpu = numbers(line(&report, "cpu in window"));
    assert!(
        cpu.len() == 4 && cpu[0] > 0.0 && cpu[1] > 0.0,
        "the server's seconds and µs per action, above 0: {cpu:?}"
    );
    let memory = numbers(line(&report, "server memory"));
    assert!(
        memory.len() == 5 && memory[0] > 0.0 && memory[1] >= memory[0] && memory[3] >= memory[1],
        "KiB at start ≤ with everyone seated ≤ peak: {memory:?}"
    );
    // Linux tells the host's steal; the figure is a share of the machine's time.
    if std::path::Path::new("/proc/stat").exists() {
        let steal = report
            .lines()
            .find_map(|l| l.strip_prefix("host steal"))
            .unwrap_or_else(|| panic!("no host steal line in:\n{report}"));
        let percent: f64 = steal.split_whitespace().next().unwrap().parse().unwrap();
        assert!((0.0..=100.0).contains(&percent), "{steal}");
    }
}

/// `hangar attack ARGS`: its report (stdout), once it succeeded.
fn attack(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hangar"))
        .arg("attack")
        .args(args)
        .env("HANGAR_LOG", "warn")
        .output()
        .expect("hangar attack runs");
    let report = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "hangar attack failed:\n{report}");
    report
}

#[test]
fn attack_reports_what_logins_a_flood_and_idle_connections_cost() {
    // More wrong passwords than the hashing slots and their queue: the rest are refused at
    // once, and every connection gets an answer.
    let logins = attack(&["logins", "--count", "80"]);
    let answers = logins
        .lines()
        .find_map(|l| l.strip_prefix("answers"))
        .unwrap_or_else(|| panic!("no answers line in:\n{logins}"));
    assert!(
        answers.contains("bad_credentials") && answers.contains("rate_limited"),
        "{answers}"
    );
    assert!(logins.contains("MB above"), "{logins}");

    let flood = attack(&["flood", "--seconds", "1"]);
    assert!(figure(&flood, "flood") > 0, "frames were sent:\n{flood}");
    assert!(flood.contains("% of a core"), "{flood}");

    let idle = attack(&["idle", "--count", "50"]);
    assert!(idle.contains("KiB per connection"), "{idle}");
}

#[test]
fn attack_refuses_an_empty_attack_before_starting_a_hall() {
    let out = Command::new(env!("CARGO_BIN_EXE_hangar"))
        .args(["attack", "idle", "--count", "0"])
        .output()
        .expect("hangar attack runs");
    assert!(!out.status.success());
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(error.contains("--count"), "{error}");
    assert!(out.stdout.is_empty(), "nothing measured");
}
