//! The engine bridge keeps the hall's clock and survives any program (P-ENGINE): `hangar bot`
//! with engines that hang, never read, write 100 MB lines, flood their standard error, crash
//! at start or mid-game, or answer late once, in a real hall at 5 s turns. A person challenges
//! the bot account to jungle, plays until the bot has moved three times and resigns, twice
//! (`--games 2`: the bot exits by itself after the second game). The hall's `timeout` never
//! fires for the bot's seat, the bot's memory stays under the size of the engine's line, and
//! `ps` never shows the bot's token.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::hall_common;

use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use futures_util::SinkExt;
use hall_common::{Client, Server, WAIT};
use serde_json::{Value, json};
use tokio::io::AsyncBufReadExt;
use tokio_tungstenite::tungstenite::Message;

/// The bot's moves in each game before the person resigns (see [`bot_run`]).
const BOT_MOVES: u64 = 3;

/// The most of the bot's log kept (the lines past it are only counted).
const LOG_KEPT: usize = 4 << 20;

/// What the test saw of a run of `hangar bot`.
struct Run {
    /// The bot's log (standard error), its first [`LOG_KEPT`] bytes.
    log: String,
    /// Lines of the log in all.
    log_lines: usize,
    /// `timeout` events, and `autoplay` events with reason `timeout`, for the bot's seat.
    bot_timeouts: Vec<Value>,
    /// The bot's peak resident memory (VmHWM), in kB.
    peak_kb: u64,
    /// The bot's command line as `ps` shows it.
    cmdline: String,
    /// The token the bot signed in with.
    token: String,
    /// The games that ended (the person's `game_over` results).
    results: Vec<Value>,
    /// Whether the bot exited by itself with success.
    exited_ok: bool,
}

/// A registered player's connection, token and id.
async fn player(port: u16, name: &str) -> (Client, String, i64) {
    let mut c = Client::connect(port).await;
    let r = c
        .ok(json!({"type": "register", "name": name, "password": "engine password"}))
        .await;
    let token = r["token"].as_str().unwrap().to_owned();
    let id = r["player"]["id"].as_i64().unwrap();
    (c, token, id)
}

/// Sends a command without waiting for its answer.
async fn send(c: &mut Client, mut command: Value) {
    c.id += 1;
    command["id"] = json!(c.id);
    c.ws.send(Message::text(command.to_string())).await.unwrap();
}

