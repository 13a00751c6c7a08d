//! P-DURABLE: the real `hangar serve` process is killed (SIGKILL) in the middle of a flight
//! game and a jungle game, restarted on the same database, and both games go on from their
//! last acknowledged action to the end; a room still waiting for its game is reopened with its
//! seats, bots and host.
#![allow(clippy::unwrap_used)] // tests fail loudly

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

const WAIT: Duration = Duration::from_secs(30);

fn spawn_server(port: u16, db: &std::path::Path, extra: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_hangar"))
        .args(["serve", "--addr", &format!("127.0.0.1:{port}")])
        .args(extra)
        .args([
            "--database",
            &db.display().to_string(),
            "--bot-delay-ms",
            "0",
        ])
        // Test players act as fast as the server answers: no flood limit here.
        .args(["--rate-limit", "100000"])
        .env("HANGAR_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the hangar binary starts")
}

async fn wait_until_up(port: u16) {
    for _ in 0..300 {
        if TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server did not come up");
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
    let db = dir.path().join("crash.db");
    let port = free_port();
    let mut server = spawn_server(port, &db, &[]);
    wait_until_up(port).await;

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

    server.kill().unwrap(); // SIGKILL: no shutdown code runs.
    server.wait().unwrap();
    let mut server = spawn_server(port, &db, &[]);
    wait_until_up(port).await;

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
    server.kill().unwrap();
    server.wait().unwrap();
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
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
    let db = dir.path().join("waiting.db");
    let port = free_port();
    let mut server = spawn_server(port, &db, &[]);
    wait_until_up(port).await;

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

    server.kill().unwrap(); // SIGKILL: no shutdown code runs.
    server.wait().unwrap();
    // A short reconnection grace, so that c's held seat is freed within the test.
    let mut server = spawn_server(port, &db, &["--reconnect-seconds", "4"]);
    wait_until_up(port).await;

    let (mut a2, joined) = come_back(port, &a.token, &room).await;
    assert_eq!(joined["seat"], 0, "a sits where a sat");
    let snapshot = a2.wait_for(|v| v["type"] == "snapshot").await;
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
    server.kill().unwrap();
    server.wait().unwrap();
}
