//! `hangar bot` in a real hall (P-ENGINE): the example engine joins a person's private room
//! by its code (`--room`), plays the game through the engine line format to its end, and
//! the record the hall serves verifies. Flight at a table of four (the engine, a person and
//! two hall bots; items and weather on) and Jungle against a person; an engine that prints
//! garbage still finishes its game (auto-play), and a bot whose connection drops comes back
//! and plays on.
//!
//! The `p_challenge_*` tests run the whole P-CHALLENGE path with a bot account
//! (P-BOT-ACCOUNT): `hangar bot` waiting for challenges, a person challenging it to jungle
//! and to flight with two hall bots, and a challenge of a game the bot does not accept being
//! declined. They need the hall's side of challenges (`upgrade_to_bot`, `challenge`,
//! `challenge_room`).
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::hall_common;

use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use futures_util::SinkExt;
use hall_common::{Client, PLAYED, Server, WAIT, guest};
use serde_json::{Value, json};
use tokio::io::AsyncReadExt;
use tokio_tungstenite::tungstenite::Message;

/// A signed-up account's token (the bot signs in with it).
async fn account(port: u16, name: &str) -> String {
    player(port, name).await.1
}

/// Starts `hangar bot` on the hall at `port` signed in with `token`, then `args`; its
/// standard error is collected.
fn spawn_bot(port: u16, token: &str, args: &[&str]) -> tokio::process::Child {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_hangar"))
        .args(["bot", "--hall", &format!("ws://127.0.0.1:{port}/ws")])
        .env("HANGAR_TOKEN", token)
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("hangar bot starts")
}

/// Starts `hangar bot --room` with `engine`.
fn start_bot(port: u16, token: &str, engine: &str, room: &str, seat: u64) -> tokio::process::Child {
    let seat = seat.to_string();
    let args = ["--engine", engine, "--room", room, "--seat", &seat];
    spawn_bot(port, token, &args)
}

/// Waits for the bot to exit; returns (success, its log).
async fn finished(mut bot: tokio::process::Child) -> (bool, String) {
    let mut log = String::new();
    let mut stderr = bot.stderr.take().unwrap();
    let status = tokio::time::timeout(WAIT * 4, async {
        stderr.read_to_string(&mut log).await.unwrap();
        bot.wait().await.unwrap()
    })
    .await
    .expect("the bot exits after its game");
    (status.success(), log)
}

/// The (answered, asked) counts of the engine's questions in the bot's game-over log line.
fn answered(log: &str) -> (u64, u64) {
    let at = log.find("the engine answered ").expect("a game-over line") + 20;
    let mut words = log[at..].split_whitespace();
    let answered = words.next().unwrap().parse().unwrap();
    assert_eq!(words.next(), Some("of"));
    (answered, words.next().unwrap().parse().unwrap())
}

/// Sends a command without waiting for its answer (the person's loop reads everything).
async fn send(c: &mut Client, mut command: Value) {
    c.id += 1;
    command["id"] = json!(c.id);
    c.ws.send(Message::text(command.to_string())).await.unwrap();
}

/// A TCP relay between the bot and the hall whose connections the test can cut.
struct Relay {
    port: u16,
    links: Arc<Mutex<Vec<tokio::task::AbortHandle>>>,
}

impl Relay {
    async fn start(hall: u16) -> Relay {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let links = Arc::new(Mutex::new(Vec::new()));
        let held = links.clone();
        tokio::spawn(async move {
            while let Ok((mut inside, _)) = listener.accept().await {
                let link = tokio::spawn(async move {
                    let mut outside = tokio::net::TcpStream::connect(("127.0.0.1", hall))
                        .await
                        .unwrap();
                    let _ = tokio::io::copy_bidirectional(&mut inside, &mut outside).await;
                });
                held.lock().unwrap().push(link.abort_handle());
            }
        });
        Relay { port, links }
    }

    /// Drops every connection through the relay (new ones are relayed again).
    fn cut(&self) {
        for link in self.links.lock().unwrap().drain(..) {
            link.abort();
        }
    }
}

/// The person plays the first legal choice on each of its turns until the game is over;
/// returns the result. With `cut`, the relay's connections are cut after the person's
/// third move.
async fn person_plays(c: &mut Client, room: &str, seat: u64) -> Value {
    person_plays_cutting(c, room, seat, None).await
}

