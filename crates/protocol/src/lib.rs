//! The wire protocol of `docs/protocol.md`, one type per message: what clients send
//! ([`HallCommand`], [`RoomCommand`]), the answers ([`Answer`] with an [`Ack`] or an error),
//! what rooms and the hall list send ([`RoomMessage`], [`RoomEvent`], [`HallMessage`]), what
//! the asker of a review is sent ([`ReviewMessage`]) and the greeting ([`Welcome`]). Every family is a serde enum tagged by `type` (room events by
//! `kind`), and `crates/hall/tests/it/protocol_doc.rs` reads every example of the document as its type.

mod answer;
mod arena;
mod bot_level;
mod challenge;
mod command;
mod error;
mod hall;
mod options;
mod parse;
mod player;
mod profile;
mod review;
mod room;
mod welcome;

use serde::{Deserialize, Serialize};

pub use answer::{
    Ack, Answer, Authed, Challenged, Done, HallPage, Joined, Leaderboard, Matched, MyGames, Pong,
    Profile, Rolled, Seated, SignedIn, Upgraded, Watching,
};
pub use arena::{
    ArenaLine, ArenaMark, ArenaMessage, ArenaStatus, ArenaSummary, ArenaTable, Arenas,
};
pub use bot_level::{BotLevel, UnknownBotLevel};
pub use challenge::{
    Challenge, ChallengeEnd, ChallengeMessage, ChallengePolicy, ChallengeSeat, ChallengeSettings,
};
pub use command::{Command, HallCommand, RoomAction, RoomCommand};
pub use error::{ErrorCode, ProtoError};
pub use hall::{HallMessage, RoomSummary, SummarySeat};
pub use options::{Bounds, FlightCatalogue, JungleCatalogue, OptionsCatalogue};
pub use parse::{name_variants, names_variant, parse_command, peek_id, variant_names};
pub use player::{PlayerView, RatingChange, RatingView};
pub use profile::{
    BoardOrder, BotRecord, GamePlayer, GameStats, GameSummary, OnlinePlayer, PlayersOnline, Ranked,
    RatingPoint,
};
pub use review::{ReviewMessage, ReviewState};
pub use room::{
    AutoplayReason, ChatLine, EndReason, GameEvent, GameResult, OutReason, PassReason, ResultLine,
    RoomEvent, RoomMessage, RoomState, RoomStatus, SeatView, TurnNeed, TurnView,
};
pub use welcome::{Limits, Welcome};

/// Protocol version announced in `welcome`.
pub const PROTOCOL_VERSION: u32 = 1;
/// Largest accepted message, in bytes.
pub const MAX_MESSAGE_BYTES: usize = 4096;
/// Messages per second allowed per connection (sustained).
pub const MESSAGES_PER_SECOND: u32 = 20;
/// Burst of messages allowed per connection.
pub const MESSAGE_BURST: u32 = 40;
/// Largest chat line, in characters.
pub const CHAT_MAX_CHARS: usize = 200;

/// The two games of the hall.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    /// Aeroplane Chess (飞行棋).
    Flight,
    /// Jungle (斗兽棋).
    Jungle,
}

impl GameKind {
    /// The wire name.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Flight => "flight",
            GameKind::Jungle => "jungle",
        }
    }

    /// Parses a wire name.
    pub fn from_name(name: &str) -> Option<GameKind> {
        match name {
            "flight" => Some(GameKind::Flight),
            "jungle" => Some(GameKind::Jungle),
            _ => None,
        }
    }
}

/// Anything the server sends a client: the four families of messages, told apart by their
/// `type` (each family's types are its own).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ServerMessage {
    /// The answer to a command (`ack`, `error`).
    Answer(Answer),
    /// A room's `snapshot` or `event`.
    Room(RoomMessage),
    /// A message of the hall list.
    Hall(HallMessage),
    /// A message of a followed arena (`arena`, `arena_game`).
    Arena(ArenaMessage),
    /// The greeting on connect.
    Welcome(Welcome),
    /// A challenge for the receiver, its room, or its end (P-CHALLENGE).
    Challenge(ChallengeMessage),
    /// Where a review the connection asked for stands, the review, or why none (P-REVIEW).
    Review(ReviewMessage),
}

