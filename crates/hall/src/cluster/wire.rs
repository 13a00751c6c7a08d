//! What nodes send each other over NATS: subjects and message bodies.
//!
//! Commands for a room travel to its owner as JSON (request/reply); the frames the owner's
//! room sends a connection of another node travel as the frames themselves, one message per
//! batch, behind a one-line header naming the connection — no re-encoding of what is already
//! the client's JSON.

use serde::{Deserialize, Serialize};

use crate::accounts::Player;
use crate::outbox::ConnId;
use crate::protocol::{GameKind, RoomSummary};
use crate::room::Order;

/// Commands for the rooms a node owns (request/reply).
pub fn room_subject(node: &str) -> String {
    format!("hangar.node.{node}.room")
}

/// Connections of another node that leave the rooms a node owns.
pub fn detach_subject(node: &str) -> String {
    format!("hangar.node.{node}.detach")
}

/// Frames for a node's connections, from rooms of other nodes.
pub fn frames_subject(node: &str) -> String {
    format!("hangar.node.{node}.frames")
}

/// Changes of the hall list, from every node.
pub const LISTING_SUBJECT: &str = "hangar.hall.listing";

/// A node that starts asks the others for their lists.
pub const HELLO_SUBJECT: &str = "hangar.hall.hello";

/// A node is gone (its rooms were taken over): forget its lists and stand-ins.
pub const GONE_SUBJECT: &str = "hangar.node.gone";

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
    /// The node of the sender's connection.
    pub from: String,
    /// The sender's connection on that node.
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
    /// The node of the connection.
    pub from: String,
    /// The connection.
    pub conn: ConnId,
    /// The room it leaves; all of this node's rooms when absent.
    pub code: Option<String>,
}

/// A change of one room in the hall list.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ListingChange {
    /// The node that owns the room.
    pub node: String,
    /// The room's code.
    pub code: String,
    /// The game.
    pub game: GameKind,
    /// The room as listed; `None`: it left the list.
    pub summary: Option<RoomSummary>,
    /// Free seats.
    pub free_seats: usize,
    /// Taken seats (people and bots).
    pub taken_seats: usize,
    /// The people seated.
    pub players: Vec<i64>,
}

/// The body of a frames message: a header line (`CONN` or `CONN close CODE`), then the frames,
/// one per line (compact JSON holds no raw newline).
pub fn encode_frames(conn: ConnId, frames: &[&str]) -> Vec<u8> {
    let mut body = Vec::with_capacity(24 + frames.iter().map(|f| f.len() + 1).sum::<usize>());
    body.extend_from_slice(conn.to_string().as_bytes());
    for frame in frames {
        body.push(b'\n');
        body.extend_from_slice(frame.as_bytes());
    }
    body
}

/// The body of a message that closes a connection with `code`.
pub fn encode_close(conn: ConnId, code: u16) -> Vec<u8> {
    format!("{conn} close {code}").into_bytes()
}

/// What a frames message carries.
#[derive(Debug, PartialEq, Eq)]
pub enum Delivery<'a> {
    /// Frames for a connection, in order.
    Frames(ConnId, Vec<&'a str>),
    /// Close the connection with this code.
    Close(ConnId, u16),
}

/// Reads a frames message; `None` if it is not one.
pub fn decode(body: &[u8]) -> Option<Delivery<'_>> {
    let text = std::str::from_utf8(body).ok()?;
    let mut lines = text.split('\n');
    let header = lines.next()?;
    let mut words = header.split(' ');
    let conn: ConnId = words.next()?.parse().ok()?;
    match (words.next(), words.next()) {
        (None, _) => Some(Delivery::Frames(conn, lines.collect())),
        (Some("close"), Some(code)) => Some(Delivery::Close(conn, code.parse().ok()?)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_travel_as_they_are_and_come_back_in_order() {
        let body = encode_frames(7, &[r#"{"type":"ack","id":1}"#, r#"{"type":"event"}"#]);
        assert_eq!(
            decode(&body),
            Some(Delivery::Frames(
                7,
                vec![r#"{"type":"ack","id":1}"#, r#"{"type":"event"}"#]
            ))
        );
        assert_eq!(
            decode(&encode_close(9, 1012)),
            Some(Delivery::Close(9, 1012))
        );
        assert_eq!(decode(b"x"), None);
    }
}
