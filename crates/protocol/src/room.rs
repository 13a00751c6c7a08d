//! What a room tells its members (§5): the `snapshot` of the whole room and the versioned
//! `event`s that change it. The hall's own events are [`RoomEvent`]s; the moves of a game are
//! written by the game itself and carried as they are ([`GameEvent`] describes them).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{BotLevel, GameKind};
use crate::PlayerView;
use crate::RatingChange;

/// A message of a room to its members.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RoomMessage {
    /// The whole room at version `v`: sent on joining, and instead of the missed events when
    /// a resume asks for more than the room kept.
    Snapshot {
        /// The room's code.
        room: String,
        /// The version the state is at (the number of events so far).
        v: u64,
        /// The room.
        state: Box<RoomState>,
    },
    /// One change, taking the room from version `v − 1` to `v`. (The room writes this frame
    /// straight into one buffer around the event's text, with these keys: see `Room::emit`.)
    Event {
        /// The room's code.
        room: String,
        /// The version this event makes.
        v: u64,
        /// What changed: a [`RoomEvent`] or a [`GameEvent`], tagged by `kind`.
        event: Value,
    },
}

/// Whether a room waits for its players or plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoomStatus {
    /// Seats fill and get ready; also between games.
    Waiting,
    /// A game runs.
    Playing,
}

/// The whole room, as a snapshot shows it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RoomState {
    /// The room's code.
    pub code: String,
    /// The room's game. (This key was once also named `game`, next to the view below; a JSON
    /// reader kept only the view.)
    pub game_kind: GameKind,
    /// Left out of the hall list.
    pub private: bool,
    /// The game (running, or the next) is a practice game: a bot sits in it, and nobody's
    /// score or rating changes (P-PRACTICE).
    pub practice: bool,
    /// The host's player id (adds and removes bots), if a person sits.
    pub host: Option<i64>,
    /// Every option of the room, completed with defaults.
    pub options: Value,
    /// Waiting or playing.
    pub status: RoomStatus,
    /// One entry per seat, in seat order.
    pub seats: Vec<SeatView>,
    /// How many connections watch without a seat.
    pub spectators: usize,
    /// SHA-256 (hex) of the running game's dice seed (P-FAIR-DICE); null without a game.
    pub commitment: Option<String>,
    /// The last game's seed once it has ended; null while a game runs.
    pub seed: Option<String>,
    /// The decision awaited and its deadline; null without a game.
    pub turn: Option<TurnView>,
    /// The running game's whole view (`docs/protocol.md` §6), written by the game; null
    /// without a game.
    pub game: Option<Value>,
    /// The last chat lines, oldest first.
    pub chat: Vec<ChatLine>,
    /// The last game's result, until the next one starts.
    pub result: Option<GameResult>,
    /// A quick-match room: when bots fill the empty seats (Unix ms, as the last `quick_bots`
    /// event said); absent when none are coming.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quick_bots_at: Option<i64>,
}

/// One seat of a room.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SeatView {
    /// The seat's index.
    pub seat: usize,
    /// The person sitting there, with score and level; null for a bot or an empty seat.
    pub player: Option<PlayerView>,
    /// The level of the bot sitting there; null for a person or an empty seat.
    pub bot: Option<BotLevel>,
    /// Marked ready (bots always are).
    pub ready: bool,
    /// The seat's colour in the running game; null without a game.
    pub colour: Option<Value>,
    /// A bot plays for the seat (P-AUTOPLAY).
    pub autoplay: bool,
    /// The seat's player has a connection in the room (bots always do).
    pub connected: bool,
    /// End of a disconnected player's grace (P-DISCONNECT), Unix ms.
    pub away_until: Option<i64>,
    /// Why the seat's player left the running game, if it did.
    pub out: Option<OutReason>,
}

/// The decision a room awaits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnView {
    /// The seat that decides.
    pub seat: usize,
    /// What it must do.
    pub need: TurnNeed,
    /// When the timer runs out (P-TIMER), Unix ms.
    pub deadline: i64,
    /// The room's time per decision.
    pub seconds: u64,
}

/// What a seat on turn must do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnNeed {
    /// Flight: roll the die (or use an item).
    Roll,
    /// Move a plane (flight) or a piece (jungle).
    Move,
    /// Flight: a chance draw (an item, the weather) the hall makes for the game. The hall
    /// settles each at once, so no `turn` names it; kept so that every phase has a name.
    Draw,
}

/// Why a player left a running game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutReason {
    /// Resigned (P-RESIGN).
    Resigned,
    /// Left on purpose (P-ESCAPE).
    Escaped,
    /// Gone longer than the reconnection grace (P-DISCONNECT).
    Disconnected,
    /// Too many timeouts (P-JUNGLE-TIMEOUT).
    Timeouts,
}

