//! What clients send: hall commands (identity, lists, creating and finding rooms), answered
//! by the connection itself, and room commands, each naming the room whose task answers it
//! (`docs/protocol.md` §3–§8). Every command also carries an `id`, read next to it (see
//! [`parse_command`](super::parse_command)).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{BoardOrder, BotLevel, ChallengePolicy, ChallengeSeat, GameKind, UnknownBotLevel};

/// A command the connection answers itself: identity, leaderboards, the hall list, creating a
/// room and quick match (§3, §4). Tagged by `type` like every message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HallCommand {
    /// Heartbeat; the ack carries the server's clock ([`Pong`](super::Pong)).
    Ping,
    /// Play at once as a guest named `name` (P-GUEST).
    Guest {
        /// The nickname (1–20 characters, not starting with `bot:`).
        name: String,
        /// The client's own string: repeated ids are scoped to it (§2).
        client: Option<String>,
    },
    /// Register an account; on a guest's connection the guest becomes the account
    /// (P-ACCOUNT).
    Register {
        /// The unique account name.
        name: String,
        /// 8–128 bytes, stored only as an argon2 hash.
        password: String,
        /// The client's own string (§2).
        client: Option<String>,
    },
    /// Sign in to an account from any device.
    Login {
        /// The account name.
        name: String,
        /// Its password.
        password: String,
        /// The client's own string (§2).
        client: Option<String>,
    },
    /// Come back with a saved token (after a reload or a dropped connection).
    Auth {
        /// The token of an earlier sign-in (32 hex digits).
        token: String,
        /// The client's own string (§2).
        client: Option<String>,
    },
    /// A page of a leaderboard (P-RATING): players with a finished scored game, best first.
    Leaderboard {
        /// The game whose board; absent: players of either game, by score.
        #[serde(default)]
        game: Option<GameKind>,
        /// `score` (default) or `rating` (needs a game).
        #[serde(default)]
        by: BoardOrder,
        /// How many entries to skip (default 0).
        #[serde(default)]
        offset: Option<i64>,
        /// How many entries (1–100, default 20).
        limit: Option<i64>,
        /// Whether bot accounts are listed (default true; false leaves them out).
        #[serde(default = "listed")]
        bots: bool,
    },
    /// A player's page (P-PROFILE): figures and rating history per game, recent games.
    Profile {
        /// The player.
        player_id: i64,
    },
    /// Registered players connected to the hall now, to challenge (P-CHALLENGE): names first
    /// (the asker left out).
    PlayersOnline {
        /// How many at most (1–100, default 50).
        limit: Option<usize>,
    },
    /// The signed-in player's finished games, newest first (P-RECORD).
    MyGames {
        /// How many games (1–100, default 20).
        limit: Option<i64>,
    },
    /// Follow the live list of one game's public rooms (P-HALL): a `hall` message now, then
    /// `hall_room` / `hall_room_removed` on every change.
    HallSubscribe {
        /// The game whose rooms are listed.
        game: GameKind,
    },
    /// Stop following the hall list.
    HallUnsubscribe,
    /// A page of one game's list (P-HALL), in the order of the `hall` message.
    HallPage {
        /// The game whose rooms are listed.
        game: GameKind,
        /// How many rooms to skip (default 0).
        #[serde(default)]
        offset: usize,
        /// How many rooms (1–100, default 100).
        limit: Option<usize>,
        /// Only waiting rooms with a free seat.
        #[serde(default)]
        open: bool,
    },
    /// Revoke every token of the signed-in player: each device must sign in again (this
    /// connection stays signed in until it closes).
    SignOutEverywhere,
    /// Open a room and sit in it as its host (P-ROOM).
    CreateRoom {
        /// The room's game.
        game: GameKind,
        /// A private room is left out of the hall list; others join it by code.
        #[serde(default)]
        private: bool,
        /// The room options as given (checked, completed with defaults by the room).
        #[serde(default)]
        options: Value,
    },
    /// Sit in the fullest waiting public room of a game with a free seat, or in a new one
    /// (P-QUICK).
    QuickMatch {
        /// The game to play.
        game: GameKind,
    },
    /// Make the signed-in account a bot account, for good (P-BOT-ACCOUNT): only a registered
    /// player with no finished game.
    UpgradeToBot,
    /// Challenge a named player to a game (P-CHALLENGE).
    Challenge {
        /// The challenged player's id (seat 1).
        player: i64,
        /// The game.
        game: GameKind,
        /// The room options, as in `create_room`.
        #[serde(default)]
        options: Value,
        /// Flight: the seats after the challenged player's (more challenged players or hall
        /// bots); absent: a table of two.
        #[serde(default)]
        seats: Vec<ChallengeSeat>,
    },
    /// Accept a challenge sent to the signed-in player.
    AcceptChallenge {
        /// The challenge's id.
        challenge: String,
    },
    /// Decline a challenge sent to the signed-in player: it ends for every party.
    DeclineChallenge {
        /// The challenge's id.
        challenge: String,
    },
    /// Take back a challenge the signed-in player sent.
    CancelChallenge {
        /// The challenge's id.
        challenge: String,
    },
    /// The signed-in player's challenge settings: who may challenge them and whom they
    /// blocked (P-CHALLENGE).
    ChallengeSettings,
    /// Sets who may challenge the signed-in player (P-CHALLENGE).
    SetChallengePolicy {
        /// Everyone, registered players only, or nobody.
        challenges: ChallengePolicy,
    },
    /// Blocks a player (P-CHALLENGE): no challenges either way, their chat not shown, never
    /// seated together by quick match or an arena.
    Block {
        /// The player's id.
        player: i64,
    },
    /// Takes a block back.
    Unblock {
        /// The player's id.
        player: i64,
    },
    /// The arenas upcoming, running and of the last day (P-ARENA, §11).
    Arenas,
    /// Follow an arena's table: answered with it (the top 100 and the asker's line), then
    /// `arena` messages as it changes and `arena_game` for the follower's games. A
    /// connection follows one arena at a time.
    ArenaSubscribe {
        /// The arena's id.
        arena: i64,
    },
    /// Stop following the arena.
    ArenaUnsubscribe,
    /// Take part (again): paired whenever free until the end or a withdrawal, through this
    /// connection, which follows the arena from then on. Refused once the arena is over.
    ArenaJoin {
        /// The arena's id.
        arena: i64,
    },
    /// Stop being paired; the points stay, a game being played counts.
    ArenaWithdraw {
        /// The arena's id.
        arena: i64,
    },
    /// A page of an arena's table (the final standings once it is over).
    ArenaStandings {
        /// The arena's id.
        arena: i64,
        /// Lines to skip (default 0).
        #[serde(default)]
        offset: usize,
        /// How many lines (1–100, default 100).
        limit: Option<usize>,
    },
    /// Review a finished game (P-REVIEW, §9): acknowledged at once, then `review_progress`
    /// messages while it is computed and `review_ready` with the review (at once when it is
    /// stored), or `review_failed`.
    Review {
        /// The game's id.
        game: i64,
    },
}

