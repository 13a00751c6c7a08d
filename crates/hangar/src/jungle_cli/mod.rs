//! The Jungle side of the command line: `perft`, `sim --game jungle`, `rules jungle` and `play`.

mod perft;
mod play;
mod sim;

use crate::args::play::PlayArgs;
use crate::args::sim::SimArgs;

pub use perft::PerftArgs;
pub(crate) use sim::opening;

/// `hangar perft`.
pub fn perft(args: &PerftArgs) -> anyhow::Result<()> {
    perft::run(args)
}

/// `hangar sim --game jungle`.
pub fn sim(args: &SimArgs) -> anyhow::Result<()> {
    sim::run(args)
}

/// `hangar play --game jungle`.
pub fn play(args: &PlayArgs) -> anyhow::Result<()> {
    play::run(args)
}
