//! Settings of a running hall.

use std::path::PathBuf;
use std::time::Duration;

/// Default [`Config::broadcast_delay`]: short enough to be unseen, long enough that a fast
/// table's events to its waiting players share writes (docs/benchmarks.md, "Hall load").
pub const DEFAULT_BROADCAST_DELAY: Duration = Duration::from_millis(10);

/// How the hall runs: address, database, timers, web directory.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on, e.g. `127.0.0.1:8080` (port 0 picks a free one).
    pub addr: String,
    /// Database URL: a SQLite path / `sqlite:PATH`, or `postgres://…`.
    pub database: String,
    /// Default turn timer in seconds for new rooms (P-TIMER).
    pub turn_seconds: u64,
    /// How long a disconnected player keeps the seat (P-DISCONNECT): 3 minutes.
    pub reconnect_grace: Duration,
    /// Pause before a bot or auto-play acts, so people can follow.
    pub bot_delay: Duration,
    /// How long a quick match waits for other people before bots fill its empty seats
    /// (P-QUICK): 10 s.
    pub quick_fill_after: Duration,
    /// How long a person may sit in a public waiting room without readying before the seat
    /// is freed (one connection cannot hold every public room): 60 s.
    pub ready_timeout: Duration,
    /// How long a challenge stays open without every answer before it lapses (P-CHALLENGE):
    /// 60 s.
    pub challenge_lapse: Duration,
    /// Directory of the web client served at `/`, if any.
    pub web_dir: Option<PathBuf>,
    /// How long one second of a turn timer lasts: one second, except in tests that need
    /// timers to run out quickly.
    pub turn_unit: Duration,
    /// Messages per second allowed per connection (P-… floods; protocol default 20).
    pub messages_per_second: u32,
    /// Burst of messages allowed per connection (protocol default 40).
    pub message_burst: u32,
    /// During a game, how long a room may hold events for the members that neither sent the
    /// command nor act next (other players, watchers), so that the events of several actions
    /// leave in one write; zero sends every event at once.
    pub broadcast_delay: Duration,
    /// What one client may cost the hall (docs/security.md).
    pub limits: Limits,
    /// How long writes may fail before the hall reports its storage failing and refuses new
    /// games and actions (until a write succeeds again): 10 s.
    pub storage_failure_bound: Duration,
    /// Cluster mode: the NATS server that joins this node to the others (`nats://HOST:PORT`);
    /// the database must then be PostgreSQL. `None`: a single node.
    pub cluster: Option<String>,
    /// What makes a game count (P-ABORT): rules against farming scores and ratings.
    pub fair: FairPlay,
    /// The bearer token `/metrics` asks for (`--metrics-token`); `None`: `/metrics` answers
    /// only requests from loopback.
    pub metrics_token: Option<String>,
    /// Arenas the hall makes by itself, again and again (`--arena-schedule`, P-ARENA).
    pub arena_schedule: Vec<crate::arena::ArenaSchedule>,
}

/// When a game counts for scores and ratings (P-ABORT, docs/security.md "Fair play").
#[derive(Clone, Debug)]
pub struct FairPlay {
    /// Fewest decisions of their own (rolls and moves, not auto-play's or the timer's) every
    /// person must make for the game to be scored: 3; fewer aborts it (0: never aborted).
    pub abort_decisions: u32,
    /// Scored games the same two people may play against each other in 24 hours, decided when
    /// each game starts: 3; later ones are practice (0: no cap). Arena games do not count.
    pub pair_games_per_day: u32,
    /// Games the same two people count in one arena: 3; later ones between them pay no arena
    /// points, score or rating (P-ARENA; 0: no cap).
    pub arena_pair_games: u32,
    /// How many different people a player's scored games of a game must have been against
    /// before the player is on that game's leaderboards: 5 (P-RATING).
    pub listed_after_opponents: u32,
}

impl Default for FairPlay {
    fn default() -> Self {
        FairPlay {
            abort_decisions: 3,
            pair_games_per_day: 3,
            arena_pair_games: 3,
            listed_after_opponents: 5,
        }
    }
}

