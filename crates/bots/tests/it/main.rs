//! The integration tests of this crate in one binary (one link of the crate instead of one
//! per file); each file is a module. Tests that change something of the whole process
//! stay binaries of their own beside this one.
#![allow(clippy::unwrap_used)] // tests fail loudly

mod flight_bots;
mod flight_net;
mod jungle_bots;
mod levels;
