//! The wire messages of `docs/protocol.md`: client commands in, acks, errors and events out.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

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

/// A client command (the `type`-tagged object; its `id` is read separately).
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[allow(missing_docs)] // the fields are documented in docs/protocol.md
pub enum Command {
    /// Heartbeat.
    Ping,
    /// Play as a guest.
    Guest {
        name: String,
        client: Option<String>,
    },
    /// Register an account.
    Register {
        name: String,
        password: String,
        client: Option<String>,
    },
    /// Sign in to an account.
    Login {
        name: String,
        password: String,
        client: Option<String>,
    },
    /// Come back with a token.
    Auth {
        token: String,
        client: Option<String>,
    },
    /// Best scores.
    Leaderboard { limit: Option<i64> },
    /// My finished games.
    MyGames { limit: Option<i64> },
    /// Follow the hall list of one game.
    HallSubscribe { game: GameKind },
    /// Stop following the hall list.
    HallUnsubscribe,
    /// Create a room.
    CreateRoom {
        game: GameKind,
        #[serde(default)]
        private: bool,
        #[serde(default)]
        options: Value,
    },
    /// Join by code.
    JoinRoom {
        room: String,
        seat: Option<usize>,
        since: Option<u64>,
    },
    /// Quick match.
    QuickMatch { game: GameKind },
    /// Watch a room.
    Spectate { room: String, since: Option<u64> },
    /// Take or change seat.
    TakeSeat { room: String, seat: usize },
    /// Mark ready or not.
    Ready { room: String, ready: bool },
    /// Host: put a bot in a seat.
    AddBot {
        room: String,
        seat: usize,
        bot: String,
    },
    /// Host: remove a bot.
    RemoveBot { room: String, seat: usize },
    /// Chat line or quick phrase.
    Chat {
        room: String,
        text: Option<String>,
        phrase: Option<usize>,
    },
    /// Leave the room (escape during a game).
    LeaveRoom {
        room: String,
        #[serde(default)]
        escape: bool,
    },
    /// Flight: roll the die.
    Roll { room: String },
    /// Move a plane (flight) or a piece (jungle).
    Move {
        room: String,
        plane: Option<usize>,
        #[serde(rename = "move")]
        notation: Option<String>,
    },
    /// Flight: use an item.
    UseItem { room: String, item: String },
    /// Switch auto-play.
    Autoplay { room: String, on: bool },
    /// Resign.
    Resign { room: String },
    /// Jungle: offer a draw.
    OfferDraw { room: String },
    /// Jungle: answer a draw offer.
    AnswerDraw { room: String, accept: bool },
    /// Internal (quick match): take a free seat or fail quietly. Not on the wire.
    #[serde(skip)]
    QuickJoin,
}

/// Every command type name, to tell `unknown_type` from `bad_message`.
pub const COMMAND_TYPES: &[&str] = &[
    "ping",
    "guest",
    "register",
    "login",
    "auth",
    "leaderboard",
    "my_games",
    "hall_subscribe",
    "hall_unsubscribe",
    "create_room",
    "join_room",
    "quick_match",
    "spectate",
    "take_seat",
    "ready",
    "add_bot",
    "remove_bot",
    "chat",
    "leave_room",
    "roll",
    "move",
    "use_item",
    "autoplay",
    "resign",
    "offer_draw",
    "answer_draw",
];

/// An error code of the protocol (see the table in `docs/protocol.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)] // documented in docs/protocol.md
pub enum ErrorCode {
    BadMessage,
    UnknownType,
    TooLarge,
    RateLimited,
    Unauthenticated,
    BadToken,
    BadCredentials,
    NameTaken,
    Invalid,
    NoRoom,
    NotInRoom,
    SeatTaken,
    NoSeat,
    NotHost,
    NotPlaying,
    AlreadyPlaying,
    Spectator,
    NotYourTurn,
    Illegal,
    TooEarly,
    ConfirmEscape,
    ChatLimit,
    Internal,
}

/// An error answer: a code and a human-readable reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct ProtoError {
    /// The code.
    pub code: ErrorCode,
    /// The reason.
    pub message: String,
}

impl ProtoError {
    /// An error with a code and a reason.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ProtoError {
            code,
            message: message.into(),
        }
    }
}

/// Shorthand for a command's outcome: the ack's `result` or an error.
pub type Answer = Result<Value, ProtoError>;

/// The `error` frame.
pub fn error_frame(id: Option<u64>, error: &ProtoError) -> String {
    json!({"type": "error", "id": id, "code": error.code, "message": error.message}).to_string()
}

