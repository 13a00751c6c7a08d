//! The Python module `hangar_env._core`: the single-game cores and the vector envs. The
//! PettingZoo classes in `python/hangar_env/` wrap these.

mod bot;
mod flight;
mod jungle;
mod vector;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::env::StepError;

/// A refused action as a Python `ValueError`.
pub(crate) fn step_error(e: StepError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The extension module.
#[pymodule]
#[pyo3(name = "_core")]
fn core_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<bot::BotCore>()?;
    m.add_class::<flight::FlightCore>()?;
    m.add_class::<jungle::JungleCore>()?;
    m.add_class::<vector::FlightVector>()?;
    m.add_class::<vector::JungleVector>()?;
    m.add_function(wrap_pyfunction!(jungle::jungle_perft, m)?)?;
    m.add_function(wrap_pyfunction!(flight::flight_replay, m)?)?;
    Ok(())
}
