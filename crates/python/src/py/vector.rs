//! `FlightVector` and `JungleVector`: many games stepped per call with the GIL released,
//! writing into the caller's numpy buffers (the Python `VectorEnv` classes own them).

use numpy::{PyReadonlyArray1, PyReadwriteArrayDyn};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::flight::flight_env;
use super::jungle::jungle_env;
use crate::batch::{Batch, Buffers};
use crate::env::Env;
use crate::flight_env::FlightEnv;
use crate::jungle_env::JungleEnv;

/// The caller's buffers as borrowed from numpy.
struct Arrays<'py, O: numpy::Element> {
    obs: PyReadwriteArrayDyn<'py, O>,
    masks: PyReadwriteArrayDyn<'py, u8>,
    rewards: PyReadwriteArrayDyn<'py, f32>,
    terminated: PyReadwriteArrayDyn<'py, bool>,
    truncated: PyReadwriteArrayDyn<'py, bool>,
    to_move: PyReadwriteArrayDyn<'py, i32>,
}

fn contiguous<T>(r: Result<T, numpy::AsSliceError>) -> PyResult<T> {
    r.map_err(|_| PyValueError::new_err("buffers must be C-contiguous numpy arrays"))
}

/// Steps (or with no actions resets to `seeds`) a batch with the GIL released.
fn run<E, O: numpy::Element>(
    py: Python<'_>,
    batch: &mut Batch<E>,
    actions: Option<PyReadonlyArray1<'_, i64>>,
    seeds: Option<PyReadonlyArray1<'_, u64>>,
    mut arrays: Arrays<'_, O>,
) -> PyResult<()>
where
    E: Env<Obs = O> + Clone,
{
    let out = Buffers {
        obs: contiguous(arrays.obs.as_slice_mut())?,
        masks: contiguous(arrays.masks.as_slice_mut())?,
        rewards: contiguous(arrays.rewards.as_slice_mut())?,
        terminated: contiguous(arrays.terminated.as_slice_mut())?,
        truncated: contiguous(arrays.truncated.as_slice_mut())?,
        to_move: contiguous(arrays.to_move.as_slice_mut())?,
    };
    let result = match (actions, seeds) {
        (Some(actions), _) => {
            let actions = contiguous(actions.as_slice())?;
            py.detach(|| batch.step(actions, out))
        }
        (None, Some(seeds)) => {
            let seeds = contiguous(seeds.as_slice())?;
            py.detach(|| batch.reset(seeds, out))
        }
        (None, None) => return Err(PyValueError::new_err("give actions or seeds")),
    };
    result.map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `n` flight games stepped together (see `hangar_env.FlightVectorEnv`).
#[pyclass(module = "hangar_env._core")]
pub struct FlightVector {
    batch: Batch<FlightEnv>,
}

#[pymethods]
impl FlightVector {
    /// `len(seeds)` games for `players` players under `preset` and `options`, or each from
    /// `position` (JSON of `hangar rules flight`), on `threads` threads (0: one per core).
    #[new]
    #[pyo3(signature = (seeds, players, preset, options, threads, position=None))]
    fn new(
        seeds: Vec<u64>,
        players: Option<u8>,
        preset: Option<&str>,
        options: Vec<(String, String)>,
        threads: usize,
        position: Option<&str>,
    ) -> PyResult<Self> {
        let template = flight_env(players, preset, &options, false, position, 0)?;
        let batch = Batch::new(template, &seeds, threads).map_err(PyValueError::new_err)?;
        Ok(FlightVector { batch })
    }

    /// Resets every game from `seeds` and fills the buffers.
    #[allow(clippy::too_many_arguments)]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seeds: PyReadonlyArray1<'py, u64>,
        obs: PyReadwriteArrayDyn<'py, f32>,
        masks: PyReadwriteArrayDyn<'py, u8>,
        rewards: PyReadwriteArrayDyn<'py, f32>,
        terminated: PyReadwriteArrayDyn<'py, bool>,
        truncated: PyReadwriteArrayDyn<'py, bool>,
        to_move: PyReadwriteArrayDyn<'py, i32>,
    ) -> PyResult<()> {
        let arrays = Arrays {
            obs,
            masks,
            rewards,
            terminated,
            truncated,
            to_move,
        };
        run(py, &mut self.batch, None, Some(seeds), arrays)
    }

    /// Plays `actions[i]` in game `i` and fills the buffers; finished games start again.
    #[allow(clippy::too_many_arguments)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
        obs: PyReadwriteArrayDyn<'py, f32>,
        masks: PyReadwriteArrayDyn<'py, u8>,
        rewards: PyReadwriteArrayDyn<'py, f32>,
        terminated: PyReadwriteArrayDyn<'py, bool>,
        truncated: PyReadwriteArrayDyn<'py, bool>,
        to_move: PyReadwriteArrayDyn<'py, i32>,
    ) -> PyResult<()> {
        let arrays = Arrays {
            obs,
            masks,
            rewards,
            terminated,
            truncated,
            to_move,
        };
        run(py, &mut self.batch, Some(actions), None, arrays)
    }

    /// Number of agents (seated players) of every game.
    fn agents(&self) -> usize {
        self.batch.games().first().map_or(0, |g| g.agents())
    }

    /// The seed each game's current episode started from.
    fn seeds(&self) -> Vec<u64> {
        self.batch.games().iter().map(|g| g.seed()).collect()
    }
}

