//! `Bot`: the hall's own bots as agents of the Python environments (`hangar_env.bot`).

use hangar_bots::flight::{FlightBot, parse_bot};
use hangar_bots::jungle::JungleBot;
use hangar_dice::{Dice, Seed};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::flight::FlightCore;
use super::jungle::JungleCore;

/// The bot of one game.
enum Player {
    Flight(Box<dyn FlightBot>),
    Jungle(JungleBot),
}

/// A built-in bot of `hangar sim` and the hall (a level such as `random`, `heuristic`,
/// `hard`, `easy`, `normal`, or a bot spec such as `ab:depth=6`), playing the game a core
/// holds. Its randomness comes from its own seed, so a game between bots is replayable.
#[pyclass(module = "hangar_env._core")]
pub struct BotCore {
    player: Player,
    rng: Dice,
}

#[pymethods]
impl BotCore {
    /// The bot `spec` of `game` (`flight` or `jungle`); ValueError for an unknown one.
    #[new]
    fn new(game: &str, spec: &str, seed: u64) -> PyResult<Self> {
        let bad = |e: &dyn std::fmt::Display| PyValueError::new_err(e.to_string());
        let player = match game {
            "flight" => Player::Flight(parse_bot(spec).map_err(|e| bad(&e))?),
            "jungle" => Player::Jungle(spec.parse().map_err(|e| bad(&e))?),
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown game {other:?} (flight or jungle)"
                )));
            }
        };
        Ok(BotCore {
            player,
            rng: Dice::new(Seed::from_u64(seed)),
        })
    }

    /// The action the bot plays in `core`'s game (a `FlightCore` or `JungleCore` of its
    /// game), or None when no agent acts there (a chance node, the game over).
    fn act(&mut self, core: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        match &self.player {
            Player::Flight(bot) => {
                let core = core.cast::<FlightCore>()?.borrow();
                Ok(core.env().bot_action(bot.as_ref(), &mut self.rng))
            }
            Player::Jungle(bot) => {
                let core = core.cast::<JungleCore>()?.borrow();
                Ok(core.env().bot_action(bot, &mut self.rng))
            }
        }
    }
}
