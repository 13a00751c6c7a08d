//! `hangar load`: a swarm of WebSocket clients on loopback, four to a game, playing real
//! flight games against a hall (each decision: send, wait for the acknowledgement, think).
//! Tables start spread over one think time and at most [`START_RATE`] a second; the timed
//! window opens once every game runs. Reports the start phase apart, then games started and
//! finished, actions per second, ack latency percentiles, errors, CPU per action, the host's
//! steal and the server's peak memory. A client whose connection breaks (a node of a cluster
//! killed or restarted) resumes on the next address ([`player`]); the report counts them.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;
use serde_json::json;
use tokio::net::TcpStream;
use tokio::sync::{Barrier, Mutex, Semaphore, watch};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use hangar_client::Connection;
use hangar_protocol::{Ack, GameKind, HallCommand, RoomAction, RoomCommand, SignedIn};

mod entropy;
mod player;

use player::{CLIENT, Player, Seated};

/// Arguments of `hangar load`.
#[derive(Args, Debug)]
pub struct LoadArgs {
    /// Number of WebSocket clients (four to a game; rounded down to a multiple of 4).
    #[arg(long, default_value_t = 100)]
    pub clients: usize,
    /// Think time before each decision, in milliseconds.
    #[arg(long, default_value_t = 0)]
    pub think: u64,
    /// How long to play once every game has started, in seconds (tables start at most
    /// `START_RATE` a second; the help text quotes the constant).
    #[arg(long, default_value_t = 10, help = seconds_help())]
    pub seconds: u64,
    /// Address of a running hall (host:port); without it `load` starts `hangar serve` itself
    /// on a free port with a fresh database in a temporary directory. Several addresses
    /// (comma-separated: the nodes of a cluster) spread each table's four players over the
    /// nodes, the room on the first player's node; acks are then reported apart for players
    /// on the room's node and on another.
    #[arg(long, value_delimiter = ',')]
    pub addr: Vec<String>,
    /// Process ids of the hall's processes (comma-separated), to read their CPU time and
    /// memory, summed (default: the hall `load` started).
    #[arg(long, value_delimiter = ',')]
    pub server_pid: Vec<u32>,
    /// Database for the hall `load` starts (default: a SQLite file in a temporary directory).
    #[arg(long)]
    pub database: Option<String>,
    /// When the time is up, let the running games play to their end (at most 5 minutes)
    /// before reporting, so that every started game finishes; rates and latencies still
    /// cover the timed window only.
    #[arg(long)]
    pub finish: bool,
}

#[derive(Default)]
struct Stats {
    started: AtomicU64,
    finished: AtomicU64,
    actions: AtomicU64,
    /// Actions acknowledged after the timed window (finishing the games).
    late_actions: AtomicU64,
    errors: AtomicU64,
    latencies: Mutex<Vec<u32>>,
    /// Latencies of players on another node than their room's (a cluster).
    remote_latencies: Mutex<Vec<u32>>,
    /// Whether the timed window is open (every game has started); before it, acknowledged
    /// actions count for the start phase, reported apart.
    window_open: AtomicBool,
    /// Actions acknowledged before the window opened, and their latencies.
    start_actions: AtomicU64,
    start_latencies: Mutex<Vec<u32>>,
    /// Connections that broke and came back (a node stopped or died).
    resumed: AtomicU64,
    /// Commands sent again (after a reconnection, or `unavailable`) and refused although
    /// auto-play had not been seen moving the seat on: counted in `errors` too.
    resent_refused: AtomicU64,
    /// Of those, the ones refused after a snapshot, which hides whether auto-play moved the
    /// seat or the command ran: counted as errors, since nothing shows the refusal is right.
    resent_unseen: AtomicU64,
    /// Commands sent again and refused because auto-play (or the turn timer) had moved the
    /// seat on before they ran: not errors.
    resent_auto_played: AtomicU64,
    /// Commands answered `unavailable` (their room's node did not answer) and sent again.
    retried: AtomicU64,
}

pub(super) type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// `hangar load`.
pub fn load(args: &LoadArgs) -> anyhow::Result<()> {
    // The swarm measures latency too: its own page faults must not stall it (and the hall it
    // starts inherits the setting).
    super::huge_pages::disable();
    // One thread for the whole swarm: a hundred clients that each wait for their answer
    // need far less than a core, and on one thread a client woken by its socket runs at
    // once, with no hand-over between workers (measured: less CPU per action; the swarm
    // shares the machine with the hall it loads).
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(run(args))
}

