//! The rule engines as JSON in, JSON out: one request text to one answer (`hangar rules GAME`,
//! docs/flight-json.md, docs/jungle-json.md).

pub mod flight;
pub mod jungle;

use hangar_dice::Seed;
use serde::Deserialize;

/// The seed of a `bot` request: a number (`Seed::from_u64`, as `hangar sim --seed`) or a
/// seed's 64 hex digits. Left out, it is 0. The bot's random draws come from
/// `Dice::new(seed)` and nothing else.
#[derive(Deserialize, Debug, Clone, Copy)]
#[serde(untagged)]
enum BotSeed {
    Number(u64),
    Seed(Seed),
}

impl BotSeed {
    /// The seed meant, 0 when none was given.
    fn resolve(seed: Option<BotSeed>) -> Seed {
        match seed {
            None => Seed::from_u64(0),
            Some(BotSeed::Number(n)) => Seed::from_u64(n),
            Some(BotSeed::Seed(seed)) => seed,
        }
    }
}
