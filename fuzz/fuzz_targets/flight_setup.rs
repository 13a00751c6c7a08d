//! libFuzzer entry of the `flight_setup` target; the body and what it checks are in
//! `hangar_fuzz::flight_setup`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hangar_fuzz::flight_setup::run(data));
