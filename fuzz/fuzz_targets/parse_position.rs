//! Parses arbitrary text as a position: never panics, and what parses prints back to the
//! same position.

#![no_main]

use hangar_jungle::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(pos) = text.parse::<Position>() {
        let again: Position = pos.to_string().parse().expect("printed text parses");
        assert_eq!(again, pos);
    }
});
