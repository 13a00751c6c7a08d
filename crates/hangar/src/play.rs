//! `hangar play`: a game in the terminal against bots.

use crate::args::game::Game;
use crate::args::play::PlayArgs;

/// Runs `hangar play`.
pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    match args.game {
        Game::Flight => crate::flight_cli::play(args),
        Game::Jungle => crate::jungle_cli::play(args),
    }
}
