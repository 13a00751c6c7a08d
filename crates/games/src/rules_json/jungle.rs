//! `hangar rules jungle`: one JSON request on standard input, one JSON answer on standard
//! output (documented with examples in `docs/jungle-json.md`). Bad input gets
//! `{"type":"error",…}` and a non-zero exit status.

use hangar_bots::jungle::{JungleBot, JunglePlayer};
use hangar_dice::Dice;
use hangar_jungle::{Game, GameError, Move, Outcome, Ply, Position, Rules, perft};
use serde::{Deserialize, Serialize};

/// A request: what to do, from which position, after which plies.
#[derive(Deserialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum Request {
    /// The allowed moves of the position reached.
    LegalMoves {
        #[serde(flatten)]
        from: From,
    },
    /// Play one move.
    Play {
        #[serde(flatten)]
        from: From,
        #[serde(rename = "move")]
        mv: String,
    },
    /// Perft from the position reached (history ignored).
    Perft {
        #[serde(flatten)]
        from: From,
        depth: u32,
    },
    /// The move the built-in bot `level` (a hall level or a `hangar sim` spec such as
    /// `ab:depth=4`) plays from the position reached, its random draws from `seed`
    /// (P-ENGINE).
    Bot {
        #[serde(flatten)]
        from: From,
        level: String,
        #[serde(default)]
        seed: Option<super::BotSeed>,
    },
}

/// Where a request starts: a position (default: the start), rule options, and plies already
/// played from it (their history counts for J-REPEAT and J-DRAW).
#[derive(Deserialize, Debug, Default)]
struct From {
    #[serde(default)]
    position: Option<String>,
    /// Options set over the position's own (those it does not name keep their value).
    #[serde(default)]
    options: Option<serde_json::Map<String, serde_json::Value>>,
    #[serde(default)]
    moves: Vec<String>,
}

/// The answer.
#[derive(Serialize, Debug)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Response {
    LegalMoves {
        position: String,
        turn: &'static str,
        moves: Vec<Move>,
        /// Legal moves refused by J-REPEAT.
        refused: Vec<Move>,
        outcome: Option<Outcome>,
    },
    Played {
        #[serde(rename = "move")]
        mv: Move,
        /// The animal captured, if any.
        captured: Option<&'static str>,
        position: String,
        turn: &'static str,
        outcome: Option<Outcome>,
        /// The moves then allowed (empty once the game is over).
        moves: Vec<Move>,
    },
    Perft {
        position: String,
        depth: u32,
        nodes: u64,
    },
    Bot {
        level: String,
        #[serde(rename = "move")]
        mv: Move,
        /// The animal the move captures, if any.
        captured: Option<&'static str>,
    },
    Error {
        error: &'static str,
        message: String,
    },
}

/// An error answer.
struct Failure {
    kind: &'static str,
    message: String,
}

fn fail(kind: &'static str, message: impl ToString) -> Failure {
    Failure {
        kind,
        message: message.to_string(),
    }
}

fn game_error_kind(e: &GameError) -> &'static str {
    match e {
        GameError::Over(_) => "game_over",
        GameError::Illegal(_) => "illegal_move",
        GameError::Repetition(_) => "repetition",
    }
}

impl From {
    fn game(&self) -> Result<Game, Failure> {
        let mut pos = match &self.position {
            None => Position::start(Rules::default()),
            Some(text) => text
                .parse::<Position>()
                .map_err(|e| fail("bad_position", e))?,
        };
        if let Some(options) = &self.options {
            let mut rules = pos.rules();
            for (key, value) in options {
                let text = match value {
                    serde_json::Value::String(text) => text.clone(),
                    other => other.to_string(),
                };
                rules
                    .set(key, &text)
                    .map_err(|e| fail("bad_request", format!("options: {e}")))?;
            }
            pos = pos.with_rules(rules);
        }
        let mut game = Game::from_position(pos);
        for (index, text) in self.moves.iter().enumerate() {
            let ply: Ply = text
                .parse()
                .map_err(|e| fail("bad_move", format!("moves[{index}]: {e}")))?;
            let result = match ply {
                Ply::Move(m) => game.play(m),
                Ply::Pass => game.pass(),
            };
            result.map_err(|e| fail(game_error_kind(&e), format!("moves[{index}]: {e}")))?;
        }
        Ok(game)
    }
}

