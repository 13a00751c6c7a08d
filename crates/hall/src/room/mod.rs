//! Rooms: one owner task per room (the only code that touches the room's state), reached
//! through a cheap [`RoomHandle`]. The task answers commands, runs the game through the rule
//! engine, keeps the timers, plays for bots and absent players, and broadcasts versioned events.

mod act;
mod camping;
mod challenge;
mod close;
mod entropy;
mod finish;
mod host;
mod pairs;
mod quick;
mod remote;
mod seats;
mod view;
mod waiting;

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
use hangar_dice::Seed;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use crate::accounts::Player;
use crate::outbox::{ConnId, Outbox};
use crate::store::{Store, StoredGame, WaitingRoom};
use hangar_games::{Act, GameSession, RoomOptions, WireEvent};
use hangar_protocol::{
    BotLevel, ChatLine, ErrorCode, GameKind, GameResult, OutReason, Outcome, ProtoError,
    RoomAction, RoomEvent, RoomStatus as Status, answer_frame,
};

pub use challenge::open_challenge_room;
pub use hangar_games::{CommandRef, JUNGLE_TIMEOUTS_ALLOWED, LoggedAct};
pub use host::RoomHost;
pub use remote::RemoteRooms;

/// Events a room keeps for clients that resume (`since`)...
pub const KEPT_EVENTS: usize = 64;
/// ...and at most this many bytes of them: a flight `moved` event carries the whole game
/// view (~0.7 KiB): 8 KiB keep the last two rounds of a four-player game, enough for a
/// dropped connection to resume; a longer absence gets a snapshot instead.
pub const KEPT_EVENT_BYTES: usize = 8 * 1024;

/// Messages a room's mailbox holds (docs/architecture.md, "Queues and their bounds"). Each
/// connection has one command in flight at a time, so a full mailbox means a crowd in one
/// room: a sender then waits its turn (backpressure), nothing is dropped.
pub const ROOM_MAILBOX: usize = 256;

/// A message to a room's task.
enum RoomMsg {
    Command {
        request: RoomRequest,
        reply: oneshot::Sender<Answered>,
    },
    Detach {
        conn: ConnId,
    },
    /// The hall's administrators (or the room's arena) close the room; true once it is
    /// closed. `reason` is what the members are told.
    Close {
        reason: &'static str,
        reply: oneshot::Sender<bool>,
    },
}

/// A command for a room, with who sends it.
pub struct RoomRequest {
    /// The sender's connection: gets the answer, and the room's messages once it joins.
    pub outbox: Outbox,
    /// The signed-in player, if any (only `spectate` needs none).
    pub player: Option<Player>,
    /// The `client` string of the sender's sign-in, if it gave one: with `id`, it names the
    /// command in the action log so that a repeat after a restart runs once.
    pub client: Option<Arc<str>>,
    /// The command's id.
    pub id: u64,
    /// What to do.
    pub order: Order,
}

/// What a room is asked to do.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Order {
    /// A room command a client sent.
    Command(RoomAction),
    /// Sit the sender in the first free seat: the creator of a room, or a quick match that
    /// opened one (answered like `join_room`).
    Enter,
    /// Quick match: take a free seat of this waiting room, or fail without a word to the
    /// client (the hall then tries the next room).
    QuickJoin,
    /// Quick match found no room and opened this one: sit the sender as `Enter` does, ready,
    /// with bots to come if nobody else does (P-QUICK).
    QuickOpen,
    /// An arena seats the player in its room (P-ARENA): the first free seat, ready at once,
    /// no host (so no bot is ever added). The connection is sent the room, not an answer: it
    /// asked for nothing (the arena told it of the game).
    ArenaSeat {
        /// When the player's page shows the board (Unix ms, the countdown's end): the first
        /// turn's clock starts then, not before (P-ARENA).
        starts_at: i64,
    },
}

/// A room's answer to a request.
#[derive(Clone, Debug)]
pub struct Answered {
    /// The command's outcome.
    pub outcome: Outcome,
    /// The answer frame as the room sent it (not sent for a quick join that failed), for the
    /// connection's memory of answered ids.
    pub frame: Utf8Bytes,
}

