//! The action log of a game: what each seat did, as stored before the acknowledgement
//! (P-DURABLE) and published in the record (P-RECORD).

use hangar_dice::Entropy;
use serde::{Deserialize, Serialize};

use crate::Act;

/// One entry of a game's action log and record (P-RECORD).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoggedAct {
    /// The seat that acted (or was acted for).
    pub seat: usize,
    /// What happened.
    pub action: Act,
    /// The die the server drew for a roll.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<u8>,
    /// The roller's bytes of a roll (or a booster's throw) a person made (P-FAIR-DICE);
    /// none for a roll of a hall bot, auto-play or the timer. Left out when none, so that
    /// logs written before per-roll dice read the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entropy: Option<Entropy>,
    /// Taken by a bot or auto-play.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub auto: bool,
    /// The command that asked for it, so that the command sent again after a restart is
    /// answered as a repeat instead of running twice. Kept out of published records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cmd: Option<CommandRef>,
}

/// A player's command as its client named it: the `client` string of its sign-in and the
/// command id (the scope in which repeated ids are answered once, protocol.md §2).
///
/// Stored as the pair `["client", id]`: it rides on every action a person asks for, and the
/// bytes of each action's journal row are what its write costs. The object
/// `{"client": …, "id": …}` of older logs reads too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandRef {
    /// The client string given at sign-in.
    pub client: String,
    /// The command id.
    pub id: u64,
}

impl Serialize for CommandRef {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (&self.client, self.id).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for CommandRef {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// The two forms logs hold.
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Stored {
            Pair(String, u64),
            Fields { client: String, id: u64 },
        }
        let (Stored::Pair(client, id) | Stored::Fields { client, id }) =
            Stored::deserialize(deserializer)?;
        Ok(CommandRef { client, id })
    }
}

/// Jungle timeouts allowed; the next one loses (P-JUNGLE-TIMEOUT).
pub const JUNGLE_TIMEOUTS_ALLOWED: u32 = 3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_is_stored_as_a_pair_and_the_older_object_reads_too() {
        let cmd = CommandRef {
            client: "tab-1".into(),
            id: 5,
        };
        assert_eq!(serde_json::to_string(&cmd).unwrap(), r#"["tab-1",5]"#);
        for stored in [r#"["tab-1",5]"#, r#"{"client":"tab-1","id":5}"#] {
            assert_eq!(
                serde_json::from_str::<CommandRef>(stored).unwrap(),
                cmd,
                "{stored}"
            );
        }
        assert!(serde_json::from_str::<CommandRef>(r#"["tab-1"]"#).is_err());
    }
}
