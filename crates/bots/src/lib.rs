//! Players that choose actions: random, heuristic and search bots for both games.
//!
//! Bots depend on the rule crates only; the hall, the simulator and auto-play (托管) all call
//! them through the same functions.

pub mod flight;
pub mod jungle;
