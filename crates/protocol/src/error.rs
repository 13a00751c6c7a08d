//! Errors: the code and reason of every refused command (`docs/protocol.md` §2).

use serde::{Deserialize, Serialize};

/// What went wrong, as the `code` of an `error` answer. Each code is one row of the table in
/// `docs/protocol.md` §2; a client branches on the code, never on the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, not an object, a binary frame, or a missing or invalid field.
    BadMessage,
    /// The `type` names no command of the protocol.
    UnknownType,
    /// The message is over [`MAX_MESSAGE_BYTES`](super::MAX_MESSAGE_BYTES).
    TooLarge,
    /// More messages per second than the connection's limit.
    RateLimited,
    /// The command needs a player: sign in first (`guest`, `login`, `register`, `auth`).
    Unauthenticated,
    /// The token is unknown or malformed.
    BadToken,
    /// Wrong name or password.
    BadCredentials,
    /// The account name is already registered.
    NameTaken,
    /// The hall's administrators banned this player: no sign-in is accepted.
    Banned,
    /// A value is out of range; the message says which.
    Invalid,
    /// No room has that code (or it has closed).
    NoRoom,
    /// No player has that id.
    NoPlayer,
    /// No arena has that id (P-ARENA).
    NoArena,
    /// The sender is not in that room (join or spectate first).
    NotInRoom,
    /// The seat is occupied.
    SeatTaken,
    /// Not for this player: a bot account in quick match or a public room's seat, a guest or
    /// a player with a finished game becoming a bot account (P-BOT-ACCOUNT), someone else's
    /// challenge (P-CHALLENGE).
    Forbidden,
    /// The challenged player does not take this challenge now (P-CHALLENGE): their settings
    /// (registered players only, or nobody), a block either way, or 3 challenges waiting for
    /// them already.
    ChallengeRefused,
    /// The player's score does not cover the flight table's stake (P-SCORE); the message
    /// names both ("the stake is 500 and your score is 120").
    StakeUncovered,
    /// The player already holds as many seats as one may (3, in rooms waiting or playing):
    /// leave one first.
    RoomLimit,
    /// The seat does not exist (or holds no bot to remove).
    NoSeat,
    /// Only the host may do that (add or remove bots).
    NotHost,
    /// The room has no running game.
    NotPlaying,
    /// The game has started: seats and options are fixed.
    AlreadyPlaying,
    /// Watchers act on nothing (P-SPECTATE).
    Spectator,
    /// It is another seat's turn (P-AUTH).
    NotYourTurn,
    /// The action is not legal now (P-AUTH); the message gives the reason.
    Illegal,
    /// A flight resignation before 15 turns (P-RESIGN).
    TooEarly,
    /// Leaving a running game needs `"escape": true` (P-ESCAPE).
    ConfirmEscape,
    /// A chat line too long, or chat too fast (P-CHAT).
    ChatLimit,
    /// A server fault (logged); nothing was changed.
    Internal,
    /// The hall cannot store games now (its storage is failing, `/health` says why): new
    /// games and actions are refused until it recovers; nothing was changed.
    Unavailable,
}

/// A refused command: its code and a reason for people. An error never changes anything.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct ProtoError {
    /// What kind of refusal it is.
    pub code: ErrorCode,
    /// Why, in words (for logs and for people, not for branching).
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
