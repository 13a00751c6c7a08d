//! The Hangar hall: the online server for Aeroplane Chess (飞行棋) and Jungle (斗兽棋).
//!
//! Accounts and guests, the live hall, rooms (one owner task each), timers, auto-play,
//! scoring, persistence in SQLite or PostgreSQL, and the WebSocket protocol of
//! `docs/protocol.md`. Start it with [`server::start`] and [`server::Running::serve`].

pub mod accounts;
pub mod admin;
pub mod answers;
pub mod api_limit;
mod api_reply;
pub mod arena;
mod arena_api;
pub mod challenge_news;
pub mod challenges;
pub mod cluster;
pub mod config;
mod game_access;
pub mod game_cache;
pub mod hall;
pub mod http;
pub mod latency;
pub mod metrics;
pub mod names;
pub mod new_identities;
pub mod outbox;
pub mod peers;
pub mod review;
mod review_api;
mod review_request;
pub mod room;
pub mod server;
pub mod sessions;
pub mod slots;
pub mod stakes;
pub mod static_files;
pub mod store;
pub mod time;
mod token_bucket;
mod ws;

pub use config::{Config, DEFAULT_BROADCAST_DELAY, FairPlay, Limits, find_web_dir};
pub use http::app;
pub use server::{Running, shutdown_signal, start};
pub use store::Store;
