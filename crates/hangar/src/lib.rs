//! The library half of the `hangar` command: what code outside the binary calls without
//! starting a process. Today that is the `hangar rules` JSON answers, which the fuzz targets
//! (`fuzz/`) feed arbitrary text.

pub mod rules_json;