/// A command's outcome: the ack's result, or the error that refused it.
pub type Outcome = Result<Ack, ProtoError>;

/// The `error` frame.
pub fn error_frame(id: Option<u64>, error: &ProtoError) -> String {
    Answer::error(id, error).to_text()
}

/// The frame of a command's outcome.
pub fn answer_frame(id: u64, outcome: &Outcome) -> String {
    Answer::new(id, outcome).to_text()
}

/// The `welcome` frame sent on connect.
pub fn welcome_frame() -> String {
    serde_json::to_string(&Welcome::now()).expect("the welcome serialises")
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::parse::parse_command_checked;
    use super::*;

    fn room(text: &str) -> RoomCommand {
        match parse_command(text) {
            (_, Ok(Command::Room(command))) => command,
            other => panic!("{text} → {other:?}"),
        }
    }

    #[test]
    fn commands_parse_and_errors_name_the_id() {
        let (id, cmd) = parse_command(r#"{"type":"roll","id":7,"room":"ABC"}"#);
        assert_eq!(id, Some(7));
        assert_eq!(
            cmd,
            Ok(Command::Room(RoomCommand {
                room: "ABC".into(),
                action: RoomAction::Roll { entropy: None }
            }))
        );
        // P-FAIR-DICE: the bytes are carried as sent; the room judges them (`invalid`).
        let (_, cmd) = parse_command(r#"{"type":"roll","id":7,"room":"ABC","entropy":"f0"}"#);
        assert_eq!(
            cmd,
            Ok(Command::Room(RoomCommand {
                room: "ABC".into(),
                action: RoomAction::Roll {
                    entropy: Some("f0".into())
                }
            }))
        );

        let (id, cmd) = parse_command(r#"{"type":"fly_away","id":8}"#);
        assert_eq!(id, Some(8));
        assert_eq!(cmd.unwrap_err().code, ErrorCode::UnknownType);

        let (id, cmd) = parse_command(r#"{"type":"roll","id":9}"#);
        assert_eq!(id, Some(9));
        assert_eq!(cmd.unwrap_err().code, ErrorCode::BadMessage);

        let (id, cmd) = parse_command("{not json");
        assert_eq!(id, None);
        assert_eq!(cmd.unwrap_err().code, ErrorCode::BadMessage);

        let command = room(r#"{"type":"move","id":1,"room":"R","move":"e3e4"}"#);
        assert!(
            matches!(command.action, RoomAction::Move { notation: Some(n), .. } if n == "e3e4")
        );

        let (_, cmd) = parse_command(r#"{"type":"ping","id":2}"#);
        assert_eq!(cmd, Ok(Command::Hall(HallCommand::Ping)));
    }

    #[test]
    fn the_enums_tell_known_types_from_unknown_ones() {
        assert!(names_variant::<HallCommand>("type", "quick_match"));
        assert!(names_variant::<RoomAction>("type", "answer_draw"));
        assert!(!names_variant::<HallCommand>("type", "roll"));
        assert!(!names_variant::<RoomAction>("type", "ping"));
        assert!(variant_names::<RoomAction>("type").contains(&"use_item"));
        assert_eq!(variant_names::<HallCommand>("type").len(), 31);
        assert!(variant_names::<RoomEvent>("kind").contains(&"game_over"));
        assert_eq!(name_variants::<ErrorCode>().len(), 31);
        assert!(name_variants::<ErrorCode>().contains(&"stake_uncovered"));
        assert!(name_variants::<ErrorCode>().contains(&"banned"));
        assert!(name_variants::<ErrorCode>().contains(&"confirm_escape"));
    }

    #[test]
    fn the_one_pass_reading_gives_what_the_careful_one_gives() {
        let messages = [
            r#"{"type":"ping","id":1}"#,
            r#"{"id":2,"type":"hall_unsubscribe"}"#,
            r#"{"type":"guest","id":3,"name":"ann","client":"tab-1"}"#,
            r#"{"type":"create_room","id":4,"game":"flight","private":true,"options":{"seats":4,"x":[1.5,null]}}"#,
            r#"{"type":"join_room","id":5,"room":"ABCD","seat":2,"since":17}"#,
            r#"{"type":"roll","id":6,"room":"ABCD","extra":"ignored"}"#,
            r#"{"type":"move","id":7,"room":"ABCD","plane":3}"#,
            r#"{"type":"move","id":8,"room":"ABCD","move":"e3e4"}"#,
            r#"{"type":"leave_room","id":9,"room":"ABCD"}"#,
            r#"{"type":"chat","id":10,"room":"ABCD","text":"héllo \"you\""}"#,
            r#"{"type":"answer_draw","id":11,"room":"ABCD","accept":false}"#,
            r#"{"type":"leaderboard","id":12}"#,
            r#"{"id":14,"room":"R","type":"roll","entropy":"00112233445566778899aabbccddeeff"}"#,
            r#"{"id":15,"type" : "roll","room":"R"}"#,
            // Refused ones: the careful reading names the fault.
            r#"{"type":19,"id":16,"room":"R"}"#,
            r#"{"id":17,"type" : 19,"room":"R"}"#,
            r#"{"id":18,"\u0074ype":19,"room":"R"}"#,
            r#"{"id":19,"type":19,"room":"R","x":{"type":"answer_draw"}}"#,
            r#"{"type":"roll","id":9007199254740992,"room":"R"}"#,
            r#"{"type":"roll","id":1.0,"room":"R"}"#,
            r#"{"type":"roll","id":1,"room":"R","room":"S"}"#,
            r#"{"type":"roll","room":"R"}"#,
            r#"{"type":"ready","id":13,"room":"R","ready":"yes"}"#,
            r#"[1,2]"#,
        ];
        for text in messages {
            let (fast_id, fast) = parse_command(text);
            let (id, careful) = parse_command_checked(text);
            assert_eq!(fast_id, id, "{text}");
            assert_eq!(fast, careful, "{text}");
        }
        let (id, command) = parse_command(r#"{"type":"roll","id":9007199254740992,"room":"R"}"#);
        assert_eq!(id, None);
        assert_eq!(command.unwrap_err().code, ErrorCode::BadMessage);
        // A number is no `type`, however the message is written (the command enums alone
        // would take it as the index of a variant).
        for text in [
            r#"{"type":19,"id":16,"room":"R"}"#,
            r#"{"id":17,"type" : 19,"room":"R"}"#,
            r#"{"id":18,"\u0074ype":19,"room":"R"}"#,
            r#"{"id":19,"type":19,"room":"R","x":{"type":"answer_draw"}}"#,
        ] {
            let (_, command) = parse_command(text);
            assert_eq!(command.unwrap_err().code, ErrorCode::BadMessage, "{text}");
        }
        let (id, command) = parse_command(r#"{"type":"ready","id":13,"room":"R","ready":"yes"}"#);
        assert_eq!(id, Some(13));
        assert_eq!(command.unwrap_err().code, ErrorCode::BadMessage);
    }

    #[test]
    fn an_ack_frame_is_the_json_of_its_fields() {
        let frame = answer_frame(42, &Ok(Ack::Rolled(Rolled { value: 6 })));
        let read: Value = serde_json::from_str(&frame).unwrap();
        assert_eq!(
            read,
            json!({"type": "ack", "id": 42, "result": {"value": 6}})
        );
        let frame = answer_frame(43, &Ok(Ack::DONE));
        let read: Value = serde_json::from_str(&frame).unwrap();
        assert_eq!(read, json!({"type": "ack", "id": 43, "result": {}}));
        let error = ProtoError::new(ErrorCode::NotYourTurn, "it is seat 2's turn");
        let read: Value = serde_json::from_str(&error_frame(None, &error)).unwrap();
        assert_eq!(
            read,
            json!({"type": "error", "id": null, "code": "not_your_turn", "message": "it is seat 2's turn"})
        );
    }
}