impl OutReason {
    /// The wire name.
    pub fn name(self) -> &'static str {
        match self {
            OutReason::Resigned => "resigned",
            OutReason::Escaped => "escaped",
            OutReason::Disconnected => "disconnected",
            OutReason::Timeouts => "timeouts",
        }
    }
}

/// Why a game ended: a game result's `reason`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Flight: the winners brought their planes home.
    Finished,
    /// The last player who could lose resigned (P-RESIGN).
    Resigned,
    /// A player left on purpose and that ended it (P-ESCAPE).
    Escaped,
    /// A player stayed away past the reconnection grace (P-DISCONNECT).
    Disconnected,
    /// Jungle: a player let too many turns time out (P-JUNGLE-TIMEOUT).
    Timeouts,
    /// Jungle: a piece entered the enemy den.
    Den,
    /// Jungle: the loser had no pieces left.
    NoPieces,
    /// Jungle: the loser had no legal move (or only forbidden repetitions).
    NoMove,
    /// Jungle: drawn (agreed, or by the draw rules).
    Draw,
    /// Jungle: the game was given up by a side's leaving that no other reason names.
    Forfeit,
    /// The hall's administrators closed the room (no score or rating changed).
    Closed,
    /// Not ended: only an ending taken of a game still running shows it (a close replaces it
    /// with `closed`).
    Unfinished,
}

impl From<OutReason> for EndReason {
    /// The reason of a game that ended because a player left it so.
    fn from(out: OutReason) -> EndReason {
        match out {
            OutReason::Resigned => EndReason::Resigned,
            OutReason::Escaped => EndReason::Escaped,
            OutReason::Disconnected => EndReason::Disconnected,
            OutReason::Timeouts => EndReason::Timeouts,
        }
    }
}

/// Why auto-play was switched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AutoplayReason {
    /// The flight timer ran out: auto-play takes over (P-AUTOPLAY).
    Timeout,
    /// The player switched it.
    Choice,
    /// The player's connection closed during a flight game.
    Disconnect,
    /// The player is back: auto-play that covered the absence ends.
    Back,
}

/// A chat line (P-CHAT).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// The speaker's seat; null for a watcher.
    pub seat: Option<usize>,
    /// The speaker's name (`watcher` for one without a seat).
    pub name: String,
    /// What was said (a quick phrase is sent as its text).
    pub text: String,
    /// When, Unix ms.
    pub at: i64,
}

/// A game's result: scores, ranks and the seed revealed (P-SCORE, P-FAIR-DICE).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// The game's id (its record is `/api/games/{id}`).
    pub game_id: i64,
    /// Why it ended.
    pub reason: EndReason,
    /// The dice seed, revealed.
    pub seed: String,
    /// The commitment published at the start: `sha256(seed)`.
    pub commitment: String,
    /// A practice game (a bot sat in it, P-PRACTICE): no score, rating or level changed.
    #[serde(default)]
    pub practice: bool,
    /// Aborted (P-ABORT): some person made fewer than 3 decisions of their own, so no score,
    /// rating or level changed, except the penalty of one who escaped or was away too long.
    #[serde(default)]
    pub aborted: bool,
    /// One line per seat, in seat order.
    pub players: Vec<ResultLine>,
}

/// One seat's line of a game's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultLine {
    /// The seat.
    pub seat: usize,
    /// The player's name, or `bot:level`.
    pub name: String,
    /// The player's id; null for a bot.
    pub player_id: Option<i64>,
    /// The seat's player is a bot account (P-BOT-ACCOUNT); false for people and for the
    /// hall's bots (whose `player_id` is null).
    #[serde(default)]
    pub bot: bool,
    /// The seat's player is a guest (P-ACCOUNT: guests are shown as guests): present (true)
    /// only then.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub guest: bool,
    /// 1 for the winner.
    pub rank: u32,
    /// Planes brought home (flight; 0 in jungle).
    pub finished: u32,
    /// Enemy planes sent back (flight; 0 in jungle).
    pub captures: u32,
    /// The score change.
    pub delta: i64,
    /// The player's score after the game; null for a bot (and in the stored record, which
    /// is written before the scores).
    pub score: Option<i64>,
    /// The level of that score, so that clients need not know the formula; absent where
    /// `score` is null.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<i64>,
    /// Why the seat's player left the game early, if it did.
    #[serde(default)]
    pub out: Option<OutReason>,
    /// The player's rating of the game before and after it (P-RATING); absent for a bot, in
    /// a practice game and in the stored record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<RatingChange>,
}

