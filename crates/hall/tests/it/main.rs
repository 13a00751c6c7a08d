//! The integration tests of this crate in one binary (one link of the crate instead of one
//! per file); each file is a module. Tests that change something of the whole process
//! stay binaries of their own beside this one.
#![allow(clippy::unwrap_used)] // tests fail loudly

#[path = "../common/mod.rs"]
mod common;

mod abuse_connections;
mod abuse_fairness;
mod abuse_flood;
mod abuse_http;
mod abuse_lobby;
mod abuse_logins;
mod abuse_memory;
mod abuse_names;
mod abuse_private;
mod abuse_sessions;
mod abuse_tcp_cap;
mod abuse_tokens;
mod action_log;
mod bad_input;
mod challenges;
mod cluster_store;
mod disk_full;
mod fair_dice;
mod fair_identity;
mod fair_names;
mod fair_ops;
mod fair_play;
mod fair_privacy;
mod flight_game;
mod integrity;
mod items;
mod jungle_game;
mod metrics;
mod no_knot;
mod platform;
mod player_loop;
mod protocol_doc;
mod replay;
mod storage;
mod wire_types;
