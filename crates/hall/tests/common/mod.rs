//! Test helpers: a hall on port 0 with a database in a temp dir, and a WebSocket test client.
#![allow(dead_code)]

mod postgres;
pub use postgres::{fresh_postgres, under_ci};

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use hangar_hall::hall::Hall;
use hangar_hall::{Config, start};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;

/// 16 fresh random bytes as hex: the roller's bytes every test client sends with a `roll`
/// or a booster (P-FAIR-DICE), as the page and the command line do.
pub fn entropy() -> String {
    hangar_dice::Entropy::random().to_string()
}

/// How long a test waits for any one message before failing.
pub const WAIT: Duration = Duration::from_secs(20);

/// A running test hall.
pub struct TestHall {
    pub addr: SocketAddr,
    pub hall: Arc<Hall>,
    pub dir: tempfile::TempDir,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

/// The SQLite database file of a test, in `dir`.
pub fn sqlite_url(dir: &tempfile::TempDir) -> String {
    dir.path().join("hall.db").display().to_string()
}

/// A pool on a test's database (a SQLite path or a PostgreSQL URL), for a test that reads or
/// changes its rows directly.
pub async fn any_pool(url: &str) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    let url = if url.starts_with("postgres") {
        url.to_owned()
    } else {
        format!("sqlite:{url}?mode=rwc")
    };
    sqlx::AnyPool::connect(&url).await.unwrap()
}

/// How many rows `table` of a test's database holds.
pub async fn count_rows(url: &str, table: &str) -> i64 {
    use sqlx::Row;
    let pool = any_pool(url).await;
    let rows = sqlx::query(&format!("SELECT COUNT(*) AS n FROM {table}"))
        .fetch_one(&pool)
        .await
        .unwrap()
        .try_get("n")
        .unwrap();
    pool.close().await;
    rows
}

/// The databases a whole-game test runs on: a SQLite file in `dir` always, and a fresh
/// PostgreSQL database when HANGAR_TEST_POSTGRES_URL is set. Under CI (`CI=true`) the
/// PostgreSQL half is required: a missing URL fails the test instead of passing it on SQLite
/// alone, so that a CI run cannot drop half of what it claims to test.
pub async fn databases(dir: &tempfile::TempDir) -> Vec<String> {
    let mut urls = vec![sqlite_url(dir)];
    match fresh_postgres().await {
        Some(url) => urls.push(url),
        None => {
            assert!(
                !under_ci(),
                "CI=true but HANGAR_TEST_POSTGRES_URL is not set: PostgreSQL is required under CI"
            );
            eprintln!("HANGAR_TEST_POSTGRES_URL is not set: this test ran on SQLite only");
        }
    }
    urls
}

/// Test settings: fast bots, short timers.
pub fn test_config(database: String) -> Config {
    Config {
        addr: "127.0.0.1:0".to_owned(),
        database,
        turn_seconds: 60,
        reconnect_grace: Duration::from_secs(180),
        bot_delay: Duration::from_millis(0),
        // Long: tests of quick match between people must not see bots arrive; the quick-bots
        // test sets its own.
        quick_fill_after: Duration::from_secs(600),
        // Long: tests take their time to ready; the seat-camping test sets its own.
        ready_timeout: Duration::from_secs(600),
        // As in the hall: the lapse test sets its own.
        challenge_lapse: Duration::from_secs(60),
        web_dir: None,
        turn_unit: Duration::from_secs(1),
        // Test players act as fast as the server answers; the flood test sets 20/40.
        messages_per_second: 100_000,
        message_burst: 200_000,
        broadcast_delay: hangar_hall::DEFAULT_BROADCAST_DELAY,
        // Every test client is on loopback: no cap per address unless a test sets one.
        limits: hangar_hall::Limits {
            max_connections_per_address: 0,
            guests_per_address_per_hour: 0,
            accounts_per_network_per_hour: 0,
            ..hangar_hall::Limits::default()
        },
        storage_failure_bound: hangar_hall::store::DEFAULT_FAILURE_BOUND,
        cluster: None,
        // The scoring tests play short games (a resignation at once, a seat on auto-play) to
        // check the score rules themselves; the P-ABORT tests (fair_play.rs) set 3.
        // The boards' tests list a player after one opponent; fair_play.rs checks 5.
        fair: hangar_hall::FairPlay {
            abort_decisions: 0,
            listed_after_opponents: 1,
            ..hangar_hall::FairPlay::default()
        },
        metrics_token: None,
        arena_schedule: Vec::new(),
    }
}

