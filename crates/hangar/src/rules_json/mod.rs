//! `hangar rules GAME`: each rule engine as JSON in, JSON out, one request text to one answer
//! (docs/flight-json.md, docs/jungle-json.md).

pub mod flight;
pub mod jungle;

use std::io::Read;

/// Reads the request text from standard input: bytes that are not UTF-8 are a bad request
/// like any other (answered in JSON), not a failure of the program.
pub(crate) fn read_request() -> std::io::Result<Result<String, String>> {
    let mut bytes = Vec::new();
    std::io::stdin().read_to_end(&mut bytes)?;
    Ok(String::from_utf8(bytes).map_err(|e| format!("bad request: the input is not UTF-8 ({e})")))
}
