//! The hall side of the command line: `serve`, `verify`, `replay`, `backup`, `load` and
//! `attack`.

mod attack;
mod huge_pages;
mod load;

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use hangar_games::record::GameRecord;
use hangar_hall::{Config, FairPlay, Limits, find_web_dir};

pub use attack::{AttackArgs, attack};
pub use load::{LoadArgs, load};

/// Arguments of `hangar serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "HANGAR_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: String,
    /// Database: a SQLite file path (created and migrated at start) or postgres://user@host/db.
    #[arg(long, env = "HANGAR_DATABASE", default_value = "hangar.db")]
    pub database: String,
    /// Default turn timer of new rooms, in seconds (5–120).
    #[arg(long, env = "HANGAR_TURN_SECONDS", default_value_t = 20,
          value_parser = clap::value_parser!(u64).range(5..=120))]
    pub turn_seconds: u64,
    /// Directory of the web client served at `/` (default: ./web, else the source tree's web/).
    #[arg(long, env = "HANGAR_WEB_DIR")]
    pub web_dir: Option<PathBuf>,
    /// Pause before a bot or auto-play acts, in milliseconds.
    #[arg(long, env = "HANGAR_BOT_DELAY_MS", default_value_t = 600)]
    pub bot_delay_ms: u64,
    /// How long a quick match waits for other people before bots of middle strength fill
    /// its empty seats and the game starts, in seconds (P-QUICK: 10).
    #[arg(long, env = "HANGAR_QUICK_BOTS_AFTER_SECONDS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub quick_bots_after_seconds: u64,
    /// How long a person may sit in a public waiting room without readying before the seat
    /// is freed, in seconds.
    #[arg(long, env = "HANGAR_READY_TIMEOUT_SECONDS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(5..=3600))]
    pub ready_timeout_seconds: u64,
    /// How long a disconnected player keeps the seat, in seconds (P-DISCONNECT: 180).
    #[arg(long, env = "HANGAR_RECONNECT_SECONDS", default_value_t = 180)]
    pub reconnect_seconds: u64,
    /// Messages per second allowed per connection (bursts of twice as many); floods beyond get
    /// `rate_limited` errors.
    #[arg(long, env = "HANGAR_RATE_LIMIT", default_value_t = 20)]
    pub rate_limit: u32,
    /// During a game, how long events for members who do not act next may wait to share a
    /// write with the next ones, in milliseconds (0: every event at once).
    #[arg(long, env = "HANGAR_BROADCAST_DELAY_MS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(0..=1000))]
    pub broadcast_delay_ms: u64,
    /// Threads running connections and rooms (default: one less than the cores, at least
    /// one: the database writer keeps a core busy of its own).
    #[arg(long, env = "HANGAR_WORKERS", value_parser = clap::value_parser!(u16).range(1..))]
    pub workers: Option<u16>,
    /// Open WebSocket connections in all; beyond, new ones get HTTP 503 (keep it below the
    /// file limit so that `/health` and running games keep answering).
    #[arg(long, env = "HANGAR_MAX_CONNECTIONS", default_value_t = 15_000)]
    pub max_connections: usize,
    /// Open WebSocket connections from one IP address; beyond, HTTP 429 (0: no cap, for a
    /// hall behind a proxy or a load test on loopback).
    #[arg(long, env = "HANGAR_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 50)]
    pub max_connections_per_address: usize,
    /// KiB queued for one connection and not yet written before it is closed as too slow
    /// (code 1008), whatever it reads or follows.
    #[arg(long, env = "HANGAR_OUTBOX_KIB", default_value_t = 1024,
          value_parser = clap::value_parser!(u64).range(64..))]
    pub outbox_kib: u64,
    /// KiB of each accepted socket's kernel send buffer (Linux doubles it); 0: the system's
    /// autotuning, up to 4 MiB per socket for a peer that does not read.
    #[arg(long, env = "HANGAR_SOCKET_SEND_BUFFER_KIB", default_value_t = 256)]
    pub socket_send_buffer_kib: u32,
    /// A WebSocket silent this long (not even answering a ping) is closed, in seconds.
    #[arg(long, env = "HANGAR_IDLE_TIMEOUT_SECONDS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(2..))]
    pub idle_timeout_seconds: u64,
    /// Time a client has to send a request's headers, in seconds.
    #[arg(long, env = "HANGAR_HEADER_TIMEOUT_SECONDS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub header_timeout_seconds: u64,
    /// Messages over the rate or size limits a connection may send (each gets an error)
    /// before it is closed as a flood (code 1008); one is forgiven every ten seconds.
    #[arg(long, env = "HANGAR_FLOOD_REFUSALS", default_value_t = 5,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub flood_refusals: u32,
    /// Password hashes run at once (argon2, about 19 MiB each); more sign-ins wait.
    #[arg(long, env = "HANGAR_PASSWORD_HASHING", default_value_t = 2,
          value_parser = clap::value_parser!(u16).range(1..))]
    pub password_hashing: u16,
    /// Sign-ins that may wait for a password hash; beyond, `rate_limited` at once.
    #[arg(long, env = "HANGAR_PASSWORD_QUEUE", default_value_t = 64)]
    pub password_queue: usize,
    /// After 3 failed logins of an account (10 from an address), each further one locks it
    /// for this long, doubled every time (at most 5 minutes), in milliseconds.
    #[arg(long, env = "HANGAR_LOGIN_DELAY_MS", default_value_t = 1000)]
    pub login_delay_ms: u64,
    /// Failed logins from one IP address (any names) before it locks like an account (0: no
    /// such lock, for a hall behind a proxy).
    #[arg(long, env = "HANGAR_LOGIN_FAILURES_PER_ADDRESS", default_value_t = 10)]
    pub login_failures_per_address: u32,
    /// How long a sign-in token is good for, in days; then the player signs in again.
    #[arg(long, env = "HANGAR_TOKEN_DAYS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3650))]
    pub token_days: u64,
    /// Game records and replays served per second to one IP address over HTTP (bursts of
    /// four times as many; beyond, HTTP 429; 0: no limit).
    #[arg(long, env = "HANGAR_API_RATE_LIMIT", default_value_t = 5)]
    pub api_rate_limit: u32,
    /// New guest identities made per network (an IPv4 /24, an IPv6 /64) per hour; beyond,
    /// `rate_limited` (P-NEW-IDENTITY: 10; 0: no cap).
    #[arg(
        long,
        alias = "guests-per-network-per-hour",
        env = "HANGAR_GUESTS_PER_ADDRESS_PER_HOUR",
        default_value_t = 10
    )]
    pub guests_per_address_per_hour: u32,
    /// New accounts made per network (an IPv4 /24, an IPv6 /64) per hour; a guest that
    /// registers keeps its identity and is not counted (P-NEW-IDENTITY: 3; 0: no cap).
    #[arg(
        long,
        env = "HANGAR_ACCOUNTS_PER_NETWORK_PER_HOUR",
        default_value_t = 3
    )]
    pub accounts_per_network_per_hour: u32,
    /// Networks the counts of new identities remember; when full, the one used least recently
    /// is forgotten (a network not remembered is never refused).
    #[arg(long, env = "HANGAR_IDENTITY_NETWORKS", default_value_t = 100_000,
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub identity_networks: u64,
    /// The address of a reverse proxy in front of the hall whose `X-Forwarded-For` header
    /// names the client (its last address counts): every cap per address or network then
    /// counts the client, not the proxy. Repeat it (or separate by commas) for several.
    #[arg(
        long = "trusted-proxy",
        env = "HANGAR_TRUSTED_PROXY",
        value_delimiter = ','
    )]
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Fewest decisions of their own each person must make for a game to be scored; fewer
    /// abort it (P-ABORT: 3; 0: never aborted).
    #[arg(long, env = "HANGAR_ABORT_DECISIONS", default_value_t = 3)]
    pub abort_decisions: u32,
    /// Scored games the same two people may play against each other in 24 hours; later ones
    /// are practice (P-ABORT: 3; 0: no cap).
    #[arg(long, env = "HANGAR_PAIR_GAMES_PER_DAY", default_value_t = 3)]
    pub pair_games_per_day: u32,
    /// Games the same two people count in one arena; later ones between them pay no arena
    /// points, score or rating (P-ARENA: 3; 0: no cap).
    #[arg(long, env = "HANGAR_ARENA_PAIR_GAMES", default_value_t = 3)]
    pub arena_pair_games: u32,
    /// Different people a player's scored games of a game must have been against before the
    /// player is on that game's leaderboards (P-RATING: 5).
    #[arg(long, env = "HANGAR_LISTED_AFTER_OPPONENTS", default_value_t = 5)]
    pub listed_after_opponents: u32,
    /// Bearer token `/metrics` asks for (`Authorization: Bearer TOKEN`); without it `/metrics`
    /// answers only requests from the machine itself (loopback).
    #[arg(long, env = "HANGAR_METRICS_TOKEN")]
    pub metrics_token: Option<String>,
    /// An arena the hall makes by itself, again and again (P-ARENA), as
    /// GAME:EVERY:MINUTES[:TURN_SECONDS]: `jungle:60:30:15` is an hourly 30-minute Jungle
    /// blitz, `flight:120:60` a flight arena every two hours. Repeat the flag for several;
    /// single-node halls only.
    #[arg(
        long = "arena-schedule",
        env = "HANGAR_ARENA_SCHEDULE",
        value_delimiter = ','
    )]
    pub arena_schedule: Vec<hangar_hall::arena::ArenaSchedule>,
    /// How long the answers of a client are kept for repeated ids after its last connection
    /// closed, in seconds.
    #[arg(long, env = "HANGAR_ANSWER_WINDOW_SECONDS", default_value_t = 60)]
    pub answer_window_seconds: u64,
    /// How long database writes may fail before the hall reports itself unhealthy and
    /// refuses new games and actions until a write succeeds again, in seconds.
    #[arg(long, env = "HANGAR_STORAGE_FAILURE_SECONDS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub storage_failure_seconds: u64,
    /// Run as one node of a cluster: the NATS server between the nodes (`nats://HOST:PORT`).
    /// Needs a PostgreSQL `--database`, the same for every node (docs/deploy.md, "A cluster").
    #[arg(long, env = "HANGAR_CLUSTER")]
    pub cluster: Option<String>,
    /// Log as JSON lines instead of text.
    #[arg(long, env = "HANGAR_LOG_JSON")]
    pub log_json: bool,
}

