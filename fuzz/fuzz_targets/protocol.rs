//! libFuzzer entry of the `protocol` target; the body and what it checks are in
//! `hangar_fuzz::protocol`.

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| hangar_fuzz::protocol::run(data));