/// `n` Jungle games stepped together (see `hangar_env.JungleVectorEnv`).
#[pyclass(module = "hangar_env._core")]
pub struct JungleVector {
    batch: Batch<JungleEnv>,
}

#[pymethods]
impl JungleVector {
    /// `len(seeds)` games under the rules `options`, each starting from `position` (position
    /// text; the start position if `None`), on `threads` threads (0: one per core).
    #[new]
    #[pyo3(signature = (seeds, options, threads, position=None))]
    fn new(
        seeds: Vec<u64>,
        options: Vec<(String, String)>,
        threads: usize,
        position: Option<&str>,
    ) -> PyResult<Self> {
        let template = jungle_env(&options, position)?;
        let batch = Batch::new(template, &seeds, threads).map_err(PyValueError::new_err)?;
        Ok(JungleVector { batch })
    }

    /// Resets every game and fills the buffers.
    #[allow(clippy::too_many_arguments)]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seeds: PyReadonlyArray1<'py, u64>,
        obs: PyReadwriteArrayDyn<'py, u8>,
        masks: PyReadwriteArrayDyn<'py, u8>,
        rewards: PyReadwriteArrayDyn<'py, f32>,
        terminated: PyReadwriteArrayDyn<'py, bool>,
        truncated: PyReadwriteArrayDyn<'py, bool>,
        to_move: PyReadwriteArrayDyn<'py, i32>,
    ) -> PyResult<()> {
        let arrays = Arrays {
            obs,
            masks,
            rewards,
            terminated,
            truncated,
            to_move,
        };
        run(py, &mut self.batch, None, Some(seeds), arrays)
    }

    /// Plays `actions[i]` in game `i` and fills the buffers; finished games start again.
    #[allow(clippy::too_many_arguments)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
        obs: PyReadwriteArrayDyn<'py, u8>,
        masks: PyReadwriteArrayDyn<'py, u8>,
        rewards: PyReadwriteArrayDyn<'py, f32>,
        terminated: PyReadwriteArrayDyn<'py, bool>,
        truncated: PyReadwriteArrayDyn<'py, bool>,
        to_move: PyReadwriteArrayDyn<'py, i32>,
    ) -> PyResult<()> {
        let arrays = Arrays {
            obs,
            masks,
            rewards,
            terminated,
            truncated,
            to_move,
        };
        run(py, &mut self.batch, Some(actions), None, arrays)
    }
}
