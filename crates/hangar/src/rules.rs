//! `hangar rules GAME`: the rule engines as JSON in, JSON out, for outside tools.

use clap::Args;

use crate::sim::Game;

/// Arguments of `hangar rules`.
#[derive(Args, Debug)]
pub struct RulesArgs {
    /// The game whose rules to query; the request is read from standard input.
    #[arg(value_enum)]
    pub game: Game,
}

/// Runs `hangar rules`.
pub fn run(args: &RulesArgs) -> anyhow::Result<()> {
    match args.game {
        Game::Flight => crate::flight_cli::rules(),
        Game::Jungle => crate::jungle_cli::rules(),
    }
}