/// The room's task has ended: the room is closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoomClosed;

/// A cheap handle to a room's task: on this node, or (cluster mode) on the node that owns it.
#[derive(Clone)]
pub struct RoomHandle {
    code: Arc<str>,
    route: Route,
}

/// Where a room's task runs.
#[derive(Clone)]
enum Route {
    /// On this node: its channel.
    Local(mpsc::Sender<RoomMsg>),
    /// On another node of the cluster: requests travel there.
    Remote {
        node: Arc<str>,
        rooms: Arc<dyn RemoteRooms>,
    },
}

impl std::fmt::Debug for RoomHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.route {
            Route::Local(_) => write!(f, "RoomHandle({})", self.code),
            Route::Remote { node, .. } => write!(f, "RoomHandle({} on {node})", self.code),
        }
    }
}

impl std::fmt::Debug for RoomMsg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RoomMsg")
    }
}

impl RoomHandle {
    /// A room that node `node` of the cluster owns.
    pub fn remote(code: &str, node: &str, rooms: Arc<dyn RemoteRooms>) -> RoomHandle {
        RoomHandle {
            code: Arc::from(code),
            route: Route::Remote {
                node: Arc::from(node),
                rooms,
            },
        }
    }

    /// The room's code.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// Runs a request in the room. The room itself sends the answer frame (before the events
    /// the command causes) and returns it with the typed outcome.
    pub async fn command(&self, request: RoomRequest) -> Result<Answered, RoomClosed> {
        match &self.route {
            Route::Local(tx) => {
                let (reply, wait) = oneshot::channel();
                // A full mailbox makes the sender wait its turn: each connection has one
                // command in flight, so the wait is short and nothing is dropped.
                tx.send(RoomMsg::Command { request, reply })
                    .await
                    .map_err(|_| RoomClosed)?;
                wait.await.map_err(|_| RoomClosed)
            }
            Route::Remote { node, rooms } => rooms.forward(node, &self.code, request).await,
        }
    }

    /// Whether the room's task has ended (as far as this node can tell).
    pub fn is_closed(&self) -> bool {
        match &self.route {
            Route::Local(tx) => tx.is_closed(),
            Route::Remote { .. } => false,
        }
    }

    /// Closes a room of this node for the hall's administrators: a running game ends
    /// without score changes, the members are told and the room goes. False when the room
    /// could not be closed (its result could not be stored), or is not this node's.
    pub async fn close_by_admin(&self) -> bool {
        self.close(close::CLOSED_MESSAGE).await
    }

    /// Closes a room of this node whose arena game is over (P-ARENA): its players are free
    /// for their next game.
    pub async fn close_after_arena_game(&self) -> bool {
        self.close(close::ARENA_MESSAGE).await
    }

    async fn close(&self, reason: &'static str) -> bool {
        let Route::Local(tx) = &self.route else {
            return false;
        };
        let (reply, wait) = oneshot::channel();
        if tx.send(RoomMsg::Close { reason, reply }).await.is_err() {
            // Its task has ended: the room is gone already.
            return true;
        }
        wait.await.unwrap_or(true)
    }

    /// A connection closed: it stops watching, and a seated player may be away (P-DISCONNECT).
    pub fn detach(&self, conn: ConnId) {
        match &self.route {
            Route::Local(tx) => {
                let message = RoomMsg::Detach { conn };
                if let Err(mpsc::error::TrySendError::Full(message)) = tx.try_send(message) {
                    // A closing connection's detach must reach the room (the seat's player is
                    // away from now on): it waits for room in a task of its own.
                    let tx = tx.clone();
                    tokio::spawn(async move { tx.send(message).await });
                }
            }
            Route::Remote { node, rooms } => rooms.detach(node, Some(&self.code), conn),
        }
    }
}

