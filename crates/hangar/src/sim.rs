//! `hangar sim`: bot tournaments for either game.

use clap::{Args, ValueEnum};
use hangar_bots::flight::Clock;

/// Which game a command is about.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    /// Aeroplane Chess (飞行棋).
    Flight,
    /// Jungle (斗兽棋).
    Jungle,
}

/// The rules and the seed of games played offline (`hangar sim`, `hangar match`).
#[derive(Args, Debug)]
pub struct GameSettings {
    /// Master seed of the dice, the seating and the bots' draws: the same seed gives the same
    /// games whatever the thread count.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rules preset (flight: `traditional` or `improved`).
    #[arg(long = "rules")]
    pub preset: Option<String>,
    /// A rule option `key=value`, repeatable; applied after the preset.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

impl GameSettings {
    /// The flight rule options: the preset's, then each `--option`.
    pub fn flight_options(&self) -> anyhow::Result<hangar_flight::Options> {
        crate::flight_cli::parse_options(self.preset.as_deref(), &self.options)
    }

    /// The Jungle rules: Jungle has one preset (`standard`), then each `--option`.
    pub fn jungle_rules(&self) -> anyhow::Result<hangar_jungle::Rules> {
        if let Some(preset) = self.preset.as_deref().filter(|&p| p != "standard") {
            anyhow::bail!("jungle has no rules preset {preset:?}; use --option key=value");
        }
        crate::jungle_cli::parse_rules(&self.options)
    }
}

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

/// Runs `hangar sim`.
pub fn run(args: &SimArgs) -> anyhow::Result<()> {
    match args.game {
        Game::Flight => crate::flight_cli::sim(args),
        Game::Jungle => {
            if args.clock == Clock::Cpu {
                anyhow::bail!("--clock cpu is for flight bots only");
            }
            crate::jungle_cli::sim(args)
        }
    }
}
