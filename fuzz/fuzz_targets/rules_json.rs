//! libFuzzer entry of the `rules_json` target; the body and what it checks are in
//! `hangar_fuzz::rules_json`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hangar_fuzz::rules_json::run(data));