/// One seat of a room.
#[derive(Clone, Debug, Default)]
struct Seat {
    player: Option<Player>,
    bot: Option<BotLevel>,
    ready: bool,
    autoplay: bool,
    /// Auto-play was switched on because the player is away: switched off on return.
    autoplay_for_away: bool,
    away_until: Option<i64>,
    away_deadline: Option<Instant>,
    out: Option<OutReason>,
    /// A person in a public waiting room who is not ready loses the seat then (seat camping).
    ready_by: Option<Instant>,
    /// Finished planes when the player left (flight scoring of a resigner).
    out_finished: u32,
    /// Order of leaving among those who left (0 first).
    out_order: u32,
    timeouts: u32,
    disconnects: u32,
    /// Decisions this person made in the running game, not auto-play's or the timer's
    /// (P-ABORT).
    own_decisions: u32,
}

impl Seat {
    fn is_empty(&self) -> bool {
        self.player.is_none() && self.bot.is_none()
    }

    /// Holds the seat for its player for `grace` from now (P-DISCONNECT): away until then,
    /// freed or left for good if the player is not back; returns the end, Unix ms.
    fn hold(&mut self, grace: std::time::Duration) -> i64 {
        let until = crate::time::now_ms() + grace.as_millis() as i64;
        self.away_until = Some(until);
        self.away_deadline = Some(Instant::now() + grace);
        until
    }

    fn player_id(&self) -> Option<i64> {
        self.player.as_ref().map(|p| p.id)
    }

    /// Finished planes as the result counts them: for a seat that left, those it had when it
    /// left (its planes left the board with it); else the engine's count at the end.
    fn finished_planes(&self, at_end: u32) -> u32 {
        if self.out.is_some() {
            self.out_finished
        } else {
            at_end
        }
    }

    fn name(&self) -> String {
        match (&self.player, &self.bot) {
            (Some(p), _) => p.name.clone(),
            (None, Some(bot)) => format!("bot:{bot}"),
            (None, None) => String::new(),
        }
    }
}

/// A connection attached to the room (a seated player or a watcher).
struct Member {
    outbox: Outbox,
    player: Option<i64>,
    /// Events up to this version were already covered by what this member was sent (or
    /// holds in `deferred`).
    seen: u64,
    /// Events held for this member during a game (see [`Room::flush_with`]).
    deferred: Vec<Utf8Bytes>,
    /// When this member was last sent a batch.
    last_sent: Option<Instant>,
}

impl Member {
    /// Sends `frames` (if any) in one batch and notes when; false once the connection is gone.
    fn send(&mut self, frames: Vec<Utf8Bytes>, now: Instant) -> bool {
        if frames.is_empty() {
            return true;
        }
        self.last_sent = Some(now);
        self.outbox.send_batch(frames)
    }
}

/// A running game. An action whose write fails is undone to a mark of it (see `Room::perform`).
struct Running {
    session: GameSession,
    game_id: i64,
    seed: Seed,
    commitment: String,
    next_idx: i64,
    /// Deadline of the current decision (P-TIMER).
    deadline: Option<Instant>,
    deadline_ms: i64,
    /// When a bot or auto-play acts next.
    act_at: Option<Instant>,
    /// The seat offering a draw (jungle).
    draw_offer: Option<usize>,
    /// A bot sat in the game when it started (P-PRACTICE).
    practice: bool,
}

