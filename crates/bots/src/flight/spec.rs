//! Bot specs as typed on the command line and stored by the hall: `random`, `heuristic`,
//! `search:depth=3`, `hard:ms=50`, `heuristic:danger=1.5`, and the levels `easy`, `normal`,
//! `hard`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::bots::{FlightBot, HeuristicBot, RandomBot, RolloutBot, SearchBot, TdBot};
use super::clock::Clock;
use super::eval::Weights;
use super::rollout::{RolloutLeaf, RolloutLimits};
use super::search::{Leaf, SearchLimits};
use super::td::ReplyModel;

/// The flight bot levels the hall offers a seat (P-SEATS), under their wire names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlightLevel {
    /// Random moves (`random`; `easy` is read as it too).
    #[serde(alias = "easy")]
    Random,
    /// The heuristic bot (`heuristic`; `normal` is read as it too). Auto-play plays it.
    #[serde(alias = "normal")]
    Heuristic,
    /// The rollout bot, 50 ms per decision, its rollouts judged by the TD-trained net
    /// (`hard`; `search` is read as it too).
    #[serde(alias = "search")]
    Hard,
}

impl FlightLevel {
    /// All levels, easiest first.
    pub const ALL: [FlightLevel; 3] = [
        FlightLevel::Random,
        FlightLevel::Heuristic,
        FlightLevel::Hard,
    ];

    /// The level auto-play (P-AUTOPLAY) plays for a person.
    pub const AUTOPLAY: FlightLevel = FlightLevel::Heuristic;

    /// The bot of this level.
    pub fn bot(self) -> Box<dyn FlightBot> {
        match self {
            FlightLevel::Random => Box::new(RandomBot),
            FlightLevel::Heuristic => Box::new(HeuristicBot::default()),
            FlightLevel::Hard => Box::new(RolloutBot::hall()),
        }
    }

    /// The level's wire name.
    pub const fn name(self) -> &'static str {
        match self {
            FlightLevel::Random => "random",
            FlightLevel::Heuristic => "heuristic",
            FlightLevel::Hard => "hard",
        }
    }

    /// Whether the bot thinks long enough (the hard bot: up to 50 ms a decision) that a
    /// server runs it off its async threads.
    pub const fn is_slow(self) -> bool {
        matches!(self, FlightLevel::Hard)
    }
}

impl fmt::Display for FlightLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a bot spec is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotSpecError {
    /// No bot of that name.
    #[error(
        "unknown bot `{0}` (expected random, heuristic, search, rollout, td, or a level: easy, normal, hard)"
    )]
    UnknownBot(String),
    /// A setting the bot does not know or a bad value.
    #[error("bad setting `{setting}` for bot `{bot}`")]
    BadSetting {
        /// The bot.
        bot: String,
        /// The refused `key=value`.
        setting: String,
    },
}

impl FromStr for FlightLevel {
    type Err = BotSpecError;

    /// A wire name (`random`, `heuristic`, `hard`) or the older alias of one (`easy`,
    /// `normal`, `search`), in any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let name = s.trim().to_ascii_lowercase();
        match name.as_str() {
            "random" | "easy" => Ok(FlightLevel::Random),
            "heuristic" | "normal" => Ok(FlightLevel::Heuristic),
            "hard" | "search" => Ok(FlightLevel::Hard),
            _ => Err(BotSpecError::UnknownBot(s.to_owned())),
        }
    }
}

