//! The engine line format (P-ENGINE, `docs/engine.md`): one JSON line to an outside program
//! per decision — the game, the position in the rules-JSON form, the seat, the numbered legal
//! actions and the time to answer — and one line back, the chosen action's id or `resign`.
//!
//! Nothing here does I/O: `hangar match` and `hangar bot` build the questions here and read
//! the answers here; the process supervision is theirs.

use hangar_flight::{Action, Colour, Item, Move, Phase};
use serde_json::{Map, Value, json};

use crate::rules_json::flight::MoveView;

/// One decision of a flight game an engine may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlightChoice {
    /// Roll the die.
    Roll,
    /// Use an item from the bar before rolling (F-ITEM-USE).
    UseItem(Item),
    /// Move a plane by the pending roll.
    Move(Move),
}

impl FlightChoice {
    /// The engine's action for this choice (a roll's value is the dice's, not the engine's).
    pub fn action(self, roll: u8) -> Action {
        match self {
            FlightChoice::Roll => Action::Roll { value: roll },
            FlightChoice::UseItem(item) => Action::UseItem { item },
            FlightChoice::Move(m) => Action::Move { plane: m.plane },
        }
    }
}

/// The choices of the player on turn in `game`: in a roll phase the roll and each item of
/// its bar that may be used now; in a move phase the legal moves (one per distinct result,
/// F-CHOICE). Empty when the game is over or a chance draw is awaited.
pub fn flight_choices(game: &hangar_flight::Game) -> Vec<FlightChoice> {
    match game.phase() {
        Phase::Roll => {
            let mut choices = vec![FlightChoice::Roll];
            let bar = game.item_bar(game.turn());
            for item in Item::ALL {
                if bar.contains(item) && game.after(Action::UseItem { item }).is_ok() {
                    choices.push(FlightChoice::UseItem(item));
                }
            }
            choices
        }
        Phase::Move { .. } => game
            .legal_moves()
            .as_slice()
            .iter()
            .map(|m| FlightChoice::Move(*m))
            .collect(),
        Phase::Draw { .. } | Phase::Over => Vec::new(),
    }
}

/// The question line (without its `ask` number, which the supervisor adds) for the player on
/// turn in `game`, sitting at `seat`, with `choices` from [`flight_choices`].
pub fn flight_question(
    game: &hangar_flight::Game,
    seat: usize,
    choices: &[FlightChoice],
    clock_ms: u64,
) -> Map<String, Value> {
    let actions = choices
        .iter()
        .enumerate()
        .map(|(id, choice)| {
            let mut view = match choice {
                FlightChoice::Roll => json!({"type": "roll"}),
                FlightChoice::UseItem(item) => json!({"type": "use_item", "item": item}),
                FlightChoice::Move(m) => {
                    let mut view =
                        serde_json::to_value(MoveView::new(m, game)).expect("a move serialises");
                    view["type"] = "move".into();
                    view
                }
            };
            view["id"] = id.into();
            view
        })
        .collect();
    question(
        "flight",
        json!(game),
        seat,
        colour_name(game.turn()),
        actions,
        clock_ms,
    )
}

fn colour_name(colour: Colour) -> &'static str {
    colour.name()
}

/// The choices of the side to move in a jungle game: its allowed moves (J-REPEAT applied).
pub fn jungle_choices(game: &hangar_jungle::Game) -> Vec<hangar_jungle::Move> {
    game.legal_moves()
}

/// The question line (without its `ask` number) for the side to move in `game`, sitting at
/// `seat`, with `moves` from [`jungle_choices`].
pub fn jungle_question(
    game: &hangar_jungle::Game,
    seat: usize,
    moves: &[hangar_jungle::Move],
    clock_ms: u64,
) -> Map<String, Value> {
    let position = game.position();
    let actions = moves
        .iter()
        .enumerate()
        .map(|(id, m)| {
            json!({
                "id": id,
                "move": m.to_string(),
                "piece": position.piece_at(m.from).map(|p| p.role.name()),
                "captures": position.piece_at(m.to).map(|p| p.role.name()),
            })
        })
        .collect();
    question(
        "jungle",
        position.to_string().into(),
        seat,
        game.turn().name(),
        actions,
        clock_ms,
    )
}

fn question(
    game: &str,
    position: Value,
    seat: usize,
    colour: &str,
    actions: Vec<Value>,
    clock_ms: u64,
) -> Map<String, Value> {
    let mut line = Map::new();
    line.insert("game".into(), game.into());
    line.insert("position".into(), position);
    line.insert("seat".into(), seat.into());
    line.insert("colour".into(), colour.into());
    line.insert("actions".into(), Value::Array(actions));
    line.insert("clock_ms".into(), clock_ms.into());
    line
}

/// What an engine answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The action with this id.
    Action(usize),
    /// The engine gives the game up.
    Resign,
}

