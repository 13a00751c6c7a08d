//! Helpers of the kill tests: a real `hangar serve` on a port of its own choosing, a
//! WebSocket client, two people playing a game, the databases to run on.
#![allow(dead_code)] // each test file uses a part
#![allow(clippy::unwrap_used)] // tests fail loudly

pub mod cluster;
#[path = "../../../hall/tests/common/postgres.rs"]
mod postgres;
pub use postgres::{fresh_postgres, under_ci};

use std::io::BufRead;
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// How long a test waits for any one frame or for the server to come up.
pub const WAIT: Duration = Duration::from_secs(30);

/// Flags of a server whose games wait for the test between moves: no turn timer runs out
/// meanwhile.
pub const PLAYED: &[&str] = &["--turn-seconds", "120"];

/// A running `hangar serve` on a port of its own choosing.
pub struct Server {
    child: Child,
    pub port: u16,
}

impl Server {
    /// Starts the server on port 0 and waits for the log line that names the bound address,
    /// so that no port is picked free and then raced for.
    pub async fn start(database: &str, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hangar"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(extra)
            .args(["--database", database, "--bot-delay-ms", "0"])
            // Test players act as fast as the server answers: no flood limit here.
            .args(["--rate-limit", "100000"])
            // Every test client is on loopback, and these tests check durability, not what
            // counts (P-ABORT has its own tests in crates/hall/tests/it/fair_play.rs).
            .args([
                "--guests-per-address-per-hour",
                "0",
                "--accounts-per-network-per-hour",
                "0",
                "--abort-decisions",
                "0",
                "--listed-after-opponents",
                "1",
            ])
            .env("HANGAR_LOG", "warn,hangar=info")
            .env("NO_COLOR", "1")
            // The log goes to stdout.
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the hangar binary starts");
        let log = child.stdout.take().unwrap();
        // Owned from here on, so that the process dies with a failing test.
        let mut server = Server { child, port: 0 };
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
        server.port = port;
        server
    }

    /// SIGKILL: no shutdown code runs.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits for the process to end by itself: its exit status.
    pub fn wait(mut self) -> std::process::ExitStatus {
        self.child.wait().unwrap()
    }

    /// SIGTERM (an orderly stop, as systemd asks): returns the process's exit status.
    pub fn terminate(mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success(), "kill -TERM {pid}");
        self.child.wait().unwrap()
    }
}

impl Drop for Server {
    /// A test that fails leaves no server running (a killed one is killed again: a no-op).
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The port of a "the hall is open on http://127.0.0.1:PORT" log line.
pub fn open_port(line: &str) -> Option<u16> {
    let (_, rest) = line.split_once("the hall is open on http://")?;
    let addr: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || ".:[]".contains(*c))
        .collect();
    addr.parse::<std::net::SocketAddr>().ok().map(|a| a.port())
}

pub struct Client {
    pub ws: hangar_client::Socket,
    pub id: u64,
    /// Frames read while waiting for something else, oldest first.
    pub kept: Vec<Value>,
    pub token: String,
    pub room: String,
    pub seat: u64,
    /// The last room version read (of an `event` or `snapshot`): what `since` resumes from.
    pub v: u64,
    /// The game as this client last saw it (a snapshot's, or an event's that carries one).
    pub view: Value,
}

impl Client {
    pub async fn connect(port: u16) -> Client {
        // The shared client checks the `welcome` greeting.
        let ws = hangar_client::Connection::connect(&format!("ws://127.0.0.1:{port}/ws"))
            .await
            .expect("the hall greets")
            .into_socket();
        Client {
            ws,
            id: 0,
            kept: Vec::new(),
            token: String::new(),
            room: String::new(),
            seat: 0,
            v: 0,
            view: Value::Null,
        }
    }

