//! The hall's bot levels (P-SEATS, `docs/protocol.md` §7) as one vocabulary of both games:
//! what a seat, a challenge, the catalogue and a room event name. Each game offers some of
//! them ([`BotLevel::for_game`]); `hangar-games` turns a level into the bot of its game.
//!
//! A level travels as its wire name in every format (JSON to clients, MessagePack between
//! cluster nodes, the stored rooms): the same strings the hall always wrote, so neither the
//! protocol nor stored data changed when the names became a type.

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use crate::GameKind;

/// A bot level under its wire name: `random`, `greedy`, `easy`, `normal`, `heuristic`,
/// `hard`, `alphabeta`. Not every level is one of every game's: see [`BotLevel::for_game`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BotLevel {
    /// Random moves (both games).
    Random,
    /// Jungle: wins at once when it can, else captures, else a random move.
    Greedy,
    /// Jungle: a shallow search that sometimes plays at random.
    Easy,
    /// Jungle: the default searcher.
    Normal,
    /// Flight: the heuristic bot.
    Heuristic,
    /// The strongest level (both games).
    Hard,
    /// Jungle: the protocol's name for the default searcher (plays as [`BotLevel::Normal`]).
    AlphaBeta,
}

impl BotLevel {
    /// Every level, in the order of [`BotLevel::for_game`]'s lists (flight's then jungle's
    /// others).
    pub const ALL: [BotLevel; 7] = [
        BotLevel::Random,
        BotLevel::Greedy,
        BotLevel::Easy,
        BotLevel::Normal,
        BotLevel::Heuristic,
        BotLevel::Hard,
        BotLevel::AlphaBeta,
    ];

    /// Flight's levels, easiest first (`hangar-bots`' `FlightLevel::ALL`).
    const FLIGHT: [BotLevel; 3] = [BotLevel::Random, BotLevel::Heuristic, BotLevel::Hard];

    /// Jungle's levels in the order the hall lists them (`hangar-bots`' `JungleLevel::ALL`).
    const JUNGLE: [BotLevel; 6] = [
        BotLevel::Random,
        BotLevel::Greedy,
        BotLevel::Easy,
        BotLevel::Normal,
        BotLevel::Hard,
        BotLevel::AlphaBeta,
    ];

    /// The levels a seat of `game` can take, in the order the hall lists them. `hangar-games`
    /// checks that these are exactly the levels of `hangar-bots` (the protocol crate names
    /// no engine).
    pub const fn for_game(game: GameKind) -> &'static [BotLevel] {
        match game {
            GameKind::Flight => &Self::FLIGHT,
            GameKind::Jungle => &Self::JUNGLE,
        }
    }

    /// Whether `game` has this level.
    pub fn is_for(self, game: GameKind) -> bool {
        Self::for_game(game).contains(&self)
    }

    /// The wire name.
    pub const fn name(self) -> &'static str {
        match self {
            BotLevel::Random => "random",
            BotLevel::Greedy => "greedy",
            BotLevel::Easy => "easy",
            BotLevel::Normal => "normal",
            BotLevel::Heuristic => "heuristic",
            BotLevel::Hard => "hard",
            BotLevel::AlphaBeta => "alphabeta",
        }
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no bot level (of any game).
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error(
    "unknown bot level {0:?} (the levels: random, greedy, easy, normal, heuristic, hard, alphabeta)"
)]
pub struct UnknownBotLevel(String);

impl UnknownBotLevel {
    /// The name as it was given.
    pub fn name(&self) -> &str {
        &self.0
    }
}

impl FromStr for BotLevel {
    type Err = UnknownBotLevel;

    /// A wire name, exactly (the hall never took another spelling).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BotLevel::ALL
            .into_iter()
            .find(|level| level.name() == s)
            .ok_or_else(|| UnknownBotLevel(s.to_owned()))
    }
}

impl Serialize for BotLevel {
    /// The wire name, as a string in every format (a derived enum would be an index in
    /// MessagePack, and the cluster's nodes read what the older ones write).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for BotLevel {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        match deserializer.deserialize_str(NameVisitor)? {
            Ok(level) => Ok(level),
            Err(unknown) => Err(de::Error::unknown_variant(unknown.name(), NAMES)),
        }
    }
}

/// The wire names, for serde's "expected one of" message.
const NAMES: &[&str] = &[
    "random",
    "greedy",
    "easy",
    "normal",
    "heuristic",
    "hard",
    "alphabeta",
];