/// Builds a bot from its spec: `name[:key=value,…]`. Names: `random` (= `easy`),
/// `heuristic` (= `normal`), `search`, `rollout`, `td`, and `hard` (the hall's level: rollout
/// with up to 4096 rollouts of 8 rolls per move within 50 ms, judged by the TD-trained net
/// where one applies: `rollout:n=4096,horizon=8,ms=50,leaf=net`).
///
/// Settings: any evaluation weight (`danger=1.5`) for every bot but random. `search` takes
/// `depth=N` (rolls, default 3), `ms=N` (a clock: deepening up to `depth`, default 6 then;
/// `ms=0` means no clock) and `leaf=learned` (judge its leaves by the learned win chance,
/// [`super::learned`]). `rollout` and `hard` take `n=N` (most rollouts per move, default 64;
/// hard 4096), `horizon=N` (rolls per rollout, default 8; 0 plays to the end), `ms=N` (a clock
/// per decision; hard 50, `ms=0` none), `temp=T` (temperature in pips of the win-chance
/// estimate of cut-short rollouts, default 80) and `leaf=net|versus|softmax` (what judges a
/// cut-short rollout: the TD-trained self-play net where one applies, [`super::net`]; the net
/// trained for one player against heuristic bots, the player's own moves in the rollouts then
/// greedy on it, [`super::Net::versus`]; or the softmax; rollout's default is softmax, hard's
/// net). `search`, `rollout` and `hard` take `clock=wall|cpu`: what
/// measures `ms` (default the wall clock, see [`parse_bot_clocked`]). `td` plays
/// on the TD-trained net: `depth=0` (default) greedy, `depth=N` (at most 4) N rolls of
/// expectimax with the others answering as `model=net` (default) or `model=heuristic` says,
/// `net=self|versus` (the self-play net, default, or the one trained against heuristic bots);
/// it takes no weights, and plays as the heuristic where no net applies.
pub fn parse_bot(spec: &str) -> Result<Box<dyn FlightBot>, BotSpecError> {
    parse_bot_clocked(spec, Clock::Wall)
}

/// [`parse_bot`] with `clock` as the clock of every time budget the spec does not give a
/// clock for (`clock=wall|cpu`): `hangar sim --clock cpu` measures the budgets of `hard` and
/// other clocked bots in the deciding thread's CPU time, so a loaded machine does not make
/// them weaker; the hall keeps the wall clock.
pub fn parse_bot_clocked(spec: &str, clock: Clock) -> Result<Box<dyn FlightBot>, BotSpecError> {
    let default_clock = clock;
    let spec = spec.trim();
    let (name, settings) = spec.split_once(':').unwrap_or((spec, ""));
    let bad = |setting: &str| BotSpecError::BadSetting {
        bot: name.to_owned(),
        setting: setting.to_owned(),
    };
    let mut weights = Weights::default();
    let mut depth: Option<u32> = None;
    let mut ms: Option<u64> = None;
    let mut rollouts: Option<u32> = None;
    let mut horizon: Option<u32> = None;
    let mut temperature: Option<f32> = None;
    let mut leaf: Option<String> = None;
    let mut model: Option<ReplyModel> = None;
    let mut clock: Option<Clock> = None;
    let mut versus = false;
    for setting in settings.split(',').filter(|s| !s.trim().is_empty()) {
        let (key, value) = setting.split_once('=').ok_or_else(|| bad(setting))?;
        match key.trim() {
            "depth" => depth = Some(value.trim().parse().map_err(|_| bad(setting))?),
            "ms" => ms = Some(value.trim().parse().map_err(|_| bad(setting))?),
            "n" => rollouts = Some(value.trim().parse().map_err(|_| bad(setting))?),
            "horizon" => horizon = Some(value.trim().parse().map_err(|_| bad(setting))?),
            "leaf" => leaf = Some(value.trim().to_owned()),
            "clock" => clock = Some(value.parse().map_err(|_| bad(setting))?),
            "net" if name == "td" => {
                versus = match value.trim() {
                    "self" => false,
                    "versus" => true,
                    _ => return Err(bad(setting)),
                }
            }
            "model" => {
                model = Some(match value.trim() {
                    "net" => ReplyModel::Net,
                    "heuristic" => ReplyModel::Heuristic,
                    _ => return Err(bad(setting)),
                })
            }
            "temp" => {
                let t: f32 = value.trim().parse().map_err(|_| bad(setting))?;
                if !(t.is_finite() && t > 0.0) {
                    return Err(bad(setting));
                }
                temperature = Some(t);
            }
            key => weights.set(key, value.trim()).map_err(|_| bad(setting))?,
        }
    }
    // The level names (and their aliases) are the hall's, owned by `FlightLevel`; `search`
    // is the one alias whose meaning differs: the hall reads it as `hard`, a spec here names
    // the expectimax search bot by it.
    let level = if name == "search" {
        None
    } else {
        name.parse::<FlightLevel>().ok()
    };
    let is_search = name == "search";
    let is_rollout = name == "rollout" || level == Some(FlightLevel::Hard);
    let is_td = name == "td";
    if !is_search && !is_td && depth.is_some() {
        return Err(bad(settings));
    }
    if !is_search && !is_rollout && leaf.is_some() {
        return Err(bad(settings));
    }
    if !is_td && model.is_some() {
        return Err(bad(settings));
    }
    if is_td && (weights != Weights::default() || depth.is_some_and(|d| d > 4)) {
        return Err(bad(settings));
    }
    if !is_search && !is_rollout && (ms.is_some() || clock.is_some()) {
        return Err(bad(settings));
    }
    if !is_rollout && (rollouts.is_some() || horizon.is_some() || temperature.is_some()) {
        return Err(bad(settings));
    }
    let clock = clock.unwrap_or(default_clock);
    match (level, name) {
        (Some(FlightLevel::Random), _) => {
            if !settings.is_empty() {
                return Err(bad(settings));
            }
            Ok(Box::new(RandomBot))
        }
        (Some(FlightLevel::Heuristic), _) => Ok(Box::new(HeuristicBot { weights })),
        (None, "search") => {
            // A clock without a depth deepens up to 6 rolls; a depth alone is exactly it.
            let ms = ms.unwrap_or(0);
            let depth = depth.unwrap_or(if ms > 0 { 6 } else { 3 });
            if depth > 12 {
                return Err(bad(&format!("depth={depth}")));
            }
            Ok(Box::new(SearchBot {
                weights,
                limits: SearchLimits {
                    max_depth: depth,
                    time: (ms > 0).then(|| Duration::from_millis(ms)),
                    clock,
                    leaf: match leaf.as_deref() {
                        None | Some("heuristic") => Leaf::Heuristic,
                        Some("learned") => Leaf::Learned,
                        Some(other) => return Err(bad(&format!("leaf={other}"))),
                    },
                },
            }))
        }
        (None, "td") => Ok(Box::new(TdBot {
            depth: depth.unwrap_or(0),
            model: model.unwrap_or_default(),
            versus,
        })),
        (Some(FlightLevel::Hard), _) | (None, "rollout") => {
            let defaults = if level == Some(FlightLevel::Hard) {
                RolloutBot::hall().limits
            } else {
                RolloutLimits::default()
            };
            let limits = RolloutLimits {
                rollouts: rollouts.unwrap_or(defaults.rollouts).clamp(1, 1_000_000),
                horizon: horizon.unwrap_or(defaults.horizon).min(10_000),
                time: match ms {
                    Some(0) => None,
                    Some(ms) => Some(Duration::from_millis(ms)),
                    None => defaults.time,
                },
                clock,
                temperature: temperature.unwrap_or(defaults.temperature),
                leaf: match leaf.as_deref() {
                    None => defaults.leaf,
                    Some("softmax") => RolloutLeaf::Softmax,
                    Some("net") => RolloutLeaf::Net,
                    Some("versus") => RolloutLeaf::Versus,
                    Some(other) => return Err(bad(&format!("leaf={other}"))),
                },
            };
            Ok(Box::new(RolloutBot { weights, limits }))
        }
        _ => Err(BotSpecError::UnknownBot(name.to_owned())),
    }
}

