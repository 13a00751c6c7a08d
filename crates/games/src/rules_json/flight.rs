//! `hangar rules flight`: the Aeroplane Chess engine as JSON in, JSON out (docs/flight-json.md).
//!
//! One request object on standard input, one answer object on standard output. A bad or
//! impossible request gives `{"ok": false, "error": …}` and exit status 1.

use hangar_dice::{Dice, Entropy, RollKey, Seed};
use hangar_flight::{
    Action, Colour, Event, Game, ItemOnBoard, Move, Options, Phase, PlayError, Preset, Progress,
    Scores, ThreeSixes,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// A request, tagged by `request`.
#[derive(Deserialize, Debug)]
#[serde(tag = "request", rename_all = "snake_case", deny_unknown_fields)]
enum Request {
    /// The start position.
    New {
        #[serde(default)]
        preset: Option<Preset>,
        #[serde(default)]
        options: Option<Value>,
        players: Vec<Colour>,
        first: Colour,
    },
    /// The legal moves of the player on turn for a roll (default: the pending roll).
    Moves {
        position: Game,
        #[serde(default)]
        roll: Option<u8>,
    },
    /// Plays actions in order and gives the new position and the events.
    Play {
        position: Game,
        #[serde(default)]
        action: Option<Action>,
        #[serde(default)]
        actions: Vec<Action>,
        #[serde(default)]
        stake: Option<u32>,
    },
    /// Derives roll `k` of a per-roll game from its seed and the roller's bytes (P-FAIR-DICE,
    /// protocol.md §10), for outside checkers: the die, then a draw below each of `below`
    /// from the same stream (the chance draws that follow the roll).
    DeriveRoll {
        seed: Seed,
        k: u64,
        #[serde(default)]
        entropy: Option<Entropy>,
        #[serde(default)]
        below: Vec<u32>,
    },
    /// What the built-in bot `level` (a hall level or a `hangar sim` spec) plays in
    /// `position`, its random draws from `seed` (P-ENGINE).
    Bot {
        level: String,
        position: Game,
        #[serde(default)]
        seed: Option<super::BotSeed>,
    },
}

/// A legal move as shown to outside tools (also in the engine line, `crate::engine_line`).
#[derive(Serialize)]
pub(crate) struct MoveView {
    plane: u8,
    from: Progress,
    to: Progress,
    finishes: bool,
    sits: bool,
    captures: Vec<PlaneRef>,
    /// Items taken from the board (F-ITEM-PICK), in order; omitted when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    items: Vec<ItemOnBoard>,
}

#[derive(Serialize)]
struct PlaneRef {
    colour: Colour,
    plane: u8,
}

impl MoveView {
    pub(crate) fn new(m: &Move, game: &Game) -> Self {
        MoveView {
            plane: m.plane,
            from: m.from,
            to: m.to,
            finishes: m.to.is_finished(),
            sits: m.sits,
            captures: m
                .captured_planes()
                .map(|(colour, plane)| PlaneRef { colour, plane })
                .collect(),
            items: m.picked_items(game),
        }
    }
}

/// The answer to one request text, or the reason it is refused.
pub fn answer(input: &str) -> Result<Value, String> {
    let request: Request = serde_json::from_str(input).map_err(|e| format!("bad request: {e}"))?;
    match request {
        Request::DeriveRoll {
            seed,
            k,
            entropy,
            below,
        } => {
            if let Some(zero) = below.iter().position(|&n| n == 0) {
                return Err(format!(
                    "below[{zero}] is 0: a draw needs at least one outcome"
                ));
            }
            let key = RollKey::derive(&seed, k, entropy.as_ref());
            let mut dice = key.dice();
            let die = dice.roll();
            let draws: Vec<u32> = below.iter().map(|&n| dice.roll_below(n)).collect();
            Ok(json!({
                "ok": true,
                "k": k,
                "key": hex::encode(key.bytes()),
                "die": die,
                "draws": draws,
            }))
        }
        Request::Bot {
            level,
            position,
            seed,
        } => bot_answer(&level, &position, super::BotSeed::resolve(seed)),
        Request::New {
            preset,
            options,
            players,
            first,
        } => {
            let options = build_options(preset, options)?;
            let game = Game::new(options, &players, first).map_err(|e| e.to_string())?;
            Ok(json!({
                "ok": true, "position": game, "phase": game.phase(),
                "draw_choices": game.draw_choices(),
            }))
        }
        Request::Moves { position, roll } => {
            let roll = match (roll, position.phase()) {
                (Some(r), Phase::Roll) => r,
                (None, Phase::Move { roll }) => roll,
                (Some(r), Phase::Move { roll }) if r == roll => roll,
                (Some(_), Phase::Move { roll }) => {
                    return Err(format!("the position awaits a move with the roll {roll}"));
                }
                (None, Phase::Roll) => return Err("give a roll: the position awaits one".into()),
                (_, Phase::Draw { .. }) => return Err(PlayError::DrawExpected.to_string()),
                (_, Phase::Over) => return Err(PlayError::GameOver.to_string()),
            };
            if !(1..=6).contains(&roll) {
                return Err(PlayError::BadDie { value: roll }.to_string());
            }
            // A pending roll is past the three-sixes check; a new one may be penalised.
            let penalised = position.phase() == Phase::Roll
                && roll == 6
                && position.options().three_sixes != ThreeSixes::None
                && position.sixes() == 2;
            let moves: Vec<MoveView> = if penalised {
                Vec::new()
            } else {
                position
                    .moves_for(roll)
                    .iter()
                    .map(|m| MoveView::new(m, &position))
                    .collect()
            };
            Ok(json!({
                "ok": true,
                "turn": position.turn(),
                "roll": roll,
                "three_sixes": penalised,
                "forced": position.forced_plane(),
                "moves": moves,
            }))
        }
        Request::Play {
            mut position,
            action,
            actions,
            stake,
        } => {
            let all: Vec<Action> = action.into_iter().chain(actions).collect();
            if all.is_empty() {
                return Err("give an action or actions".into());
            }
            let mut events: Vec<Event> = Vec::new();
            for (index, a) in all.iter().enumerate() {
                position
                    .play(*a, &mut events)
                    .map_err(|e| format!("action {index} refused: {e}"))?;
            }
            let scores: Option<Scores> = stake.and_then(|s| position.scores(s));
            Ok(json!({
                "ok": true,
                "position": position,
                "phase": position.phase(),
                "events": events,
                "draw_choices": position.draw_choices(),
                "legal_moves": position.legal_moves().iter().map(|m| MoveView::new(m, &position)).collect::<Vec<_>>(),
                "ranks": position.ranks(),
                "scores": scores,
            }))
        }
    }
}

/// The `bot` request's answer: a roll in a roll phase (the hall's bots use no items), else
/// the move the bot picks, its random draws from `Dice::new(seed)`.
fn bot_answer(level: &str, position: &Game, seed: Seed) -> Result<Value, String> {
    let bot = hangar_bots::flight::parse_bot(level).map_err(|e| e.to_string())?;
    match position.phase() {
        Phase::Roll => Ok(json!({"ok": true, "level": level, "action": {"type": "roll"}})),
        Phase::Move { .. } => {
            let moves = position.legal_moves();
            let index = bot
                .pick(position, &moves, &mut Dice::new(seed))
                .min(moves.len() - 1);
            let chosen = &moves[index];
            Ok(json!({
                "ok": true,
                "level": level,
                "action": {"type": "move", "plane": chosen.plane},
                "move": MoveView::new(chosen, position),
            }))
        }
        Phase::Draw { .. } => Err(PlayError::DrawExpected.to_string()),
        Phase::Over => Err(PlayError::GameOver.to_string()),
    }
}

/// Options from a preset, then the given fields on top.
fn build_options(preset: Option<Preset>, options: Option<Value>) -> Result<Options, String> {
    let base = preset.unwrap_or(Preset::Traditional).options();
    let Some(Value::Object(fields)) = options else {
        return match options {
            None => Ok(base),
            Some(_) => Err("options must be an object".into()),
        };
    };
    let mut merged = serde_json::to_value(base).map_err(|e| e.to_string())?;
    for (key, value) in fields {
        merged[key] = value;
    }
    serde_json::from_value(merged).map_err(|e| format!("bad options: {e}"))
}
