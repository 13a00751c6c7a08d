//! Game records (P-RECORD): export from the database, fair-dice verification (P-FAIR-DICE)
//! and a move-by-move replay, shared by the HTTP API and `hangar verify` / `hangar replay`.
//!
//! The hall's record is the room's log: who sat where, the seed and its commitment, and every
//! seat-level act (timeouts, resignations, auto-play, draw offers) with the die drawn for each
//! roll. The rules are the engines': a record replays through them, and a finished flight
//! game's export also carries `flight_record`, the engine's own [`hangar_flight::Record`].

use hangar_dice::Seed;
use serde_json::{Value, json};

use crate::game::{Act, DEFAULT_TURN_SECONDS, GameSession, RoomOptions, event_value};
use crate::protocol::GameKind;
use crate::room::LoggedAct;
use crate::store::StoredGame;

/// The record format tag.
pub const RECORD_FORMAT: &str = "hangar-record/1";

/// Jungle timeouts allowed before the next loses (P-JUNGLE-TIMEOUT).
const JUNGLE_TIMEOUTS_ALLOWED: u32 = 3;

/// Why a record does not check out.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RecordError {
    /// Not a record: a field is missing or has the wrong shape.
    #[error("not a game record: {0}")]
    Format(String),
    /// The seed is not revealed (the game is still running).
    #[error("the seed is not revealed: the game has not ended")]
    NoSeed,
    /// sha256(seed) differs from the published commitment.
    #[error(
        "the seed does not match the commitment: sha256(seed) = {actual}, published {published}"
    )]
    Commitment {
        /// sha256 of the revealed seed.
        actual: String,
        /// The commitment published at the start.
        published: String,
    },
    /// A recorded roll differs from the one the seed gives.
    #[error("action {index}: recorded roll {recorded}, the seed gives {drawn}")]
    Roll {
        /// Index in the action list.
        index: usize,
        /// The recorded value.
        recorded: u8,
        /// The value drawn from the seed.
        drawn: u8,
    },
    /// An action the engine refuses.
    #[error("action {index} is not legal: {reason}")]
    Illegal {
        /// Index in the action list.
        index: usize,
        /// The engine's reason.
        reason: String,
    },
}

/// A stored game as a record; the seed only once the game has ended.
pub fn record_json(game: &StoredGame) -> Value {
    let actions: Vec<Value> = game
        .actions
        .iter()
        .map(|a| {
            let mut action = serde_json::from_str(a).unwrap_or(Value::Null);
            // Which client sent a command is the server's business, not the record's.
            if let Some(fields) = action.as_object_mut() {
                fields.remove("cmd");
            }
            action
        })
        .collect();
    let finished = game.status == "finished";
    let mut record = json!({
        "format": RECORD_FORMAT,
        "game_id": game.id,
        "game": game.start.game,
        "room": game.start.room,
        "options": serde_json::from_str::<Value>(&game.start.options).unwrap_or(Value::Null),
        "seats": serde_json::from_str::<Value>(&game.start.seats).unwrap_or(Value::Null),
        "commitment": game.start.commitment,
        "seed": if finished { Value::from(game.start.seed.clone()) } else { Value::Null },
        "actions": actions,
        "result": game.result.as_deref().and_then(|r| serde_json::from_str::<Value>(r).ok()),
        "started_at": game.started_at,
        "finished_at": game.finished_at,
    });
    if finished && game.start.game == GameKind::Flight.name() {
        // The engine's record follows from the log by a replay; a log that does not replay
        // is exported as it is, and `verify` says why.
        if let Ok(Some(flight)) = walk_to_end(&record).map(|s| s.flight_record().cloned()) {
            record["flight_record"] = serde_json::to_value(flight).expect("a record serialises");
        }
    }
    record
}

/// What `verify` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// Rolls checked against the seed.
    pub rolls: usize,
    /// Actions replayed.
    pub actions: usize,
    /// Whether the replayed game is over.
    pub over: bool,
}

/// Walks a record through the engine: first the start (`None`), then every step with the
/// room events the engine produced for it and the session after it.
pub(crate) fn walk(
    record: &Value,
    each: impl FnMut(Option<(usize, &LoggedAct)>, &[Value], &GameSession),
) -> Result<Verified, RecordError> {
    walk_session(record, each).map(|(verified, _)| verified)
}

/// The game at the end of a record.
fn walk_to_end(record: &Value) -> Result<GameSession, RecordError> {
    walk_session(record, |_, _, _| {}).map(|(_, session)| session)
}