/// A room's state, owned by its task.
struct Room {
    hall: Arc<dyn RoomHost>,
    code: String,
    game_kind: GameKind,
    private: bool,
    options: RoomOptions,
    turn_seconds: u64,
    host: Option<i64>,
    seats: Vec<Seat>,
    members: HashMap<ConnId, Member>,
    version: u64,
    history: VecDeque<(u64, Utf8Bytes)>,
    /// Bytes of the frames in `history`.
    history_bytes: usize,
    pending: Vec<(u64, Utf8Bytes)>,
    /// When the events held for members must leave at the latest.
    deferred_until: Option<Instant>,
    chat: VecDeque<ChatLine>,
    chat_times: HashMap<i64, VecDeque<Instant>>,
    status: Status,
    game: Option<Running>,
    last_result: Option<GameResult>,
    replaying: bool,
    /// A member that joined during the current command, and the version it resumes from.
    catch_up: Option<(ConnId, Option<u64>)>,
    /// The waiting-room row last stored for this room (`None`: no row).
    saved_waiting: Option<WaitingRoom>,
    /// The command being run (client string and id), logged with the act it asks for (see
    /// [`CommandRef`]); turned into a `CommandRef` only when an act is stored.
    command_ref: Option<(Arc<str>, u64)>,
    /// After a write failed, timers (bots, auto-play, timeouts, absences) wait until then
    /// before they try again: a failing database is not hammered, and nothing acts into a
    /// hall that cannot store.
    store_retry_at: Option<Instant>,
    /// Members dropped because their connection was gone or too slow (the player, if any),
    /// whose departure is still to be handled as a disconnection (P-DISCONNECT).
    lost: Vec<Option<i64>>,
    /// When bots fill a quick match's empty seats (P-QUICK).
    quick_fill_at: Option<Instant>,
    /// The administrators closed the room: its task ends.
    closed: bool,
    /// The people seated played their day's scored games together: the next game is practice
    /// (P-ABORT; see `pairs.rs`).
    pair_practice: bool,
    /// The people (sorted ids) `pair_practice` was last checked for; `None`: check again.
    pair_checked: Option<Vec<i64>>,
    /// The hall opened it for quick match with the default stake and options (P-QUICK): the
    /// only kind of room quick match puts players into.
    quick: bool,
    /// A seated person chose to wait for people (`wait_for_people`): no bots fill the seats.
    people_only: bool,
    /// `quick_fill_at` as Unix ms, as the last `quick_bots` event said it.
    quick_bots_at: Option<i64>,
    /// The first turn's clock starts no earlier than this (Unix ms): an arena game's players
    /// see the board after a countdown (P-ARENA).
    clock_from: Option<i64>,
    /// A challenge's room (P-CHALLENGE): a party is ready as they arrive, so the game starts
    /// once every party has joined.
    ready_on_arrival: bool,
    /// When to see whether the game can start: set by an arrival, so that the game starts
    /// after the command that seated the last party, whose connection is then told of the
    /// start by events like everyone's, not only by its snapshot.
    start_at: Option<Instant>,
}

/// Everything needed to open a room.
pub struct RoomSettings {
    /// The game.
    pub game: GameKind,
    /// Left out of the hall list (joined by code only).
    pub private: bool,
    /// Options as the client sent them (checked and completed by the room).
    pub options: Value,
}

/// Creates a room and starts its task; the options are checked first.
pub fn open_room(
    hall: Arc<dyn RoomHost>,
    settings: RoomSettings,
) -> Result<RoomHandle, ProtoError> {
    storage_available(hall.store())?;
    let (options, seat_count, turn_seconds) =
        hangar_games::check_options(settings.game, &settings.options, hall.config().turn_seconds)?;
    let code = hall.new_code();
    let room = Room::new(
        hall,
        code,
        settings.game,
        settings.private,
        options,
        seat_count,
        turn_seconds,
    );
    Ok(spawn(room))
}

/// Refuses what would need storage while the storage is failing (`/health` says why).
pub fn storage_available(store: &Store) -> Result<(), ProtoError> {
    match store.fault() {
        None => Ok(()),
        Some(reason) => Err(ProtoError::new(
            ErrorCode::Unavailable,
            format!("the hall cannot store games now ({reason}); nothing changed, try again later"),
        )),
    }
}

/// Rebuilds the room of a running game from its stored record (P-DURABLE).
pub async fn restore_room(hall: Arc<dyn RoomHost>, stored: &StoredGame) -> anyhow::Result<()> {
    let room = Room::restore(hall, stored).await?;
    spawn(room);
    Ok(())
}

/// Reopens a room that was waiting for its game when the hall stopped (P-DURABLE).
pub async fn restore_waiting_room(
    hall: Arc<dyn RoomHost>,
    stored: &WaitingRoom,
) -> anyhow::Result<()> {
    let room = Room::restore_waiting(hall, stored).await?;
    spawn(room);
    Ok(())
}

