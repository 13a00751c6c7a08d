//! `hangar match` with real engine processes (P-ENGINE): the example engines of
//! `examples/engines`, and engines that print garbage, hang or exit mid-game.
#![allow(clippy::unwrap_used)] // tests fail loudly

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn hangar(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hangar"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("the hangar binary runs")
}

/// `hangar match` of `engine` against `against` at `game` for `games` games, then `extra`.
fn run_match(engine: &str, against: &str, game: &str, games: &str, extra: &[&str]) -> Output {
    let head = [
        "match",
        "--engine",
        engine,
        "--against",
        against,
        "--game",
        game,
        "--games",
        games,
    ];
    hangar(&[&head[..], extra].concat())
}

/// The repository's root (the examples are named from there).
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The `--json` result of a match that ran to its end.
fn result(output: &Output) -> Value {
    assert!(output.status.success(), "{}", stderr(output));
    serde_json::from_slice(&output.stdout).expect("one JSON object on stdout")
}

/// A Python engine written to a file of its own.
fn engine(dir: &Path, name: &str, source: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, source).expect("the engine is written");
    format!("python3 {}", path.display())
}

/// An engine answering like random.py for `n` questions, then doing `then`.
fn random_then(n: usize, then: &str) -> String {
    format!(
        "import json, random, sys, time\n\
         n = 0\n\
         for line in sys.stdin:\n\
         \x20   q = json.loads(line)\n\
         \x20   n += 1\n\
         \x20   if n > {n}:\n\
         \x20       {then}\n\
         \x20   print(json.dumps({{'action': random.choice(q['actions'])['id'], 'ask': q['ask']}}), flush=True)\n"
    )
}

#[test]
fn p_engine_random_engine_scores_near_half_against_random_in_jungle() {
    // 80 games: each scores 0, ½ or 1 (standard deviation at most ½), so the mean of an
    // even match lies within 5 standard errors, ±0.28, but for one run in 3.5 million.
    let games: u32 = 80;
    let out = run_match(
        "python3 examples/engines/random.py",
        "random",
        "jungle",
        &games.to_string(),
        &["--json"],
    );
    let r = result(&out);
    let bound = 5.0 * 0.5 / f64::from(games).sqrt();
    let score = r["score"].as_f64().expect("a score");
    assert!((score - 0.5).abs() <= bound, "score {score}: {r}");
    let total = &r["result"];
    assert_eq!(
        total["wins"].as_u64().unwrap()
            + total["draws"].as_u64().unwrap()
            + total["losses"].as_u64().unwrap(),
        u64::from(games)
    );
    // Every decision was the engine's own.
    assert_eq!(r["decisions"]["asked"], r["decisions"]["answered"], "{r}");
    assert!(r["decisions"]["asked"].as_u64().unwrap() > 1000, "{r}");
    let (low, high) = (
        r["elo_low"].as_f64().unwrap(),
        r["elo_high"].as_f64().unwrap(),
    );
    let elo = r["elo"].as_f64().unwrap();
    assert!(low < elo && elo < high, "{r}");
}

#[test]
fn p_engine_random_engine_scores_near_half_at_a_four_seat_flight_table() {
    // A place's score is the share of the other three beaten, at most ½ from its mean.
    let games: u32 = 40;
    let out = run_match(
        "python3 examples/engines/random.py",
        "random",
        "flight",
        &games.to_string(),
        &["--seats", "4", "--json"],
    );
    let r = result(&out);
    let places: Vec<u64> = r["result"]["places"]
        .as_array()
        .expect("places")
        .iter()
        .map(|p| p.as_u64().unwrap())
        .collect();
    assert_eq!(places.len(), 4);
    assert_eq!(places.iter().sum::<u64>(), u64::from(games));
    let score = r["score"].as_f64().unwrap();
    assert!(
        (score - 0.5).abs() <= 5.0 * 0.5 / f64::from(games).sqrt(),
        "{r}"
    );
}

#[test]
fn p_engine_the_table_shows_the_results_and_the_elo_interval() {
    let out = run_match(
        "python3 examples/engines/greedy.py",
        "random",
        "jungle",
        "6",
        &[],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    for part in [
        "as red",
        "as yellow",
        "total",
        "wins",
        "draws",
        "losses",
        "Elo difference",
        "95 % interval",
    ] {
        assert!(text.contains(part), "{part}: {text}");
    }
}

#[test]
fn p_engine_garbage_answers_are_auto_played_and_logged() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let garbage = engine(
        dir.path(),
        "garbage.py",
        "import sys\nfor line in sys.stdin:\n    print('e2e4 please', flush=True)\n",
    );
    let out = run_match(&garbage, "random", "jungle", "2", &["--json"]);
    let r = result(&out);
    let d = &r["decisions"];
    assert_eq!(d["invalid"], d["asked"], "{r}");
    assert_eq!(d["answered"], 0);
    let log = stderr(&out);
    assert!(
        log.contains("invalid answer") && log.contains("auto-play chooses"),
        "{log}"
    );
    assert!(
        log.contains("e2e4 please"),
        "the log shows what was said: {log}"
    );
}