/// Splits a comma-separated list of bot specs (`random,heuristic:danger=2,race=9,random`): a
/// piece of the form `key=value` belongs to the spec before it, since bot names hold no `=`.
pub fn split_bot_list(list: &str) -> Vec<String> {
    let mut specs: Vec<String> = Vec::new();
    for piece in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match specs.last_mut() {
            Some(last) if piece.contains('=') && !piece.contains(':') => {
                last.push(',');
                last.push_str(piece);
            }
            _ => specs.push(piece.to_owned()),
        }
    }
    specs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_to_named_bots() {
        assert_eq!(parse_bot("random").unwrap().name(), "random");
        assert_eq!(parse_bot("easy").unwrap().name(), "random");
        assert_eq!(parse_bot("normal").unwrap().name(), "heuristic");
        assert_eq!(parse_bot("search").unwrap().name(), "search:depth=3");
        assert_eq!(
            parse_bot("search:ms=50").unwrap().name(),
            "search:depth=6,ms=50"
        );
        assert_eq!(
            parse_bot("hard").unwrap().name(),
            "rollout:n=4096,horizon=8,ms=50,leaf=net"
        );
        assert_eq!(
            parse_bot("hard:ms=0,n=512").unwrap().name(),
            "rollout:n=512,horizon=8,leaf=net"
        );
        assert_eq!(
            parse_bot("hard:leaf=softmax").unwrap().name(),
            "rollout:n=4096,horizon=8,ms=50"
        );
        assert_eq!(parse_bot("td").unwrap().name(), "td");
        assert_eq!(
            parse_bot("td:net=versus,depth=1").unwrap().name(),
            "td:depth=1,net=versus"
        );
        assert_eq!(
            parse_bot("rollout:n=8,leaf=versus").unwrap().name(),
            "rollout:n=8,horizon=8,leaf=versus"
        );
        assert_eq!(
            parse_bot("hard:clock=cpu").unwrap().name(),
            "rollout:n=4096,horizon=8,ms=50,clock=cpu,leaf=net"
        );
        assert_eq!(
            parse_bot_clocked("hard", Clock::Cpu).unwrap().name(),
            "rollout:n=4096,horizon=8,ms=50,clock=cpu,leaf=net"
        );
        assert_eq!(
            parse_bot_clocked("search:ms=20,clock=wall", Clock::Cpu)
                .unwrap()
                .name(),
            "search:depth=6,ms=20"
        );
        assert_eq!(
            parse_bot_clocked("heuristic", Clock::Cpu).unwrap().name(),
            "heuristic"
        );
        assert_eq!(
            parse_bot("td:depth=2,model=heuristic").unwrap().name(),
            "td:depth=2,model=heuristic"
        );
        assert_eq!(
            parse_bot("rollout:n=8,leaf=net").unwrap().name(),
            "rollout:n=8,horizon=8,leaf=net"
        );
        assert_eq!(
            parse_bot("search:depth=4,ms=20").unwrap().name(),
            "search:depth=4,ms=20"
        );
        assert_eq!(
            parse_bot("rollout:n=8,horizon=4").unwrap().name(),
            "rollout:n=8,horizon=4"
        );
        assert_eq!(
            parse_bot("rollout:n=8,horizon=0,ms=50,temp=40")
                .unwrap()
                .name(),
            "rollout:n=8,horizon=0,ms=50,temp=40"
        );
        assert_eq!(
            parse_bot("search:depth=2,leaf=learned").unwrap().name(),
            "search:depth=2,leaf=learned"
        );
        assert!(
            parse_bot("heuristic:danger=2")
                .unwrap()
                .name()
                .contains("danger=2")
        );
        assert_eq!(
            FlightLevel::Hard.bot().name(),
            "rollout:n=4096,horizon=8,ms=50,leaf=net"
        );
        assert_eq!(
            "Normal".parse::<FlightLevel>().unwrap(),
            FlightLevel::Heuristic
        );
    }

    #[test]
    fn bot_lists_keep_settings_with_their_bot() {
        assert_eq!(
            split_bot_list("random, search:depth=2,ms=5,heuristic:race=3,random"),
            vec![
                "random",
                "search:depth=2,ms=5",
                "heuristic:race=3",
                "random"
            ]
        );
    }

    #[test]
    fn bad_specs_are_refused_with_a_reason() {
        assert!(matches!(
            parse_bot("alphago"),
            Err(BotSpecError::UnknownBot(_))
        ));
        assert!(matches!(
            parse_bot("random:depth=2"),
            Err(BotSpecError::BadSetting { .. })
        ));
        assert!(matches!(
            parse_bot("heuristic:depth=2"),
            Err(BotSpecError::BadSetting { .. })
        ));
        assert!(matches!(
            parse_bot("search:depth=x"),
            Err(BotSpecError::BadSetting { .. })
        ));
        assert!(matches!(
            parse_bot("search:depth=40"),
            Err(BotSpecError::BadSetting { .. })
        ));
        assert!(matches!(
            parse_bot("heuristic:bogus=1"),
            Err(BotSpecError::BadSetting { .. })
        ));
        for bad in [
            "rollout:temp=0",
            "rollout:temp=x",
            "rollout:depth=2",
            "hard:depth=2",
            "search:leaf=oracle",
            "heuristic:leaf=learned",
            "random:ms=5",
            "search:n=4",
            "td:depth=9",
            "td:danger=2",
            "td:model=oracle",
            "td:net=oracle",
            "rollout:net=versus",
            "rollout:leaf=learned",
            "search:leaf=net",
            "heuristic:model=net",
            "heuristic:clock=cpu",
            "hard:clock=sundial",
            "td:clock=cpu",
        ] {
            assert!(
                matches!(parse_bot(bad), Err(BotSpecError::BadSetting { .. })),
                "{bad} was accepted"
            );
        }
    }
}
