//! Which game a command is about, and the rules and seed of games played offline.

use clap::{Args, ValueEnum};

use crate::args::rules::{parse_options, parse_rules};

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
        parse_options(self.preset.as_deref(), &self.options)
    }

    /// The Jungle rules: Jungle has one preset (`standard`), then each `--option`.
    pub fn jungle_rules(&self) -> anyhow::Result<hangar_jungle::Rules> {
        if let Some(preset) = self.preset.as_deref().filter(|&p| p != "standard") {
            anyhow::bail!("jungle has no rules preset {preset:?}; use --option key=value");
        }
        parse_rules(&self.options)
    }
}
