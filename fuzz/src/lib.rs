//! The bodies of Hangar's fuzz targets, one module per target. Each takes the fuzzer's bytes
//! and panics only when an invariant breaks. The libFuzzer binaries in `fuzz_targets/` are one
//! call each into this library (fuzz/README.md), and `tests/corpus.rs` runs every body over a
//! fixed corpus in each `cargo test`, so the targets build and run with the workspace.

pub mod flight_setup;
pub mod jungle_games;
pub mod jungle_position;
pub mod protocol;
pub mod rules_json;