/// Arguments of `hangar verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Path of a game record (JSON, as served by GET /api/games/{id}); `-` reads stdin.
    pub record: PathBuf,
}

/// Arguments of `hangar replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// Path of a game record (JSON); `-` reads stdin.
    pub record: PathBuf,
}

fn init_logs(json: bool) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("HANGAR_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    if json {
        builder.json().init();
    } else {
        builder.init();
    }
}

/// `hangar serve`.
pub fn serve(args: &ServeArgs) -> anyhow::Result<()> {
    init_logs(args.log_json);
    huge_pages::disable();
    let config = Config {
        addr: args.addr.clone(),
        database: args.database.clone(),
        turn_seconds: args.turn_seconds,
        reconnect_grace: Duration::from_secs(args.reconnect_seconds),
        bot_delay: Duration::from_millis(args.bot_delay_ms),
        quick_fill_after: Duration::from_secs(args.quick_bots_after_seconds),
        ready_timeout: Duration::from_secs(args.ready_timeout_seconds),
        challenge_lapse: Config::default().challenge_lapse,
        web_dir: args.web_dir.clone().or_else(find_web_dir),
        turn_unit: Duration::from_secs(1),
        messages_per_second: args.rate_limit,
        message_burst: args.rate_limit.saturating_mul(2),
        broadcast_delay: Duration::from_millis(args.broadcast_delay_ms),
        limits: Limits {
            max_connections: args.max_connections,
            max_connections_per_address: args.max_connections_per_address,
            outbox_bytes: usize::try_from(args.outbox_kib * 1024).unwrap_or(usize::MAX),
            socket_send_buffer: args.socket_send_buffer_kib.saturating_mul(1024),
            idle_timeout: Duration::from_secs(args.idle_timeout_seconds),
            header_timeout: Duration::from_secs(args.header_timeout_seconds),
            answer_window: Duration::from_secs(args.answer_window_seconds),
            flood_refusals: args.flood_refusals,
            password_hashing: usize::from(args.password_hashing),
            password_queue: args.password_queue,
            login_delay: Duration::from_millis(args.login_delay_ms),
            login_failures_per_address: args.login_failures_per_address,
            token_lifetime: Duration::from_secs(args.token_days * 24 * 3600),
            api_requests_per_second: args.api_rate_limit,
            guests_per_address_per_hour: args.guests_per_address_per_hour,
            accounts_per_network_per_hour: args.accounts_per_network_per_hour,
            identity_networks: usize::try_from(args.identity_networks).unwrap_or(usize::MAX),
            trusted_proxies: args.trusted_proxies.clone(),
            ..Limits::default()
        },
        storage_failure_bound: Duration::from_secs(args.storage_failure_seconds),
        cluster: args.cluster.clone(),
        fair: FairPlay {
            abort_decisions: args.abort_decisions,
            pair_games_per_day: args.pair_games_per_day,
            arena_pair_games: args.arena_pair_games,
            listed_after_opponents: args.listed_after_opponents,
        },
        metrics_token: args.metrics_token.clone().filter(|t| !t.is_empty()),
        arena_schedule: args.arena_schedule.clone(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(args.workers.map_or_else(default_workers, usize::from))
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let running = hangar_hall::start(config.clone()).await?;
        // Before "open": a test or an orchestrator may send SIGTERM as soon as it reads it.
        let stop = hangar_hall::shutdown_signal();
        tracing::info!(
            addr = %running.addr,
            database = %config.database,
            web = ?config.web_dir,
            "the hall is open on http://{}",
            running.addr
        );
        running.serve(stop).await
    })
}

