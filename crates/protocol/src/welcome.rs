//! The first message of every connection (§3).

use serde::{Deserialize, Serialize};

use super::{
    CHAT_MAX_CHARS, MAX_MESSAGE_BYTES, MESSAGE_BURST, MESSAGES_PER_SECOND, PROTOCOL_VERSION,
};

/// What the server says on connect: the protocol version and the limits it enforces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "welcome")]
pub struct Welcome {
    /// The protocol version ([`PROTOCOL_VERSION`]).
    pub protocol: u32,
    /// The server's name and version.
    pub server: String,
    /// The limits of §1.
    pub limits: Limits,
}

/// The limits a connection must keep to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// The largest message, in bytes (larger: `too_large`).
    pub max_message_bytes: usize,
    /// Messages per second, sustained (more: `rate_limited`).
    pub messages_per_second: u32,
    /// Messages allowed at once above the sustained rate.
    pub burst: u32,
    /// The longest chat line, in characters.
    pub chat_max_chars: usize,
}

impl Welcome {
    /// This server's welcome.
    pub fn now() -> Welcome {
        Welcome {
            protocol: PROTOCOL_VERSION,
            server: concat!("hangar ", env!("CARGO_PKG_VERSION")).to_owned(),
            limits: Limits {
                max_message_bytes: MAX_MESSAGE_BYTES,
                messages_per_second: MESSAGES_PER_SECOND,
                burst: MESSAGE_BURST,
                chat_max_chars: CHAT_MAX_CHARS,
            },
        }
    }
}
