//! libFuzzer entry of the `jungle_games` target; the body and what it checks are in
//! `hangar_fuzz::jungle_games`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hangar_fuzz::jungle_games::run(data));
