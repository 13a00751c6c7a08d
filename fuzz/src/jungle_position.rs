//! Jungle position text: arbitrary text never panics the parser, and what parses prints back
//! to the same position.

use hangar_jungle::Position;

/// Runs the target on the fuzzer's bytes.
pub fn run(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(pos) = text.parse::<Position>() {
        let again: Position = pos.to_string().parse().expect("printed text parses");
        assert_eq!(again, pos);
    }
}