/// The default of `leaderboard`'s `bots`: bot accounts are listed.
fn listed() -> bool {
    true
}

/// A command for one room, answered by that room's task: its code, and what to do there.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoomCommand {
    /// The room's code (any case; codes are upper case).
    pub room: String,
    /// What to do in the room (its `type` and fields sit next to `room` on the wire).
    #[serde(flatten)]
    pub action: RoomAction,
}

/// What a room command asks of its room (§5, §7, §8).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RoomAction {
    /// Take a seat (the first free one, or `seat`), get a held seat back, or watch when no
    /// seat is free and the game runs.
    JoinRoom {
        /// The seat wanted; the first free one when absent.
        seat: Option<usize>,
        /// The last version seen: the missed events are sent instead of a snapshot.
        since: Option<u64>,
    },
    /// Watch the room (P-SPECTATE); allowed without signing in.
    Spectate {
        /// The last version seen (as in `join_room`).
        since: Option<u64>,
    },
    /// Move to another seat before the game, or sit down from watching.
    TakeSeat {
        /// The seat to take.
        seat: usize,
    },
    /// Mark the sender's seat ready or not (P-SEATS).
    Ready {
        /// Ready or not.
        ready: bool,
    },
    /// Host: put a bot of a level in an empty seat.
    AddBot {
        /// The seat.
        seat: usize,
        /// The bot's level (`docs/protocol.md` §7 lists them per game). Any name is read:
        /// one that is no level of the room's game is refused as `invalid` with the game's
        /// levels, which only the room knows.
        #[serde(with = "crate::bot_level::lenient")]
        bot: Result<BotLevel, UnknownBotLevel>,
    },
    /// In a quick-match room: no bots fill the empty seats, the seated wait for people
    /// (P-QUICK); any seated person may ask it.
    WaitForPeople,
    /// Host: take a bot out of its seat.
    RemoveBot {
        /// The bot's seat.
        seat: usize,
    },
    /// Host: free the seat of a person who is not ready (the game waits for nobody who
    /// will not play).
    Kick {
        /// The person's seat.
        seat: usize,
    },
    /// Say something: a line of text or one of the quick phrases (P-CHAT).
    Chat {
        /// 1–200 characters, no control characters.
        text: Option<String>,
        /// An index into the quick phrases.
        phrase: Option<usize>,
    },
    /// Leave the room; a seated player of a running game must confirm (P-ESCAPE).
    LeaveRoom {
        /// Leave a running game all the same, for a penalty.
        #[serde(default)]
        escape: bool,
    },
    /// Flight: roll the die (the server draws it from the game's seed and the roller's
    /// bytes, P-FAIR-DICE).
    Roll {
        /// The roller's fresh random bytes, hex (16–64 bytes, protocol.md §8). Kept as sent:
        /// the room checks it, so that a bad value is `invalid`, not a malformed message.
        #[serde(default)]
        entropy: Option<String>,
    },
    /// Move: a plane (flight) or a piece in notation (jungle).
    Move {
        /// Flight: the plane's index.
        plane: Option<usize>,
        /// Jungle: the move, e.g. `e3e4` (`move` on the wire).
        #[serde(rename = "move")]
        notation: Option<String>,
    },
    /// Flight: use an item the seat holds (F-ITEM-USE).
    UseItem {
        /// `six_die` or `booster`.
        item: String,
        /// A booster's throw is a roll: the roller's bytes, as for [`RoomAction::Roll`].
        #[serde(default)]
        entropy: Option<String>,
    },
    /// Switch auto-play for the sender's seat (P-AUTOPLAY).
    Autoplay {
        /// Whether a bot plays for the seat from now on.
        on: bool,
    },
    /// Give up the game (P-RESIGN).
    Resign,
    /// Jungle: offer a draw (P-JUNGLE-DRAW).
    OfferDraw,
    /// Jungle: accept or decline the other seat's draw offer.
    AnswerDraw {
        /// Accepted or not.
        accept: bool,
    },
}

impl RoomAction {
    /// Whether the action is a move of the game (roll, move, item): its answer is timed for
    /// the latency report.
    pub fn is_game_move(&self) -> bool {
        matches!(
            self,
            RoomAction::Roll { .. } | RoomAction::Move { .. } | RoomAction::UseItem { .. }
        )
    }
}

/// A client command of either kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Answered by the connection.
    Hall(HallCommand),
    /// Answered by the room it names.
    Room(RoomCommand),
}
