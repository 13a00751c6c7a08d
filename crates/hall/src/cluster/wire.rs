//! What nodes tell each other over NATS besides their links (see [`link`](super::link)): the
//! subjects everyone hears, and the bodies of commands, answers and detaches.

use serde::{Deserialize, Serialize};

use crate::accounts::Player;
use crate::outbox::ConnId;
use crate::room::Order;

/// Changes of the hall list, from every node.
pub const LISTING_SUBJECT: &str = "hangar.hall.listing";

/// A node that starts asks the others for their lists.
pub const HELLO_SUBJECT: &str = "hangar.hall.hello";

/// A node is gone (its rooms were taken over): forget its lists and stand-ins.
pub const GONE_SUBJECT: &str = "hangar.node.gone";

/// A player signed out everywhere (or was banned): every node closes their connections.
pub const SIGNED_OUT_SUBJECT: &str = "hangar.player.signed_out";

/// A player as it travels with a command (the owner node does not look it up again).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WirePlayer {
    /// Database id.
    pub id: i64,
    /// Display name.
    pub name: String,
    /// Whether a guest.
    pub guest: bool,
    /// Score when the command was sent.
    pub score: i64,
}

impl From<&Player> for WirePlayer {
    fn from(p: &Player) -> Self {
        WirePlayer {
            id: p.id,
            name: p.name.clone(),
            guest: p.guest,
            score: p.score,
        }
    }
}

impl From<WirePlayer> for Player {
    fn from(p: WirePlayer) -> Self {
        Player {
            id: p.id,
            name: p.name,
            guest: p.guest,
            score: p.score,
        }
    }
}

/// A command for a room of another node.
#[derive(Debug, Serialize, Deserialize)]
pub struct RemoteCommand {
    /// The room's code.
    pub code: String,
    /// The sender's connection on the sending node.
    pub conn: ConnId,
    /// The signed-in player, if any.
    pub player: Option<WirePlayer>,
    /// The client string of the sign-in, if any.
    pub client: Option<String>,
    /// The command's id.
    pub id: u64,
    /// What to do.
    pub order: Order,
}

/// The owner's answer to a [`RemoteCommand`].
#[derive(Debug, Serialize, Deserialize)]
pub enum RemoteAnswer {
    /// The room answered with this frame (already sent to the connection with its events).
    Answered {
        /// The answer frame.
        frame: String,
    },
    /// No such room on that node (closed, or moved).
    NoRoom,
    /// The node is stopping (drained or fenced): nothing was done.
    Unavailable,
}

/// A connection of another node leaves one room (`code`) or all of them.
#[derive(Debug, Serialize, Deserialize)]
pub struct Detach {
    /// The connection (of the sending node).
    pub conn: ConnId,
    /// The room it leaves; all of this node's rooms when absent.
    pub code: Option<String>,
}
