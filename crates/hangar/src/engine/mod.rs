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
    matches::run(args)
}

/// Arguments of `hangar bot`.
#[derive(Args, Debug)]
pub struct BotArgs {
    /// The hall's WebSocket address (`ws://host:port/ws`).
    #[arg(long)]
    pub hall: String,
    /// The bot account's sign-in token.
    #[arg(long)]
    pub token: String,
    /// The engine's command line, run with `sh -c`; one process per game.
    #[arg(long)]
    pub engine: String,
    /// The games whose challenges are accepted, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = ["flight".to_owned(), "jungle".to_owned()])]
    pub accept: Vec<String>,
    /// Games played at once; challenges beyond are declined.
    #[arg(long, default_value_t = 1)]
    pub max_games: usize,
    /// Join this room (by its code) instead of waiting for challenges; the bot plays its
    /// game and exits.
    #[arg(long)]
    pub room: Option<String>,
    /// The seat to take in `--room` (default: the first free one).
    #[arg(long, requires = "room")]
    pub seat: Option<usize>,
}

/// Runs `hangar bot`.
pub fn run_bot(args: &BotArgs) -> anyhow::Result<()> {
    for game in &args.accept {
        if !matches!(game.as_str(), "flight" | "jungle") {
            anyhow::bail!("--accept takes flight and jungle, not {game:?}");
        }
    }
    if args.max_games == 0 {
        anyhow::bail!("--max-games must be at least 1");
    }
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(hall_bot::run(args))
}