/// Bounds on what one client may cost the hall: memory, connections, time
/// (docs/security.md lists each with its flag).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Bytes of answers remembered per (player, client string) for repeated ids.
    pub answer_bytes: usize,
    /// How long answers are remembered after the last connection of that client closed.
    pub answer_window: Duration,
    /// Open WebSocket connections in all; beyond, upgrades get HTTP 503 (below the file
    /// limit, so `/health` and the running games keep answering).
    pub max_connections: usize,
    /// Open WebSocket connections from one IP address; beyond, upgrades get HTTP 429
    /// (0: no cap, e.g. behind a proxy or for a load test on loopback).
    pub max_connections_per_address: usize,
    /// Bytes queued for one connection (frames not yet written to its socket, a frame shared
    /// by many connections counted in each) before it is closed as too slow (1008), whatever
    /// it reads or follows (§5): 1 MiB. Frames are bounded too, 4,096.
    pub outbox_bytes: usize,
    /// The send buffer of every accepted socket (`SO_SNDBUF`; Linux doubles it), bytes: what
    /// the kernel holds for a peer that stopped reading, on top of the outbox: 256 KiB. 0: the
    /// system's autotuning (up to `net.ipv4.tcp_wmem`'s maximum, 4 MiB by default, per socket).
    pub socket_send_buffer: u32,
    /// A WebSocket that sends nothing (not even a pong to our ping) this long is closed.
    pub idle_timeout: Duration,
    /// Time allowed to send a request's headers; slower connections are closed.
    pub header_timeout: Duration,
    /// Frames refused (over the rate or the size) a connection may send before it is closed
    /// as a flood (1008); one is forgiven every ten seconds.
    pub flood_refusals: u32,
    /// Password hashes (argon2, about 19 MiB each) run at once; more sign-ins wait, a few.
    pub password_hashing: usize,
    /// Sign-ins that may wait for a hashing slot; beyond, `rate_limited` at once.
    pub password_queue: usize,
    /// The first lock of an account or address after its free failed logins; each further
    /// failure doubles it (docs/security.md).
    pub login_delay: Duration,
    /// Failed logins from one IP address (any names) before it locks like an account; 0:
    /// addresses are not counted (behind a proxy every client shares one).
    pub login_failures_per_address: u32,
    /// How long a sign-in token is good for, from its issue; older ones get `bad_token`.
    pub token_lifetime: Duration,
    /// Game records and replays served per second to one IP address over HTTP (bursts of
    /// four times as many; beyond, HTTP 429; 0: no limit).
    pub api_requests_per_second: u32,
    /// New guest identities made per network (the /24 of an IPv4 address, the /64 of an
    /// IPv6 one) per hour; beyond, `rate_limited` (P-NEW-IDENTITY: 10; 0: no cap).
    pub guests_per_address_per_hour: u32,
    /// New accounts made per network (as for guests) per hour; a guest made an account
    /// keeps its identity and is not counted (P-NEW-IDENTITY: 3; 0: no cap).
    pub accounts_per_network_per_hour: u32,
    /// Networks the counts of new identities remember at most; when full, the network used
    /// least recently is forgotten (a network not remembered is never refused): 100,000.
    pub identity_networks: usize,
    /// Addresses of reverse proxies whose `X-Forwarded-For` header names the client: a
    /// connection from one of them counts as from the last address of that header (for every
    /// cap per address or network). Empty: every connection is its peer's address.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// What game reviews may cost (P-REVIEW, docs/review.md): workers, queue, reviews per
    /// address.
    pub review: crate::review::ReviewBudget,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            answer_bytes: crate::answers::DEFAULT_ANSWER_BYTES,
            answer_window: crate::answers::DEFAULT_ANSWER_WINDOW,
            // `hangar load` runs 10,000 clients; a common file limit is 20,000 or more.
            max_connections: 15_000,
            max_connections_per_address: 50,
            outbox_bytes: crate::outbox::OUTBOX_BYTES,
            socket_send_buffer: 256 * 1024,
            idle_timeout: Duration::from_secs(60),
            header_timeout: Duration::from_secs(10),
            flood_refusals: 5,
            password_hashing: 2,
            password_queue: 64,
            login_delay: Duration::from_secs(1),
            login_failures_per_address: 10,
            token_lifetime: Duration::from_secs(30 * 24 * 3600),
            api_requests_per_second: 5,
            guests_per_address_per_hour: 10,
            accounts_per_network_per_hour: 3,
            identity_networks: 100_000,
            trusted_proxies: Vec::new(),
            review: crate::review::ReviewBudget::default(),
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            addr: "127.0.0.1:8080".to_owned(),
            database: "hangar.db".to_owned(),
            turn_seconds: 20,
            reconnect_grace: Duration::from_secs(180),
            bot_delay: Duration::from_millis(600),
            quick_fill_after: Duration::from_secs(10),
            ready_timeout: Duration::from_secs(60),
            challenge_lapse: Duration::from_secs(60),
            web_dir: None,
            turn_unit: Duration::from_secs(1),
            messages_per_second: hangar_protocol::MESSAGES_PER_SECOND,
            message_burst: hangar_protocol::MESSAGE_BURST,
            broadcast_delay: DEFAULT_BROADCAST_DELAY,
            limits: Limits::default(),
            storage_failure_bound: crate::store::DEFAULT_FAILURE_BOUND,
            cluster: None,
            fair: FairPlay::default(),
            metrics_token: None,
            arena_schedule: Vec::new(),
        }
    }
}

/// Finds the web client: `./web`, else `web/` of the workspace this binary was built from.
pub fn find_web_dir() -> Option<PathBuf> {
    let local = PathBuf::from("web");
    if local.join("index.html").is_file() {
        return Some(local);
    }
    let built = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web");
    built.join("index.html").is_file().then_some(built)
}