fn answer(input: &str) -> Result<Response, Failure> {
    let request: Request = serde_json::from_str(input).map_err(|e| fail("bad_request", e))?;
    match request {
        Request::LegalMoves { from } => {
            let game = from.game()?;
            let all = game.position().legal_moves();
            let refused = if game.outcome().is_none() {
                all.iter()
                    .copied()
                    .filter(|&m| game.is_refused(m))
                    .collect()
            } else {
                Vec::new()
            };
            Ok(Response::LegalMoves {
                position: game.position().to_string(),
                turn: game.turn().name(),
                moves: game.legal_moves(),
                refused,
                outcome: game.outcome(),
            })
        }
        Request::Play { from, mv } => {
            let mut game = from.game()?;
            let m: Move = mv.parse().map_err(|e| fail("bad_move", e))?;
            let captured = game.position().piece_at(m.to).map(|p| p.role.name());
            let captured = captured.filter(|_| game.position().is_legal(m));
            game.play(m).map_err(|e| fail(game_error_kind(&e), e))?;
            Ok(Response::Played {
                mv: m,
                captured,
                position: game.position().to_string(),
                turn: game.turn().name(),
                outcome: game.outcome(),
                moves: game.legal_moves(),
            })
        }
        Request::Bot { from, level, seed } => {
            let bot: JungleBot = level.parse().map_err(|e| fail("bad_request", e))?;
            let game = from.game()?;
            if let Some(outcome) = game.outcome() {
                return Err(fail("game_over", format!("the game is over: {outcome}")));
            }
            let mut dice = Dice::new(super::BotSeed::resolve(seed));
            let mv = JunglePlayer::new(bot)
                .choose(&game, &mut dice)
                .ok_or_else(|| fail("game_over", "no move to choose"))?;
            Ok(Response::Bot {
                level,
                mv,
                captured: game.position().piece_at(mv.to).map(|p| p.role.name()),
            })
        }
        Request::Perft { from, depth } => {
            if depth > 8 {
                return Err(fail("bad_request", "perft depth is at most 8 here"));
            }
            let game = from.game()?;
            Ok(Response::Perft {
                position: game.position().to_string(),
                depth,
                nodes: perft(game.position(), depth),
            })
        }
    }
}

/// Answers the request in `input`; returns the JSON text and whether it succeeded.
pub fn respond(input: &str) -> (String, bool) {
    let (response, ok) = match answer(input) {
        Ok(r) => (r, true),
        Err(f) => (
            Response::Error {
                error: f.kind,
                message: f.message,
            },
            false,
        ),
    };
    let text = serde_json::to_string(&response).expect("responses serialize");
    (text, ok)
}

/// The error text of a request that could not be read at all (`reason` says why).
pub fn refuse(reason: String) -> String {
    serde_json::to_string(&Response::Error {
        error: "bad_request",
        message: reason,
    })
    .expect("responses serialize")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legal_moves_of_the_start() {
        let (text, ok) = respond(r#"{"type":"legal_moves"}"#);
        assert!(ok, "{text}");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["moves"].as_array().unwrap().len(), 24);
        assert_eq!(v["turn"], "red");
    }

    #[test]
    fn errors_have_a_kind() {
        for (input, kind) in [
            ("not json", "bad_request"),
            (r#"{"type":"dance"}"#, "bad_request"),
            (r#"{"type":"play","move":"e3e4"}"#, "illegal_move"),
            (r#"{"type":"play","move":"e3"}"#, "bad_move"),
            (
                r#"{"type":"legal_moves","position":"7/7 r"}"#,
                "bad_position",
            ),
            (
                r#"{"type":"legal_moves","options":{"order":"up"}}"#,
                "bad_request",
            ),
        ] {
            let (text, ok) = respond(input);
            assert!(!ok, "{input}");
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(v["type"], "error");
            assert_eq!(v["error"], kind, "{input}: {text}");
        }
    }
}
