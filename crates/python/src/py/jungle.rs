//! `JungleCore`: one Jungle game for the PettingZoo env.

use hangar_jungle::{Position, Rules, Square, perft};
use numpy::{PyArray1, PyArray3, PyArrayMethods, ToPyArray};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::step_error;
use crate::env::Env;
use crate::jungle_env::{JUNGLE_ACTIONS, JungleEnv, action_of_move};
use crate::jungle_obs::{JUNGLE_CHANNELS, JUNGLE_OBS};
use crate::text::jungle_text;

/// Jungle's rules from (key, value) options (`order`, `elephant_takes_rat`, `leopard_leaps`).
fn parse_rules(options: &[(String, String)]) -> PyResult<Rules> {
    let mut rules = Rules::default();
    for (key, value) in options {
        rules
            .set(&key.replace('_', "-"), value)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    Ok(rules)
}

/// A Jungle env under the rules `options`, starting every game from `position` (position
/// text; the start position if `None`).
pub(crate) fn jungle_env(
    options: &[(String, String)],
    position: Option<&str>,
) -> PyResult<JungleEnv> {
    let rules = parse_rules(options)?;
    Ok(match position {
        Some(text) => {
            let position: Position =
                text.parse()
                    .map_err(|e: hangar_jungle::ParsePositionError| {
                        PyValueError::new_err(e.to_string())
                    })?;
            JungleEnv::from_position(position.with_rules(rules), 0)
        }
        None => JungleEnv::new(rules, 0),
    })
}

/// One game of Jungle: agent 0 red (moves first), agent 1 yellow.
#[pyclass(module = "hangar_env._core")]
pub struct JungleCore {
    env: JungleEnv,
}

impl JungleCore {
    /// The game.
    pub(crate) fn env(&self) -> &JungleEnv {
        &self.env
    }
}

#[pymethods]
impl JungleCore {
    /// A game under the rules `options` (key, value), or from `position` (position text).
    #[new]
    #[pyo3(signature = (options, position=None))]
    fn new(options: Vec<(String, String)>, position: Option<&str>) -> PyResult<Self> {
        Ok(JungleCore {
            env: jungle_env(&options, position)?,
        })
    }

    /// Number of actions.
    #[classattr]
    const ACTIONS: usize = JUNGLE_ACTIONS;

    /// Starts a new game from the start position.
    fn reset(&mut self, seed: u64) {
        self.env.reset(seed);
    }

    /// Plays `action` for the agent to move (ValueError if the mask forbids it); whether the
    /// game is now over (won, or drawn by J-DRAW).
    fn step(&mut self, action: usize) -> PyResult<bool> {
        self.env.step(action).map_err(step_error)?;
        Ok(self.env.terminated() || self.env.truncated())
    }

    /// `agent`'s observation and action mask in one call (the AEC env's `observe`): the mask
    /// is all zeros unless `agent` is to move in a game that goes on.
    #[allow(clippy::type_complexity)]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        agent: usize,
    ) -> PyResult<(Bound<'py, PyArray3<u8>>, Bound<'py, PyArray1<i8>>)> {
        let mut out = vec![0u8; JUNGLE_OBS];
        self.env.observe(agent, &mut out);
        let mut mask = [0u8; JUNGLE_ACTIONS];
        if agent == self.env.to_move() && !self.env.terminated() && !self.env.truncated() {
            self.env.mask(&mut mask);
        }
        let obs = out.to_pyarray(py).reshape([9, 7, JUNGLE_CHANNELS])?;
        Ok((obs, mask.map(|b| b as i8).to_pyarray(py)))
    }

    /// The observation from `agent`'s side (uint8, 9 × 7 × 16).
    fn observe<'py>(&self, py: Python<'py>, agent: usize) -> PyResult<Bound<'py, PyArray3<u8>>> {
        let mut out = vec![0u8; JUNGLE_OBS];
        self.env.observe(agent, &mut out);
        out.to_pyarray(py).reshape([9, 7, JUNGLE_CHANNELS])
    }

    /// The action mask of the agent to move (int8, `ACTIONS`).
    fn mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut out = [0u8; JUNGLE_ACTIONS];
        self.env.mask(&mut out);
        out.map(|b| b as i8).to_pyarray(py)
    }

    /// The agent to move.
    fn to_move(&self) -> usize {
        self.env.to_move()
    }

    /// Whether a side won.
    fn terminated(&self) -> bool {
        self.env.terminated()
    }

    /// Whether the game was drawn by 200 plies without a capture (J-DRAW).
    fn truncated(&self) -> bool {
        self.env.truncated()
    }

    /// +1 / −1 for a win, 0 otherwise.
    fn rewards(&self) -> Vec<f32> {
        let mut out = vec![0.0; 2];
        self.env.rewards(&mut out);
        out
    }

    /// The allowed moves in notation (`e3e4`) with their actions.
    fn legal_moves(&self) -> Vec<(String, usize)> {
        let turn = self.env.game().turn();
        self.env
            .legal_moves()
            .iter()
            .map(|&m| (m.to_string(), action_of_move(m, turn)))
            .collect()
    }

    /// Plies since the last capture (the game is drawn at 200).
    fn quiet_plies(&self) -> usize {
        self.env.game().quiet_plies()
    }

    /// The position text (`hangar` notation).
    fn position(&self) -> String {
        self.env.game().position().to_string()
    }

    /// The piece letter on each square, a1 first, rank by rank (`.` for none).
    fn board(&self) -> String {
        let position = self.env.game().position();
        Square::ALL
            .iter()
            .map(|&sq| position.piece_at(sq).map_or('.', |p| p.char()))
            .collect()
    }

    /// A copy of this game (for search and perft through the Python API).
    fn copy(&self) -> JungleCore {
        JungleCore {
            env: self.env.clone(),
        }
    }

    /// The board as text.
    fn text(&self) -> String {
        jungle_text(self.env.game().position())
    }
}

/// The engine's perft (`hangar perft`) of a position text to `depth`.
#[pyfunction]
pub fn jungle_perft(position: &str, depth: u32) -> PyResult<u64> {
    let position: Position = position
        .parse()
        .map_err(|e: hangar_jungle::ParsePositionError| PyValueError::new_err(e.to_string()))?;
    Ok(perft(&position, depth))
}
