//! Replay frames of a finished game (P-RECORD): the record walked through the real rule
//! engines, one frame per action with the engine's events and the full game view after it,
//! so that browsers draw replays without knowing any rule.

use serde_json::{Value, json};

use crate::record::{GameRecord, RecordError};

/// The frames of a record with a revealed seed: `{"game", "frames": [...]}`, frame 0 the
/// start, then one frame per recorded action. Each frame holds the logged action (`null` for
/// the start), the room events the engine produced for it (as the live game sends them,
/// without their repeated `game` view) and `view`, the game view in the live snapshot format.
pub fn replay_frames(record: &Value) -> Result<Value, RecordError> {
    let record = GameRecord::from_value(record)?;
    let mut frames = Vec::with_capacity(record.actions.len() + 1);
    record.walk(|step, events, session| {
        let events: Vec<Value> = events.iter().map(without_view).collect();
        let (index, action) = match step {
            Some((index, logged)) => (json!(index), json!(logged)),
            None => (Value::Null, Value::Null),
        };
        frames.push(json!({
            "index": index,
            "action": action,
            "events": events,
            "view": session.view(),
        }));
    })?;
    Ok(json!({"game": record.game, "frames": frames}))
}

/// An event without its `game` view: the frame carries the view once.
fn without_view(event: &Value) -> Value {
    let mut event = event.clone();
    if let Some(map) = event.as_object_mut() {
        map.remove("game");
    }
    event
}