impl TestHall {
    /// A hall on a fresh SQLite database.
    pub async fn start() -> TestHall {
        let dir = tempfile::tempdir().unwrap();
        let config = test_config(sqlite_url(&dir));
        TestHall::with(dir, config).await
    }

    /// A hall on the database `url` (see [`databases`]).
    pub async fn on(url: &str) -> TestHall {
        TestHall::with(tempfile::tempdir().unwrap(), test_config(url.to_owned())).await
    }

    /// A hall with these settings.
    pub async fn with(dir: tempfile::TempDir, config: Config) -> TestHall {
        let running = start(config).await.unwrap();
        let addr = running.addr;
        let hall = running.hall.clone();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            running
                .serve(async {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
        });
        TestHall {
            addr,
            hall,
            dir,
            stop: Some(stop),
            task,
        }
    }

    /// A new client connection (welcome already read).
    pub async fn client(&self) -> Client {
        Client::connect(self.addr).await
    }

    /// A guest client.
    pub async fn guest(&self, name: &str) -> Client {
        let mut client = self.client().await;
        client.guest(name).await;
        client
    }

    /// Stops the server, which must end in time and without a fault: a panic in `serve()` or
    /// a hang at shutdown fails the test.
    pub async fn stop(mut self) -> tempfile::TempDir {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        tokio::time::timeout(Duration::from_secs(30), &mut self.task)
            .await
            .expect("the hall stops in time")
            .expect("the hall's server ends without a fault");
        self.dir
    }

    /// Two guests, "a" and "b", in a new room of `game` with its game started: the one whose
    /// turn it is first, the other one, and the room's code.
    pub async fn two_players(&self, game: &str, options: Value) -> (Client, Client, String) {
        let mut a = self.guest("a").await;
        let code = a.create(game, options).await;
        let mut b = self.guest("b").await;
        b.join(&code).await;
        b.ready().await;
        a.ready().await;
        let turn = a.wait_for(|v| v["event"]["kind"] == "turn").await;
        let (first, other) = if turn["event"]["seat"] == 0 {
            (a, b)
        } else {
            (b, a)
        };
        (first, other, code)
    }

    /// Guests "ana" and "bo" in a jungle room of this privacy, its game started: the host, the
    /// joiner and the room's code.
    pub async fn jungle_started(&self, private: bool) -> (Client, Client, String) {
        let mut a = self.guest("ana").await;
        let code = a
            .ok(json!({"type": "create_room", "game": "jungle", "private": private}))
            .await["room"]
            .as_str()
            .unwrap()
            .to_owned();
        a.room = Some(code.clone());
        let mut b = self.guest("bo").await;
        b.join(&code).await;
        a.ready().await;
        b.ready().await;
        a.event("turn").await;
        (a, b, code)
    }

    /// The room as a new watcher (signed in to nothing: no write needed) sees it: its game
    /// and its turn (the parts an action changes).
    pub async fn watched(&self, code: &str) -> (Value, Value) {
        let mut watcher = self.client().await;
        watcher.ok(json!({"type": "spectate", "room": code})).await;
        let snapshot = watcher.wait_for(|v| v["type"] == "snapshot").await;
        watcher.close().await;
        (
            snapshot["state"]["game"].clone(),
            snapshot["state"]["turn"].clone(),
        )
    }