/// Why an answer line is not taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadAnswer {
    /// The answer names an earlier question (`"ask"` echoed with another number): a late
    /// answer, skipped without a word to the engine.
    #[error("an answer to question {0}, which is over")]
    Stale(u64),
    /// Not an answer at all.
    #[error("{0}")]
    Invalid(String),
}

/// Reads an answer line to question `ask` that offered `actions` actions: `3`, `{"action": 3}`,
/// `"resign"`, `resign` or `{"action": "resign"}` (with an optional `"ask"` echoed in the
/// object form). Surrounding white space is ignored.
pub fn parse_answer(line: &str, ask: u64, actions: usize) -> Result<Answer, BadAnswer> {
    let text = line.trim();
    if text == "resign" {
        return Ok(Answer::Resign);
    }
    let shown: String = text.chars().take(80).collect();
    let value: Value = serde_json::from_str(text).map_err(|_| {
        BadAnswer::Invalid(format!(
            "not JSON, an action id or `resign`: {shown:?}{}",
            if shown.len() < text.len() { "…" } else { "" }
        ))
    })?;
    let chosen = match &value {
        Value::Object(fields) => {
            if let Some(echo) = fields.get("ask") {
                match echo.as_u64() {
                    Some(n) if n == ask => {}
                    Some(n) => return Err(BadAnswer::Stale(n)),
                    None => return Err(BadAnswer::Invalid("\"ask\" is not a number".into())),
                }
            }
            fields.get("action").ok_or_else(|| {
                BadAnswer::Invalid(format!("an object without \"action\": {shown}"))
            })?
        }
        other => other,
    };
    match chosen {
        Value::String(word) if word == "resign" => Ok(Answer::Resign),
        Value::Number(n) => match n.as_u64() {
            Some(id) if (id as usize) < actions => Ok(Answer::Action(id as usize)),
            _ => Err(BadAnswer::Invalid(format!(
                "action {n} is not one of the {actions} offered (ids 0–{})",
                actions.saturating_sub(1)
            ))),
        },
        other => Err(BadAnswer::Invalid(format!(
            "an action is an id or \"resign\", not {other}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hangar_flight::{Colour, Game, NoEvents, Preset};

    #[test]
    fn p_engine_answers_in_every_accepted_form() {
        for (line, answer) in [
            ("2", Answer::Action(2)),
            (" 0 \n", Answer::Action(0)),
            (r#"{"action": 1}"#, Answer::Action(1)),
            (r#"{"action": 1, "ask": 7}"#, Answer::Action(1)),
            ("resign", Answer::Resign),
            (r#""resign""#, Answer::Resign),
            (r#"{"action":"resign"}"#, Answer::Resign),
        ] {
            assert_eq!(parse_answer(line, 7, 3), Ok(answer), "{line}");
        }
    }

    #[test]
    fn p_engine_bad_answers_are_refused_with_a_reason() {
        for line in [
            "3",
            "-1",
            "1.5",
            "hello",
            "{}",
            r#"{"action":"e3e4"}"#,
            "[1]",
            "",
        ] {
            let refused = parse_answer(line, 1, 3);
            assert!(
                matches!(refused, Err(BadAnswer::Invalid(_))),
                "{line}: {refused:?}"
            );
        }
        assert_eq!(
            parse_answer(r#"{"action":0,"ask":3}"#, 4, 2),
            Err(BadAnswer::Stale(3))
        );
    }

    #[test]
    fn p_engine_a_flight_question_numbers_the_legal_moves() {
        let mut game = Game::new(
            Preset::Traditional.options(),
            &[Colour::Red, Colour::Blue],
            Colour::Red,
        )
        .expect("a game");
        assert_eq!(flight_choices(&game), vec![FlightChoice::Roll]);
        game.roll(6, &mut NoEvents).expect("a roll");
        let choices = flight_choices(&game);
        assert_eq!(choices.len(), 1, "four planes in the hangar take off alike");
        let line = flight_question(&game, 1, &choices, 500);
        assert_eq!(line["game"], "flight");
        assert_eq!(line["seat"], 1);
        assert_eq!(line["colour"], "red");
        assert_eq!(line["clock_ms"], 500);
        assert_eq!(line["position"]["roll"], 6);
        assert_eq!(line["actions"][0]["id"], 0);
        assert_eq!(line["actions"][0]["type"], "move");
        assert_eq!(line["actions"][0]["to"], 0);
    }

    #[test]
    fn p_engine_a_jungle_question_names_the_pieces() {
        let game = hangar_jungle::Game::new(hangar_jungle::Rules::default());
        let moves = jungle_choices(&game);
        let line = jungle_question(&game, 0, &moves, 1000);
        assert_eq!(line["position"], game.position().to_string());
        assert_eq!(line["actions"].as_array().map(Vec::len), Some(24));
        assert_eq!(
            line["actions"][0],
            json!({"id": 0, "move": "a1b1", "piece": "tiger", "captures": null})
        );
    }
}
