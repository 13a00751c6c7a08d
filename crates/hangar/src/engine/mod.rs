//! Outside programs as players (P-ENGINE, docs/engine.md): the engine process and its line
//! format's supervision, `hangar match` (offline against the built-in bots).

mod matches;
mod score;
mod supervisor;

use clap::Args;

use crate::sim::Game;

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
    /// Master seed of the dice, the seating and the bots' draws.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rules preset (flight: `traditional` or `improved`).
    #[arg(long)]
    pub rules: Option<String>,
    /// A rule option `key=value`, repeatable; applied after the preset.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
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