    pub async fn read(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .unwrap()
                .unwrap()
                .unwrap();
            if let Message::Text(t) = m {
                let frame: Value = serde_json::from_str(&t).unwrap();
                self.saw(&frame);
                return frame;
            }
        }
    }

    pub async fn ok(&mut self, mut command: Value) -> Value {
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

    /// Keeps the version and the game view a room frame brings.
    fn saw(&mut self, frame: &Value) {
        let game = match frame["type"].as_str() {
            Some("snapshot") => &frame["state"]["game"],
            Some("event") => &frame["event"]["game"],
            _ => return,
        };
        if let Some(v) = frame["v"].as_u64() {
            self.v = v;
        }
        if game.is_object() {
            self.view = game.clone();
        }
    }

    /// Sends a move of the game (or a resignation) and notes it in `log` once acknowledged.
    pub async fn act(&mut self, command: Value, log: &mut Acknowledged) -> Value {
        let result = self.ok(command.clone()).await;
        log.push(self.seat, &command);
        result
    }

    pub async fn wait_for(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
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

pub async fn guest(port: u16, name: &str) -> Client {
    let mut c = Client::connect(port).await;
    let r = c.ok(json!({"type": "guest", "name": name})).await;
    c.token = r["token"].as_str().unwrap().to_owned();
    c
}

/// The decision awaited from `game`'s view: (seat, command) for the first legal choice.
pub fn decision(room: &str, game: &Value) -> Option<(u64, Value)> {
    let seat = game["to_move"].as_u64()?;
    let command = match game["kind"].as_str()? {
        "flight" if game["need"] == "roll" => {
            json!({"type": "roll", "room": room, "entropy": hangar_dice::Entropy::random().to_string()})
        }
        "flight" => json!({"type": "move", "room": room, "plane": game["moves"][0]["plane"]}),
        _ => json!({"type": "move", "room": room, "move": game["moves"][0]}),
    };
    Some((seat, command))
}

/// Both players act on the current game view until `steps` actions (or the end).
pub async fn play(players: &mut [Client], room: &str, game: Value, steps: usize) -> Option<Value> {
    play_logged(players, room, game, steps, &mut Acknowledged::default()).await
}

/// As [`play`], noting every acknowledged action in `log`.
pub async fn play_logged(
    players: &mut [Client],
    room: &str,
    mut game: Value,
    steps: usize,
    log: &mut Acknowledged,
) -> Option<Value> {
    for _ in 0..steps {
        let Some((seat, command)) = decision(room, &game) else {
            break;
        };
        let p = players.iter_mut().find(|p| p.seat == seat).unwrap();
        p.act(command, log).await;
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

/// The actions the players were told were done (acknowledged), in the order of their
/// acknowledgements, in the form of a record's `actions` entries.
#[derive(Debug, Default)]
pub struct Acknowledged(pub Vec<Value>);

impl Acknowledged {
    /// Notes the acknowledged `command` of `seat`.
    pub fn push(&mut self, seat: u64, command: &Value) {
        self.0.push(as_recorded(seat, command));
    }

    /// The record holds exactly the acknowledged actions, in order, besides what the hall
    /// did on its own (bots, auto-play, timers, connections; marked so in the record): nothing
    /// acknowledged is missing, and no player's action is stored that its player was not told
    /// of.
    pub fn assert_recorded(&self, record: &Value) {
        let players_acts: Vec<Value> = record["actions"]
            .as_array()
            .expect("a record lists its actions")
            .iter()
            .filter(|a| a["auto"] != true && is_players_act(&a["action"]["kind"]))
            .map(|a| {
                let seat = a["seat"].as_u64().unwrap();
                let mut kept = json!({"seat": seat, "action": a["action"]});
                if !a["entropy"].is_null() {
                    kept["entropy"] = a["entropy"].clone();
                }
                kept
            })
            .collect();
        assert_eq!(
            players_acts, self.0,
            "the record's actions of the players are the acknowledged ones, in order"
        );
    }
}

/// Whether a record action of this kind is one a player asks for (the rest are the hall's:
/// timeouts, disconnections, abandons, auto-play switches by the hall).
fn is_players_act(kind: &Value) -> bool {
    [
        "roll",
        "move",
        "use_item",
        "resign",
        "draw_offer",
        "draw_answer",
    ]
    .iter()
    .any(|k| kind == k)
}

/// A game command as its record entry shows it (the command's `type` is the action's `kind`,
/// the roller's bytes sit beside the action).
fn as_recorded(seat: u64, command: &Value) -> Value {
    let mut action = command.clone();
    let fields = action.as_object_mut().unwrap();
    let kind = match fields.remove("type").unwrap().as_str().unwrap() {
        "offer_draw" => json!("draw_offer"),
        "answer_draw" => json!("draw_answer"),
        other => json!(other),
    };
    let entropy = fields.remove("entropy");
    fields.remove("room");
    fields.remove("id");
    fields.insert("kind".into(), kind);
    let mut recorded = json!({"seat": seat, "action": action});
    if let Some(entropy) = entropy {
        recorded["entropy"] = entropy;
    }
    recorded
}

pub async fn snapshot_game(port: u16, room: &str) -> Value {
    let mut w = Client::connect(port).await;
    w.ok(json!({"type": "spectate", "room": room})).await;
    let s = w.wait_for(|v| v["type"] == "snapshot").await;
    s["state"]["game"].clone()
}

pub async fn start_game(port: u16, game: &str, options: Value) -> (Vec<Client>, String, Value) {
    start_game_on([port, port], game, options).await
}

/// Two people start a game: the first, on the hall of `ports[0]`, opens the room; the second
/// joins it from `ports[1]` (another node of a cluster, or the same hall).
pub async fn start_game_on(
    ports: [u16; 2],
    game: &str,
    options: Value,
) -> (Vec<Client>, String, Value) {
    let mut a = guest(ports[0], "a").await;
    let created = a
        .ok(json!({"type": "create_room", "game": game, "options": options}))
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    let mut b = guest(ports[1], "b").await;
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

pub async fn rejoin(port: u16, old: &[Client]) -> (Vec<Client>, Value) {
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

/// The databases the kill test runs on: a SQLite file in `dir`, and a fresh PostgreSQL
/// database on the server of HANGAR_TEST_POSTGRES_URL when it is set (required under CI).
pub async fn databases(dir: &tempfile::TempDir) -> Vec<String> {
    let mut urls = vec![dir.path().join("kill.db").display().to_string()];
    match postgres_database().await {
        Some(url) => urls.push(url),
        None => eprintln!("HANGAR_TEST_POSTGRES_URL is not set: the kill test ran on SQLite only"),
    }
    urls
}

/// A fresh PostgreSQL database on the server of HANGAR_TEST_POSTGRES_URL, if it is set
/// (required under CI).
pub async fn postgres_database() -> Option<String> {
    let url = fresh_postgres().await;
    assert!(
        url.is_some() || !under_ci(),
        "CI=true but HANGAR_TEST_POSTGRES_URL is not set"
    );
    url
}

/// Reads until the server closes the socket: its close code and reason.
pub async fn closed(c: &mut Client) -> (u16, String) {
    loop {
        let m = tokio::time::timeout(WAIT, c.ws.next())
            .await
            .expect("the socket is closed in time")
            .expect("a close frame comes before the end")
            .unwrap();
        if let Message::Close(frame) = m {
            let frame = frame.expect("the close says why");
            return (u16::from(frame.code), frame.reason.to_string());
        }
    }
}

/// A minimal HTTP/1.1 GET of a JSON body (chunked or not).
pub async fn http_get(port: u16, path: &str) -> (u16, Value) {
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

/// Runs `hangar admin --database DB ARGS…`.
pub fn admin(database: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hangar"))
        .args(["admin", "--database", database])
        .args(args)
        .output()
        .unwrap()
}

/// Runs an admin command that must succeed: its JSON line.
pub fn admin_ok(database: &str, args: &[&str]) -> Value {
    let out = admin(database, args);
    assert!(
        out.status.success(),
        "hangar admin {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}
