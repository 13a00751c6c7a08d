//! P-DURABLE: the real `hangar serve` process is killed (SIGKILL) in the middle of a flight
//! game and a jungle game, restarted on the same database, and both games go on from their
//! last acknowledged action to the end; a room still waiting for its game is reopened with its
//! seats, bots and host; and a kill right after an acknowledgement, while bot games stream and
//! a scored game has just ended, loses neither that game, its score changes nor the
//! acknowledged action (on SQLite, and on PostgreSQL when HANGAR_TEST_POSTGRES_URL is set).
#![allow(clippy::unwrap_used)] // tests fail loudly

use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

const WAIT: Duration = Duration::from_secs(30);

/// Flags of a server whose games wait for the test between moves: no turn timer runs out
/// meanwhile.
const PLAYED: &[&str] = &["--turn-seconds", "120"];

/// A running `hangar serve` on a port of its own choosing.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    /// Starts the server on port 0 and waits for the log line that names the bound address,
    /// so that no port is picked free and then raced for.
    async fn start(database: &str, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hangar"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(extra)
            .args(["--database", database, "--bot-delay-ms", "0"])
            // Test players act as fast as the server answers: no flood limit here.
            .args(["--rate-limit", "100000"])
            .env("HANGAR_LOG", "warn,hangar=info")
            .env("NO_COLOR", "1")
            // The log goes to stdout.
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the hangar binary starts");
        let log = child.stdout.take().unwrap();
        let (tx, rx) = tokio::sync::oneshot::channel();
        // Reads the log to its end (a full pipe would block the server), sending the port of
        // the first "the hall is open on http://ADDR" line; the lines are shown with a failure.
        std::thread::spawn(move || {
            let mut tx = Some(tx);
            for line in std::io::BufReader::new(log).lines() {
                let Ok(line) = line else { break };
                eprintln!("server: {line}");
                if let Some(port) = open_port(&line)
                    && let Some(tx) = tx.take()
                {
                    let _ = tx.send(port);
                }
            }
        });
        let port = tokio::time::timeout(WAIT, rx)
            .await
            .expect("the server logs its address in time")
            .expect("the server logs its address before its log ends");
        Server { child, port }
    }

    /// SIGKILL: no shutdown code runs.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

/// The port of a "the hall is open on http://127.0.0.1:PORT" log line.
fn open_port(line: &str) -> Option<u16> {
    let (_, rest) = line.split_once("the hall is open on http://")?;
    let addr: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || ".:[]".contains(*c))
        .collect();
    addr.parse::<std::net::SocketAddr>().ok().map(|a| a.port())
}

struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    id: u64,
    kept: Vec<Value>,
    token: String,
    room: String,
    seat: u64,
}

impl Client {
    async fn connect(port: u16) -> Client {
        let (ws, _) = connect_async(format!("ws://127.0.0.1:{port}/ws"))
            .await
            .unwrap();
        let mut c = Client {
            ws,
            id: 0,
            kept: Vec::new(),
            token: String::new(),
            room: String::new(),
            seat: 0,
        };
        assert_eq!(c.read().await["type"], "welcome");
        c
    }

    async fn read(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .unwrap()
                .unwrap()
                .unwrap();
            if let Message::Text(t) = m {
                return serde_json::from_str(&t).unwrap();
            }
        }
    }

    async fn ok(&mut self, mut command: Value) -> Value {
        self.id += 1;
        command["id"] = json!(self.id);
        self.ws
            .send(Message::text(command.to_string()))
            .await
            .unwrap();
        loop {
            let v = self.read().await;
            if v["id"] == json!(self.id) {
                assert_eq!(v["type"], "ack", "{command} → {v}");
                // Whatever came before the ack is older than the command's effects.
                self.kept.clear();
                return v["result"].clone();
            }
            self.kept.push(v);
        }
    }

    async fn wait_for(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.kept.iter().position(&pred) {
            return self.kept.remove(i);
        }
        loop {
            let v = self.read().await;
            if pred(&v) {
                return v;
            }
            self.kept.push(v);
        }
    }
}

