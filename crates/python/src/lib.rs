//! Hangar's two games as reinforcement-learning environments: the Rust core of the Python
//! package `hangar_env` (issue 32, `docs/python.md`).
//!
//! The core is plain Rust and tested by `cargo test`; the Python bindings (feature `python`,
//! turned on by maturin) are thin wrappers over it.
//!
//! - [`FlightEnv`]: one game of Aeroplane Chess from an agent's side: the dice (and the item
//!   and weather draws) are sampled from the env's seed between decisions, exactly as
//!   `hangar_flight::Table` draws them, or left to the caller as chance nodes.
//! - [`JungleEnv`]: one game of Jungle with J-REPEAT and the 200-ply rule (J-DRAW).
//! - [`Env`] is what both share: fixed-size observations, action masks and rewards written
//!   into caller buffers; [`Batch`] steps many games per call across threads.

mod batch;
mod env;
mod flight_env;
mod flight_obs;
mod jungle_env;
mod jungle_obs;
#[cfg(feature = "python")]
mod py;
pub mod text;

pub use batch::{Batch, BatchError, Buffers};
pub use env::{Env, StepError};
pub use flight_env::{FLIGHT_ACTIONS, FlightEnv, FlightSettings};
pub use flight_obs::FLIGHT_OBS;
pub use jungle_env::{JUNGLE_ACTIONS, JungleEnv, action_of_move};
pub use jungle_obs::{JUNGLE_CHANNELS, JUNGLE_OBS};
