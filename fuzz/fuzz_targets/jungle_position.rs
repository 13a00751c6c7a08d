//! libFuzzer entry of the `jungle_position` target; the body and what it checks are in
//! `hangar_fuzz::jungle_position`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hangar_fuzz::jungle_position::run(data));