async fn guest(port: u16, name: &str) -> Client {
    let mut c = Client::connect(port).await;
    let r = c.ok(json!({"type": "guest", "name": name})).await;
    c.token = r["token"].as_str().unwrap().to_owned();
    c
}

/// The decision awaited from `game`'s view: (seat, command) for the first legal choice.
fn decision(room: &str, game: &Value) -> Option<(u64, Value)> {
    let seat = game["to_move"].as_u64()?;
    let command = match game["kind"].as_str()? {
        "flight" if game["need"] == "roll" => json!({"type": "roll", "room": room}),
        "flight" => json!({"type": "move", "room": room, "plane": game["moves"][0]["plane"]}),
        _ => json!({"type": "move", "room": room, "move": game["moves"][0]}),
    };
    Some((seat, command))
}

/// Both players act on the current game view until `steps` actions (or the end).
async fn play(players: &mut [Client], room: &str, mut game: Value, steps: usize) -> Option<Value> {
    for _ in 0..steps {
        let Some((seat, command)) = decision(room, &game) else {
            break;
        };
        let p = players.iter_mut().find(|p| p.seat == seat).unwrap();
        p.ok(command).await;
        // The events of this action carry the next view (a flight roll that needs a
        // choice shows it in `rolled`'s moves; the snapshot-shaped view comes with `moved`).
        let v = p
            .wait_for(|v| {
                v["type"] == "event"
                    && (v["event"]["game"].is_object()
                        || v["event"]["kind"] == "game_over"
                        || v["event"]["kind"] == "rolled")
            })
            .await;
        if v["event"]["kind"] == "game_over" {
            return Some(v["event"]["result"].clone());
        }
        if v["event"]["kind"] == "rolled" && v["event"]["game"].is_null() {
            let moves = v["event"]["moves"].clone();
            if moves.as_array().is_some_and(|m| !m.is_empty()) {
                game["need"] = json!("move");
                game["moves"] = moves;
                continue;
            }
            let next = p
                .wait_for(|v| v["type"] == "event" && v["event"]["game"].is_object())
                .await;
            game = next["event"]["game"].clone();
        } else {
            game = v["event"]["game"].clone();
        }
        if game["to_move"].is_null() {
            let over = p.wait_for(|v| v["event"]["kind"] == "game_over").await;
            return Some(over["event"]["result"].clone());
        }
    }
    None
}

async fn snapshot_game(port: u16, room: &str) -> Value {
    let mut w = Client::connect(port).await;
    w.ok(json!({"type": "spectate", "room": room})).await;
    let s = w.wait_for(|v| v["type"] == "snapshot").await;
    s["state"]["game"].clone()
}

async fn start_game(port: u16, game: &str, options: Value) -> (Vec<Client>, String, Value) {
    let mut a = guest(port, "a").await;
    let created = a
        .ok(json!({"type": "create_room", "game": game, "options": options}))
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    let mut b = guest(port, "b").await;
    let joined = b.ok(json!({"type": "join_room", "room": room})).await;
    a.room = room.clone();
    b.room = room.clone();
    a.seat = 0;
    b.seat = joined["seat"].as_u64().unwrap();
    a.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    b.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    let started = a.wait_for(|v| v["event"]["kind"] == "game_started").await;
    let game = started["event"]["game"].clone();
    (vec![a, b], room, game)
}