/// A change made by the room (as opposed to a game's move): the `event` of an `event` frame,
/// tagged by `kind`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RoomEvent {
    /// A person took a seat.
    Joined {
        /// The seat.
        seat: usize,
        /// Who, with score and level.
        player: PlayerView,
    },
    /// A seat was freed.
    Left {
        /// The seat.
        seat: usize,
    },
    /// The host put a bot in a seat (P-SEATS).
    BotAdded {
        /// The seat.
        seat: usize,
        /// The bot's level.
        bot: BotLevel,
    },
    /// A seat was marked ready or not.
    Ready {
        /// The seat.
        seat: usize,
        /// Ready or not.
        ready: bool,
    },
    /// The number of watchers changed.
    Spectators {
        /// Watchers now.
        count: usize,
    },
    /// A quick-match room (P-QUICK): when bots fill its empty seats if no other person comes
    /// (`at`, Unix ms), or never (`null`: a seated person chose to wait for people).
    QuickBots {
        /// When the bots come; null when they do not.
        at: Option<i64>,
    },
    /// The people seated played their day's scored games against each other (P-ABORT: 3 in
    /// 24 hours), so the next game is practice (`on`), or no longer (`off`).
    PairPractice {
        /// The next game is practice for that reason.
        on: bool,
    },
    /// Every seat was filled and ready: the game began.
    GameStarted {
        /// Each seat's colour.
        colours: Vec<Value>,
        /// The seat that acts first.
        first: Option<usize>,
        /// `sha256(seed)` of the game's dice seed (P-FAIR-DICE).
        commitment: String,
        /// The game's whole view (§6).
        game: Value,
    },
    /// A decision is awaited (P-TIMER).
    Turn(TurnView),
    /// Auto-play switched for a seat (P-AUTOPLAY).
    Autoplay {
        /// The seat.
        seat: usize,
        /// On or off.
        on: bool,
        /// What switched it.
        reason: AutoplayReason,
    },
    /// A seated player's connection closed during the game (P-DISCONNECT).
    Away {
        /// The seat.
        seat: usize,
        /// The end of the grace, Unix ms.
        until: i64,
    },
    /// The player came back in time.
    Back {
        /// The seat.
        seat: usize,
    },
    /// Jungle: a seat's timer ran out (P-JUNGLE-TIMEOUT).
    Timeout {
        /// The seat.
        seat: usize,
        /// Its timeouts so far.
        count: u32,
    },
    /// A player left the running game.
    Out {
        /// The seat.
        seat: usize,
        /// How the player left.
        reason: OutReason,
    },
    /// Jungle: a draw is offered (P-JUNGLE-DRAW).
    DrawOffered {
        /// The offering seat.
        seat: usize,
    },
    /// The draw offer was declined, or lapsed with the next move.
    DrawDeclined {
        /// The declining seat.
        seat: usize,
    },
    /// A chat line.
    Chat(ChatLine),
    /// The game ended.
    GameOver {
        /// Ranks, scores and the seed.
        result: GameResult,
    },
    /// The hall's administrators closed the room: it is gone (a running game ended first,
    /// with `game_over` and reason `closed`).
    Closed {
        /// Why, in words.
        reason: String,
    },
}

/// The moves of a game, as the game writes them into `event` frames (the hall carries them
/// without reading them). The one definition of their shape: the games write their events
/// with borrowed views of their own (`Game`, `Effects`, `Moves`, `Item`), and a reader takes
/// them as JSON values (the defaults). Fields are in alphabetical order, as the frames have
/// always written them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum GameEvent<Game = Value, Effects = Vec<Value>, Moves = Vec<Value>, Item = String> {
    /// Flight: the server rolled for a seat (F-ROLL), or an item gave the roll.
    Rolled {
        /// The roller's bytes the die was derived from (P-FAIR-DICE), hex; none for a roll
        /// of a hall bot, auto-play or the timer, and for a six die. Left out when none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        entropy: Option<String>,
        /// The item that gave the roll, if one did (F-ITEM-USE).
        #[serde(default = "none")]
        item: Option<Item>,
        /// The choices it leaves (`{"plane", "to"}` each).
        moves: Moves,
        /// The seat.
        seat: usize,
        /// The die.
        value: u8,
    },
    /// Flight: a plane moved, or (`plane` null) a roll settled at once.
    Moved {
        /// The engine's events, in order (tagged by `type`).
        effects: Effects,
        /// The game's view after them.
        game: Game,
        /// The plane moved.
        plane: Option<u8>,
        /// The seat.
        seat: usize,
    },
    /// Jungle: a move was played.
    JungleMoved {
        /// The piece taken, if any.
        captured: Option<String>,
        /// The game's view after it.
        game: Game,
        /// The move in notation.
        #[serde(rename = "move")]
        notation: String,
        /// The seat.
        seat: usize,
    },
    /// Jungle: the seat's move was passed.
    Passed {
        /// The game's view after it.
        game: Game,
        /// Why.
        reason: PassReason,
        /// The seat.
        seat: usize,
    },
}

/// Why a Jungle move was passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PassReason {
    /// The seat's timer ran out (P-JUNGLE-TIMEOUT).
    Timeout,
}

fn none<T>() -> Option<T> {
    None
}