async fn person_plays_cutting(c: &mut Client, room: &str, seat: u64, cut: Option<&Relay>) -> Value {
    let mut view = Value::Null;
    let mut rolled: Option<Value> = None;
    let mut moves = 0;
    loop {
        let frame = c
            .wait_for(|v| v["type"] == "event" || v["type"] == "error")
            .await;
        assert_ne!(frame["type"], "error", "{frame}");
        let event = &frame["event"];
        if event["game"].is_object() {
            view = event["game"].clone();
            rolled = None;
        }
        match event["kind"].as_str().unwrap() {
            "game_over" => return event["result"].clone(),
            "rolled" if event["seat"] == seat => rolled = Some(event["moves"].clone()),
            "turn" if event["seat"] == seat => {
                let command = match (view["kind"].as_str(), event["need"].as_str()) {
                    (Some("flight"), Some("roll")) => json!({"type": "roll", "room": room,
                        "entropy": hangar_dice::Entropy::random().to_string()}),
                    (Some("flight"), _) => {
                        let moves = rolled.clone().unwrap_or_else(|| view["moves"].clone());
                        json!({"type": "move", "room": room, "plane": moves[0]["plane"]})
                    }
                    _ => json!({"type": "move", "room": room, "move": view["moves"][0]}),
                };
                send(c, command).await;
                moves += 1;
                if moves == 3
                    && let Some(relay) = cut
                {
                    relay.cut();
                }
            }
            _ => {}
        }
    }
}

/// The record of game `id` as the hall serves it to a player of the (private) game.
async fn record(port: u16, id: &Value, token: &str) -> Value {
    use tokio::io::AsyncWriteExt;
    let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    let request = format!(
        "GET /api/games/{id} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    let (head, mut body) = response.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{response}");
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        let (size, rest) = body.split_once("\r\n").unwrap();
        body = &rest[..usize::from_str_radix(size.trim(), 16).unwrap()];
    }
    serde_json::from_str(body).unwrap()
}