/// A hall started for a measurement; stopped (and its directory removed) when dropped.
pub(super) struct Server {
    child: Option<Child>,
    _dir: Option<PathBuf>,
}

impl Server {
    /// The hall's process id.
    pub(super) fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }
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

/// Starts `hangar serve` on a free port (with a fresh database in a temporary directory unless
/// `database` is given) and the flags `extra`.
pub(super) fn spawn_server(
    database: Option<&str>,
    extra: &[&str],
) -> anyhow::Result<(String, Server)> {
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
        .args(extra)
        .env("HANGAR_LOG", "warn,hangar::latency=debug")
        .env("NO_COLOR", "1")
        // Its warnings and latency reports (`hangar::latency`) show among ours.
        .stdout(Stdio::inherit())
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

/// A line of /proc/PID/status in KiB (`VmHWM`, `VmRSS`), summed over `pids`.
fn procs_kib(pids: &[u32], key: &str) -> Option<u64> {
    pids.iter().map(|&pid| proc_kib(Some(pid), key)).sum()
}

/// User + system CPU time of processes, summed, in seconds.
fn procs_cpu_seconds(pids: &[u32]) -> Option<f64> {
    pids.iter().map(|&pid| proc_cpu_seconds(Some(pid))).sum()
}

/// A line of /proc/PID/status in KiB (`VmHWM`, `VmRSS`).
pub(super) fn proc_kib(pid: Option<u32>, key: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid?)).ok()?;
    status
        .lines()
        .find(|l| l.starts_with(key))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// User + system CPU time of a process, in seconds (`/proc/PID/stat`, 100 ticks a second).
pub(super) fn proc_cpu_seconds(pid: Option<u32>) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid?)).ok()?;
    // Fields after the command name (which may hold spaces) start at its closing parenthesis.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let user: f64 = fields.get(11)?.parse().ok()?;
    let system: f64 = fields.get(12)?.parse().ok()?;
    Some((user + system) / 100.0)
}

/// The machine's CPU time so far, in ticks: (stolen by the host, all). From the first line
/// of `/proc/stat`: `cpu user nice system idle iowait irq softirq steal …`.
fn machine_cpu_ticks() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let ticks: Vec<u64> = stat
        .lines()
        .next()?
        .strip_prefix("cpu ")?
        .split_whitespace()
        .take(8)
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    Some((*ticks.get(7)?, ticks.iter().sum()))
}

