//! The hall side of the command line: `serve`, `verify`, `replay` and `load`.

use clap::Args;

/// Arguments of `hangar serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "HANGAR_ADDR", default_value = "127.0.0.1:8080")]
    pub addr: String,
}

/// Arguments of `hangar verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Path of a game record (JSON).
    pub record: std::path::PathBuf,
}

/// Arguments of `hangar replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// Path of a game record (JSON).
    pub record: std::path::PathBuf,
}

/// Arguments of `hangar load`.
#[derive(Args, Debug)]
pub struct LoadArgs {
    /// Number of WebSocket clients.
    #[arg(long, default_value_t = 100)]
    pub clients: usize,
}

/// `hangar serve`.
pub fn serve(_args: &ServeArgs) -> anyhow::Result<()> {
    anyhow::bail!("the hall is not built yet")
}

/// `hangar verify RECORD`.
pub fn verify(_args: &VerifyArgs) -> anyhow::Result<()> {
    anyhow::bail!("verify is not built yet")
}

/// `hangar replay RECORD`.
pub fn replay(_args: &ReplayArgs) -> anyhow::Result<()> {
    anyhow::bail!("replay is not built yet")
}

/// `hangar load`.
pub fn load(_args: &LoadArgs) -> anyhow::Result<()> {
    anyhow::bail!("load is not built yet")
}