/// One worker per core but one: the SQLite writer thread (and the clients of a load test on
/// the same machine) keep a core busy. Measured on 2 cores under `hangar load`: one worker
/// instead of two cuts the hall's CPU per action by about a fifth (fewer hand-overs
/// between workers, fewer wake-ups of parked ones). Two hold the 10,000-client ack p99 better
/// when the host steals CPU time from this virtual machine (docs/benchmarks.md, "Settings
/// measured"): `--workers 2` there.
fn default_workers() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |cores| cores.get().saturating_sub(1))
        .max(1)
}

fn read_record(path: &PathBuf) -> anyhow::Result<GameRecord> {
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())?
    } else {
        std::fs::read_to_string(path)?
    };
    Ok(serde_json::from_str(&text)?)
}

/// `hangar verify RECORD`.
pub fn verify(args: &VerifyArgs) -> anyhow::Result<()> {
    let record = read_record(&args.record)?;
    let verified = record.verify()?;
    println!(
        "ok: sha256(seed) matches the commitment {}; {} rolls re-derived from the seed and equal; {} actions replay legally{}",
        record.commitment,
        verified.rolls,
        verified.actions,
        if verified.over {
            "; the game is over"
        } else {
            ""
        },
    );
    if !verified.dice_rolls.is_empty() {
        // P-FAIR-DICE: whose bytes went into each die, so that a player finds their own.
        let own = verified.dice_rolls.iter().filter(|r| r.own).count();
        println!(
            "dice {}: {own} of the players' own rolls (their entropy in the record), {} the hall's (bots, auto-play, the timer)",
            verified.dice.name(),
            verified.dice_rolls.len() - own,
        );
        for roll in &verified.dice_rolls {
            let whose = if roll.own { "own bytes" } else { "hall" };
            println!(
                "  roll {}: action {}, seat {}, die {} ({whose})",
                roll.k, roll.index, roll.seat, roll.value
            );
        }
    }
    Ok(())
}

/// Arguments of `hangar backup`.
#[derive(Args, Debug)]
pub struct BackupArgs {
    /// The hall's database (a SQLite file path); PostgreSQL is backed up with pg_dump.
    #[arg(long, env = "HANGAR_DATABASE", default_value = "hangar.db")]
    pub database: String,
    /// The new file to write the copy to.
    pub out: PathBuf,
}

/// `hangar backup OUT`: a consistent copy taken while the hall serves (SQLite `VACUUM INTO`).
pub fn backup(args: &BackupArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(hangar_hall::store::backup(&args.database, &args.out))?;
    println!("ok: {} copied to {}", args.database, args.out.display());
    Ok(())
}

/// `hangar replay RECORD`.
pub fn replay(args: &ReplayArgs) -> anyhow::Result<()> {
    let record = read_record(&args.record)?;
    for line in record.replay_lines()? {
        println!("{line}");
    }
    Ok(())
}
