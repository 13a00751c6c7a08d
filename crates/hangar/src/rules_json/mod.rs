//! `hangar rules GAME`: each rule engine as JSON in, JSON out, one request text to one answer
//! (docs/flight-json.md, docs/jungle-json.md).

pub mod flight;
pub mod jungle;