async fn rejoin(port: u16, old: &[Client]) -> (Vec<Client>, Value) {
    let mut players = Vec::new();
    let mut game = Value::Null;
    for p in old {
        let mut c = Client::connect(port).await;
        c.ok(json!({"type": "auth", "token": p.token})).await;
        let joined = c.ok(json!({"type": "join_room", "room": p.room})).await;
        assert_eq!(joined["seat"].as_u64(), Some(p.seat), "the seat is kept");
        let s = c.wait_for(|v| v["type"] == "snapshot").await;
        game = s["state"]["game"].clone();
        c.room = p.room.clone();
        c.seat = p.seat;
        c.token = p.token.clone();
        players.push(c);
    }
    (players, game)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_games_survive_kill_9_and_finish_after_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.db").display().to_string();
    let server = Server::start(&db, PLAYED).await;
    let port = server.port;

    let (mut flight, flight_room, game) =
        start_game(port, "flight", json!({"seats": 2, "planes": 2})).await;
    assert!(
        play(&mut flight, &flight_room, game, 30).await.is_none(),
        "still running"
    );
    let (mut jungle, jungle_room, game) = start_game(port, "jungle", json!({})).await;
    assert!(play(&mut jungle, &jungle_room, game, 6).await.is_none());
    let flight_before = snapshot_game(port, &flight_room).await;
    let jungle_before = snapshot_game(port, &jungle_room).await;

    server.kill();
    let server = Server::start(&db, PLAYED).await;
    let port = server.port;

    let (mut flight, game) = rejoin(port, &flight).await;
    assert_eq!(
        game, flight_before,
        "flight goes on from its last acknowledged action"
    );
    let (mut jungle, jungle_game) = rejoin(port, &jungle).await;
    assert_eq!(jungle_game, jungle_before, "jungle too");

    let flight_result = play(&mut flight, &flight_room, game, 5000)
        .await
        .expect("flight finishes");
    assert_eq!(flight_result["reason"], "finished");
    let jungle_result = play(&mut jungle, &jungle_room, jungle_game, 5000)
        .await
        .expect("jungle finishes");
    assert!(jungle_result["players"].is_array());
    for p in jungle_result["players"].as_array().unwrap() {
        assert_eq!(
            p["score"].as_i64().unwrap(),
            1000 + p["delta"].as_i64().unwrap()
        );
    }
    server.kill();
}

/// Signs in again with a kept token and sits down in the room the hall says the player is in.
async fn come_back(port: u16, token: &str, room: &str) -> (Client, Value) {
    let mut c = Client::connect(port).await;
    let me = c.ok(json!({"type": "auth", "token": token})).await;
    assert_eq!(
        me["rooms"],
        json!([room]),
        "the hall still seats the player"
    );
    let joined = c.ok(json!({"type": "join_room", "room": room})).await;
    (c, joined)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_waiting_rooms_survive_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("waiting.db").display().to_string();
    let server = Server::start(&db, &[]).await;
    let port = server.port;

    // a hosts a four-seat flight room with a bot; b sits and is ready; c sits.
    let mut a = guest(port, "a").await;
    let created = a
        .ok(json!({"type": "create_room", "game": "flight", "options": {"seats": 4}}))
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    a.ok(json!({"type": "add_bot", "room": room, "seat": 2, "bot": "random"}))
        .await;
    let mut b = guest(port, "b").await;
    assert_eq!(
        b.ok(json!({"type": "join_room", "room": room})).await["seat"],
        1
    );
    b.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    let mut c = guest(port, "c").await;
    assert_eq!(
        c.ok(json!({"type": "join_room", "room": room})).await["seat"],
        3
    );

    server.kill();
    // A short reconnection grace, so that c's held seat is freed within the test.
    let server = Server::start(&db, &["--reconnect-seconds", "4"]).await;
    let port = server.port;

    let (mut a2, joined) = come_back(port, &a.token, &room).await;
    assert_eq!(joined["seat"], 0, "a sits where a sat");
    let snapshot = a2.wait_for(|v| v["type"] == "snapshot").await;
    assert_eq!(
        snapshot["state"]["options"]["turn_seconds"], 20,
        "P-ROOM: `hangar serve`'s default turn timer is 20 s"
    );
    let seats = &snapshot["state"]["seats"];
    assert_eq!(seats[1]["player"]["name"], "b", "b's seat is held");
    assert!(
        seats[1]["away_until"].is_i64(),
        "b is away until a deadline"
    );
    assert_eq!(
        seats[1]["ready"], false,
        "ready is asked again after a restart"
    );
    assert_eq!(seats[2]["bot"], "random", "the bot sits again");
    assert_eq!(seats[3]["player"]["name"], "c");
    let (mut b2, joined) = come_back(port, &b.token, &room).await;
    assert_eq!(joined["seat"], 1, "b sits where b sat");

    // c does not come back: the seat is freed when the grace runs out, and a bot takes it.
    a2.wait_for(|v| v["event"]["kind"] == "left" && v["event"]["seat"] == 3)
        .await;
    a2.ok(json!({"type": "add_bot", "room": room, "seat": 3, "bot": "random"}))
        .await;
    a2.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    b2.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    a2.wait_for(|v| v["event"]["kind"] == "game_started").await;
    // The old connections were cut by the kill.
    drop((a, b, c));
    server.kill();
}