/// `name: value kB` of /proc/PID/status.
fn status_kb(pid: u32, name: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(name))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs the engine of `source` (Python) as `hangar bot` in a hall of 5 s turns for `games`
/// jungle games, each resigned by the person after the bot's `moves` moves.
async fn bot_run(source: &str, games: u64, moves: u64, token_in_file: bool) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let engine = dir.path().join("engine.py");
    std::fs::write(&engine, source).unwrap();
    let db = dir.path().join("bridge.db");
    let hall = Server::start(&db.display().to_string(), &["--turn-seconds", "5"]).await;
    let (mut account, token, bot_id) = player(hall.port, "enginebot").await;
    account.ok(json!({"type": "upgrade_to_bot"})).await;
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_hangar"));
    command
        .args(["bot", "--hall", &format!("ws://127.0.0.1:{}/ws", hall.port)])
        .args(["--engine", &format!("python3 {}", engine.display())])
        .args(["--accept", "jungle", "--games", &games.to_string()])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if token_in_file {
        let file = dir.path().join("token");
        std::fs::write(&file, format!("{token}\n")).unwrap();
        command.arg("--token-file").arg(&file);
    } else {
        command.env("HANGAR_TOKEN", &token);
    }
    let mut bot = command.spawn().unwrap();
    let pid = bot.id().unwrap();
    let read_cmdline = || {
        std::fs::read(format!("/proc/{pid}/cmdline"))
            .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
            .unwrap_or_default()
    };
    let mut cmdline = read_cmdline();
    // The bot's log, read to its end (a flood is counted, not kept).
    let kept = Arc::new(Mutex::new((String::new(), 0usize)));
    let reader = {
        let kept = kept.clone();
        let mut lines = tokio::io::BufReader::new(bot.stderr.take().unwrap()).lines();
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                let mut kept = kept.lock().unwrap();
                kept.1 += 1;
                if kept.0.len() < LOG_KEPT {
                    kept.0.push_str(&line);
                    kept.0.push('\n');
                }
            }
        })
    };
    let (mut person, _, _) = player(hall.port, "ann").await;
    let mut bot_timeouts = Vec::new();
    let mut peak_kb = 0;
    let mut results = Vec::new();
    for _ in 0..games {
        person
            .ok(json!({"type": "challenge", "player": bot_id, "game": "jungle", "options": {}}))
            .await;
        let opened = person.wait_for(|v| v["type"] == "challenge_room").await;
        let room = opened["room"].as_str().unwrap().to_owned();
        let seat = opened["seat"].as_u64().unwrap();
        // Nobody readies: the game starts once both have sat down (P-CHALLENGE).
        person
            .ok(json!({"type": "join_room", "room": room, "seat": seat}))
            .await;
        let mut view = Value::Null;
        let mut bot_moves = 0;
        let result = loop {
            let frame = person
                .wait_for(|v| v["type"] == "event" || v["type"] == "error")
                .await;
            assert_ne!(frame["type"], "error", "{frame}");
            if let Some(kb) = status_kb(pid, "VmHWM:") {
                peak_kb = peak_kb.max(kb);
            }
            if !cmdline.contains("hangar") {
                cmdline = read_cmdline();
            }
            let event = &frame["event"];
            if event["game"].is_object() {
                view = event["game"].clone();
            }
            let bot_seat = event["seat"].is_u64() && event["seat"] != seat;
            match event["kind"].as_str().unwrap() {
                "game_over" => break event["result"].clone(),
                "timeout" if bot_seat => bot_timeouts.push(event.clone()),
                "autoplay" if bot_seat && event["reason"] == "timeout" => {
                    bot_timeouts.push(event.clone());
                }
                "jungle_moved" if bot_seat => {
                    bot_moves += 1;
                    if bot_moves == moves {
                        send(&mut person, json!({"type": "resign", "room": room})).await;
                    }
                }
                "turn" if event["seat"] == seat && bot_moves < moves => {
                    let command = json!({"type": "move", "room": room, "move": view["moves"][0]});
                    send(&mut person, command).await;
                }
                _ => {}
            }
        };
        results.push(result);
        person.ok(json!({"type": "leave_room", "room": room})).await;
    }
    let status = tokio::time::timeout(WAIT, bot.wait()).await;
    let exited_ok = matches!(&status, Ok(Ok(s)) if s.success());
    if status.is_err() {
        bot.start_kill().unwrap();
    }
    let _ = tokio::time::timeout(WAIT, reader).await;
    let (log, log_lines) = std::mem::take(&mut *kept.lock().unwrap());
    Run {
        log,
        log_lines,
        bot_timeouts,
        peak_kb,
        cmdline,
        token,
        results,
        exited_ok,
    }
}

/// The (answered, asked) counts of each game-over line of the bot's log.
fn answered(log: &str) -> Vec<(u64, u64)> {
    log.lines()
        .filter_map(|line| {
            let at = line.find("the engine answered ")? + 20;
            let mut words = line[at..].split_whitespace();
            let answered = words.next()?.parse().ok()?;
            assert_eq!(words.next(), Some("of"));
            Some((answered, words.next()?.parse().ok()?))
        })
        .collect()
}

/// What every run shows: no decision lost to the hall's clock, both games played to the
/// person's resignation, the bot gone by itself after them, no token on its command line.
fn kept_the_clock(run: &Run, games: usize) {
    assert!(
        run.bot_timeouts.is_empty(),
        "the hall timed the bot out: {:?}\n{}",
        run.bot_timeouts,
        run.log
    );
    assert_eq!(run.results.len(), games);
    for result in &run.results {
        assert_eq!(result["reason"], "resigned", "{result}");
    }
    assert!(
        run.exited_ok,
        "the bot did not exit by itself:\n{}",
        run.log
    );
    assert_eq!(answered(&run.log).len(), games, "{}", run.log);
    assert!(run.cmdline.contains("hangar"), "{}", run.cmdline);
    assert!(
        !run.cmdline.contains(&run.token),
        "ps shows the token: {}",
        run.cmdline
    );
}