/// Waits until the hall at `addr` accepts connections (at most 30 s).
pub(super) async fn wait_until_up(addr: &str) -> anyhow::Result<()> {
    for _ in 0..600 {
        if TcpStream::connect(addr).await.is_ok() {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    anyhow::bail!("the hall at {addr} did not come up")
}

async fn run(args: &LoadArgs) -> anyhow::Result<()> {
    let (addrs, server) = if args.addr.is_empty() {
        let (addr, server) = spawn_server(
            args.database.as_deref(),
            &[
                // A client with no think time is a legitimate flood: let it through.
                "--rate-limit",
                "100000",
                // Every load client comes from loopback: no cap per address.
                "--max-connections-per-address",
                "0",
                // Each load client is a new guest, all from loopback.
                "--guests-per-address-per-hour",
                "0",
            ],
        )?;
        (vec![addr], server)
    } else {
        let server = Server {
            child: None,
            _dir: None,
        };
        (args.addr.clone(), server)
    };
    for addr in &addrs {
        wait_until_up(addr).await?;
    }
    let addr = addrs.join(",");
    let pids: Vec<u32> = if args.server_pid.is_empty() {
        server.pid().into_iter().collect()
    } else {
        args.server_pid.clone()
    };
    let baseline = procs_kib(&pids, "VmRSS:");
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
    // Tables start spread evenly over one think time, as real players would: started
    // together with a fixed think time, every table would act in the same instant every
    // `think` ms forever, and the hall would see one burst per think time instead of a
    // steady flow (the p99 would measure the burst, not the hall). Many tables ramp up at
    // most `START_RATE` a second, as load tools ramp their users: a whole swarm's games
    // starting in the same half second is a burst no hall sees, whose backlog would spill
    // into the timed window.
    let ramp_ms = args.think.max(games as u64 * 1000 / START_RATE);
    let addrs = Arc::new(addrs);
    for game in 0..games {
        let phase = Duration::from_millis(ramp_ms * game as u64 / games as u64);
        let addrs = addrs.clone();
        let stats = stats.clone();
        let seated = seated.clone();
        let stop = stop_rx.clone();
        let connecting = connecting.clone();
        let think = Duration::from_millis(args.think);
        let finish = args.finish;
        tasks.push(tokio::spawn(async move {
            let group = {
                let _permit = connecting.acquire().await.expect("semaphore open");
                set_up_game(&addrs, game).await
            };
            match group {
                Ok(players) => {
                    let mut handles = Vec::new();
                    for (seat, at) in players.into_iter().enumerate() {
                        let stats = stats.clone();
                        let seated = seated.clone();
                        let stop = stop.clone();
                        let addrs = addrs.clone();
                        handles.push(tokio::spawn(async move {
                            let mut player = Player::new(at, seat, addrs, phase, think, finish);
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
    let connected_rss = procs_kib(&pids, "VmRSS:");
    println!(
        "all seated in {:.1} s; playing",
        setup_started.elapsed().as_secs_f64()
    );
    // The start phase: every table says `ready` (spread over the ramp above) and its game
    // starts. Thousands of games starting in the same second are a burst no steady hall sees;
    // it is measured and reported apart, and the timed window opens once every game runs.
    let start_phase = Instant::now();
    let start_deadline = start_phase + Duration::from_secs(60);
    while stats.started.load(Ordering::Relaxed) < games as u64 && Instant::now() < start_deadline {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    stats.window_open.store(true, Ordering::Relaxed);
    let start_seconds = start_phase.elapsed().as_secs_f64();
    let running_at_start = stats.started.load(Ordering::Relaxed);
    let play_started = Instant::now();
    let server_cpu_start = procs_cpu_seconds(&pids);
    let swarm_cpu_start = proc_cpu_seconds(Some(std::process::id()));
    let machine_start = machine_cpu_ticks();
    tokio::time::sleep(Duration::from_secs(args.seconds)).await;
    let _ = stop_tx.send(true);
    let elapsed = play_started.elapsed().as_secs_f64();
    let actions = stats.actions.load(Ordering::Relaxed);
    let server_cpu = procs_cpu_seconds(&pids)
        .zip(server_cpu_start)
        .map(|(b, a)| b - a);
    let swarm_cpu = proc_cpu_seconds(Some(std::process::id()))
        .zip(swarm_cpu_start)
        .map(|(b, a)| b - a);
    // On a virtual machine the host may run other guests on our cores: time stolen so shows
    // as latency no change of the hall explains, so it is reported beside the figures.
    let steal_percent = machine_cpu_ticks()
        .zip(machine_start)
        .filter(|((_, all), (_, all_before))| all > all_before)
        .map(|((steal, all), (steal_before, all_before))| {
            100.0 * (steal - steal_before) as f64 / (all - all_before) as f64
        });
    let drain_started = Instant::now();
    let patience = if args.finish { 300 } else { 10 };
    let deadline = tokio::time::Instant::now() + Duration::from_secs(patience);
    for t in tasks {
        let _ = tokio::time::timeout_at(deadline, t).await;
    }
    let drained = drain_started.elapsed().as_secs_f64();
    let peak = procs_kib(&pids, "VmHWM:");
    let mut local = std::mem::take(&mut *stats.latencies.lock().await);
    let mut remote = std::mem::take(&mut *stats.remote_latencies.lock().await);
    let mut latencies: Vec<u32> = local.iter().chain(&remote).copied().collect();
    latencies.sort_unstable();
    local.sort_unstable();
    remote.sort_unstable();
    let mut start_latencies = std::mem::take(&mut *stats.start_latencies.lock().await);
    start_latencies.sort_unstable();
    let pct = |latencies: &[u32], p: f64| -> f64 {
        if latencies.is_empty() {
            return 0.0;
        }
        let i = ((latencies.len() as f64 - 1.0) * p).round() as usize;
        f64::from(latencies[i]) / 1000.0
    };
    println!(
        "start phase     {running_at_start} games started in {start_seconds:.1} s; {} actions in it: ack p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms (not in the figures below)",
        stats.start_actions.load(Ordering::Relaxed),
        pct(&start_latencies, 0.5),
        pct(&start_latencies, 0.99),
        pct(&start_latencies, 1.0)
    );
    println!("games started   {}", stats.started.load(Ordering::Relaxed));
    println!("games finished  {}", stats.finished.load(Ordering::Relaxed));
    println!(
        "actions         {actions} ({:.0}/s)",
        actions as f64 / elapsed
    );
    println!(
        "ack latency     p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        pct(&latencies, 0.5),
        pct(&latencies, 0.99),
        pct(&latencies, 1.0)
    );
    if !remote.is_empty() {
        println!(
            "  on the room's node     p50 {:.2} ms, p99 {:.2} ms ({} acks)",
            pct(&local, 0.5),
            pct(&local, 0.99),
            local.len()
        );
        println!(
            "  on another node        p50 {:.2} ms, p99 {:.2} ms ({} acks)",
            pct(&remote, 0.5),
            pct(&remote, 0.99),
            remote.len()
        );
    }
    println!("errors          {}", stats.errors.load(Ordering::Relaxed));
    let resumed = stats.resumed.load(Ordering::Relaxed);
    let retried = stats.retried.load(Ordering::Relaxed);
    if resumed > 0 {
        println!(
            "reconnections   {resumed} connections broke and resumed on another node; {retried} commands answered unavailable were sent again"
        );
    }
    if resumed > 0 || retried > 0 {
        println!(
            "sent again      refused as errors: {} ({} of them after a snapshot, which cannot tell whether auto-play moved the seat); refused because auto-play had moved for the seat: {} (not errors)",
            stats.resent_refused.load(Ordering::Relaxed),
            stats.resent_unseen.load(Ordering::Relaxed),
            stats.resent_auto_played.load(Ordering::Relaxed)
        );
    }
    if args.finish {
        println!(
            "finishing       {} more actions in {drained:.1} s after the window",
            stats.late_actions.load(Ordering::Relaxed)
        );
    }
    if let (Some(server), Some(swarm)) = (server_cpu, swarm_cpu) {
        let per_action = |cpu: f64| cpu * 1e6 / actions.max(1) as f64;
        println!(
            "cpu in window   server {server:.1} s ({:.0} µs/action), swarm {swarm:.1} s ({:.0} µs/action)",
            per_action(server),
            per_action(swarm),
        );
    }
    if let Some(steal) = steal_percent {
        println!("host steal      {steal:.1} % of the machine's CPU time in the window");
    }
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

async fn connect(addr: &str) -> anyhow::Result<Connection> {
    let config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    Ok(Connection::connect_with(&format!("ws://{addr}/ws"), config).await?)
}

/// Sends a command of the set-up and returns its ack's result (a refusal is an error).
async fn call<C: serde::Serialize + std::fmt::Debug>(
    connection: &mut Connection,
    command: &C,
) -> anyhow::Result<Ack> {
    connection
        .call(command)
        .await?
        .map_err(|e| anyhow::anyhow!("{command:?} → {e}"))
}

/// Four guests in one private room: seat `s` of table `game` on node `(game + s) % nodes`, the
/// room on seat 0's node.
async fn set_up_game(addrs: &[String], game: usize) -> anyhow::Result<Vec<Seated>> {
    let mut players = Vec::with_capacity(4);
    let mut room = String::new();
    for seat in 0..4 {
        let node = (game + seat) % addrs.len();
        let mut connection = connect(&addrs[node]).await?;
        let guest = HallCommand::Guest {
            name: format!("load{seat}"),
            client: Some(CLIENT.to_owned()),
        };
        let Ack::SignedIn(SignedIn { token, .. }) = call(&mut connection, &guest).await? else {
            anyhow::bail!("a guest is answered with a token");
        };
        let entered = if seat == 0 {
            let create = HallCommand::CreateRoom {
                game: GameKind::Flight,
                private: true,
                options: json!({"seats": 4}),
            };
            call(&mut connection, &create).await?
        } else {
            let join = RoomCommand {
                room: room.clone(),
                action: RoomAction::JoinRoom {
                    seat: None,
                    since: None,
                },
            };
            call(&mut connection, &join).await?
        };
        let Ack::Joined(joined) = entered else {
            anyhow::bail!("entering a room is answered with the room");
        };
        room = joined.room;
        players.push(Seated {
            socket: connection.into_socket(),
            room: room.clone(),
            // Ids 1 and 2: the guest and the room's command.
            next_id: 2,
            node,
            remote: node != game % addrs.len(),
            token,
        });
    }
    Ok(players)
}

/// How long, after the window, a player who said `ready` waits for its game to start.
const START_GRACE: Duration = Duration::from_secs(2);

/// Most tables that say `ready` in one second while the swarm ramps up (see `run`). A hall
/// of 10,000 players in games of about ten minutes sees a few starts a second; 500 a second
/// is still a storm, but one the hall can absorb beside the games already running.
const START_RATE: u64 = 500;

/// The help of `--seconds`, which quotes [`START_RATE`] so that the two never disagree.
fn seconds_help() -> String {
    format!(
        "How long to play once every game has started (tables start at most {START_RATE} a \
         second), in seconds"
    )
}