/// The databases the kill test runs on: a SQLite file in `dir`, and a fresh PostgreSQL
/// database on the server of HANGAR_TEST_POSTGRES_URL when it is set (required under CI).
async fn databases(dir: &tempfile::TempDir) -> Vec<String> {
    use sqlx::Connection;
    let mut urls = vec![dir.path().join("kill.db").display().to_string()];
    match std::env::var("HANGAR_TEST_POSTGRES_URL")
        .ok()
        .filter(|u| !u.is_empty())
    {
        Some(url) => {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos();
            let name = format!("hangar_crash_{}_{nanos}", std::process::id());
            let mut admin = sqlx::PgConnection::connect(&url).await.unwrap();
            sqlx::query(&format!("CREATE DATABASE {name}"))
                .execute(&mut admin)
                .await
                .unwrap();
            let base = url.rsplit_once('/').map_or(url.as_str(), |(base, _)| base);
            urls.push(format!("{base}/{name}"));
        }
        None => {
            let ci = std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1");
            assert!(!ci, "CI=true but HANGAR_TEST_POSTGRES_URL is not set");
            eprintln!("HANGAR_TEST_POSTGRES_URL is not set: the kill test ran on SQLite only");
        }
    }
    urls
}

/// A minimal HTTP/1.1 GET of a JSON body (chunked or not).
async fn http_get(port: u16, path: &str) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8_lossy(&response).to_string();
    let status: u16 = text[9..12].parse().unwrap();
    let (head, mut body) = text.split_once("\r\n\r\n").unwrap();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        let (size, rest) = body.split_once("\r\n").unwrap();
        body = &rest[..usize::from_str_radix(size.trim(), 16).unwrap()];
    }
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// A person on auto-play with three random bots: a practice game that streams actions (and
/// writes) on its own until it ends.
async fn bot_stream(port: u16, name: &str) -> Client {
    let mut s = guest(port, name).await;
    let created = s
        .ok(json!({"type": "create_room", "game": "flight", "options": {"seats": 4}}))
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    for seat in 1..4 {
        s.ok(json!({"type": "add_bot", "room": room, "seat": seat, "bot": "random"}))
            .await;
    }
    s.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    s.wait_for(|v| v["event"]["kind"] == "game_started").await;
    s.ok(json!({"type": "autoplay", "room": room, "on": true}))
        .await;
    s.room = room;
    s
}

/// Reads what the killed server had sent `c` until the connection breaks; whether one of the
/// frames was the end of its game.
async fn saw_game_over(c: &mut Client) -> bool {
    if c.kept.iter().any(|v| v["event"]["kind"] == "game_over") {
        return true;
    }
    while let Ok(Some(Ok(m))) = tokio::time::timeout(WAIT, c.ws.next()).await {
        if let Message::Text(t) = m {
            let v: Value = serde_json::from_str(&t).unwrap();
            if v["event"]["kind"] == "game_over" {
                return true;
            }
        }
    }
    false
}

