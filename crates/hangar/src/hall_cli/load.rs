//! `hangar load`: a swarm of WebSocket clients on loopback, four to a game, playing real
//! flight games against a hall (each decision: send, wait for the acknowledgement, think).
//! Reports games started and finished, actions per second, ack latency percentiles, errors
//! and the server's peak memory.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio::sync::{Barrier, Mutex, Semaphore, watch};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async_with_config};

/// Arguments of `hangar load`.
#[derive(Args, Debug)]
pub struct LoadArgs {
    /// Number of WebSocket clients (four to a game; rounded down to a multiple of 4).
    #[arg(long, default_value_t = 100)]
    pub clients: usize,
    /// Think time before each decision, in milliseconds.
    #[arg(long, default_value_t = 0)]
    pub think: u64,
    /// How long to play once every game has started, in seconds.
    #[arg(long, default_value_t = 10)]
    pub seconds: u64,
    /// Address of a running hall (host:port); without it `load` starts `hangar serve` itself
    /// on a free port with a fresh database in a temporary directory.
    #[arg(long)]
    pub addr: Option<String>,
    /// Process id of the hall, to read its peak memory (default: the hall `load` started).
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Database for the hall `load` starts (default: a SQLite file in a temporary directory).
    #[arg(long)]
    pub database: Option<String>,
}

#[derive(Default)]
struct Stats {
    started: AtomicU64,
    finished: AtomicU64,
    actions: AtomicU64,
    errors: AtomicU64,
    latencies: Mutex<Vec<u32>>,
}

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// `hangar load`.
pub fn load(args: &LoadArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(run(args))
}

