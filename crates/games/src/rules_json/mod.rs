//! The rule engines as JSON in, JSON out: one request text to one answer (`hangar rules GAME`,
//! docs/flight-json.md, docs/jungle-json.md).

pub mod flight;
pub mod jungle;
