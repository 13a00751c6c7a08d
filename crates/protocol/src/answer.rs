//! Answers: exactly one `ack` or `error` per command, with the command's `id` (§2). An ack's
//! `result` is one of the typed values of [`Ack`], each command answering with its own.

use serde::{Deserialize, Serialize};

use super::{ArenaTable, Arenas, GameStats, GameSummary, PlayersOnline, Ranked, RoomSummary};
use super::{ErrorCode, Outcome, ProtoError};
use crate::{Challenge, ChallengeSettings, PlayerView};

/// The answer to one command: an `ack` with its result, or an `error`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Answer {
    /// The command was carried out.
    Ack {
        /// The command's id.
        id: u64,
        /// What the command gives back.
        result: Ack,
        /// Present (true) when the id was answered before and this is that answer again.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        repeat: bool,
    },
    /// The command was refused and changed nothing.
    Error {
        /// The command's id; null when the message could not be read far enough to tell.
        id: Option<u64>,
        /// What kind of refusal.
        code: ErrorCode,
        /// Why, in words.
        message: String,
        /// Present (true) when the id was answered before and this is that answer again.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        repeat: bool,
    },
}

impl Answer {
    /// The answer frame of a command's outcome.
    pub fn new(id: u64, outcome: &Result<Ack, ProtoError>) -> Answer {
        match outcome {
            Ok(result) => Answer::Ack {
                id,
                result: result.clone(),
                repeat: false,
            },
            Err(error) => Answer::error(Some(id), error),
        }
    }

    /// The `error` answer of `error`.
    pub fn error(id: Option<u64>, error: &ProtoError) -> Answer {
        Answer::Error {
            id,
            code: error.code,
            message: error.message.clone(),
            repeat: false,
        }
    }

    /// The same answer, marked as given before (a repeated id, §2).
    pub fn repeated(mut self) -> Answer {
        match &mut self {
            Answer::Ack { repeat, .. } | Answer::Error { repeat, .. } => *repeat = true,
        }
        self
    }

    /// The frame's text.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("an answer serialises")
    }

    /// The id of the command answered (`None` for an error about an unreadable message).
    pub fn id(&self) -> Option<u64> {
        match self {
            Answer::Ack { id, .. } => Some(*id),
            Answer::Error { id, .. } => *id,
        }
    }

    /// The typed outcome this answer gives.
    pub fn into_outcome(self) -> Outcome {
        match self {
            Answer::Ack { result, .. } => Ok(result),
            Answer::Error { code, message, .. } => Err(ProtoError::new(code, message)),
        }
    }
}

/// The `result` of an ack. Each command answers with one of these shapes (the protocol test
/// checks the pairs against the examples of `docs/protocol.md`); on the wire the result is
/// the bare object, so every shape is told apart by its fields alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Ack {
    /// `ping`: the server's clock.
    Pong(Pong),
    /// `guest`, `register`, `login`: the token to keep and the player.
    SignedIn(SignedIn),
    /// `auth`: the player and the rooms where it holds a seat.
    Authed(Authed),
    /// `leaderboard`: the best players.
    Leaderboard(Leaderboard),
    /// `my_games`: the player's finished games.
    MyGames(MyGames),
    /// `profile`: a player's figures per game and recent games.
    Profile(Profile),
    /// `upgrade_to_bot`: the player, now a bot account.
    Upgraded(Upgraded),
    /// `challenge`: the challenge as sent to the challenged.
    Challenged(Box<Challenged>),
    /// `challenge_settings`, `set_challenge_policy`, `block`, `unblock`: who may challenge
    /// the player and whom they blocked.
    ChallengeSettings(ChallengeSettings),
    /// `players_online`: registered players connected now.
    PlayersOnline(PlayersOnline),
    /// `hall_page`: a page of a game's rooms.
    HallPage(HallPage),
    /// `create_room`, `join_room`, `quick_match` into a new room: the room and the seat
    /// taken (`null`: watching).
    Joined(Joined),
    /// `quick_match` into a waiting room: the room and the free seat taken there.
    Matched(Matched),
    /// `take_seat`: the seat now held.
    Seated(Seated),
    /// `spectate`: the room now watched.
    Watching(Watching),
    /// `roll`, `use_item`: the value the die gave.
    Rolled(Rolled),
    /// `arenas`: the arenas listed (P-ARENA).
    Arenas(Arenas),
    /// `arena_subscribe`, `arena_standings`: an arena's table (boxed: it is the largest
    /// shape by far, and every outcome would carry its size).
    ArenaTable(Box<ArenaTable>),
    /// Every other command: nothing to give back (`{}`).
    Done(Done),
}

/// The result of `ping`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pong {
    /// The server's clock, Unix milliseconds.
    pub time: i64,
}

/// The result of a sign-in that issues a token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignedIn {
    /// The token that brings this identity back (`auth`); the server keeps only its hash.
    pub token: String,
    /// Who is signed in, with score and level.
    pub player: PlayerView,
}

/// The result of `auth`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Authed {
    /// Who is signed in, with score and level.
    pub player: PlayerView,
    /// Codes of the rooms where the player holds a seat, to rejoin them.
    pub rooms: Vec<String>,
}

/// The result of `upgrade_to_bot` (P-BOT-ACCOUNT).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Upgraded {
    /// The player, now marked `bot`.
    pub player: PlayerView,
}

/// The result of `challenge` (P-CHALLENGE).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Challenged {
    /// The challenge, open now.
    pub challenge: Challenge,
}

/// The result of `leaderboard`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Leaderboard {
    /// Best first, from the page's offset.
    pub entries: Vec<Ranked>,
}

/// The result of `hall_page` (P-HALL).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HallPage {
    /// The rooms of the page.
    pub rooms: Vec<RoomSummary>,
    /// How many rooms match in all.
    pub total: usize,
}

/// The result of `profile` (P-PROFILE).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// The player, with score and level.
    pub player: PlayerView,
    /// One entry per game the player has finished.
    pub stats: Vec<GameStats>,
    /// The player's last finished games, newest first.
    pub recent: Vec<GameSummary>,
}

/// The result of `my_games`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MyGames {
    /// Newest first.
    pub games: Vec<GameSummary>,
}

/// The result of entering a room by `create_room`, `join_room` or a quick match that opened
/// a room.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Joined {
    /// The room's code.
    pub room: String,
    /// The seat held; `null` when the joiner watches instead (no free seat, game running).
    pub seat: Option<usize>,
    /// Whether the missed events follow (a `since` that the room could serve) rather than a
    /// snapshot.
    pub resumed: bool,
    /// The room's version when answered. The snapshot or missed events that follow the answer
    /// reach it; a client offers its player a decision only once it has seen this version (a
    /// picture from before a reconnection is not played on).
    pub v: u64,
}

/// The result of a quick match that found a waiting room.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Matched {
    /// The room's code.
    pub room: String,
    /// The free seat taken.
    pub seat: usize,
    /// Always false: the room existed (a new room answers with [`Joined`]).
    pub created: bool,
}

/// The result of `take_seat`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seated {
    /// The room's code.
    pub room: String,
    /// The seat now held.
    pub seat: usize,
}

/// The result of `spectate`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Watching {
    /// The room's code.
    pub room: String,
}

/// The result of a roll (or an item that throws or gives the die).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rolled {
    /// The die's value, 1–6.
    pub value: u8,
}

/// The empty result `{}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Done {}

impl Ack {
    /// The empty result `{}`.
    pub const DONE: Ack = Ack::Done(Done {});
}
