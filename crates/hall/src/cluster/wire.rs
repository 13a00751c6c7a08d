//! Everything one node sends another, as one serde enum ([`NodeMessage`]) encoded as
//! MessagePack: the records of the links between nodes (see [`link`](super::link)) and what
//! every node hears (hall list changes, hellos, sign-outs, nodes gone).
//!
//! MessagePack (`rmp-serde`), not postcard or bincode: the records carry the protocol's own
//! types — internally tagged and untagged enums, JSON option values — which only a
//! self-describing format reads back. Strings carry their length, so a frame may hold any
//! character (the former text records rested on "no newline in a frame").

use axum::extract::ws::Utf8Bytes;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::accounts::Player;
use crate::arena::ArenaOrder;
use crate::challenges::ChallengeEvent;
use crate::outbox::ConnId;
use crate::peers::ListingChange;
use crate::room::Order;
use hangar_protocol::Outcome;

/// Changes of the hall list, from every node.
pub const LISTING_SUBJECT: &str = "hangar.hall.listing";

/// A node that starts asks the others for their lists.
pub const HELLO_SUBJECT: &str = "hangar.hall.hello";

/// A node is gone (its rooms were taken over): forget its lists and stand-ins.
pub const GONE_SUBJECT: &str = "hangar.node.gone";

/// A player signed out everywhere (or was banned): every node closes their connections.
pub const SIGNED_OUT_SUBJECT: &str = "hangar.player.signed_out";

/// An open challenge changed (P-CHALLENGE): every node keeps a copy of every one.
pub const CHALLENGE_SUBJECT: &str = "hangar.challenge";

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
    /// A bot account (P-BOT-ACCOUNT).
    #[serde(default)]
    pub bot: bool,
}

impl From<&Player> for WirePlayer {
    fn from(p: &Player) -> Self {
        WirePlayer {
            id: p.id,
            name: p.name.clone(),
            guest: p.guest,
            score: p.score,
            bot: p.bot,
        }
    }
}

