//! The arguments of `hangar sim`.

use clap::Args;
use hangar_bots::flight::Clock;

use crate::args::game::{Game, GameSettings};

/// Arguments of `hangar sim`.
#[derive(Args, Debug)]
pub struct SimArgs {
    /// The game to simulate.
    #[arg(long, value_enum, default_value = "flight")]
    pub game: Game,
    /// Number of players (flight: 2–4; jungle is always 2).
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// The bots, one per seat, comma-separated (e.g. `random,heuristic` or `ab:depth=6,random`):
    /// the hall's level names (hangar-bots' `FlightLevel`, `JungleLevel`) seat the hall's bots;
    /// the command line offers more (flight `search`, `rollout`, `td` and settings; jungle `ab:`).
    #[arg(long, default_value = "random")]
    pub bots: String,
    /// Number of games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// The rules and the master seed.
    #[command(flatten)]
    pub settings: GameSettings,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// What measures clocked bots' time budgets (`ms=`; flight only): `wall`, as in the hall,
    /// or `cpu`, the deciding thread's CPU time, so that the machine's load (other jobs, a
    /// low priority) does not change how much a clocked bot such as `hard` thinks.
    #[arg(long, default_value = "wall")]
    pub clock: Clock,
    /// Print the report as JSON instead of text.
    #[arg(long)]
    pub json: bool,
}
