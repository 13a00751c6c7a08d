//! The arguments of `hangar play`.

use clap::Args;

use crate::args::game::Game;

/// Arguments of `hangar play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game to play.
    #[arg(long, value_enum, default_value = "flight")]
    pub game: Game,
    /// Number of players, you included (flight: 2–4).
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// The bot that plays the other seats: a level the hall seats (flight `random`,
    /// `heuristic`, `hard`; jungle `random`, `greedy`, `easy`, `normal`, `hard`, `alphabeta`)
    /// or a spec only the command line offers (flight `search`, `rollout`, `td`, settings
    /// such as `hard:ms=0`; jungle `ab:depth=4`).
    #[arg(long)]
    pub bot: Option<String>,
    /// Rules preset (flight: `traditional` or `improved`).
    #[arg(long)]
    pub rules: Option<String>,
    /// A rule option `key=value`, repeatable; applied after the preset.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Seed of the dice and draws (default: random).
    #[arg(long)]
    pub seed: Option<u64>,
}
