//! `FlightCore`: one flight game for the PettingZoo env.

use hangar_flight::{Colour, Game, Options, Preset, Record};
use numpy::{PyArray1, ToPyArray};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::step_error;
use crate::env::Env;
use crate::flight_env::{FLIGHT_ACTIONS, FlightEnv, FlightSettings};
use crate::flight_obs::FLIGHT_OBS;
use crate::text::flight_text;

/// The options of a preset (default traditional) with `key=value` options applied in order,
/// as `hangar sim --rules … --option …` reads them.
pub(crate) fn parse_options(
    preset: Option<&str>,
    options: &[(String, String)],
) -> PyResult<Options> {
    let mut parsed = match preset {
        Some(name) => name
            .parse::<Preset>()
            .map_err(|e| PyValueError::new_err(e.to_string()))?
            .options(),
        None => Options::traditional(),
    };
    for (key, value) in options {
        parsed
            .set(key, value)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    }
    Ok(parsed)
}

/// The settings of a flight env from Python's arguments.
pub(crate) fn settings(
    players: u8,
    preset: Option<&str>,
    options: &[(String, String)],
    explicit_chance: bool,
) -> PyResult<FlightSettings> {
    Ok(FlightSettings {
        options: parse_options(preset, options)?,
        players,
        explicit_chance,
    })
}

/// A flight env: a new game for `players` (default 4) under `preset` and `options`, or,
/// with `position` (the JSON position of `hangar rules flight`, docs/flight-json.md), every
/// game from that position under its own options.
pub(crate) fn flight_env(
    players: Option<u8>,
    preset: Option<&str>,
    options: &[(String, String)],
    explicit_chance: bool,
    position: Option<&str>,
    seed: u64,
) -> PyResult<FlightEnv> {
    let Some(text) = position else {
        let settings = settings(players.unwrap_or(4), preset, options, explicit_chance)?;
        return FlightEnv::new(settings, seed).map_err(PyValueError::new_err);
    };
    if preset.is_some() || !options.is_empty() {
        return Err(PyValueError::new_err(
            "a position carries its own rule options (its \"options\" field): give no preset or options with it",
        ));
    }
    let game: Game = serde_json::from_str(text)
        .map_err(|e| PyValueError::new_err(format!("bad flight position: {e}")))?;
    if let Some(n) = players
        && usize::from(n) != game.player_count()
    {
        return Err(PyValueError::new_err(format!(
            "players={n}, but the position seats {}",
            game.player_count()
        )));
    }
    FlightEnv::from_position(game, explicit_chance, seed).map_err(PyValueError::new_err)
}

/// One game of Aeroplane Chess: agents are numbered in joining order; colours are drawn
/// from the seed (F-D-SEATS).
#[pyclass(module = "hangar_env._core")]
pub struct FlightCore {
    env: FlightEnv,
}

impl FlightCore {
    /// The game.
    pub(crate) fn env(&self) -> &FlightEnv {
        &self.env
    }
}

#[pymethods]
impl FlightCore {
    /// A game for `players` players (default 4) under `preset` with `options` (key, value)
    /// applied, or every game from `position` (JSON of `hangar rules flight`).
    #[new]
    #[pyo3(signature = (players, preset, options, explicit_chance, seed, position=None))]
    fn new(
        players: Option<u8>,
        preset: Option<&str>,
        options: Vec<(String, String)>,
        explicit_chance: bool,
        seed: u64,
        position: Option<&str>,
    ) -> PyResult<Self> {
        let env = flight_env(players, preset, &options, explicit_chance, position, seed)?;
        Ok(FlightCore { env })
    }

    /// Number of agents (seated players).
    fn agents(&self) -> usize {
        self.env.agents()
    }

    /// Length of an observation.
    #[classattr]
    const OBS_LEN: usize = FLIGHT_OBS;
    /// Number of actions.
    #[classattr]
    const ACTIONS: usize = FLIGHT_ACTIONS;

    /// Starts a new game from `seed`.
    fn reset(&mut self, seed: u64) {
        self.env.reset(seed);
    }

    /// Plays `action` for the agent to move (ValueError if the mask forbids it); whether the
    /// game is now over.
    fn step(&mut self, action: usize) -> PyResult<bool> {
        self.env.step(action).map_err(step_error)?;
        Ok(self.env.terminated())
    }

