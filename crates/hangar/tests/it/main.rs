//! The integration tests of this crate in one binary (one link of the crate instead of one
//! per file); each file is a module. Tests that change something of the whole process
//! stay binaries of their own beside this one.
#![allow(clippy::unwrap_used)] // tests fail loudly

#[path = "../cli_common/mod.rs"]
mod cli_common;
#[path = "../hall_common/mod.rs"]
mod hall_common;

mod cli_bad_input;
mod engine_bot;
mod engine_bridge;
mod engine_match;
mod flight_play;
mod flight_rules;
mod flight_sim;
mod hall_admin;
mod hall_admin_cluster;
mod hall_admin_fair_play;
mod hall_backup;
mod hall_cluster;
mod hall_cluster_arena;
mod hall_cluster_challenge;
mod hall_crash;
mod hall_drain;
mod hall_kill;
mod hall_load;
mod jungle_cli;
mod record_cli;
mod review_cli;
mod review_hall;
mod rule_ids;
mod rules_bot;
