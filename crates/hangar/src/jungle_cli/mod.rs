//! The Jungle side of the command line: `perft`, `sim --game jungle`, `rules jungle` and `play`.

use clap::Args;

use crate::play::PlayArgs;
use crate::sim::SimArgs;

/// Arguments of `hangar perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Search depth in plies.
    pub depth: u32,
}

/// `hangar perft`.
pub fn perft(_args: &PerftArgs) -> anyhow::Result<()> {
    anyhow::bail!("perft is not built yet")
}

/// `hangar sim --game jungle`.
pub fn sim(_args: &SimArgs) -> anyhow::Result<()> {
    anyhow::bail!("jungle simulation is not built yet")
}

/// `hangar rules jungle`: reads one JSON request from standard input.
pub fn rules() -> anyhow::Result<()> {
    anyhow::bail!("jungle rules are not built yet")
}

/// `hangar play --game jungle`.
pub fn play(_args: &PlayArgs) -> anyhow::Result<()> {
    anyhow::bail!("jungle play is not built yet")
}
