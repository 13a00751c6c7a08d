//! Outside programs as players (P-ENGINE, docs/engine.md): the engine process and its line
//! format's supervision, `hangar match` (offline against the built-in bots) and `hangar bot`
//! (in a hall, as a bot account).

mod hall_bot;
mod matches;
mod score;
mod seat;
mod supervisor;

use clap::Args;

use crate::sim::{Game, GameSettings};

/// Arguments of `hangar match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The engine's command line, run with `sh -c` (e.g. `python3 examples/engines/random.py`).
    #[arg(long)]
    pub engine: String,
    /// The built-in bot the engine plays against: a level the hall seats (flight `random`,
    /// `heuristic`, `hard`; jungle `random`, `greedy`, `easy`, `normal`, `hard`) or a bot
    /// spec of `hangar sim`.
    #[arg(long)]
    pub against: String,
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    pub games: u64,
    /// The game.
    #[arg(long, value_enum)]
    pub game: Game,
    /// Players at a flight table, the engine included (2–4; jungle is always 2).
    #[arg(long, default_value_t = 2)]
    pub seats: usize,
    /// The rules and the master seed.
    #[command(flatten)]
    pub settings: GameSettings,
    /// The engine's time per decision in milliseconds (`clock_ms` of each line); a later
    /// answer is not waited for and auto-play chooses.
    #[arg(long, default_value_t = 2000)]
    pub move_ms: u64,
    /// Print the result as one JSON object instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Runs `hangar match`.
pub fn run_match(args: &MatchArgs) -> anyhow::Result<()> {
    // The engine's pipes are served by a worker thread of their own while the match's loop
    // (and the built-in bots' thinking) runs on this one.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    matches::run(args, &runtime)
}

/// Arguments of `hangar bot`.
#[derive(Args, Debug)]
pub struct BotArgs {
    /// The hall's WebSocket address (`ws://host:port/ws`).
    #[arg(long)]
    pub hall: String,
    /// A file holding the bot account's sign-in token (else the environment variable
    /// `HANGAR_TOKEN` gives it; never the command line, which every local user sees).
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<std::path::PathBuf>,
    /// Refused: a token on the command line is shown to every local user by `ps`.
    #[arg(long, hide = true, value_name = "TOKEN")]
    pub token: Option<String>,
    /// The engine's command line, run with `sh -c`; one process per game.
    #[arg(long)]
    pub engine: String,
    /// The games whose challenges are accepted, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = ["flight".to_owned(), "jungle".to_owned()])]
    pub accept: Vec<String>,
    /// Games played at once; challenges beyond are declined.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Stop after this many finished games (default: play on until stopped).
    #[arg(long)]
    pub games: Option<u64>,
    /// Renamed `--concurrency` (games at once); refused with a message saying so.
    #[arg(long, hide = true)]
    pub max_games: Option<usize>,
    /// Join this room (by its code) instead of waiting for challenges; the bot plays its
    /// game and exits.
    #[arg(long)]
    pub room: Option<String>,
    /// The seat to take in `--room` (default: the first free one).
    #[arg(long, requires = "room")]
    pub seat: Option<usize>,
}

/// The bot account's token: from `--token-file`, else from `HANGAR_TOKEN`; never from the
/// command line.
fn bot_token(args: &BotArgs) -> anyhow::Result<String> {
    if args.token.is_some() {
        anyhow::bail!(
            "--token is refused: a token on the command line is shown to every local user by `ps` \
             (/proc/PID/cmdline); give it in the environment variable {} or in a file with --token-file FILE \
             (and sign in again to get a new token, as this one may have been seen)",
            supervisor::TOKEN_VARIABLE
        );
    }
    let token = match &args.token_file {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("--token-file {}: {e}", path.display()))?,
        None => std::env::var(supervisor::TOKEN_VARIABLE).map_err(|_| {
            anyhow::anyhow!(
                "no token: set the environment variable {} or give --token-file FILE",
                supervisor::TOKEN_VARIABLE
            )
        })?,
    };
    let token = token.trim().to_owned();
    if token.is_empty() {
        anyhow::bail!("the token is empty");
    }
    Ok(token)
}

/// Runs `hangar bot`.
pub fn run_bot(args: &BotArgs) -> anyhow::Result<()> {
    if args.max_games.is_some() {
        anyhow::bail!(
            "--max-games was renamed: --concurrency N plays N games at once, --games N stops after N games"
        );
    }
    for game in &args.accept {
        if !matches!(game.as_str(), "flight" | "jungle") {
            anyhow::bail!("--accept takes flight and jungle, not {game:?}");
        }
    }
    if args.concurrency == 0 {
        anyhow::bail!("--concurrency must be at least 1");
    }
    if args.games == Some(0) {
        anyhow::bail!("--games must be at least 1");
    }
    let token = bot_token(args)?;
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(hall_bot::run(args, token))
}