/// Reads a string as a level, or as the unknown name it is.
struct NameVisitor;

impl Visitor<'_> for NameVisitor {
    type Value = Result<BotLevel, UnknownBotLevel>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a bot level's name")
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Self::Value, E> {
        Ok(name.parse())
    }
}

/// Serde for a command's `bot` field, `Result<BotLevel, UnknownBotLevel>`: any string is
/// read, a level's name as the level and any other as the unknown name. The command is
/// then well formed, and the hall refuses the name as `invalid` with the levels of the
/// room's game (which the command alone does not tell); written back, either is its name.
pub(crate) mod lenient {
    use serde::{Deserializer, Serializer};

    use super::{BotLevel, NameVisitor, UnknownBotLevel};

    pub(crate) fn serialize<S: Serializer>(
        level: &Result<BotLevel, UnknownBotLevel>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match level {
            Ok(level) => serializer.serialize_str(level.name()),
            Err(unknown) => serializer.serialize_str(unknown.name()),
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Result<BotLevel, UnknownBotLevel>, D::Error> {
        deserializer.deserialize_str(NameVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_round_trips_through_its_name_display_and_serde() {
        for level in BotLevel::ALL {
            assert_eq!(level.name().parse::<BotLevel>(), Ok(level));
            assert_eq!(level.to_string(), level.name());
            let json = serde_json::to_string(&level).expect("serialises");
            assert_eq!(json, format!("\"{}\"", level.name()));
            assert_eq!(serde_json::from_str::<BotLevel>(&json).ok(), Some(level));
        }
        assert_eq!(NAMES, BotLevel::ALL.map(BotLevel::name));
    }

    #[test]
    fn an_unknown_name_is_refused_with_the_name_and_the_levels() {
        let unknown = "genius".parse::<BotLevel>().expect_err("no such level");
        assert_eq!(unknown.name(), "genius");
        assert_eq!(
            unknown.to_string(),
            "unknown bot level \"genius\" (the levels: random, greedy, easy, normal, heuristic, hard, alphabeta)"
        );
        // The wire names exactly: no other case, no spaces.
        assert!("Random".parse::<BotLevel>().is_err());
        assert!(" hard".parse::<BotLevel>().is_err());
        let refused = serde_json::from_str::<BotLevel>("\"genius\"").expect_err("refused");
        assert!(
            refused.to_string().contains("unknown variant `genius`"),
            "{refused}"
        );
        assert!(serde_json::from_str::<BotLevel>("3").is_err());
    }

    #[test]
    fn a_level_of_the_other_game_is_not_one_of_this_one() {
        assert!(BotLevel::Heuristic.is_for(GameKind::Flight));
        assert!(!BotLevel::Heuristic.is_for(GameKind::Jungle));
        for level in [
            BotLevel::Greedy,
            BotLevel::Easy,
            BotLevel::Normal,
            BotLevel::AlphaBeta,
        ] {
            assert!(level.is_for(GameKind::Jungle), "{level}");
            assert!(!level.is_for(GameKind::Flight), "{level}");
        }
        for level in [BotLevel::Random, BotLevel::Hard] {
            assert!(level.is_for(GameKind::Flight) && level.is_for(GameKind::Jungle));
        }
        // Every level is some game's.
        for level in BotLevel::ALL {
            assert!(level.is_for(GameKind::Flight) || level.is_for(GameKind::Jungle));
        }
    }

    #[test]
    fn a_command_field_reads_any_name_and_writes_it_back() {
        #[derive(Serialize, Deserialize, Debug, PartialEq)]
        struct Field {
            #[serde(with = "lenient")]
            bot: Result<BotLevel, UnknownBotLevel>,
        }
        let known: Field = serde_json::from_str(r#"{"bot":"easy"}"#).expect("reads");
        assert_eq!(known.bot, Ok(BotLevel::Easy));
        let unknown: Field = serde_json::from_str(r#"{"bot":"genius"}"#).expect("reads");
        assert_eq!(unknown.bot, Err(UnknownBotLevel("genius".into())));
        assert_eq!(
            serde_json::to_string(&unknown).expect("writes"),
            r#"{"bot":"genius"}"#
        );
        assert!(serde_json::from_str::<Field>(r#"{"bot":7}"#).is_err());
    }
}
