//! The rule options of jungle.md: `order`, `elephant-takes-rat`, `leopard-leaps`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Which of dog and wolf ranks higher (J-PIECES).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// 象、狮、虎、豹、狗、狼、猫、鼠: dog 4, wolf 3 (the default).
    #[default]
    DogOverWolf,
    /// 象、狮、虎、豹、狼、狗、猫、鼠: wolf 4, dog 3.
    WolfOverDog,
}

impl Order {
    /// Both orders, the default first.
    pub const ALL: [Order; 2] = [Order::DogOverWolf, Order::WolfOverDog];

    /// The option value as written (`dog-over-wolf`, `wolf-over-dog`).
    pub const fn name(self) -> &'static str {
        match self {
            Order::DogOverWolf => "dog-over-wolf",
            Order::WolfOverDog => "wolf-over-dog",
        }
    }
}

/// The rule options of a game. `Rules::default()` is the standard game of jungle.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", default, deny_unknown_fields)]
pub struct Rules {
    /// Dog over wolf (default) or wolf over dog (J-PIECES).
    pub order: Order,
    /// The elephant may capture the rat (J-RAT-ELEPHANT option; off by default).
    pub elephant_takes_rat: bool,
    /// The leopard leaps sideways across the rivers like the lion and tiger (J-LEAP option).
    pub leopard_leaps: bool,
}

/// Why a rule option was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The key names no option.
    #[error("unknown jungle option {0:?} (known: order, elephant-takes-rat, leopard-leaps)")]
    UnknownKey(String),
    /// The value does not fit the option.
    #[error("option {key} cannot be {value:?}: expected {expected}")]
    BadValue {
        /// The option.
        key: String,
        /// The refused value.
        value: String,
        /// What the option accepts.
        expected: &'static str,
    },
    /// The text is not `key=value`.
    #[error("an option is written key=value, not {0:?}")]
    NotKeyValue(String),
}

fn parse_bool(key: &str, value: &str) -> Result<bool, RulesError> {
    match value {
        "true" | "on" | "yes" | "1" => Ok(true),
        "false" | "off" | "no" | "0" => Ok(false),
        _ => Err(RulesError::BadValue {
            key: key.to_owned(),
            value: value.to_owned(),
            expected: "true or false",
        }),
    }
}

impl Rules {
    /// Sets one option from its text form, e.g. `("order", "wolf-over-dog")`.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        match key {
            "order" => {
                self.order = match value {
                    "dog-over-wolf" => Order::DogOverWolf,
                    "wolf-over-dog" => Order::WolfOverDog,
                    _ => {
                        return Err(RulesError::BadValue {
                            key: key.to_owned(),
                            value: value.to_owned(),
                            expected: "dog-over-wolf or wolf-over-dog",
                        });
                    }
                }
            }
            "elephant-takes-rat" => self.elephant_takes_rat = parse_bool(key, value)?,
            "leopard-leaps" => self.leopard_leaps = parse_bool(key, value)?,
            _ => return Err(RulesError::UnknownKey(key.to_owned())),
        }
        Ok(())
    }

    /// Sets one option from `key=value` text (a bare `key` means `key=true`).
    pub fn set_pair(&mut self, pair: &str) -> Result<(), RulesError> {
        let pair = pair.trim();
        match pair.split_once('=') {
            Some((key, value)) => self.set(key.trim(), value.trim()),
            None if !pair.is_empty() => self.set(pair, "true"),
            None => Err(RulesError::NotKeyValue(pair.to_owned())),
        }
    }

    /// Whether every option has its default value.
    pub fn is_default(&self) -> bool {
        *self == Rules::default()
    }
}

impl fmt::Display for Rules {
    /// The options that differ from the default, as comma-separated `key=value` pairs
    /// (`standard` when none does). Parses back with [`FromStr`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if self.order != Order::default() {
            parts.push(format!("order={}", self.order.name()));
        }
        if self.elephant_takes_rat {
            parts.push("elephant-takes-rat=true".to_owned());
        }
        if self.leopard_leaps {
            parts.push("leopard-leaps=true".to_owned());
        }
        if parts.is_empty() {
            f.write_str("standard")
        } else {
            f.write_str(&parts.join(","))
        }
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    /// Comma-separated `key=value` pairs; `standard` (or nothing) is the default rules.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut rules = Rules::default();
        let s = s.trim();
        if s.is_empty() || s == "standard" {
            return Ok(rules);
        }
        for pair in s.split(',') {
            rules.set_pair(pair)?;
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_round_trip_through_text() {
        for order in Order::ALL {
            for elephant_takes_rat in [false, true] {
                for leopard_leaps in [false, true] {
                    let rules = Rules {
                        order,
                        elephant_takes_rat,
                        leopard_leaps,
                    };
                    assert_eq!(rules.to_string().parse::<Rules>().unwrap(), rules);
                    let json = serde_json::to_string(&rules).unwrap();
                    assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), rules);
                }
            }
        }
        assert_eq!(Rules::default().to_string(), "standard");
    }

    #[test]
    fn bad_options_are_refused_with_a_reason() {
        let mut rules = Rules::default();
        assert!(matches!(
            rules.set("colour", "x"),
            Err(RulesError::UnknownKey(_))
        ));
        assert!(matches!(
            rules.set("order", "cat-first"),
            Err(RulesError::BadValue { .. })
        ));
        assert!(matches!(
            rules.set_pair("leopard-leaps=maybe"),
            Err(RulesError::BadValue { .. })
        ));
        assert!(rules.is_default(), "a refused option changes nothing");
        rules.set_pair("leopard-leaps").unwrap();
        assert!(rules.leopard_leaps);
    }
}
