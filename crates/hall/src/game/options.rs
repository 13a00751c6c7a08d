//! Room options (P-ROOM): checked, completed with defaults, stored with the game.

use serde_json::{Map, Value, json};

use crate::protocol::{ErrorCode, GameKind, ProtoError};

/// Shortest and longest turn timer (P-ROOM).
pub const TURN_SECONDS: std::ops::RangeInclusive<u64> = 5..=120;

fn invalid(message: impl Into<String>) -> ProtoError {
    ProtoError::new(ErrorCode::Invalid, message)
}

/// Room-level keys shared by both games.
const ROOM_KEYS: [&str; 3] = ["seats", "turn_seconds", "preset"];

/// Checks a room's options and completes them: returns the full options (as stored and
/// shown), the number of seats and the turn timer.
pub fn check_options(
    game: GameKind,
    given: &Value,
    default_turn_seconds: u64,
) -> Result<(Value, usize, u64), ProtoError> {
    let empty = Map::new();
    let given = match given {
        Value::Null => &empty,
        Value::Object(map) => map,
        _ => return Err(invalid("options must be an object")),
    };
    let turn_seconds = match given.get("turn_seconds") {
        None => default_turn_seconds,
        Some(v) => v
            .as_u64()
            .filter(|s| TURN_SECONDS.contains(s))
            .ok_or_else(|| invalid("turn_seconds is 5–120"))?,
    };
    match game {
        GameKind::Flight => flight_options(given, turn_seconds),
        GameKind::Jungle => jungle_options(given, turn_seconds),
    }
}

fn flight_options(
    given: &Map<String, Value>,
    turn_seconds: u64,
) -> Result<(Value, usize, u64), ProtoError> {
    let seats = match given.get("seats") {
        None => 4,
        Some(v) => v
            .as_u64()
            .filter(|n| (2..=4).contains(n))
            .ok_or_else(|| invalid("flight seats is 2–4"))? as usize,
    };
    let stake = match given.get("stake") {
        None => 100,
        Some(v) => v
            .as_i64()
            .filter(|n| (10..=10_000).contains(n))
            .ok_or_else(|| invalid("stake is 10–10000"))?,
    };
    let preset: hangar_flight::Preset = match given.get("preset") {
        None => hangar_flight::Preset::Traditional,
        Some(v) => v
            .as_str()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| invalid("preset is traditional or improved"))?,
    };
    let mut rules = serde_json::to_value(preset.options()).expect("options serialise");
    let rules_map = rules.as_object_mut().expect("options are an object");
    for (key, value) in given {
        if ROOM_KEYS.contains(&key.as_str()) || key == "stake" {
            continue;
        }
        if !rules_map.contains_key(key) {
            return Err(invalid(format!("unknown flight option {key:?}")));
        }
        rules_map.insert(key.clone(), value.clone());
    }
    let engine: hangar_flight::Options = serde_json::from_value(rules.clone())
        .map_err(|e| invalid(format!("flight options: {e}")))?;
    if !(2..=4).contains(&engine.planes) {
        return Err(invalid("planes is 2–4"));
    }
    if engine.teams && seats != 4 {
        return Err(invalid("teams need 4 seats"));
    }
    let mut full = json!({
        "seats": seats,
        "stake": stake,
        "turn_seconds": turn_seconds,
        "preset": preset.to_string(),
    });
    let full_map = full.as_object_mut().expect("an object");
    for (key, value) in serde_json::to_value(engine)
        .expect("options serialise")
        .as_object()
        .expect("object")
    {
        full_map.insert(key.clone(), value.clone());
    }
    Ok((full, seats, turn_seconds))
}

fn jungle_options(
    given: &Map<String, Value>,
    turn_seconds: u64,
) -> Result<(Value, usize, u64), ProtoError> {
    let mut rules = hangar_jungle::Rules::default();
    let mut level = 1;
    for (key, value) in given {
        match key.as_str() {
            "turn_seconds" => {}
            "seats" if value.as_u64() == Some(2) => {}
            "seats" => return Err(invalid("jungle has 2 seats")),
            "level" => {
                level = value
                    .as_i64()
                    .filter(|l| (1..=10).contains(l))
                    .ok_or_else(|| invalid("level is 1–10"))?;
            }
            "order" => {
                let text = value.as_str().ok_or_else(|| invalid("order is a text"))?;
                rules
                    .set("order", text)
                    .map_err(|e| invalid(e.to_string()))?;
            }
            "elephant_takes_rat" | "leopard_leaps" => {
                let on = value
                    .as_bool()
                    .ok_or_else(|| invalid(format!("{key} is true or false")))?;
                rules
                    .set(&key.replace('_', "-"), if on { "true" } else { "false" })
                    .map_err(|e| invalid(e.to_string()))?;
            }
            _ => return Err(invalid(format!("unknown jungle option {key:?}"))),
        }
    }
    let full = json!({
        "seats": 2,
        "turn_seconds": turn_seconds,
        "level": level,
        "order": rules.order.name(),
        "elephant_takes_rat": rules.elephant_takes_rat,
        "leopard_leaps": rules.leopard_leaps,
    });
    Ok((full, 2, turn_seconds))
}

/// The jungle engine's rules from checked options.
pub fn jungle_rules(options: &Value) -> hangar_jungle::Rules {
    let mut rules = hangar_jungle::Rules::default();
    if let Some(order) = options["order"].as_str() {
        let _ = rules.set("order", order);
    }
    rules.elephant_takes_rat = options["elephant_takes_rat"].as_bool().unwrap_or(false);
    rules.leopard_leaps = options["leopard_leaps"].as_bool().unwrap_or(false);
    rules
}

/// The flight engine's options from checked options.
pub fn flight_rules(options: &Value) -> Result<hangar_flight::Options, ProtoError> {
    let mut map = options.as_object().cloned().unwrap_or_default();
    for key in ["seats", "stake", "turn_seconds", "preset"] {
        map.remove(key);
    }
    serde_json::from_value(Value::Object(map)).map_err(|e| invalid(format!("flight options: {e}")))
}
