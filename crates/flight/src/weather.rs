//! Weather (天气, flight.md §8, option `weather`) as data: what each kind does to a walk,
//! the weather cell and its cycle (F-WEATHER).
//!
//! The walk code never names a kind: it reads [`Weather::effect`].

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::board::Square;

/// A kind of weather (spec §8, Decision: storm, tailwind, headwind).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weather {
    /// 雷暴: the walk ends on the cell, no jump.
    Storm,
    /// 顺风: 3 extra pips forward.
    Tailwind,
    /// 逆风: the walk ends 2 pips short.
    Headwind,
}

/// What a weather cell does to a plane that walks through or onto it (F-WEATHER).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum WeatherEffect {
    /// The walk ends on the cell; the plane does not jump or fly from there.
    EndWalk,
    /// The walk goes on `pips` pips further.
    ExtraPips {
        /// Extra pips.
        pips: u8,
    },
    /// The walk ends `pips` pips short of where it would have ended; when fewer pips than
    /// that were left on entering the cell, the plane is blown back behind the cell.
    ShortBy {
        /// Pips lost.
        pips: u8,
    },
}

impl Weather {
    /// Every kind, in the order the weather draw indexes them (see `docs/rules-flight.md`).
    pub const ALL: [Weather; 3] = [Weather::Storm, Weather::Tailwind, Weather::Headwind];

    /// What this weather does.
    pub const fn effect(self) -> WeatherEffect {
        match self {
            Weather::Storm => WeatherEffect::EndWalk,
            Weather::Tailwind => WeatherEffect::ExtraPips { pips: 3 },
            Weather::Headwind => WeatherEffect::ShortBy { pips: 2 },
        }
    }

    /// The name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Weather::Storm => "storm",
            Weather::Tailwind => "tailwind",
            Weather::Headwind => "headwind",
        }
    }

    /// The Chinese name.
    pub const fn chinese(self) -> &'static str {
        match self {
            Weather::Storm => "雷暴",
            Weather::Tailwind => "顺风",
            Weather::Headwind => "逆风",
        }
    }
}

impl fmt::Display for Weather {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The weather cell on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeatherCell {
    /// The track square (0..=51).
    pub square: Square,
    /// The kind.
    pub weather: Weather,
}

/// Rounds a weather cell stays, and then rounds the board stays clear (F-WEATHER).
pub const WEATHER_ROUNDS: u8 = 3;
