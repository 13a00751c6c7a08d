//! The hall's reading of a client message: arbitrary text never panics
//! [`parse_command`], a refused message names its fault, and an accepted one carries an id
//! the client can match (0 ≤ id < 2^53, docs/protocol.md).

use hangar_protocol::parse_command;

/// Runs the target on the fuzzer's bytes.
pub fn run(data: &[u8]) {
    // The WebSocket layer only hands over text frames, so only UTF-8 reaches the parser.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (id, command) = parse_command(text);
    if let Some(id) = id {
        assert!(
            id < 1 << 53,
            "id {id} is beyond what JavaScript holds exactly"
        );
    }
    match command {
        Ok(_) => assert!(
            id.is_some(),
            "a command was accepted without its id: {text:?}"
        ),
        Err(error) => assert!(!error.message.is_empty(), "{text:?} refused unnamed"),
    }
}