fn spawn(mut room: Room) -> RoomHandle {
    let (tx, mut rx) = mpsc::channel(ROOM_MAILBOX);
    let handle = RoomHandle {
        code: Arc::from(room.code.as_str()),
        route: Route::Local(tx),
    };
    room.hall.add_room(handle.clone());
    room.publish();
    tokio::spawn(async move {
        if let Some(node) = room.hall.cluster_node() {
            // The room is this node's before anyone is seated (commands wait in the channel).
            if let Err(e) = room.hall.store().claim_room(&room.code).await {
                tracing::error!(room = %room.code, node, error = %e, "the room's ownership could not be stored");
            }
        }
        loop {
            // After whatever the last message or timer changed.
            room.track_readiness();
            let wake = room.next_wake();
            tokio::select! {
                msg = rx.recv() => match msg {
                    Some(msg) => room.handle(msg).await,
                    None => break,
                },
                () = sleep_until_opt(wake) => {
                    room.on_timer().await;
                    // Changes made by timers (a command stores its own before its answer).
                    room.persist_waiting().await;
                }
            }
            room.drop_lost().await;
            if room.closed || room.is_abandoned() {
                break;
            }
        }
        room.forget_waiting().await;
        if room.hall.cluster_node().is_some() && !room.hall.is_closing() {
            let _ = room.hall.store().release_room(&room.code).await;
        }
        room.hall.remove_room(&room.code);
        for seat in &room.seats {
            if let Some(id) = seat.player_id() {
                room.hall.set_seated(id, &room.code, false);
            }
        }
        tracing::debug!(room = %room.code, "room closed");
    });
    handle
}