impl From<WirePlayer> for Player {
    fn from(p: WirePlayer) -> Self {
        Player {
            id: p.id,
            name: p.name,
            guest: p.guest,
            bot: p.bot,
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

/// A command for an arena the receiving node runs (P-ARENA).
#[derive(Debug, Serialize, Deserialize)]
pub struct ArenaCommand {
    /// The arena.
    pub arena: i64,
    /// The sender's connection on the sending node.
    pub conn: ConnId,
    /// The signed-in player, if any.
    pub player: Option<WirePlayer>,
    /// The command's id.
    pub id: u64,
    /// What to do.
    pub order: ArenaOrder,
}

/// The owner's answer to a [`RemoteCommand`] or an [`ArenaCommand`].
#[derive(Debug, Serialize, Deserialize)]
pub enum RemoteAnswer {
    /// The room answered (the frame is already sent to the connection with its events).
    Answered {
        /// What the command did, typed.
        outcome: Outcome,
        /// The answer frame as the room sent it.
        frame: String,
    },
    /// What an arena command did (the asker's node writes the answer frame).
    Arena(Outcome),
    /// No such room (or arena) on that node (closed, or moved).
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

/// One thing a node sends another on its link, in order with the rest.
#[derive(Debug, Serialize, Deserialize)]
pub enum Record {
    /// A command for a room of the receiving node.
    Command(RemoteCommand),
    /// A command for an arena of the receiving node.
    Arena(ArenaCommand),
    /// The answer to command `id` of connection `conn`.
    Answer {
        /// The connection that sent the command.
        conn: ConnId,
        /// The command's id.
        id: u64,
        /// What the room said.
        answer: RemoteAnswer,
    },
    /// Frames for a connection, in order.
    Frames {
        /// The connection.
        conn: ConnId,
        /// The frames.
        #[serde(serialize_with = "frames_out", deserialize_with = "frames_in")]
        frames: Vec<Utf8Bytes>,
    },
    /// Close a connection with this code.
    Close {
        /// The connection.
        conn: ConnId,
        /// The WebSocket close code.
        code: u16,
    },
    /// A connection leaves rooms of the receiving node.
    Detach(Detach),
}

/// Everything a node sends another: on its link (the receiver's inbox subject) or on a
/// subject every node hears.
#[derive(Debug, Serialize, Deserialize)]
pub enum NodeMessage {
    /// What node `from` sends this one on their link: records, in order.
    Link {
        /// The sending node.
        from: String,
        /// What it sends.
        records: Vec<Record>,
    },
    /// A room changed in the hall list ([`LISTING_SUBJECT`]).
    Listing(ListingChange),
    /// Node `from` starts and asks the others for their lists ([`HELLO_SUBJECT`]).
    Hello {
        /// The node that starts.
        from: String,
    },
    /// Node `node` is gone, its rooms taken over ([`GONE_SUBJECT`]).
    Gone {
        /// The node gone.
        node: String,
    },
    /// An open challenge changed on node `from` ([`CHALLENGE_SUBJECT`]).
    Challenge {
        /// The node where it changed (its own copy and parties are done).
        from: String,
        /// The change.
        event: ChallengeEvent,
    },
    /// `player` signed out everywhere (or was banned) on node `from` ([`SIGNED_OUT_SUBJECT`]).
    SignedOut {
        /// The node where it happened (it closed its own connections).
        from: String,
        /// The player.
        player: i64,
    },
}

impl NodeMessage {
    /// The message's bytes.
    pub fn encode(&self) -> Vec<u8> {
        rmp_serde::to_vec_named(self).expect("a node message serialises")
    }

    /// Reads a message; nothing of a broken one is used.
    pub fn decode(body: &[u8]) -> Result<NodeMessage, rmp_serde::decode::Error> {
        rmp_serde::from_slice(body)
    }
}

/// Frames are written as the strings they are, with no copy.
fn frames_out<S: Serializer>(frames: &[Utf8Bytes], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(frames.iter().map(Utf8Bytes::as_str))
}

/// Frames read as strings become frames without a copy.
fn frames_in<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Utf8Bytes>, D::Error> {
    let frames = Vec::<String>::deserialize(deserializer)?;
    Ok(frames.into_iter().map(Utf8Bytes::from).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hangar_protocol::{Ack, ErrorCode, GameKind, ProtoError, RoomAction, RoomSummary};

    fn round_trip(message: &NodeMessage) -> NodeMessage {
        NodeMessage::decode(&message.encode()).expect("a message reads back")
    }

    #[test]
    fn a_link_message_of_every_record_kind_reads_back_as_written() {
        let message = NodeMessage::Link {
            from: "n1".into(),
            records: vec![
                Record::Command(RemoteCommand {
                    code: "K7QX2M".into(),
                    conn: 3,
                    player: None,
                    client: Some("tab".into()),
                    id: 9,
                    order: Order::Command(RoomAction::Roll { entropy: None }),
                }),
                Record::Frames {
                    conn: 3,
                    frames: vec![
                        Utf8Bytes::from_static(r#"{"type":"ack","id":9,"result":{}}"#),
                        // A frame may hold a newline: the length frames it, not the text.
                        Utf8Bytes::from_static("{\"type\":\"event\",\n\"v\":4}"),
                    ],
                },
                Record::Answer {
                    conn: 3,
                    id: 9,
                    answer: RemoteAnswer::Answered {
                        outcome: Ok(Ack::DONE),
                        frame: r#"{"type":"ack","id":9,"result":{}}"#.into(),
                    },
                },
                Record::Answer {
                    conn: 3,
                    id: 10,
                    answer: RemoteAnswer::Answered {
                        outcome: Err(ProtoError::new(ErrorCode::NotYourTurn, "wait")),
                        frame: "{}".into(),
                    },
                },
                Record::Answer {
                    conn: 3,
                    id: 11,
                    answer: RemoteAnswer::NoRoom,
                },
                Record::Close {
                    conn: 4,
                    code: 1012,
                },
                Record::Detach(Detach {
                    conn: 5,
                    code: None,
                }),
            ],
        };
        assert_eq!(
            format!("{:?}", round_trip(&message)),
            format!("{message:?}")
        );
    }

    #[test]
    fn every_message_of_the_subjects_everyone_hears_reads_back_as_written() {
        let messages = [
            NodeMessage::Listing(ListingChange {
                node: "n1".into(),
                code: "K7QX2M".into(),
                game: GameKind::Jungle,
                summary: None::<RoomSummary>,
                free_seats: 1,
                taken_seats: 1,
                players: vec![7],
            }),
            NodeMessage::Hello { from: "n2".into() },
            NodeMessage::Gone { node: "n3".into() },
            NodeMessage::SignedOut {
                from: "n1".into(),
                player: 42,
            },
            NodeMessage::Challenge {
                from: "n1".into(),
                event: ChallengeEvent::Ended {
                    id: "9f3c".into(),
                    reason: hangar_protocol::ChallengeEnd::Declined,
                    by: Some(Player {
                        id: 42,
                        name: "deep".into(),
                        guest: false,
                        bot: true,
                        score: 1000,
                    }),
                },
            },
            NodeMessage::Challenge {
                from: "n2".into(),
                event: ChallengeEvent::Roomed {
                    id: "9f3c".into(),
                    room: "K7QX2M".into(),
                },
            },
        ];
        for message in &messages {
            assert_eq!(format!("{:?}", round_trip(message)), format!("{message:?}"));
        }
    }

    #[test]
    fn an_opened_challenge_reads_back_with_its_seats_and_options() {
        use crate::challenges::OpenChallenge;
        use hangar_protocol::ChallengeSeat;
        use serde_json::json;
        let player = |id: i64, name: &str| Player {
            id,
            name: name.into(),
            guest: false,
            bot: id == 57,
            score: 1000,
        };
        let seats = vec![
            ChallengeSeat::Player { player: 57 },
            ChallengeSeat::Bot {
                bot: "random".parse(),
            },
        ];
        let challenge = OpenChallenge {
            id: "9f3c".into(),
            from: player(17, "ana"),
            to: vec![(1, player(42, "bo")), (2, player(57, "cy"))],
            game: GameKind::Flight,
            options: json!({"seats": 4, "preset": "improved"}),
            shown_options: json!({"seats": 4, "stake": 100}),
            seats: seats.clone(),
            bots: vec![(3, hangar_protocol::BotLevel::Random)],
            accepted: [57].into(),
            deadline: tokio::time::Instant::now(),
        };
        let message = NodeMessage::Challenge {
            from: "n1".into(),
            event: ChallengeEvent::Opened {
                challenge: Box::new(challenge),
                left_ms: 58_000,
            },
        };
        let NodeMessage::Challenge {
            event: ChallengeEvent::Opened { challenge, left_ms },
            ..
        } = round_trip(&message)
        else {
            panic!("not an opened challenge");
        };
        assert_eq!(left_ms, 58_000);
        assert_eq!(challenge.seats, seats);
        assert_eq!(challenge.options, json!({"seats": 4, "preset": "improved"}));
        assert_eq!(challenge.to[1], (2, player(57, "cy")));
        assert_eq!(challenge.bots, vec![(3, hangar_protocol::BotLevel::Random)]);
        assert!(challenge.accepted.contains(&57));
    }

    #[test]
    fn a_broken_or_cut_message_is_refused_whole() {
        let body = NodeMessage::Hello { from: "n2".into() }.encode();
        assert!(NodeMessage::decode(&body[..body.len() - 1]).is_err());
        assert!(NodeMessage::decode(b"n1\nQ\n{}").is_err());
        assert!(NodeMessage::decode(&[]).is_err());
    }
}