struct Server {
    child: Option<Child>,
    _dir: Option<PathBuf>,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(child) = self.child.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
        if let Some(dir) = &self._dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

fn spawn_server(database: Option<&str>) -> anyhow::Result<(String, Server)> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let dir = std::env::temp_dir().join(format!("hangar-load-{}-{port}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let db = database
        .map(str::to_owned)
        .unwrap_or_else(|| dir.join("load.db").display().to_string());
    let addr = format!("127.0.0.1:{port}");
    let child = Command::new(std::env::current_exe()?)
        .args(["serve", "--addr", &addr, "--database", &db])
        .args(["--bot-delay-ms", "0", "--turn-seconds", "120"])
        // A client with no think time is a legitimate flood: let it through.
        .args(["--rate-limit", "100000"])
        .env("HANGAR_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .context("starting hangar serve")?;
    Ok((
        addr,
        Server {
            child: Some(child),
            _dir: Some(dir),
        },
    ))
}

/// A line of /proc/PID/status in KiB (`VmHWM`, `VmRSS`).
fn proc_kib(pid: Option<u32>, key: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid?)).ok()?;
    status
        .lines()
        .find(|l| l.starts_with(key))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

async fn wait_until_up(addr: &str) -> anyhow::Result<()> {
    for _ in 0..600 {
        if TcpStream::connect(addr).await.is_ok() {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    anyhow::bail!("the hall at {addr} did not come up")
}

async fn run(args: &LoadArgs) -> anyhow::Result<()> {
    let (addr, server) = match &args.addr {
        Some(addr) => (
            addr.clone(),
            Server {
                child: None,
                _dir: None,
            },
        ),
        None => spawn_server(args.database.as_deref())?,
    };
    wait_until_up(&addr).await?;
    let pid = args
        .server_pid
        .or_else(|| server.child.as_ref().map(Child::id));
    let baseline = proc_kib(pid, "VmRSS:");
    let games = args.clients / 4;
    anyhow::ensure!(games > 0, "at least 4 clients");
    let clients = games * 4;
    println!(
        "hall {addr}: {clients} clients in {games} games, think {} ms, {} s",
        args.think, args.seconds
    );

    let stats = Arc::new(Stats::default());
    let (stop_tx, stop_rx) = watch::channel(false);
    // Everyone connects and sits down first; then all mark ready at once.
    let seated = Arc::new(Barrier::new(clients + 1));
    let connecting = Arc::new(Semaphore::new(256));
    let setup_started = Instant::now();
    let mut tasks = Vec::with_capacity(games);
    for _ in 0..games {
        let addr = addr.clone();
        let stats = stats.clone();
        let seated = seated.clone();
        let stop = stop_rx.clone();
        let connecting = connecting.clone();
        let think = Duration::from_millis(args.think);
        tasks.push(tokio::spawn(async move {
            let group = {
                let _permit = connecting.acquire().await.expect("semaphore open");
                set_up_game(&addr).await
            };
            match group {
                Ok(players) => {
                    let mut handles = Vec::new();
                    for (seat, (socket, room, next_id)) in players.into_iter().enumerate() {
                        let stats = stats.clone();
                        let seated = seated.clone();
                        let stop = stop.clone();
                        handles.push(tokio::spawn(async move {
                            let mut player = Player {
                                socket,
                                room,
                                seat,
                                next_id,
                                think,
                                moves: Vec::new(),
                                pending: None,
                            };
                            seated.wait().await;
                            player.play(&stats, stop).await;
                        }));
                    }
                    for h in handles {
                        let _ = h.await;
                    }
                }
                Err(e) => {
                    eprintln!("a game could not be set up: {e:#}");
                    stats.errors.fetch_add(1, Ordering::Relaxed);
                    for _ in 0..4 {
                        seated.wait().await;
                    }
                }
            }
        }));
    }
    seated.wait().await;
    let connected_rss = proc_kib(pid, "VmRSS:");
    println!(
        "all seated in {:.1} s; playing",
        setup_started.elapsed().as_secs_f64()
    );
    let play_started = Instant::now();
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    let _ = stop_tx.send(true);
    let elapsed = play_started.elapsed().as_secs_f64();
    let actions = stats.actions.load(Ordering::Relaxed);
    let peak = proc_kib(pid, "VmHWM:");
    for t in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(10), t).await;
    }
    let mut latencies = std::mem::take(&mut *stats.latencies.lock().await);
    latencies.sort_unstable();
    let pct = |p: f64| -> f64 {
        if latencies.is_empty() {
            return 0.0;
        }
        let i = ((latencies.len() as f64 - 1.0) * p).round() as usize;
        f64::from(latencies[i]) / 1000.0
    };
    println!("games started   {}", stats.started.load(Ordering::Relaxed));
    println!("games finished  {}", stats.finished.load(Ordering::Relaxed));
    println!(
        "actions         {actions} ({:.0}/s)",
        actions as f64 / elapsed
    );
    println!(
        "ack latency     p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        pct(0.5),
        pct(0.99),
        pct(1.0)
    );
    println!("errors          {}", stats.errors.load(Ordering::Relaxed));
    match (baseline, connected_rss, peak) {
        (Some(base), Some(connected), Some(peak)) => println!(
            "server memory   {base} KiB at start, {connected} KiB with everyone seated ({:.1} KiB/client), peak {peak} KiB ({:.1} KiB/client)",
            connected.saturating_sub(base) as f64 / clients as f64,
            peak.saturating_sub(base) as f64 / clients as f64,
        ),
        _ => println!("server memory   unknown (give --server-pid)"),
    }
    drop(server);
    Ok(())
}

async fn connect(addr: &str) -> anyhow::Result<Socket> {
    let config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    let (socket, _) =
        connect_async_with_config(format!("ws://{addr}/ws"), Some(config), true).await?;
    Ok(socket)
}

async fn call(socket: &mut Socket, id: &mut u64, mut command: Value) -> anyhow::Result<Value> {
    *id += 1;
    command["id"] = json!(*id);
    socket.send(Message::text(command.to_string())).await?;
    while let Some(message) = socket.next().await {
        if let Message::Text(text) = message? {
            let value: Value = serde_json::from_str(&text)?;
            if value["id"] == json!(*id) {
                anyhow::ensure!(value["type"] == "ack", "{command} → {value}");
                return Ok(value["result"].clone());
            }
        }
    }
    anyhow::bail!("the socket closed")
}

/// Four guests in one private room.
async fn set_up_game(addr: &str) -> anyhow::Result<Vec<(Socket, String, u64)>> {
    let mut players = Vec::with_capacity(4);
    let mut room = String::new();
    for seat in 0..4 {
        let mut socket = connect(addr).await?;
        let mut id = 0;
        call(
            &mut socket,
            &mut id,
            json!({"type": "guest", "name": format!("load{seat}")}),
        )
        .await?;
        if seat == 0 {
            let created = call(
                &mut socket,
                &mut id,
                json!({"type": "create_room", "game": "flight", "private": true, "options": {"seats": 4}}),
            )
            .await?;
            room = created["room"].as_str().unwrap_or_default().to_owned();
        } else {
            call(
                &mut socket,
                &mut id,
                json!({"type": "join_room", "room": room}),
            )
            .await?;
        }
        players.push((socket, room.clone(), id));
    }
    Ok(players)
}

struct Player {
    socket: Socket,
    room: String,
    seat: usize,
    next_id: u64,
    think: Duration,
    moves: Vec<Value>,
    /// The command awaiting its ack: id, when sent, whether it is a game action.
    pending: Option<(u64, Instant, bool)>,
}

impl Player {
    async fn send(&mut self, mut command: Value) -> bool {
        self.next_id += 1;
        command["id"] = json!(self.next_id);
        let action = command["type"] != "ready";
        self.pending = Some((self.next_id, Instant::now(), action));
        self.socket
            .send(Message::text(command.to_string()))
            .await
            .is_ok()
    }

    async fn play(&mut self, stats: &Stats, mut stop: watch::Receiver<bool>) {
        let mut latencies = Vec::new();
        let ready = json!({"type": "ready", "room": self.room, "ready": true});
        self.send(ready.clone()).await;
        loop {
            let message = tokio::select! {
                m = self.socket.next() => m,
                _ = stop.changed() => break,
            };
            let Some(Ok(Message::Text(text))) = message else {
                if message.is_none() {
                    break;
                }
                continue;
            };
            let Ok(value) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            match value["type"].as_str() {
                Some("ack") => {
                    if let Some((id, sent, true)) = self.pending.take()
                        && value["id"] == json!(id)
                    {
                        latencies.push(sent.elapsed().as_micros().min(u128::from(u32::MAX)) as u32);
                        stats.actions.fetch_add(1, Ordering::Relaxed);
                    }
                }
                Some("error") => {
                    self.pending = None;
                    if stats.errors.fetch_add(1, Ordering::Relaxed) < 3 {
                        eprintln!("error: {value}");
                    }
                }
                Some("event") => {
                    let event = &value["event"];
                    let mine = event["seat"] == json!(self.seat);
                    match event["kind"].as_str() {
                        Some("rolled") if mine => {
                            self.moves = event["moves"].as_array().cloned().unwrap_or_default();
                        }
                        Some("turn") if mine => {
                            if !self.think.is_zero() {
                                tokio::time::sleep(self.think).await;
                            }
                            if *stop.borrow() {
                                break;
                            }
                            let command = if event["need"] == "roll" {
                                json!({"type": "roll", "room": self.room})
                            } else {
                                let plane = self
                                    .moves
                                    .first()
                                    .map(|m| m["plane"].clone())
                                    .unwrap_or(json!(0));
                                json!({"type": "move", "room": self.room, "plane": plane})
                            };
                            if !self.send(command).await {
                                break;
                            }
                        }
                        Some("game_started") if self.seat == 0 => {
                            stats.started.fetch_add(1, Ordering::Relaxed);
                        }
                        Some("game_over") => {
                            if self.seat == 0 {
                                stats.finished.fetch_add(1, Ordering::Relaxed);
                            }
                            // The room reopens: play again.
                            if !*stop.borrow() {
                                self.send(ready.clone()).await;
                            }
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        stats.latencies.lock().await.extend(latencies);
    }
}