/// The `ack` frame, written straight into one string (one per command: no map built); the
/// keys in the order a `serde_json` map writes them.
pub fn ack_frame(id: u64, result: &Value) -> String {
    let mut frame = Vec::with_capacity(48);
    frame.extend_from_slice(br#"{"id":"#);
    frame.extend_from_slice(id.to_string().as_bytes());
    frame.extend_from_slice(br#","result":"#);
    serde_json::to_writer(&mut frame, result).expect("a JSON value serialises");
    frame.extend_from_slice(br#","type":"ack"}"#);
    String::from_utf8(frame).expect("serde_json writes UTF-8")
}

/// The frame of an answer.
pub fn answer_frame(id: u64, answer: &Answer) -> String {
    match answer {
        Ok(result) => ack_frame(id, result),
        Err(error) => error_frame(Some(id), error),
    }
}

/// The `welcome` frame sent on connect.
pub fn welcome_frame() -> String {
    json!({
        "type": "welcome",
        "protocol": PROTOCOL_VERSION,
        "server": concat!("hangar ", env!("CARGO_PKG_VERSION")),
        "limits": {
            "max_message_bytes": MAX_MESSAGE_BYTES,
            "messages_per_second": MESSAGES_PER_SECOND,
            "burst": MESSAGE_BURST,
            "chat_max_chars": CHAT_MAX_CHARS,
        }
    })
    .to_string()
}

/// A well-formed message read in one pass: its id next to the command's fields.
#[derive(Deserialize)]
struct Tagged {
    id: u64,
    #[serde(flatten)]
    command: Command,
}

/// Reads one text message: its id (if any) and the command, or an error naming the id.
pub fn parse_command(text: &str) -> (Option<u64>, Result<Command, ProtoError>) {
    // Nearly every message is well formed: read it straight into the command (no
    // `serde_json::Value` tree built and read again). Anything this refuses is read again
    // below, which names the exact fault.
    if let Ok(tagged) = serde_json::from_str::<Tagged>(text)
        && tagged.id < (1 << 53)
    {
        return (Some(tagged.id), Ok(tagged.command));
    }
    parse_command_checked(text)
}

/// The careful reading of a message, step by step, for a precise error.
fn parse_command_checked(text: &str) -> (Option<u64>, Result<Command, ProtoError>) {
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => {
            return (
                None,
                Err(ProtoError::new(ErrorCode::BadMessage, e.to_string())),
            );
        }
    };
    let Some(object) = value.as_object() else {
        return (
            None,
            Err(ProtoError::new(
                ErrorCode::BadMessage,
                "a message is a JSON object",
            )),
        );
    };
    let id = object
        .get("id")
        .and_then(Value::as_u64)
        .filter(|id| *id < (1 << 53));
    let Some(kind) = object
        .get("type")
        .and_then(Value::as_str)
        .map(str::to_owned)
    else {
        return (
            id,
            Err(ProtoError::new(ErrorCode::BadMessage, "missing \"type\"")),
        );
    };
    if !COMMAND_TYPES.contains(&kind.as_str()) {
        return (
            id,
            Err(ProtoError::new(
                ErrorCode::UnknownType,
                format!("unknown message type {kind:?}"),
            )),
        );
    }
    if id.is_none() {
        return (
            None,
            Err(ProtoError::new(
                ErrorCode::BadMessage,
                "missing or invalid \"id\" (an integer 0 ≤ id < 2^53)",
            )),
        );
    }
    let command = serde_json::from_value(value)
        .map_err(|e| ProtoError::new(ErrorCode::BadMessage, format!("{kind}: {e}")));
    (id, command)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_and_errors_name_the_id() {
        let (id, cmd) = parse_command(r#"{"type":"roll","id":7,"room":"ABC"}"#);
        assert_eq!(id, Some(7));
        assert!(matches!(cmd, Ok(Command::Roll { room }) if room == "ABC"));

        let (id, cmd) = parse_command(r#"{"type":"fly_away","id":8}"#);
        assert_eq!(id, Some(8));
        assert_eq!(cmd.unwrap_err().code, ErrorCode::UnknownType);

        let (id, cmd) = parse_command(r#"{"type":"roll","id":9}"#);
        assert_eq!(id, Some(9));
        assert_eq!(cmd.unwrap_err().code, ErrorCode::BadMessage);

        let (id, cmd) = parse_command("{not json");
        assert_eq!(id, None);
        assert_eq!(cmd.unwrap_err().code, ErrorCode::BadMessage);

        let (_, cmd) = parse_command(r#"{"type":"move","id":1,"room":"R","move":"e3e4"}"#);
        assert!(matches!(cmd, Ok(Command::Move { notation: Some(n), .. }) if n == "e3e4"));
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
            r#"{"type":"chat","id":10,"room":"ABCD","text":"héllo "you""}"#,
            r#"{"type":"answer_draw","id":11,"room":"ABCD","accept":false}"#,
            r#"{"type":"leaderboard","id":12}"#,
            // Refused ones: the careful reading names the fault.
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
            assert_eq!(format!("{fast:?}"), format!("{careful:?}"), "{text}");
        }
        let (id, command) = parse_command(r#"{"type":"roll","id":9007199254740992,"room":"R"}"#);
        assert_eq!(id, None);
        assert_eq!(command.unwrap_err().code, ErrorCode::BadMessage);
        let (id, command) = parse_command(r#"{"type":"ready","id":13,"room":"R","ready":"yes"}"#);
        assert_eq!(id, Some(13));
        assert_eq!(command.unwrap_err().code, ErrorCode::BadMessage);
    }

    #[test]
    fn an_ack_frame_is_the_json_of_its_fields() {
        let result = json!({"value": 6, "name": "a \"quoted\" word"});
        let frame = ack_frame(42, &result);
        let read: Value = serde_json::from_str(&frame).unwrap();
        assert_eq!(read, json!({"type": "ack", "id": 42, "result": result}));
        assert_eq!(
            frame,
            json!({"type": "ack", "id": 42, "result": result}).to_string()
        );
    }
}