#[test]
fn p_engine_a_hanging_engine_is_not_waited_for() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let hang = engine(dir.path(), "hang.py", &random_then(3, "time.sleep(3600)"));
    let out = run_match(
        &hang,
        "random",
        "flight",
        "1",
        &["--move-ms", "20", "--json"],
    );
    let r = result(&out);
    let d = &r["decisions"];
    assert_eq!(d["answered"], 3, "{r}");
    assert!(d["late"].as_u64().unwrap() > 3, "{r}");
    assert!(
        stderr(&out).contains("no answer to question 4 within 20 ms"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn p_engine_an_engine_that_exits_mid_game_is_restarted() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // Every run answers five questions, then exits: each restart plays on.
    let quitter = engine(dir.path(), "quit.py", &random_then(5, "sys.exit(3)"));
    let out = run_match(&quitter, "random", "jungle", "2", &["--json"]);
    let r = result(&out);
    let d = &r["decisions"];
    let crashes = d["crashes"].as_u64().unwrap();
    assert!(crashes >= 2, "{r}");
    let answered = d["answered"].as_u64().unwrap();
    // Each run answered its five, and each crash cost one decision to auto-play.
    assert!(answered >= 5 * crashes, "{r}");
    let late = d["late"].as_u64().unwrap();
    assert_eq!(
        d["asked"].as_u64().unwrap(),
        answered + crashes + late,
        "{r}"
    );
    let log = stderr(&out);
    assert!(
        log.contains("stopped before answering") && log.contains("exit status: 3"),
        "{log}"
    );
    assert!(log.contains("restarting it in 100 ms"), "{log}");
}

#[test]
fn p_engine_an_engine_that_keeps_crashing_is_given_up_with_a_clear_report() {
    let out = run_match("exit 7", "random", "jungle", "3", &[]);
    assert!(!out.status.success());
    let log = stderr(&out);
    assert!(log.contains("crashed 5 times in a row"), "{log}");
    assert!(
        log.contains("the match stopped after 1 of 3 games"),
        "{log}"
    );
    // The game under way was finished by auto-play and is in the table.
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("1 games"), "{text}");
}

#[test]
fn p_engine_an_engine_that_resigns_loses_every_game() {
    let out = run_match("yes resign", "random", "jungle", "4", &["--json"]);
    let r = result(&out);
    assert_eq!(r["result"]["losses"], 4, "{r}");
    assert_eq!(r["score"], 0.0);
    assert_eq!(r["elo"], Value::Null, "an unbounded difference: {r}");
    assert!(stderr(&out).contains("resigned game 3"), "{}", stderr(&out));
}

/// `hangar match` run with its peak memory (VmHWM, kB) watched while it runs; a match that
/// has not ended after three minutes is killed and fails the test.
fn watched(args: &[&str]) -> (Output, u64) {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_hangar"))
        .args(args)
        .current_dir(repo())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the hangar binary runs");
    let pid = child.id();
    let pipe = |mut from: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            // The log is kept to 4 MB (a flood past it is read and dropped).
            let mut kept = Vec::new();
            let mut chunk = [0u8; 64 * 1024];
            while let Ok(n) = from.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                if kept.len() < 4 << 20 {
                    kept.extend_from_slice(&chunk[..n]);
                }
            }
            kept
        })
    };
    let stdout = pipe(Box::new(child.stdout.take().unwrap()));
    let stderr = pipe(Box::new(child.stderr.take().unwrap()));
    let started = std::time::Instant::now();
    let mut peak = 0;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if let Some(kb) = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|s| {
                let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_owned();
                line.split_whitespace().nth(1)?.parse::<u64>().ok()
            })
        {
            peak = peak.max(kb);
        }
        if started.elapsed() > std::time::Duration::from_secs(180) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!(
                "the match did not end in 3 minutes: {}",
                String::from_utf8_lossy(&stderr.join().unwrap())
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let output = Output {
        status,
        stdout: stdout.join().unwrap(),
        stderr: stderr.join().unwrap(),
    };
    (output, peak)
}

/// A jungle match of `games` games at `--move-ms 50` of the engine of `source` (Python).
fn misbehaving(source: &str, games: &str) -> (Value, String, u64) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let command = engine(dir.path(), "engine.py", source);
    let (out, peak) = watched(&[
        "match",
        "--engine",
        &command,
        "--against",
        "random",
        "--game",
        "jungle",
        "--games",
        games,
        "--move-ms",
        "50",
        "--json",
    ]);
    let log = stderr(&out);
    (result(&out), log, peak)
}

/// The bound on `hangar match`'s peak memory: under the 100 MB of the longest line written.
const PEAK_KB: u64 = 80 * 1024;

#[test]
fn p_engine_an_engine_that_never_reads_does_not_stall_the_match() {
    let (r, log, peak) = misbehaving("import time\ntime.sleep(3600)\n", "2");
    let d = &r["decisions"];
    assert_eq!(d["answered"], 0, "{r}");
    // Its input pipe fills up: it is stopped and started again, and the match goes on.
    assert!(d["hangs"].as_u64().unwrap() >= 1, "{r}");
    assert!(
        log.contains("the engine has not read its questions"),
        "{log}"
    );
    assert!(peak < PEAK_KB, "{peak} kB");
}

