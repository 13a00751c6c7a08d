//! Rule options and the two presets of flight.md §9.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Which rolls take a plane off (F-TAKEOFF).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TakeOff {
    /// Only a 6 (traditional).
    #[default]
    Six,
    /// A 5 or a 6 (improved); a take-off on 5 earns no bonus roll, being no 6.
    FiveOrSix,
}

/// What a third 6 in a row does (F-THREE-SIXES).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ThreeSixes {
    /// No limit (traditional).
    #[default]
    None,
    /// All of the roller's planes go back to the hangar, finished ones included (improved).
    AllToHangar,
    /// The planes moved by the two previous sixes go back (an older variant).
    MovedToHangar,
}

/// How enemy stacks behave (F-STACK-TRADITIONAL / F-STACK-IMPROVED).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stacks {
    /// Stacks block walks; landing on one sends the mover and the stack home (traditional).
    #[default]
    Block,
    /// Walks pass over stacks; landing on one sends the whole stack home (improved).
    Pass,
}

/// How a plane reaches the finish (F-FINISH).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Finish {
    /// Exact roll finishes; extra pips walk back from the finish (traditional).
    #[default]
    Bounce,
    /// Any roll that reaches the finish finishes (improved).
    Overshoot,
    /// A move that would pass the finish is illegal.
    ExactOnly,
    /// The finish squares form a loop; a plane finishes by landing exactly on its own.
    Circle,
}

/// The rule options of a game (a room's settings). Deserialising fills missing fields from
/// the traditional preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Which rolls take off (F-TAKEOFF).
    pub takeoff: TakeOff,
    /// The third-six rule (F-THREE-SIXES).
    pub three_sixes: ThreeSixes,
    /// Stack behaviour (F-STACK-…).
    pub stacks: Stacks,
    /// Finish behaviour (F-FINISH).
    pub finish: Finish,
    /// Keep playing for second, third and fourth place after the first player finishes (F-WIN).
    pub play_on: bool,
    /// Planes per player, 2–4 (F-PLANES).
    pub planes: u8,
    /// 2-vs-2 teams of opposite seats (F-TEAM); needs four players.
    pub teams: bool,
    /// Items (§7): six dice and boosters appear on the board (F-ITEM-…).
    pub items: bool,
    /// Weather (§8): a storm, tailwind or headwind cell comes and goes (F-WEATHER).
    pub weather: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options::traditional()
    }
}

impl Options {
    /// The traditional preset (传统规则, the default).
    pub const fn traditional() -> Options {
        Options {
            takeoff: TakeOff::Six,
            three_sixes: ThreeSixes::None,
            stacks: Stacks::Block,
            finish: Finish::Bounce,
            play_on: false,
            planes: 4,
            teams: false,
            items: false,
            weather: false,
        }
    }

    /// The improved preset (改进规则).
    pub const fn improved() -> Options {
        Options {
            takeoff: TakeOff::FiveOrSix,
            three_sixes: ThreeSixes::AllToHangar,
            stacks: Stacks::Pass,
            finish: Finish::Overshoot,
            ..Options::traditional()
        }
    }

    /// Whether `roll` takes a plane off.
    #[inline]
    pub const fn is_takeoff(&self, roll: u8) -> bool {
        match self.takeoff {
            TakeOff::Six => roll == 6,
            TakeOff::FiveOrSix => roll >= 5,
        }
    }

    /// Sets one option from `key=value` text as on the command line (`stacks=pass`,
    /// `planes=3`, `play-on=true`, `takeoff=five-or-six`, …).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), OptionError> {
        let bad = || OptionError::BadValue {
            key: key.to_owned(),
            value: value.to_owned(),
        };
        let flag = || match value {
            "true" | "on" | "yes" => Ok(true),
            "false" | "off" | "no" => Ok(false),
            _ => Err(bad()),
        };
        let parse = |v: &str| serde_json::Value::String(v.to_owned());
        match key.replace('_', "-").as_str() {
            "takeoff" | "take-off" => {
                self.takeoff = match value {
                    "6" => TakeOff::Six,
                    "5-or-6" | "5,6" => TakeOff::FiveOrSix,
                    v => serde_json::from_value(parse(v)).map_err(|_| bad())?,
                }
            }
            "three-sixes" => {
                self.three_sixes = serde_json::from_value(parse(value)).map_err(|_| bad())?
            }
            "stacks" => self.stacks = serde_json::from_value(parse(value)).map_err(|_| bad())?,
            "finish" => self.finish = serde_json::from_value(parse(value)).map_err(|_| bad())?,
            "play-on" => self.play_on = flag()?,
            "teams" => self.teams = flag()?,
            "items" => self.items = flag()?,
            "weather" => self.weather = flag()?,
            "planes" => {
                self.planes = value
                    .parse()
                    .ok()
                    .filter(|n| (2..=4).contains(n))
                    .ok_or_else(bad)?
            }
            _ => return Err(OptionError::UnknownKey(key.to_owned())),
        }
        Ok(())
    }
}

/// A named preset (§9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// 传统规则.
    Traditional,
    /// 改进规则.
    Improved,
}

impl Preset {
    /// The options of the preset.
    pub const fn options(self) -> Options {
        match self {
            Preset::Traditional => Options::traditional(),
            Preset::Improved => Options::improved(),
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Preset::Traditional => "traditional",
            Preset::Improved => "improved",
        })
    }
}

impl FromStr for Preset {
    type Err = OptionError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "traditional" => Ok(Preset::Traditional),
            "improved" => Ok(Preset::Improved),
            other => Err(OptionError::UnknownPreset(other.to_owned())),
        }
    }
}

/// Why an option text was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No such preset.
    #[error("unknown preset {0:?} (expected traditional or improved)")]
    UnknownPreset(String),
    /// No such option.
    #[error("unknown option {0:?}")]
    UnknownKey(String),
    /// The value does not fit the option.
    #[error("bad value {value:?} for option {key:?}")]
    BadValue {
        /// The option.
        key: String,
        /// The refused value.
        value: String,
    },
}