async fn sleep_until_opt(wake: Option<Instant>) {
    match wake {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

impl Room {
    fn new(
        hall: Arc<dyn RoomHost>,
        code: String,
        game_kind: GameKind,
        private: bool,
        options: RoomOptions,
        seat_count: usize,
        turn_seconds: u64,
    ) -> Room {
        Room {
            hall,
            code,
            game_kind,
            private,
            options,
            turn_seconds,
            host: None,
            seats: vec![Seat::default(); seat_count],
            members: HashMap::new(),
            version: 0,
            history: VecDeque::new(),
            history_bytes: 0,
            pending: Vec::new(),
            deferred_until: None,
            chat: VecDeque::new(),
            chat_times: HashMap::new(),
            status: Status::Waiting,
            game: None,
            last_result: None,
            replaying: false,
            catch_up: None,
            saved_waiting: None,
            command_ref: None,
            store_retry_at: None,
            lost: Vec::new(),
            quick_fill_at: None,
            pair_practice: false,
            pair_checked: None,
            quick: false,
            people_only: false,
            quick_bots_at: None,
            clock_from: None,
            ready_on_arrival: false,
            start_at: None,
            closed: false,
        }
    }

    async fn handle(&mut self, msg: RoomMsg) {
        match msg {
            RoomMsg::Command { request, reply } => {
                let RoomRequest {
                    outbox,
                    player,
                    client,
                    id,
                    order,
                } = request;
                // A failed quick join is not the client's business: the hall tries elsewhere.
                let quiet_errors = order == Order::QuickJoin;
                let quiet_answer = matches!(order, Order::ArenaSeat { .. });
                self.command_ref = client.map(|client| (client, id));
                let outcome = self.command(&outbox, player, order).await;
                self.command_ref = None;
                // Who sits may have changed: the room says before the start whether the next
                // game is practice for a pair that played enough today (P-ABORT).
                self.refresh_pair_practice(false).await;
                // A waiting room's change is stored before it is acknowledged, like an action.
                self.persist_waiting().await;
                // One buffer for the frame sent and the one remembered for a repeated id.
                let frame = Utf8Bytes::from(answer_frame(id, &outcome));
                // The answer, then what the command caused, leave together.
                let mut direct = Vec::new();
                if (outcome.is_ok() || !quiet_errors) && !quiet_answer {
                    direct.push(frame.clone());
                }
                if outcome.is_ok() {
                    self.catch_up_frames(&outbox, &mut direct);
                }
                self.flush_with(Some((&outbox, direct)));
                let _ = reply.send(Answered { outcome, frame });
            }
            RoomMsg::Detach { conn } => {
                self.detach(conn).await;
                self.persist_waiting().await;
                self.flush();
            }
            RoomMsg::Close { reason, reply } => {
                let closed = self.close_by_admin(reason).await;
                let _ = reply.send(closed);
            }
        }
    }

    /// Runs one command; events it causes are queued in `pending`.
    async fn command(&mut self, outbox: &Outbox, player: Option<Player>, order: Order) -> Outcome {
        let Some(player) = player else {
            return match order {
                Order::Command(RoomAction::Spectate { since }) => {
                    self.spectate(outbox, None, since)
                }
                _ => Err(crate::accounts::sign_in_first()),
            };
        };
        let action = match order {
            Order::Enter => return self.join(outbox, player, None, None).await,
            Order::QuickJoin => {
                // Checked here too (the hall's list may be a moment old): a room whose host
                // chose its stake or options never takes a player who did not choose it.
                if !self.quick {
                    return Err(ProtoError::new(
                        ErrorCode::SeatTaken,
                        "not a quick-match room: join it on purpose",
                    ));
                }
                let joined = self.quick_join(outbox, player).await;
                return self.quick_seated(joined).await;
            }
            Order::QuickOpen => {
                // Opened by the hall with the default options (`ws::quick_match`).
                self.quick = true;
                let joined = self.join(outbox, player, None, None).await;
                return self.quick_seated(joined).await;
            }
            Order::ArenaSeat { starts_at } => {
                return self.arena_seated(outbox, player, starts_at).await;
            }
            Order::Command(action) => action,
        };
        match action {
            RoomAction::JoinRoom { seat, since } => self.join(outbox, player, seat, since).await,
            RoomAction::Spectate { since } => self.spectate(outbox, Some(player.id), since),
            RoomAction::TakeSeat { seat } => self.take_seat(outbox, player, seat).await,
            RoomAction::Ready { ready } => self.set_ready(player.id, ready).await,
            RoomAction::AddBot { seat, bot } => self.add_bot(player.id, seat, &bot).await,
            RoomAction::RemoveBot { seat } => self.remove_bot(player.id, seat),
            RoomAction::WaitForPeople => self.wait_for_people(player.id),
            RoomAction::Kick { seat } => self.kick(player.id, seat),
            RoomAction::Chat { text, phrase } => self.chat(player.id, text, phrase),
            RoomAction::LeaveRoom { escape } => self.leave(outbox, player.id, escape).await,
            RoomAction::Roll { entropy } => {
                let entropy = entropy::for_roll(entropy.as_deref())?;
                self.player_act(player.id, Ok(Act::Roll), Some(entropy))
                    .await
            }
            RoomAction::Move { plane, notation } => {
                if plane.is_some() == notation.is_some() {
                    return Err(ProtoError::new(
                        ErrorCode::BadMessage,
                        "move: give \"plane\" (flight) or \"move\" (jungle)",
                    ));
                }
                // Typed here, once: the game, the log and the record take the move as read.
                let act = Act::of_move(self.game_kind, plane, notation.as_deref());
                self.player_act(player.id, act, None).await
            }
            RoomAction::UseItem { item, entropy } => {
                // Read whatever the game: a throw's bytes are checked before the game refuses
                // or takes the item, as for a roll.
                let item = Act::item_named(&item);
                let entropy = entropy::for_item(item.as_ref().ok().copied(), entropy.as_deref())?;
                let act = Act::of_item(self.game_kind, item);
                self.player_act(player.id, act, entropy).await
            }
            RoomAction::Autoplay { on } => {
                self.player_act(player.id, Ok(Act::Autoplay { on }), None)
                    .await
            }
            RoomAction::Resign => self.player_act(player.id, Ok(Act::Resign), None).await,
            RoomAction::OfferDraw => self.player_act(player.id, Ok(Act::DrawOffer), None).await,
            RoomAction::AnswerDraw { accept } => {
                self.player_act(player.id, Ok(Act::DrawAnswer { accept }), None)
                    .await
            }
        }
    }

    /// Queues an event of the room's own at the next version.
    fn emit(&mut self, event: RoomEvent) {
        if self.replaying {
            return;
        }
        // Written straight into one buffer (no wrapping object built around the event).
        let mut text = self.event_head(256);
        serde_json::to_writer(&mut text, &event).expect("a JSON value serialises");
        self.queue_event(text);
    }

    /// Queues an event the game already wrote (most of them): copied once into a frame of
    /// the exact size (a flight `moved` event is ~0.7 KiB: no regrowing on the way).
    fn emit_wire(&mut self, event: &WireEvent) {
        if self.replaying {
            return;
        }
        let mut text = self.event_head(event.get().len() + 1);
        text.extend_from_slice(event.get().as_bytes());
        self.queue_event(text);
    }

    /// The start of the next event's frame, with room for `body` more bytes.
    fn event_head(&mut self, body: usize) -> Vec<u8> {
        self.version += 1;
        let mut text = Vec::with_capacity(48 + self.code.len() + body);
        text.extend_from_slice(br#"{"type":"event","room":"#);
        serde_json::to_writer(&mut text, &self.code).expect("a string serialises");
        text.extend_from_slice(br#","v":"#);
        serde_json::to_writer(&mut text, &self.version).expect("a number serialises");
        text.extend_from_slice(br#","event":"#);
        text
    }

    /// Closes an event's frame and queues it at the current version (kept for resuming).
    fn queue_event(&mut self, mut text: Vec<u8>) {
        text.push(b'}');
        // The frame stays in the history for resuming: it keeps no room it does not use (a
        // room event's buffer is sized by a guess).
        if text.capacity() > text.len() + 16 {
            text.shrink_to_fit();
        }
        let frame = Utf8Bytes::from(String::from_utf8(text).expect("serde_json writes UTF-8"));
        while self.history.len() == KEPT_EVENTS
            || (!self.history.is_empty() && self.history_bytes + frame.len() > KEPT_EVENT_BYTES)
        {
            if let Some((_, old)) = self.history.pop_front() {
                self.history_bytes -= old.len();
            }
        }
        self.history_bytes += frame.len();
        self.history.push_back((self.version, frame.clone()));
        self.pending.push((self.version, frame));
    }

    /// Sends queued events to every member that has not already covered them.
    fn flush(&mut self) {
        self.flush_with(None);
    }

    /// Sends queued events to every member that has not already covered them, each member's
    /// frames in one batch; `direct` frames (an answer and its catch-up) go first to the
    /// connection that sent the command, in the same batch as its events.
    ///
    /// During a game, a member that neither sent the command nor acts next (the other
    /// players, watchers) and was sent a batch less than [`Config::broadcast_delay`] ago has
    /// its events held until that delay has passed, and they leave together with later ones:
    /// on loopback or a LAN a write costs more than the few hundred bytes it carries, and at a
    /// fast table those members would otherwise get one write per action. At a table that
    /// takes longer than the delay between actions nothing is ever held (and no timer set).
    /// Every member still gets every event, in order; the sender and the next to act at once.
    ///
    /// [`Config::broadcast_delay`]: crate::Config::broadcast_delay
    fn flush_with(&mut self, direct: Option<(&Outbox, Vec<Utf8Bytes>)>) {
        let (direct_outbox, mut direct_frames) = match direct {
            Some((outbox, frames)) => (Some(outbox), frames),
            None => (None, Vec::new()),
        };
        let direct_to = direct_outbox.map(|outbox| outbox.id);
        let delay = self.hall.config().broadcast_delay;
        let deferring = !delay.is_zero() && self.status == Status::Playing;
        let next_player = self
            .game
            .as_ref()
            .and_then(|running| running.session.turn())
            .and_then(|(seat, _)| self.seats.get(seat))
            .and_then(Seat::player_id);
        let now = Instant::now();
        let mut holding: Option<Instant> = None;
        let pending = &self.pending;
        let lost = &mut self.lost;
        // A member whose connection is gone or cannot keep up is dropped (`retain` keeps those
        // that took it), and goes through the disconnect path (see `Room::drop_lost`).
        self.members.retain(|conn, member| {
            let sender = direct_to == Some(*conn);
            let urgent =
                !deferring || sender || (member.player.is_some() && member.player == next_player);
            let recently = member
                .last_sent
                .filter(|sent| now.duration_since(*sent) < delay);
            if let (false, Some(sent)) = (urgent, recently) {
                for (v, frame) in pending {
                    if *v > member.seen {
                        member.deferred.push(frame.clone());
                        member.seen = *v;
                    }
                }
                if !member.deferred.is_empty() {
                    let due = sent + delay;
                    holding = Some(holding.map_or(due, |h| h.min(due)));
                }
                return true;
            }
            // Held events first (they are older), then the answer, then the new events.
            let mut frames = std::mem::take(&mut member.deferred);
            if sender {
                frames.append(&mut direct_frames);
            }
            for (v, frame) in pending {
                if *v > member.seen {
                    frames.push(frame.clone());
                    member.seen = *v;
                }
            }
            let sent = member.send(frames, now);
            if !sent {
                lost.push(member.player);
            }
            sent
        });
        self.pending.clear();
        // The sender may not be a member (a refused join): its answer goes all the same.
        if let Some(outbox) = direct_outbox
            && !direct_frames.is_empty()
        {
            outbox.send_batch(direct_frames);
        }
        // Every member still holding events was held just now (the others were sent theirs),
        // so the earliest of their dues is the next moment to flush, or none.
        self.deferred_until = holding;
    }

    /// Sends every member the events held for it.
    fn flush_deferred(&mut self) {
        self.deferred_until = None;
        let now = Instant::now();
        let lost = &mut self.lost;
        self.members.retain(|_, member| {
            let frames = std::mem::take(&mut member.deferred);
            let sent = member.send(frames, now);
            if !sent {
                lost.push(member.player);
            }
            sent
        });
    }

    /// After an answer: a member that asked to join gets its snapshot or missed events.
    fn catch_up_frames(&mut self, outbox: &Outbox, frames: &mut Vec<Utf8Bytes>) {
        let Some((conn, since)) = self.catch_up.take() else {
            return;
        };
        if conn != outbox.id {
            return;
        }
        match since {
            Some(since) if self.can_resume_from(since) => {
                for (v, frame) in &self.history {
                    if *v > since {
                        frames.push(frame.clone());
                    }
                }
            }
            _ => frames.push(Utf8Bytes::from(self.snapshot_frame())),
        }
        if let Some(member) = self.members.get_mut(&outbox.id) {
            member.seen = self.version;
        }
    }

    /// A room rebuilt from the store (after a restart, or on the node that took it over)
    /// numbers its events from the Unix time of its rebuilding in milliseconds, and keeps none
    /// of the events its rebuilding made: every version it had before is lower (a room makes
    /// far fewer than one event a millisecond — the rate limits allow its players a few hundred
    /// a second), so a client's `since` from before is never read as a version of the new
    /// numbering, and it gets a snapshot (protocol.md §5).
    fn number_events_anew(&mut self) {
        let now = u64::try_from(crate::time::now_ms()).unwrap_or(0);
        self.version = self.version.max(now);
        self.history.clear();
        self.history_bytes = 0;
        self.pending.clear();
    }

    /// Whether every event after `since` is still kept.
    pub(super) fn can_resume_from(&self, since: u64) -> bool {
        if since > self.version {
            return false;
        }
        since == self.version
            || self
                .history
                .front()
                .is_some_and(|(first, _)| *first <= since + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full mailbox makes a detach wait in a task of its own: it still reaches the room, after
    /// the messages before it, and the caller (a closing connection) does not wait.
    #[tokio::test]
    async fn a_detach_reaches_a_room_whose_mailbox_is_full() {
        let (tx, mut rx) = mpsc::channel(ROOM_MAILBOX);
        let handle = RoomHandle {
            code: Arc::from("ROOM"),
            route: Route::Local(tx),
        };
        for conn in 0..ROOM_MAILBOX as ConnId {
            handle.detach(conn);
        }
        handle.detach(9_999);
        let mut detached = Vec::new();
        while detached.len() < ROOM_MAILBOX + 1 {
            match rx.recv().await {
                Some(RoomMsg::Detach { conn }) => detached.push(conn),
                _ => panic!("only detaches were sent"),
            }
        }
        assert_eq!(
            detached.last(),
            Some(&9_999),
            "the detach beyond the bound came last"
        );
        assert_eq!(detached.len(), ROOM_MAILBOX + 1);
    }
}