/// P-DURABLE ("no finished game or score change is lost", "every game goes on from its last
/// acknowledged action") at the busiest moment: two bot games stream, a scored game between two
/// people has just ended, and the server is killed right after it acknowledges a jungle move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_kill_9_right_after_an_ack_keeps_the_finished_game_scores_and_the_move() {
    let dir = tempfile::tempdir().unwrap();
    for database in databases(&dir).await {
        kill_right_after_an_ack(&database).await;
    }
}

async fn kill_right_after_an_ack(database: &str) {
    let server = Server::start(database, PLAYED).await;
    let port = server.port;
    // A jungle game between two people, a few plies in, waits for its next move.
    let (mut jungle, jungle_room, game) = start_game(port, "jungle", json!({})).await;
    assert!(play(&mut jungle, &jungle_room, game, 4).await.is_none());
    let before = snapshot_game(port, &jungle_room).await;
    let mut streams = vec![bot_stream(port, "s1").await, bot_stream(port, "s2").await];
    // A scored flight game: two people, both on auto-play, played to its end.
    let (mut duel, duel_room, _) =
        start_game(port, "flight", json!({"seats": 2, "planes": 2})).await;
    for p in &mut duel {
        p.ok(json!({"type": "autoplay", "room": duel_room, "on": true}))
            .await;
    }
    let over = duel[0]
        .wait_for(|v| v["event"]["kind"] == "game_over")
        .await;
    let result = over["event"]["result"].clone();
    assert_eq!(result["reason"], "finished");
    // At once: the next jungle move, acknowledged, then the kill.
    let (seat, command) = decision(&jungle_room, &before).unwrap();
    let mover = jungle.iter_mut().find(|p| p.seat == seat).unwrap();
    mover.ok(command.clone()).await;
    server.kill();
    let mut streaming = 0;
    for s in &mut streams {
        streaming += usize::from(!saw_game_over(s).await);
    }
    assert!(
        streaming > 0,
        "a bot game was still streaming at the kill ({database})"
    );

    let server = Server::start(database, PLAYED).await;
    let port = server.port;
    // The finished game is stored with its result, and verifies.
    let game_id = result["game_id"].as_i64().unwrap();
    let (status, record) = http_get(port, &format!("/api/games/{game_id}")).await;
    assert_eq!(status, 200, "the finished game survived ({database})");
    let stored = &record["result"];
    assert_eq!(
        stored["reason"], "finished",
        "the game is stored as finished ({database})"
    );
    let verified = hangar_hall::record::verify(&record);
    assert!(
        verified.as_ref().is_ok_and(|v| v.over),
        "the record replays to the end ({database}): {verified:?}"
    );
    // Each person's score change survived: the score they sign in with is 1000 + delta (the
    // winner's is at least v = 50, the loser's unfinished plane).
    let players = result["players"].as_array().unwrap();
    assert!(
        players
            .iter()
            .any(|p| p["rank"] == 1 && p["delta"].as_i64().unwrap() >= 50)
    );
    for (seat, p) in duel.iter().enumerate() {
        let line = &result["players"][seat];
        assert_eq!(stored["players"][seat]["delta"], line["delta"]);
        let delta = line["delta"].as_i64().unwrap();
        let mut again = Client::connect(port).await;
        let me = again.ok(json!({"type": "auth", "token": p.token})).await;
        assert_eq!(
            me["player"]["score"].as_i64().unwrap(),
            1000 + delta,
            "seat {seat}'s score change survived ({database})"
        );
        assert_eq!(me["player"]["score"], line["score"]);
    }
    // The acknowledged move survived: the jungle game goes on from it.
    let (_jungle, after) = rejoin(port, &jungle).await;
    assert_eq!(after["last"], command["move"], "{database}");
    assert_eq!(
        after["plies"].as_u64().unwrap(),
        before["plies"].as_u64().unwrap() + 1,
        "the acknowledged move is kept ({database})"
    );
    server.kill();
}