    /// The observation from `agent`'s side (float32, `OBS_LEN`).
    fn observe<'py>(&self, py: Python<'py>, agent: usize) -> Bound<'py, PyArray1<f32>> {
        let mut out = [0f32; FLIGHT_OBS];
        self.env.observe(agent, &mut out);
        out.to_pyarray(py)
    }

    /// `agent`'s observation and action mask in one call (the AEC env's `observe`): the mask
    /// is all zeros unless `agent` is to move in a game that goes on.
    #[allow(clippy::type_complexity)]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        agent: usize,
    ) -> (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<i8>>) {
        let mut out = [0f32; FLIGHT_OBS];
        self.env.observe(agent, &mut out);
        let mut mask = [0u8; FLIGHT_ACTIONS];
        if agent == self.env.to_move() && !self.env.terminated() {
            self.env.mask(&mut mask);
        }
        (out.to_pyarray(py), mask.map(|b| b as i8).to_pyarray(py))
    }

    /// The action mask of the agent to move (int8, `ACTIONS`).
    fn mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut out = [0u8; FLIGHT_ACTIONS];
        self.env.mask(&mut out);
        out.map(|b| b as i8).to_pyarray(py)
    }

    /// The agent to move.
    fn to_move(&self) -> usize {
        self.env.to_move()
    }

    /// Whether the game is over.
    fn terminated(&self) -> bool {
        self.env.terminated()
    }

    /// Each agent's reward by rank once the game is over (0 before).
    fn rewards(&self) -> Vec<f32> {
        let mut out = vec![0.0; self.env.agents()];
        self.env.rewards(&mut out);
        out
    }

    /// Whether a chance outcome is awaited (explicit chance only).
    fn is_chance_node(&self) -> bool {
        self.env.is_chance_node()
    }

    /// The awaited chance event's outcomes and probabilities.
    fn chance_outcomes(&self) -> Vec<(u32, f64)> {
        self.env.chance_outcomes()
    }

    /// Settles the awaited chance event (a die value 1–6 or a draw index).
    fn apply_chance(&mut self, outcome: u32) -> PyResult<()> {
        self.env.apply_chance(outcome).map_err(step_error)
    }

    /// The planes the engine lists for the pending roll (`Game::legal_moves`).
    fn legal_planes(&self) -> Vec<usize> {
        self.env
            .legal_planes()
            .into_iter()
            .map(usize::from)
            .collect()
    }

    /// The colour name of each agent.
    fn colours(&self) -> Vec<&'static str> {
        (0..self.env.agents())
            .map(|a| self.env.colour(a).name())
            .collect()
    }

    /// Progress of each colour's planes (red, yellow, blue, green; -1 hangar; empty for an
    /// empty seat).
    fn planes(&self) -> Vec<Vec<i16>> {
        Colour::ALL
            .iter()
            .map(|&c| {
                self.env
                    .game()
                    .planes(c)
                    .iter()
                    .map(|p| p.to_i16())
                    .collect()
            })
            .collect()
    }

    /// The colour name on turn.
    fn turn(&self) -> &'static str {
        self.env.game().turn().name()
    }

    /// The game so far as a `Record` in JSON (what `hangar replay` reads); ValueError for a
    /// game started from a position.
    fn record_json(&self) -> PyResult<String> {
        self.env.record_json().ok_or_else(|| {
            PyValueError::new_err(
                "a game started from a position has no record: a record replays a new game from its seed",
            )
        })
    }

    /// The current position as the engine's JSON (`Setup`).
    fn game_json(&self) -> PyResult<String> {
        serde_json::to_string(self.env.game()).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The game as text.
    fn text(&self) -> String {
        flight_text(&self.env)
    }
}

/// Replays a flight `Record` (JSON) with the engine's `Table` and returns the final position
/// as the engine's JSON, to check an env's game against the engine.
#[pyfunction]
pub fn flight_replay(record_json: &str) -> PyResult<String> {
    let record: Record =
        serde_json::from_str(record_json).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let table = record
        .replay(&mut hangar_flight::NoEvents)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    serde_json::to_string(table.game()).map_err(|e| PyValueError::new_err(e.to_string()))
}
