//! `hangar load`: a swarm of WebSocket clients playing real flight games against a hall.

use clap::Args;

/// Arguments of `hangar load`.
#[derive(Args, Debug)]
pub struct LoadArgs {
    /// Number of WebSocket clients (four to a game).
    #[arg(long, default_value_t = 100)]
    pub clients: usize,
}

/// `hangar load`.
pub fn load(_args: &LoadArgs) -> anyhow::Result<()> {
    anyhow::bail!("load is not built yet")
}