    /// Polls `/health` until it answers `status` (a failing database is probed every half
    /// second); its body.
    pub async fn health_becomes(&self, status: u16) -> Value {
        for _ in 0..300 {
            let (now, health) = self.get("/health").await;
            if now == status {
                return health;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("/health never answered {status}");
    }

    /// Sets a player's score in the database, as a long history of games would have (a
    /// flight table of a high stake needs a score of at least the stake, P-SCORE).
    pub async fn set_score(&self, client: &Client, score: i64) {
        sqlx::query("UPDATE players SET score = $1 WHERE id = $2")
            .bind(score)
            .bind(client.player_id.unwrap())
            .execute(&any_pool(&self.hall.config.database).await)
            .await
            .unwrap();
    }

    /// GET a path as JSON.
    pub async fn get(&self, path: &str) -> (u16, Value) {
        http_get(self.addr, path).await
    }
}

/// A minimal HTTP/1.1 GET of JSON (see [`http_get_text`]).
pub async fn http_get(addr: SocketAddr, path: &str) -> (u16, Value) {
    let (status, body) = http_get_text(addr, path).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// A minimal HTTP/1.1 GET (keeps the test dependencies small): status and body.
pub async fn http_get_text(addr: SocketAddr, path: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8_lossy(&response).to_string();
    let status: u16 = text[9..12].parse().unwrap();
    let body_start = text.find("\r\n\r\n").unwrap() + 4;
    let mut body = &text[body_start..];
    // Chunked bodies: take the first chunk's content.
    if text[..body_start]
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        let line_end = body.find("\r\n").unwrap();
        let len = usize::from_str_radix(body[..line_end].trim(), 16).unwrap();
        body = &body[line_end + 2..line_end + 2 + len];
    }
    (status, body.to_owned())
}

/// A WebSocket test client that keeps the frames it has not looked at yet.
pub struct Client {
    ws: hangar_client::Socket,
    next_id: u64,
    pub inbox: VecDeque<Value>,
    pub token: Option<String>,
    pub player_id: Option<i64>,
    pub seat: Option<usize>,
    pub room: Option<String>,
    /// Last room version seen.
    pub version: u64,
}

impl Client {
    pub async fn connect(addr: SocketAddr) -> Client {
        // The shared client checks the `welcome` greeting.
        let ws = hangar_client::Connection::connect(&format!("ws://{addr}/ws"))
            .await
            .expect("the hall greets")
            .into_socket();
        Client {
            ws,
            next_id: 1,
            inbox: VecDeque::new(),
            token: None,
            player_id: None,
            seat: None,
            room: None,
            version: 0,
        }
    }

    /// A connection from the local address `from` (Linux answers every address of
    /// 127.0.0.0/8 on loopback: 127.0.1.5 and 127.0.2.5 are of different /24 networks), with
    /// the extra request `headers` (welcome already read).
    pub async fn connect_from(
        addr: SocketAddr,
        from: std::net::IpAddr,
        headers: &[(&str, &str)],
    ) -> Client {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        use tokio_tungstenite::tungstenite::http::{HeaderName, HeaderValue};
        let socket = match from {
            std::net::IpAddr::V4(_) => tokio::net::TcpSocket::new_v4(),
            std::net::IpAddr::V6(_) => tokio::net::TcpSocket::new_v6(),
        }
        .unwrap();
        socket.bind(SocketAddr::new(from, 0)).unwrap();
        let stream = socket.connect(addr).await.unwrap();
        let _ = stream.set_nodelay(true);
        let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
        for (name, value) in headers {
            request.headers_mut().append(
                HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        let (ws, _) = tokio_tungstenite::client_async(
            request,
            tokio_tungstenite::MaybeTlsStream::Plain(stream),
        )
        .await
        .expect("the hall upgrades");
        let mut client = Client {
            ws,
            next_id: 1,
            inbox: VecDeque::new(),
            token: None,
            player_id: None,
            seat: None,
            room: None,
            version: 0,
        };
        let welcome = client.read().await;
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        client
    }

    /// Sends raw text.
    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text)).await.unwrap();
    }

    /// Reads the next frame (from the wire).
    pub async fn read(&mut self) -> Value {
        loop {
            let message = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a message in time")
                .expect("the socket is open")
                .expect("a frame");
            match message {
                Message::Text(text) => {
                    let value: Value = serde_json::from_str(&text).unwrap();
                    if let Some(v) = value["v"].as_u64().filter(|_| value["type"] == "event") {
                        self.version = self.version.max(v);
                    }
                    if value["type"] == "snapshot" {
                        self.version = value["v"].as_u64().unwrap();
                    }
                    return value;
                }
                Message::Close(frame) => panic!("closed: {frame:?}"),
                _ => continue,
            }
        }
    }

    /// The next frame: first the kept ones.
    pub async fn next(&mut self) -> Value {
        match self.inbox.pop_front() {
            Some(v) => v,
            None => self.read().await,
        }
    }

    /// Sends a command with a fresh id and returns the id.
    pub async fn send(&mut self, mut command: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        command["id"] = json!(id);
        self.send_text(&command.to_string()).await;
        id
    }

    /// Waits for the ack or error of `id`, keeping other frames.
    pub async fn answer(&mut self, id: u64) -> Value {
        if let Some(pos) = self
            .inbox
            .iter()
            .position(|v| v["id"] == json!(id) && (v["type"] == "ack" || v["type"] == "error"))
        {
            return self.inbox.remove(pos).unwrap();
        }
        loop {
            let v = self.read().await;
            if v["id"] == json!(id) && (v["type"] == "ack" || v["type"] == "error") {
                return v;
            }
            self.inbox.push_back(v);
        }
    }

    /// Sends a command and returns its answer.
    pub async fn call(&mut self, command: Value) -> Value {
        let id = self.send(command).await;
        self.answer(id).await
    }

    /// Sends a command that must be acknowledged; returns the ack's result.
    pub async fn ok(&mut self, command: Value) -> Value {
        let answer = self.call(command.clone()).await;
        assert_eq!(answer["type"], "ack", "command {command} answered {answer}");
        answer["result"].clone()
    }

    /// Sends a command that must fail with `code`; returns the error.
    pub async fn fails(&mut self, command: Value, code: &str) -> Value {
        let answer = self.call(command.clone()).await;
        assert_eq!(
            answer["type"], "error",
            "command {command} answered {answer}"
        );
        assert_eq!(answer["code"], code, "command {command} answered {answer}");
        answer
    }

    /// Signs in as a guest.
    pub async fn guest(&mut self, name: &str) -> Value {
        let result = self.ok(json!({"type": "guest", "name": name})).await;
        self.token = result["token"].as_str().map(str::to_owned);
        self.player_id = result["player"]["id"].as_i64();
        result
    }

    /// Waits for a frame matching `pred`, keeping the others.
    pub async fn wait_for(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(pos) = self.inbox.iter().position(&pred) {
            return self.inbox.remove(pos).unwrap();
        }
        loop {
            let v = self.read().await;
            if pred(&v) {
                return v;
            }
            self.inbox.push_back(v);
        }
    }

    /// Waits for a room event of this kind.
    pub async fn event(&mut self, kind: &str) -> Value {
        let kind = kind.to_owned();
        self.wait_for(move |v| v["type"] == "event" && v["event"]["kind"] == kind)
            .await
    }

    /// Creates a room and returns its code.
    pub async fn create(&mut self, game: &str, options: Value) -> String {
        let result = self
            .ok(json!({"type": "create_room", "game": game, "options": options}))
            .await;
        let code = result["room"].as_str().unwrap().to_owned();
        self.room = Some(code.clone());
        self.seat = result["seat"].as_u64().map(|s| s as usize);
        code
    }

    /// Joins a room by code.
    pub async fn join(&mut self, code: &str) -> Value {
        let result = self.ok(json!({"type": "join_room", "room": code})).await;
        self.room = Some(code.to_owned());
        self.seat = result["seat"].as_u64().map(|s| s as usize);
        result
    }

    /// Marks ready.
    pub async fn ready(&mut self) {
        let room = self.room.clone().unwrap();
        self.ok(json!({"type": "ready", "room": room, "ready": true}))
            .await;
    }

    /// Creates a flight room of two seats and two planes, puts a random bot in seat 1 and is
    /// ready: the game starts. The room's code.
    pub async fn start_flight_against_a_random_bot(&mut self) -> String {
        let code = self
            .create("flight", json!({"seats": 2, "planes": 2}))
            .await;
        self.ok(json!({"type": "add_bot", "room": code, "seat": 1, "bot": "random"}))
            .await;
        self.ready().await;
        code
    }

    /// The next raw message from the socket (None when closed).
    pub async fn raw_next(&mut self) -> Option<Message> {
        self.ws.next().await.and_then(Result::ok)
    }

    /// Drops every kept frame.
    pub fn clear(&mut self) {
        self.inbox.clear();
    }

    /// Closes the socket.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// Plays this client's flight seat until the game is over; returns the `game_over` result.
/// Acts on each `turn` event for its seat: rolls, or moves the first listed plane.
pub async fn play_flight(client: &mut Client) -> Value {
    play_flight_seat(client, |_| false)
        .await
        .expect_err("a seat that never stops plays to the end")
}

/// Plays this client's jungle seat with `pick` choosing among the legal moves, until the game
/// is over; returns the `game_over` result.
pub async fn play_jungle(client: &mut Client, pick: impl Fn(&[Value]) -> usize) -> Value {
    let room = client.room.clone().unwrap();
    let me = client.seat.unwrap();
    let mut moves: Vec<Value> = Vec::new();
    loop {
        let v = client.next().await;
        if v["type"] != "event" {
            continue;
        }
        let event = &v["event"];
        if let Some(list) = event["game"]["moves"].as_array() {
            moves = list.clone();
        }
        match event["kind"].as_str().unwrap_or_default() {
            "game_over" => return event["result"].clone(),
            "turn" if event["seat"] == json!(me) => {
                let m = moves[pick(&moves)].clone();
                let answer = client
                    .call(json!({"type": "move", "room": room, "move": m}))
                    .await;
                assert_eq!(answer["type"], "ack", "{m} → {answer}");
            }
            _ => {}
        }
    }
}

/// Plays this client's flight seat (rolls, or moves the first listed plane) until it is its
/// turn to roll and `stop` holds for the game view; returns that view without acting on it.
/// The game waits for this seat meanwhile, so the view is still current when the caller acts.
pub async fn play_flight_until(client: &mut Client, stop: impl Fn(&Value) -> bool) -> Value {
    play_flight_seat(client, stop)
        .await
        .unwrap_or_else(|result| panic!("the game ended before the awaited view: {result}"))
}

/// The one flight seat player of [`play_flight`] and [`play_flight_until`]: `Ok(view)` when it
/// is this seat's turn to roll and `stop` holds, `Err(result)` when the game is over first.
async fn play_flight_seat(
    client: &mut Client,
    stop: impl Fn(&Value) -> bool,
) -> Result<Value, Value> {
    let room = client.room.clone().unwrap();
    let me = client.seat.unwrap();
    let mut view = Value::Null;
    let mut moves: Vec<Value> = Vec::new();
    loop {
        let v = client.next().await;
        if v["type"] != "event" {
            continue;
        }
        let event = &v["event"];
        if event["game"].is_object() {
            view = event["game"].clone();
        }
        match event["kind"].as_str().unwrap_or_default() {
            "game_over" => return Err(event["result"].clone()),
            "rolled" => moves = event["moves"].as_array().cloned().unwrap_or_default(),
            "turn" if event["seat"] == json!(me) => {
                let command = if event["need"] == "roll" {
                    if view["to_move"] == json!(me) && stop(&view) {
                        return Ok(view);
                    }
                    json!({"type": "roll", "room": room, "entropy": entropy()})
                } else {
                    json!({"type": "move", "room": room, "plane": moves[0]["plane"].clone()})
                };
                let answer = client.call(command.clone()).await;
                assert_eq!(answer["type"], "ack", "{command} → {answer}");
            }
            _ => {}
        }
    }
}

/// GET `path` as JSON with an optional bearer token: the status and the body.
pub async fn get_as(addr: SocketAddr, path: &str, token: Option<&str>) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Connection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8_lossy(&response).to_string();
    let status: u16 = text[9..12].parse().unwrap();
    let body = &text[text.find("\r\n\r\n").unwrap() + 4..];
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}
