//! The integration tests of this crate in one binary (one link of the crate instead of one
//! per file); each file is a module. Tests that change something of the whole process
//! stay binaries of their own beside this one.
#![allow(clippy::unwrap_used)] // tests fail loudly

#[path = "../common/mod.rs"]
mod common;

mod game_end;
mod movegen_agrees;
mod perft_start;
mod position_checks;
mod rules_captures;
mod rules_moves;
