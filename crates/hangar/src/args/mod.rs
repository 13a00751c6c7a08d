//! The command line's arguments and the rule options they carry, apart from the commands
//! that run them: the dispatchers (`play.rs`, `sim.rs`) and each game's side (`flight_cli`,
//! `jungle_cli`) import from here and nothing here imports them back.

pub mod game;
pub mod play;
pub mod rules;
pub mod sim;