#[test]
fn p_engine_100_mb_lines_cost_the_match_no_memory() {
    let source = "import json, random, sys\n\
        n = 0\n\
        for line in sys.stdin:\n\
        \x20   q = json.loads(line)\n\
        \x20   n += 1\n\
        \x20   if n == 1:\n\
        \x20       for _ in range(100):\n\
        \x20           sys.stdout.write('x' * 1000000)\n\
        \x20       sys.stdout.write('\\n')\n\
        \x20       sys.stdout.flush()\n\
        \x20       continue\n\
        \x20   print(json.dumps({'action': random.choice(q['actions'])['id'], 'ask': q['ask']}), flush=True)\n";
    // Reading the 100 MB takes a while (a test build is not optimised, and a loaded machine
    // slows it further): the questions asked meanwhile are late; the later games are the
    // engine's again.
    let (r, log, peak) = misbehaving(source, "6");
    let d = &r["decisions"];
    assert_eq!(d["invalid"], 1, "{r}");
    assert!(d["answered"].as_u64().unwrap() > 0, "{r}");
    assert!(log.contains("a line longer than 1048576 bytes"), "{log}");
    assert!(peak > 0 && peak < PEAK_KB, "{peak} kB");
}

#[test]
fn p_engine_a_standard_error_flood_is_rate_limited_in_a_match() {
    let source = "import json, random, sys, threading\n\
        def flood():\n\
        \x20   while True:\n\
        \x20       sys.stderr.write('flood line of the engine\\n')\n\
        threading.Thread(target=flood, daemon=True).start()\n\
        for line in sys.stdin:\n\
        \x20   q = json.loads(line)\n\
        \x20   print(json.dumps({'action': random.choice(q['actions'])['id'], 'ask': q['ask']}), flush=True)\n";
    let (r, log, peak) = misbehaving(source, "2");
    let flood = log.matches("flood line of the engine").count();
    assert!(flood > 0, "{log}");
    // A burst of 50, then 10 a second, over a match well under 3 minutes.
    assert!(flood < 50 + 10 * 180, "{flood} lines of the flood logged");
    assert!(log.contains("line(s) of its standard error dropped"), "…");
    assert!(r["decisions"]["answered"].as_u64().unwrap() > 0, "{r}");
    assert!(peak < PEAK_KB, "{peak} kB");
}

#[test]
fn p_engine_a_restarted_engine_is_asked_from_1_again() {
    // Each run answers two questions and exits at the third; a question numbered otherwise
    // than the run's own count gets a wrong answer.
    let source = "import json, random, sys\n\
        n = 0\n\
        for line in sys.stdin:\n\
        \x20   q = json.loads(line)\n\
        \x20   n += 1\n\
        \x20   if q['ask'] != n:\n\
        \x20       print('wrong ask', q['ask'], 'for question', n, 'of this run', flush=True)\n\
        \x20       continue\n\
        \x20   if n > 2:\n\
        \x20       sys.exit(3)\n\
        \x20   print(json.dumps({'action': random.choice(q['actions'])['id'], 'ask': q['ask']}), flush=True)\n";
    let (r, log, _) = misbehaving(source, "1");
    let d = &r["decisions"];
    assert!(d["crashes"].as_u64().unwrap() >= 2, "{r}");
    assert_eq!(d["invalid"], 0, "{log}");
    assert!(!log.contains("wrong ask"), "{log}");
}

#[test]
fn p_engine_an_answer_late_once_is_skipped_and_the_next_taken() {
    // The third question is answered 200 ms after its time, the others at once.
    let source = "import json, random, sys, time\n\
        n = 0\n\
        for line in sys.stdin:\n\
        \x20   q = json.loads(line)\n\
        \x20   n += 1\n\
        \x20   if n == 3:\n\
        \x20       time.sleep(q['clock_ms'] / 1000 + 0.2)\n\
        \x20   print(json.dumps({'action': random.choice(q['actions'])['id'], 'ask': q['ask']}), flush=True)\n";
    let (r, log, _) = misbehaving(source, "1");
    let d = &r["decisions"];
    // The questions asked while it slept are late too; every answer after them is taken,
    // none of the late ones for a later question.
    assert!(d["late"].as_u64().unwrap() >= 1, "{r}");
    assert_eq!(d["invalid"], 0, "{r}");
    assert_eq!(
        d["answered"].as_u64().unwrap() + d["late"].as_u64().unwrap(),
        d["asked"].as_u64().unwrap(),
        "{r}"
    );
    assert!(d["answered"].as_u64().unwrap() > 3, "{r}");
    assert!(
        log.contains("no answer to question 3 within 50 ms"),
        "{log}"
    );
    assert!(
        log.contains("a late answer to question 3 skipped")
            || log.contains("the first: {\"action\""),
        "{log}"
    );
}
