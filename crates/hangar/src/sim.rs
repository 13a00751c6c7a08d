//! `hangar sim`: bot tournaments for either game.

use hangar_bots::flight::Clock;

use crate::args::sim::SimArgs;

// `rules`, `match` and `bot` name the game and its settings through here; they live in
// `args` so that the game sides below this dispatcher can use them without importing it.
pub use crate::args::game::{Game, GameSettings};

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