/// The record of game `id` as the hall serves it verifies with `hangar verify`.
async fn verifies(port: u16, id: &Value, token: &str) {
    let record = record(port, id, token).await;
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), record.to_string()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hangar"))
        .arg("verify")
        .arg(file.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A person opens a private room of `game` (adding `bots` hall bots after the engine's
/// seat 1), the engine joins at seat 1 and the game is played out.
async fn engine_game(game: &str, options: Value, bots: &[&str], engine: &str) -> (Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    let hall = Server::start(&db.display().to_string(), PLAYED).await;
    let token = account(hall.port, "engineone").await;
    let mut person = guest(hall.port, "ann").await;
    let created = person
        .ok(json!({"type": "create_room", "game": game, "private": true, "options": options}))
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    for (i, level) in bots.iter().enumerate() {
        person
            .ok(json!({"type": "add_bot", "room": room, "seat": i + 2, "bot": level}))
            .await;
    }
    let bot = start_bot(hall.port, &token, engine, &room, 1);
    person
        .wait_for(|v| v["event"]["kind"] == "ready" && v["event"]["seat"] == 1)
        .await;
    person
        .ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    let result = person_plays(&mut person, &room, 0).await;
    let (ok, log) = finished(bot).await;
    assert!(ok, "{log}");
    verifies(hall.port, &result["game_id"], &token).await;
    (result, log)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_engine_hangar_bot_plays_jungle_against_a_person_and_the_record_verifies() {
    let (result, log) = engine_game(
        "jungle",
        json!({}),
        &[],
        "python3 examples/engines/greedy.py",
    )
    .await;
    let lines = result["players"].as_array().unwrap();
    assert_eq!(lines.len(), 2);
    assert!(log.contains("seated in room"), "{log}");
    // Every question had an answer of the engine's own.
    let (answered, asked) = answered(&log);
    assert!(asked > 0 && answered == asked, "{log}");
    assert!(!log.contains("auto-play chooses"), "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_engine_hangar_bot_plays_four_seat_flight_with_a_person_and_hall_bots() {
    let (result, log) = engine_game(
        "flight",
        json!({"seats": 4, "preset": "improved", "items": true, "weather": true}),
        &["heuristic", "random"],
        "python3 examples/engines/random.py",
    )
    .await;
    let lines = result["players"].as_array().unwrap();
    assert_eq!(lines.len(), 4);
    assert!(
        lines.iter().any(|l| l["seat"] == 1 && l["rank"].is_u64()),
        "{result}"
    );
    let (answered, asked) = answered(&log);
    assert!(asked > 0 && answered == asked, "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_engine_hangar_bot_with_a_garbage_engine_still_plays_its_game() {
    let (_, log) = engine_game(
        "jungle",
        json!({}),
        &[],
        "python3 -c 'import sys\nfor l in sys.stdin: print(\"what?\", flush=True)'",
    )
    .await;
    assert!(
        log.contains("invalid answer") && log.contains("auto-play chooses"),
        "{log}"
    );
    let (answered, asked) = answered(&log);
    assert!(asked > 0 && answered == 0, "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_engine_hangar_bot_comes_back_after_its_connection_drops() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    let hall = Server::start(&db.display().to_string(), PLAYED).await;
    let relay = Relay::start(hall.port).await;
    let token = account(hall.port, "engineone").await;
    let mut person = guest(hall.port, "ann").await;
    let created = person
        .ok(json!({"type": "create_room", "game": "jungle", "private": true, "options": {}}))
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    let bot = start_bot(
        relay.port,
        &token,
        "python3 examples/engines/greedy.py",
        &room,
        1,
    );
    person
        .wait_for(|v| v["event"]["kind"] == "ready" && v["event"]["seat"] == 1)
        .await;
    person
        .ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    let result = person_plays_cutting(&mut person, &room, 0, Some(&relay)).await;
    let (ok, log) = finished(bot).await;
    assert!(ok, "{log}");
    assert!(
        log.contains("connection lost") && log.contains("reconnecting"),
        "{log}"
    );
    assert_eq!(log.matches("signed in as engineone").count(), 2, "{log}");
    let (answered, asked) = answered(&log);
    assert!(asked > 3 && answered == asked, "{log}");
    // The game went on to its end on the board, not by the bot's absence.
    assert_ne!(result["reason"], "disconnected", "{result}");
    verifies(hall.port, &result["game_id"], &token).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_engine_hangar_bot_with_a_refused_token_says_so_and_exits() {
    let dir = tempfile::tempdir().unwrap();
    let hall = Server::start(&dir.path().join("bot.db").display().to_string(), &[]).await;
    let bot = start_bot(
        hall.port,
        "00000000000000000000000000000000",
        "true",
        "NOROOM",
        0,
    );
    let (ok, log) = finished(bot).await;
    assert!(!ok);
    assert!(log.contains("the hall refused the token"), "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_engine_an_engine_that_resigns_loses_the_jungle_game() {
    let (result, log) = engine_game(
        "jungle",
        json!({}),
        &[],
        "python3 -c 'import sys\nfor l in sys.stdin: print(\"resign\", flush=True)'",
    )
    .await;
    let line = |seat: u64| {
        result["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["seat"] == seat)
            .cloned()
            .unwrap()
    };
    assert_eq!(line(1)["rank"], 2, "{result}");
    assert_eq!(line(0)["rank"], 1, "{result}");
    assert_eq!(answered(&log), (1, 1), "{log}");
}

// The whole path of P-CHALLENGE with P-BOT-ACCOUNT: a bot account, `hangar bot` waiting for
// challenges, a person challenging it.

/// A registered player's (token, id) on a connection of its own.
async fn player(port: u16, name: &str) -> (Client, String, i64) {
    let mut c = Client::connect(port).await;
    let r = c
        .ok(json!({"type": "register", "name": name, "password": "engine password"}))
        .await;
    let token = r["token"].as_str().unwrap().to_owned();
    let id = r["player"]["id"].as_i64().unwrap();
    (c, token, id)
}

/// Starts `hangar bot` waiting for challenges of both games.
fn start_waiting_bot(port: u16, token: &str) -> tokio::process::Child {
    let engine = "python3 examples/engines/random.py";
    spawn_bot(
        port,
        token,
        &["--engine", engine, "--accept", "flight,jungle"],
    )
}

/// Stops a bot that waits for challenges once it has logged its game's end; returns its log.
async fn stopped(mut bot: tokio::process::Child) -> String {
    use tokio::io::AsyncBufReadExt;
    let mut lines = tokio::io::BufReader::new(bot.stderr.take().unwrap()).lines();
    let mut log = String::new();
    tokio::time::timeout(WAIT, async {
        while let Some(line) = lines.next_line().await.unwrap() {
            log.push_str(&line);
            log.push('\n');
            if line.contains("the engine answered") {
                break;
            }
        }
    })
    .await
    .expect("the bot logs the game's end");
    bot.start_kill().unwrap();
    log
}

/// The person challenges the bot account to `game` (with `seats` beyond the two), joins the
/// private room the hall opens, and plays the game out against the engine.
async fn challenged_game(game: &str, options: Value, seats: Value) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("challenge.db");
    let hall = Server::start(&db.display().to_string(), PLAYED).await;
    let (mut account, token, bot_id) = player(hall.port, "enginebot").await;
    let upgraded = account.ok(json!({"type": "upgrade_to_bot"})).await;
    assert_eq!(upgraded["player"]["bot"], true, "{upgraded}");
    let bot = start_waiting_bot(hall.port, &token);
    let (mut person, person_token, _) = player(hall.port, "ann").await;
    // The bot signs in before it can be challenged while online.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let mut challenge =
        json!({"type": "challenge", "player": bot_id, "game": game, "options": options});
    if !seats.is_null() {
        challenge["seats"] = seats;
    }
    person.ok(challenge).await;
    let opened = person.wait_for(|v| v["type"] == "challenge_room").await;
    let room = opened["room"].as_str().unwrap().to_owned();
    let seat = opened["seat"].as_u64().unwrap();
    // Nobody readies: the game starts once both have sat down (P-CHALLENGE).
    person
        .ok(json!({"type": "join_room", "room": room, "seat": seat}))
        .await;
    let result = person_plays(&mut person, &room, seat).await;
    let log = stopped(bot).await;
    assert!(
        log.contains(&format!("accepting {game} challenge")),
        "{log}"
    );
    let lines = result["players"].as_array().unwrap();
    assert!(lines.iter().any(|l| l["player_id"] == bot_id), "{result}");
    let (answered, asked) = answered(&log);
    assert!(asked > 0 && answered == asked, "{log}");
    verifies(hall.port, &result["game_id"], &person_token).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_challenge_a_person_challenges_the_engine_to_jungle_and_the_record_verifies() {
    challenged_game("jungle", json!({}), Value::Null).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_challenge_flight_with_the_engine_a_person_and_two_hall_bots() {
    challenged_game(
        "flight",
        json!({"seats": 4}),
        json!([{"bot": "heuristic"}, {"bot": "random"}]),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_challenge_the_bot_declines_a_game_it_does_not_accept() {
    let dir = tempfile::tempdir().unwrap();
    let hall = Server::start(&dir.path().join("decline.db").display().to_string(), PLAYED).await;
    let (mut account, token, bot_id) = player(hall.port, "enginebot").await;
    account.ok(json!({"type": "upgrade_to_bot"})).await;
    let mut bot = tokio::process::Command::new(env!("CARGO_BIN_EXE_hangar"))
        .args(["bot", "--hall", &format!("ws://127.0.0.1:{}/ws", hall.port)])
        .env("HANGAR_TOKEN", &token)
        .args([
            "--engine",
            "python3 examples/engines/random.py",
            "--accept",
            "jungle",
        ])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let (mut person, _, _) = player(hall.port, "ann").await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    person
        .ok(json!({"type": "challenge", "player": bot_id, "game": "flight", "options": {}}))
        .await;
    let ended = person.wait_for(|v| v["type"] == "challenge_ended").await;
    assert_eq!(ended["reason"], "declined", "{ended}");
    assert_eq!(ended["by"]["id"], bot_id);
    bot.start_kill().unwrap();
    let mut log = String::new();
    bot.stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .await
        .unwrap();
    assert!(
        log.contains("declining flight challenge") && log.contains("flight is not accepted"),
        "{log}"
    );
}