/// [`walk`], also returning the session at the end.
fn walk_session(
    record: &Value,
    mut each: impl FnMut(Option<(usize, &LoggedAct)>, &[Value], &GameSession),
) -> Result<(Verified, GameSession), RecordError> {
    let kind = record["game"]
        .as_str()
        .and_then(GameKind::from_name)
        .ok_or_else(|| RecordError::Format("\"game\" is flight or jungle".into()))?;
    let seed: Seed = record["seed"]
        .as_str()
        .ok_or(RecordError::NoSeed)?
        .parse()
        .map_err(|_| RecordError::Format("\"seed\" is 64 hex digits".into()))?;
    let published = record["commitment"].as_str().unwrap_or_default();
    if !seed.matches(published) {
        return Err(RecordError::Commitment {
            actual: seed.commitment(),
            published: published.to_owned(),
        });
    }
    let seats = record["seats"]
        .as_array()
        .map(Vec::len)
        .ok_or_else(|| RecordError::Format("\"seats\" is a list".into()))?;
    let options = RoomOptions::stored(kind, &record["options"], DEFAULT_TURN_SECONDS)
        .map_err(|e| RecordError::Format(e.to_string()))?;
    let mut session = GameSession::start(&options, seats, seed)
        .map_err(|e| RecordError::Format(e.to_string()))?;
    each(None, &[], &session);
    let actions = record["actions"]
        .as_array()
        .ok_or_else(|| RecordError::Format("\"actions\" is a list".into()))?;
    let mut timeouts = vec![0u32; seats];
    let mut rolls = 0;
    for (index, value) in actions.iter().enumerate() {
        let logged: LoggedAct = serde_json::from_value(value.clone())
            .map_err(|e| RecordError::Format(format!("action {index}: {e}")))?;
        let illegal = |reason: String| RecordError::Illegal { index, reason };
        let mut events = Vec::new();
        match &logged.action {
            Act::Roll | Act::Move { .. } | Act::UseItem { .. } => {
                if session.turn().map(|(seat, _)| seat) != Some(logged.seat) {
                    return Err(illegal(format!("not seat {}'s turn", logged.seat)));
                }
                let played = session
                    .play(logged.seat, &logged.action)
                    .map_err(|e| illegal(e.message))?;
                if let (Some(drawn), Some(recorded)) = (played.roll, logged.roll) {
                    if drawn != recorded {
                        return Err(RecordError::Roll {
                            index,
                            recorded,
                            drawn,
                        });
                    }
                    rolls += 1;
                }
                events = played.events;
            }
            Act::Timeout if kind == GameKind::Jungle => {
                timeouts[logged.seat] += 1;
                if timeouts[logged.seat] > JUNGLE_TIMEOUTS_ALLOWED {
                    events = session.remove(logged.seat);
                } else {
                    events = session.pass().map_err(|e| illegal(e.message))?.events;
                }
            }
            Act::Resign | Act::Escape | Act::Abandon => {
                events = session.remove(logged.seat);
            }
            Act::DrawAnswer { accept: true } => session.agree_draw(),
            _ => {}
        }
        let events: Vec<Value> = events.iter().map(event_value).collect();
        each(Some((index, &logged)), &events, &session);
    }
    let verified = Verified {
        rolls,
        actions: actions.len(),
        over: session.is_over(),
    };
    Ok((verified, session))
}

/// Checks a record's fair dice: the seed matches the commitment and every recorded roll is
/// the one the seed gives, the game replaying legally through the engine (P-FAIR-DICE).
pub fn verify(record: &Value) -> Result<Verified, RecordError> {
    walk(record, |_, _, _| {})
}

/// The game move by move, one line per action (for `hangar replay`).
pub fn replay_lines(record: &Value) -> Result<Vec<String>, RecordError> {
    let seats = record["seats"].as_array().cloned().unwrap_or_default();
    let name = |seat: usize| {
        seats
            .get(seat)
            .and_then(|s| s["name"].as_str())
            .unwrap_or("?")
            .to_owned()
    };
    let mut lines = vec![format!(
        "{} game {} in room {} — commitment {}",
        record["game"].as_str().unwrap_or("?"),
        record["game_id"],
        record["room"].as_str().unwrap_or("?"),
        record["commitment"].as_str().unwrap_or("?"),
    )];
    walk(record, |step, _, session| {
        let Some((index, logged)) = step else {
            return;
        };
        let who = format!("seat {} ({})", logged.seat, name(logged.seat));
        let what = match &logged.action {
            Act::Roll => format!(
                "rolls {}",
                logged.roll.map_or("?".into(), |r| r.to_string())
            ),
            Act::Move {
                plane: Some(plane), ..
            } => format!("moves plane {plane}"),
            Act::Move {
                notation: Some(m), ..
            } => format!("plays {m}"),
            other => serde_json::to_value(other)
                .ok()
                .and_then(|v| v["kind"].as_str().map(str::to_owned))
                .unwrap_or_default(),
        };
        let auto = if logged.auto { " [auto]" } else { "" };
        let view = session.view();
        let state = match view["kind"].as_str() {
            Some("flight") => format!("planes {}", view["planes"]),
            _ => view["fen"].as_str().unwrap_or_default().to_owned(),
        };
        lines.push(format!("{:>4}. {who} {what}{auto}   → {state}", index + 1));
    })?;
    if let Some(result) = record["result"].as_object() {
        lines.push(format!("result: {}", Value::Object(result.clone())));
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::NewGame;

    #[test]
    fn records_leave_out_which_client_sent_a_command() {
        let game = StoredGame {
            id: 1,
            start: NewGame {
                room: "ROOM01".into(),
                game: "flight".into(),
                private: false,
                options: "{}".into(),
                seats: "[]".into(),
                seed: "00".into(),
                commitment: "00".into(),
            },
            status: "running".into(),
            result: None,
            started_at: 0,
            finished_at: None,
            actions: vec![
                r#"{"seat":0,"action":{"kind":"roll"},"roll":6,"cmd":{"client":"tab-1","id":5}}"#
                    .into(),
            ],
        };
        let record = record_json(&game);
        assert_eq!(
            record["actions"][0],
            json!({"seat": 0, "action": {"kind": "roll"}, "roll": 6})
        );
        assert_eq!(
            record["seed"],
            Value::Null,
            "the seed stays secret while it runs"
        );
    }
}
