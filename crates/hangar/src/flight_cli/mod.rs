//! The Aeroplane Chess side of the command line: `sim`, `rules flight` and `play`.

mod board;
mod play;
mod pool;
mod sim;
mod tally;

// `review` reads flight rule options through here.
pub(crate) use crate::args::rules::parse_options;

use crate::args::play::PlayArgs;
use crate::args::sim::SimArgs;

/// `hangar sim --game flight`.
pub fn sim(args: &SimArgs) -> anyhow::Result<()> {
    self::sim::sim(args)
}

/// `hangar play --game flight`.
pub fn play(args: &PlayArgs) -> anyhow::Result<()> {
    self::play::play(args)
}