/// The bound on the bot's peak memory: under the 100 MB of the longest line written.
const PEAK_KB: u64 = 80 * 1024;

/// A random engine's answer, as a Python statement.
const ANSWER: &str =
    "print(json.dumps({'action': random.choice(q['actions'])['id'], 'ask': q['ask']}), flush=True)";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_engine_a_hanging_engine_loses_no_decision_to_the_halls_clock() {
    // Reads every question and never answers; says on standard error whether it was handed
    // the bot's token in its environment.
    let source = "import os, sys\n\
        sys.stderr.write('token ' + ('visible' if os.environ.get('HANGAR_TOKEN') else 'hidden') + '\\n')\n\
        sys.stderr.flush()\n\
        for line in sys.stdin:\n    pass\n";
    let run = bot_run(source, 2, BOT_MOVES, false).await;
    kept_the_clock(&run, 2);
    for (answered, asked) in answered(&run.log) {
        assert!(asked >= BOT_MOVES - 1 && answered == 0, "{}", run.log);
    }
    assert!(
        run.log.contains("no answer to question 1 within"),
        "{}",
        run.log
    );
    assert!(run.log.contains("stderr: token hidden"), "{}", run.log);
    assert!(run.peak_kb < PEAK_KB, "{} kB", run.peak_kb);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_engine_an_engine_that_never_reads_loses_no_decision_to_the_halls_clock() {
    let run = bot_run("import time\ntime.sleep(3600)\n", 2, BOT_MOVES, true).await;
    kept_the_clock(&run, 2);
    for (answered, _) in answered(&run.log) {
        assert_eq!(answered, 0, "{}", run.log);
    }
    assert!(run.peak_kb < PEAK_KB, "{} kB", run.peak_kb);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_engine_100_mb_lines_cost_the_bridge_no_memory() {
    // The first two questions of each run get a line of 100 MB (written a megabyte at a
    // time), the others an answer.
    let source = format!(
        "import json, random, sys\n\
         n = 0\n\
         for line in sys.stdin:\n\
         \x20   q = json.loads(line)\n\
         \x20   n += 1\n\
         \x20   if n <= 2:\n\
         \x20       for _ in range(100):\n\
         \x20           sys.stdout.write('x' * 1000000)\n\
         \x20       sys.stdout.write('\\n')\n\
         \x20       sys.stdout.flush()\n\
         \x20       continue\n\
         \x20   {ANSWER}\n"
    );
    let run = bot_run(&source, 2, BOT_MOVES, false).await;
    kept_the_clock(&run, 2);
    assert!(
        run.log.contains("a line longer than 1048576 bytes"),
        "{}",
        run.log
    );
    // Each game: two lines refused, the rest answered.
    for (answered, asked) in answered(&run.log) {
        assert!(asked >= BOT_MOVES - 1, "{}", run.log);
        assert_eq!(answered + 2.min(asked), asked, "{}", run.log);
    }
    assert!(
        run.peak_kb > 0 && run.peak_kb < PEAK_KB,
        "the bot's peak memory: {} kB",
        run.peak_kb
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_engine_a_standard_error_flood_is_rate_limited_into_the_log() {
    let source = format!(
        "import json, random, sys, threading\n\
         def flood():\n\
         \x20   while True:\n\
         \x20       sys.stderr.write('flood line of the engine\\n')\n\
         threading.Thread(target=flood, daemon=True).start()\n\
         for line in sys.stdin:\n\
         \x20   q = json.loads(line)\n\
         \x20   {ANSWER}\n"
    );
    let run = bot_run(&source, 2, BOT_MOVES, false).await;
    kept_the_clock(&run, 2);
    let flood = run.log.matches("flood line of the engine").count();
    assert!(flood > 0, "{}", run.log);
    // A burst of 50, then 10 a second (with one line of the count dropped per line logged)
    // over a run well under 5 minutes.
    assert!(
        run.log_lines < 2 * (50 + 10 * 300),
        "{} lines logged",
        run.log_lines
    );
    assert!(
        run.log.contains("line(s) of its standard error dropped"),
        "…"
    );
    assert!(run.peak_kb < PEAK_KB, "{} kB", run.peak_kb);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_engine_an_engine_that_crashes_at_start_is_auto_played_in_time_and_given_up() {
    // Never starts: the bot gives it up after five crashes in a row, auto-play finishes the
    // game under way, and the bot exits after it (docs/engine.md).
    let run = bot_run("import sys\nsys.exit(3)\n", 1, 8, false).await;
    kept_the_clock(&run, 1);
    assert!(run.log.contains("restarting it in 100 ms"), "{}", run.log);
    assert!(run.log.contains("crashed 5 times in a row"), "{}", run.log);
    assert!(
        run.log.contains("no more challenges are accepted"),
        "{}",
        run.log
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_engine_an_engine_that_crashes_mid_game_is_restarted_with_ask_from_1() {
    // Each run answers its first question and exits at the second; a question numbered
    // otherwise than the run's own count gets a wrong answer.
    let source = format!(
        "import json, random, sys\n\
         n = 0\n\
         for line in sys.stdin:\n\
         \x20   q = json.loads(line)\n\
         \x20   n += 1\n\
         \x20   if q['ask'] != n:\n\
         \x20       print('wrong ask', q['ask'], 'for question', n, 'of this run', flush=True)\n\
         \x20       continue\n\
         \x20   if n > 1:\n\
         \x20       sys.exit(3)\n\
         \x20   {ANSWER}\n"
    );
    let run = bot_run(&source, 2, BOT_MOVES, false).await;
    kept_the_clock(&run, 2);
    assert!(
        run.log.contains("stopped before answering question 2"),
        "{}",
        run.log
    );
    assert!(!run.log.contains("wrong ask"), "{}", run.log);
    assert!(!run.log.contains("invalid answer"), "{}", run.log);
    let counts = answered(&run.log);
    assert!(
        counts.iter().any(|&(answered, _)| answered >= 2),
        "{}",
        run.log
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_engine_an_answer_after_its_window_is_discarded() {
    // Each run answers its first question a second after its `clock_ms`, the others at once.
    let source = format!(
        "import json, random, sys, time\n\
         n = 0\n\
         for line in sys.stdin:\n\
         \x20   q = json.loads(line)\n\
         \x20   n += 1\n\
         \x20   if n == 1:\n\
         \x20       time.sleep(q['clock_ms'] / 1000 + 1.0)\n\
         \x20   {ANSWER}\n"
    );
    let run = bot_run(&source, 2, BOT_MOVES, false).await;
    kept_the_clock(&run, 2);
    assert!(
        run.log.contains("no answer to question 1 within"),
        "{}",
        run.log
    );
    assert!(
        run.log.contains("a late answer to question 1 skipped")
            || run
                .log
                .contains("(a late answer, or output not asked for); the first: {\"action\""),
        "{}",
        run.log
    );
    for (answered, asked) in answered(&run.log) {
        assert!(asked >= 2 && answered == asked - 1, "{}", run.log);
    }
}

#[test]
fn p_engine_a_token_on_the_command_line_is_refused() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hangar"))
        .args(["bot", "--hall", "ws://127.0.0.1:9/ws", "--engine", "true"])
        .args(["--token", "0123456789abcdef"])
        .env_remove("HANGAR_TOKEN")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        log.contains("--token is refused") && log.contains("ps") && log.contains("HANGAR_TOKEN"),
        "{log}"
    );
    // And `--max-games` says what it became.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hangar"))
        .args(["bot", "--hall", "ws://127.0.0.1:9/ws", "--engine", "true"])
        .args(["--max-games", "2"])
        .env("HANGAR_TOKEN", "0123456789abcdef")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("--concurrency"), "{log}");
}
