//! One WebSocket connection: reads commands (size and rate limits checked before parsing,
//! floods closed, ids answered once),
//! handles identity and hall commands itself, hands room commands to the room's task, and
//! writes queued frames in batches.

mod arenas;
mod challenge_settings;
mod challenges;
mod gate;
mod identity;
mod logins;
mod players;
mod review;

pub use logins::LoginGuard;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::SinkExt;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::accounts::Player;
use crate::answers::{AnswerCache, worth_remembering};
use crate::arena::ArenaOrder;
use crate::hall::{HALL_PAGE, Hall};
use crate::outbox::{Out, Outbox, Stop, TOO_SLOW};
use crate::room::{Answered, Order, RoomClosed, RoomHandle, RoomRequest, RoomSettings, open_room};
use crate::sessions::{SIGNED_OUT_CODE, Sessions};
use crate::slots::Slot;
use gate::{Gate, Verdict};
use hangar_protocol::{
    Ack, Answer, Command, ErrorCode, GameKind, HallCommand, HallPage, MAX_MESSAGE_BYTES, Outcome,
    Pong, ProtoError, RoomAction, RoomCommand, answer_frame, error_frame, parse_command, peek_id,
    welcome_frame,
};

/// Largest frame read at all; bigger ones close the socket with code 1009.
pub const HARD_MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// Where repeated ids are looked up: the player's client memory, or this connection's.
enum Answers {
    Local(AnswerCache),
    Shared(Arc<Mutex<AnswerCache>>),
}

impl Answers {
    /// Lets go of a shared memory (its resume window starts), for `next`.
    fn replace(&mut self, hall: &Hall, next: Answers) {
        if let Answers::Shared(old) = std::mem::replace(self, next) {
            hall.answers.release(old);
        }
    }

    fn get(&self, id: u64) -> Option<Outcome> {
        match self {
            Answers::Local(cache) => cache.get(id),
            Answers::Shared(cache) => cache.lock().expect("cache lock").get(id),
        }
    }

    fn put(&mut self, id: u64, answered: &Answered) {
        let (outcome, len) = (&answered.outcome, answered.frame.len());
        match self {
            Answers::Local(cache) => cache.put(id, outcome, len),
            Answers::Shared(cache) => cache.lock().expect("cache lock").put(id, outcome, len),
        }
    }
}

/// What a hall command gave: an outcome to send, or an answer already sent.
enum Reply {
    Answer(Outcome),
    Sent(Answered),
}

impl From<Outcome> for Reply {
    fn from(outcome: Outcome) -> Self {
        Reply::Answer(outcome)
    }
}

struct Conn {
    hall: Arc<Hall>,
    outbox: Outbox,
    player: Option<Player>,
    /// The client string of the sign-in, when it gave one (scope of repeated ids).
    client: Option<Arc<str>>,
    answers: Answers,
    rooms: HashMap<String, RoomHandle>,
    /// The peer's address, for the sign-in throttle.
    address: Option<IpAddr>,
    logins: Arc<LoginGuard>,
    /// Every connection's player, for `sign_out_everywhere`.
    sessions: Arc<Sessions>,
    /// When the sign-in's token runs out: the connection is then closed (1008), so that no
    /// socket speaks for a player longer than a token does.
    signed_in_until: Option<Instant>,
}

/// Sends a close frame with `code` and `reason`, waiting at most `wait` for a peer that does
/// not read (the connection ends either way).
async fn send_close(socket: &mut WebSocket, code: u16, reason: &'static str, wait: Duration) {
    let close = Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    }));
    let _ = tokio::time::timeout(wait, socket.send(close)).await;
}

/// Closes a socket that must stop. When the hall restarts, what was queued for it leaves
/// first, then the close with 1012; for a client too slow to take what it is sent, see
/// [`close_too_slow`].
async fn stop_socket(
    socket: &mut WebSocket,
    stop: Stop,
    rx: &mut mpsc::Receiver<Out>,
    batch: &mut Vec<Out>,
) {
    let wait = Duration::from_secs(2);
    if stop == Stop::Restart && write_queued(socket, rx, batch, wait).await {
        let reason = "the hall restarts: reconnect";
        send_close(socket, 1012, reason, wait).await;
    }
}

/// Writes everything queued for the socket, within `wait`; false when it could not.
async fn write_queued(
    socket: &mut WebSocket,
    rx: &mut mpsc::Receiver<Out>,
    batch: &mut Vec<Out>,
    wait: Duration,
) -> bool {
    while let Ok(out) = rx.try_recv() {
        batch.push(out);
    }
    tokio::time::timeout(wait, write_frames(socket, batch))
        .await
        .is_ok_and(|written| written.is_ok())
}

/// Closes a connection that fell too far behind ([`Stop::Overflow`]), once the rooms and
/// arenas have let it go: what was queued for it is dropped at once (its bytes leave the
/// hall's count), then the close (1008, [`TOO_SLOW`]) follows what the socket already
/// took, for a client that reads again within a few seconds.
async fn close_too_slow(
    socket: &mut WebSocket,
    outbox: &Outbox,
    rx: &mut mpsc::Receiver<Out>,
    batch: &mut Vec<Out>,
) {
    rx.close();
    let mut dropped: usize = batch.drain(..).map(|out| out.bytes()).sum();
    while let Ok(out) = rx.try_recv() {
        dropped += out.bytes();
    }
    outbox.written(dropped);
    send_close(socket, 1008, TOO_SLOW, Duration::from_secs(5)).await;
}

/// Closes a connection whose sign-in's token has run out.
async fn close_expired(socket: &mut WebSocket) {
    let reason = "the sign-in expired: sign in again";
    send_close(socket, SIGNED_OUT_CODE, reason, Duration::from_secs(5)).await;
}

/// Serves one upgraded WebSocket until it closes. One task per connection both reads
/// commands and writes what rooms and the hall queued: no split socket, no second task, and
/// everything queued while a command ran (its answer, then its events) leaves in one write.
pub async fn serve_socket(
    mut socket: WebSocket,
    hall: Arc<Hall>,
    slot: Slot,
    logins: Arc<LoginGuard>,
    sessions: Arc<Sessions>,
) {
    let (outbox, mut rx) = Outbox::bounded(hall.config.limits.outbox_bytes);
    outbox.send_text(welcome_frame());
    let mut conn = Conn {
        hall: hall.clone(),
        outbox: outbox.clone(),
        player: None,
        client: None,
        answers: Answers::Local(hall.answers.local()),
        rooms: HashMap::new(),
        address: slot.address(),
        logins,
        sessions,
        signed_in_until: None,
    };
    let (per_second, burst) = (hall.config.messages_per_second, hall.config.message_burst);
    let mut gate = Gate::new(
        per_second,
        burst,
        MAX_MESSAGE_BYTES,
        hall.config.limits.flood_refusals,
    );
    let mut batch = Vec::with_capacity(16);
    // When the game action whose ack is queued was read (for the latency report).
    let mut acked_since = None;
    // Liveness: a socket silent for half the idle timeout is pinged; one silent (no pong
    // either) for the whole of it is closed. One timer per connection, reset only when it
    // fires, so that reading a command costs no timer work.
    let idle = hall.config.limits.idle_timeout;
    let mut heard = Instant::now();
    let liveness = tokio::time::sleep(idle / 2);
    tokio::pin!(liveness);
    // Made once, not on every turn of the loop: the hall's shutdown and a queue found full.
    let stopped = outbox.stopped();
    tokio::pin!(stopped);
    if !hall.connection_opened(&outbox) {
        outbox.stopper().restart();
    }
    // Set when the connection fell too far behind: closed with the reason at the end.
    let mut too_slow = false;
    loop {
        let message = tokio::select! {
            // Output first: a client waiting for an answer is served before it is read again.
            biased;
            // A client too slow to take what it is sent is cut off; a shutdown closes with 1012.
            stop = &mut stopped => {
                too_slow = stop == Stop::Overflow;
                stop_socket(&mut socket, stop, &mut rx, &mut batch).await;
                break;
            }
            _ = rx.recv_many(&mut batch, 64) => {
                let bytes: usize = batch.iter().map(Out::bytes).sum();
                let written = tokio::select! {
                    written = write_frames(&mut socket, &mut batch) => written.map_err(|()| None),
                    stop = &mut stopped => Err(Some(stop)),
                };
                match written {
                    Ok(()) => outbox.written(bytes),
                    Err(Some(stop)) => {
                        // What was taken from the queue is still held until dropped.
                        outbox.written(bytes);
                        too_slow = stop == Stop::Overflow;
                        stop_socket(&mut socket, stop, &mut rx, &mut batch).await;
                        break;
                    }
                    Err(None) => break,
                }
                if let Some(since) = acked_since.take() {
                    crate::latency::record(since);
                }
                continue;
            }
            message = socket.recv() => message,
            () = &mut liveness => {
                // A connection that only answers pings is closed too when its sign-in ends.
                if conn.sign_in_expired(Instant::now()) {
                    close_expired(&mut socket).await;
                    break;
                }
                let silent = heard.elapsed();
                if silent >= idle {
                    let reason = "idle: nothing heard, not even a pong";
                    send_close(&mut socket, 1001, reason, Duration::from_secs(5)).await;
                    break;
                }
                if silent >= idle / 2 {
                    if socket.send(Message::Ping(Default::default())).await.is_err() {
                        break;
                    }
                    liveness.as_mut().reset(heard + idle);
                } else {
                    liveness.as_mut().reset(heard + idle / 2);
                }
                continue;
            }
        };
        let received = Instant::now();
        heard = received;
        if conn.sign_in_expired(received) {
            close_expired(&mut socket).await;
            break;
        }
        let message = match message {
            Some(Ok(message)) => message,
            Some(Err(e)) => {
                tracing::debug!(error = %e, "websocket read failed");
                let reason = "message too big or broken frame";
                send_close(&mut socket, 1009, reason, Duration::from_secs(5)).await;
                break;
            }
            None => break,
        };
        // Every frame counts against the limits, pings included (each one makes the
        // WebSocket layer queue a pong), and is weighed by its length before any parsing.
        let verdict = match &message {
            Message::Close(_) => break,
            Message::Text(text) => gate.check(text.len(), received),
            Message::Binary(bytes) => gate.check(bytes.len(), received),
            Message::Ping(bytes) | Message::Pong(bytes) => gate.check(bytes.len(), received),
        };
        // Only a command's text is read for its id, and only for the few refusals before a
        // close: a flood is never parsed.
        let text = match &message {
            Message::Text(text) => Some(text.as_str()),
            _ => None,
        };
        match verdict {
            Verdict::Pass => {}
            Verdict::RateLimited => {
                metrics::counter!(crate::metrics::RATE_LIMITED).increment(1);
                if let Some(text) = text {
                    conn.error(
                        peek_id(text),
                        ErrorCode::RateLimited,
                        format!("at most {per_second} messages per second (burst {burst})"),
                    );
                }
                continue;
            }
            Verdict::TooLarge => {
                conn.error(
                    text.and_then(peek_id),
                    ErrorCode::TooLarge,
                    format!("a message is at most {MAX_MESSAGE_BYTES} bytes"),
                );
                continue;
            }
            Verdict::Close => {
                // What was answered before goes first, then the reason to stop.
                let wait = Duration::from_secs(5);
                write_queued(&mut socket, &mut rx, &mut batch, wait).await;
                close_flood(&mut socket).await;
                break;
            }
        }
        let text = match message {
            Message::Text(text) => text,
            Message::Binary(_) => {
                conn.error(
                    None,
                    ErrorCode::BadMessage,
                    "binary frames are not accepted: send JSON text",
                );
                continue;
            }
            _ => continue,
        };
        // Boxed: a command's future (the largest the connection awaits) would otherwise sit
        // inline in every connection's task, idle ones included, for its whole life.
        if Box::pin(conn.handle_text(&text)).await {
            acked_since = Some(received);
        }
        // Fairness: a connection that always has a command waiting gives the worker to the
        // other connections and rooms once its share of the runtime's budget is spent.
        tokio::task::coop::consume_budget().await;
    }
    for room in conn.rooms.values() {
        room.detach(outbox.id);
    }
    if let Some(peers) = hall.peers() {
        peers.connection_closed(outbox.id);
    }
    hall.unsubscribe(outbox.id);
    review::connection_closed(&hall, outbox.id);
    hall.connection_closed(outbox.id);
    // An arena of another node lets the connection go with its stand-in there (above).
    let _ = hall.arenas.unfollow(outbox.id);
    if let Some(player) = &conn.player {
        conn.sessions.signed_out(player.id, outbox.id);
    }
    conn.answers
        .replace(&hall, Answers::Local(AnswerCache::new(0)));
    if too_slow {
        close_too_slow(&mut socket, &outbox, &mut rx, &mut batch).await;
    }
    // The connection's place is given back last, once everything it held is let go.
    drop(slot);
}

/// Input read (unhandled) from a flooding socket after its close frame, at most: a client
/// that slipped over a limit has a few frames in flight at most, whereas a flooder has
/// megabytes queued, and reading them all cost more than the whole flood before it
/// (`hangar attack flood`: 5 ms of the hall's CPU per closed connection).
const FLOOD_DRAIN_BYTES: usize = 256 * 1024;

/// Closes a flooding socket (1008, with the reason) and reads, unhandled, what it still sends
/// until its own close frame, for a short while and up to [`FLOOD_DRAIN_BYTES`]: closing with
/// unread input resets the connection, and a client with a few frames in flight would lose
/// the close frame with its reason.
async fn close_flood(socket: &mut WebSocket) {
    let close = Message::Close(Some(CloseFrame {
        code: 1008,
        reason: Utf8Bytes::from_static("flood: too many messages over the rate or size limits"),
    }));
    let handshake = async {
        socket.send(close).await.ok()?;
        let mut drained = 0;
        while let Some(Ok(message)) = socket.recv().await {
            drained += match message {
                Message::Close(_) => break,
                Message::Text(text) => text.len(),
                Message::Binary(bytes) | Message::Ping(bytes) | Message::Pong(bytes) => bytes.len(),
            };
            if drained > FLOOD_DRAIN_BYTES {
                break;
            }
        }
        Some(())
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), handshake).await;
}

/// Writes a batch of queued outputs, then flushes once (one socket write for the lot).
async fn write_frames(socket: &mut WebSocket, batch: &mut Vec<Out>) -> Result<(), ()> {
    for out in batch.drain(..) {
        match out {
            Out::Text(text) => socket.feed(Message::Text(text)).await.map_err(drop)?,
            Out::Batch(frames) => {
                for text in frames {
                    socket.feed(Message::Text(text)).await.map_err(drop)?;
                }
            }
            Out::Close(code, reason) => {
                let close = Message::Close(Some(CloseFrame {
                    code,
                    reason: Utf8Bytes::from_static(reason),
                }));
                let _ = socket.send(close).await;
                return Err(());
            }
        }
    }
    socket.flush().await.map_err(drop)
}

impl Conn {
    /// Whether the connection's sign-in has outlived its token at `now`.
    fn sign_in_expired(&self, now: Instant) -> bool {
        self.signed_in_until.is_some_and(|until| now >= until)
    }

    fn error(&self, id: Option<u64>, code: ErrorCode, message: impl Into<String>) {
        self.outbox
            .send_text(error_frame(id, &ProtoError::new(code, message)));
    }

    /// Handles one command; true when it was a game action (roll, move, item) that the
    /// hall answered, for the latency report.
    async fn handle_text(&mut self, text: &str) -> bool {
        let (id, command) = parse_command(text);
        let command = match command {
            Ok(command) => command,
            Err(e) => {
                self.outbox.send_text(error_frame(id, &e));
                return false;
            }
        };
        let id = id.expect("parse_command gives an id with every command");
        if let Some(outcome) = self.answers.get(id) {
            self.outbox
                .send_text(Answer::new(id, &outcome).repeated().to_text());
            return false;
        }
        // Reads change nothing: running them again is harmless, and their answers (long
        // lists) are the ones not worth keeping.
        let remember = !matches!(
            command,
            Command::Hall(
                HallCommand::Ping
                    | HallCommand::Leaderboard { .. }
                    | HallCommand::MyGames { .. }
                    | HallCommand::Profile { .. }
                    | HallCommand::HallPage { .. }
                    | HallCommand::Arenas
                    | HallCommand::ArenaStandings { .. }
                    // Asked again, a review is followed again (or sent again from the store).
                    | HallCommand::Review { .. }
            )
        );
        let (answered, action) = match command {
            Command::Room(command) => {
                let action = command.action.is_game_move();
                (self.room_command(id, command).await, action)
            }
            Command::Hall(command) => match self.hall_command(id, command).await {
                Reply::Sent(answered) => (answered, false),
                Reply::Answer(outcome) => {
                    let frame = Utf8Bytes::from(answer_frame(id, &outcome));
                    self.outbox.send(frame.clone());
                    (Answered { outcome, frame }, false)
                }
            },
        };
        // An `internal` error changed nothing (a write that failed is undone): the same id
        // sent again runs again instead of getting this error back.
        if remember && worth_remembering(&answered.outcome) {
            self.answers.put(id, &answered);
        }
        action
    }

    /// Commands answered here: identity, hall, room creation and quick match.
    async fn hall_command(&mut self, id: u64, command: HallCommand) -> Reply {
        match command {
            HallCommand::HallSubscribe { game } => {
                self.hall.unsubscribe(self.outbox.id);
                // The ack goes first, then the list.
                let outcome = Ok(Ack::DONE);
                let frame = Utf8Bytes::from(answer_frame(id, &outcome));
                self.outbox.send(frame.clone());
                self.hall.subscribe(game, &self.outbox);
                Reply::Sent(Answered { outcome, frame })
            }
            HallCommand::HallPage {
                game,
                offset,
                limit,
                open,
            } => {
                let limit = limit.unwrap_or(HALL_PAGE).clamp(1, HALL_PAGE);
                let (rooms, total) = self.hall.page(game, offset, limit, open);
                Ok(Ack::HallPage(HallPage { rooms, total })).into()
            }
            HallCommand::CreateRoom {
                game,
                private,
                options,
            } => {
                let player = match self.require_player() {
                    Ok(player) => player.clone(),
                    Err(e) => return Err(e).into(),
                };
                if let Err(e) = self.hall.check_seat_limit(player.id) {
                    return Err(e).into();
                }
                // P-SCORE: checked before a room opens for a creator who could not sit in it
                // (bad options are refused by `open_room` below).
                let stake =
                    hangar_games::check_options(game, &options, self.hall.config.turn_seconds)
                        .ok()
                        .and_then(|(checked, _, _)| checked.flight().map(|f| f.stake));
                if let Err(e) = crate::stakes::check_stake(&self.hall.store, player.id, stake).await
                {
                    return Err(e).into();
                }
                match open_room(
                    self.hall.clone(),
                    RoomSettings {
                        game,
                        private,
                        options,
                    },
                ) {
                    Ok(handle) => self.enter_room(id, handle, player, Order::Enter).await,
                    Err(e) => Err(e).into(),
                }
            }
            HallCommand::QuickMatch { game } => self.quick_match(id, game).await,
            HallCommand::UpgradeToBot => self.upgrade_to_bot().await.into(),
            HallCommand::Challenge {
                player,
                game,
                options,
                seats,
            } => self.challenge(id, player, game, options, seats).await,
            HallCommand::AcceptChallenge { challenge } => {
                self.accept_challenge(id, challenge).await
            }
            HallCommand::DeclineChallenge { challenge } => self.decline_challenge(id, challenge),
            HallCommand::CancelChallenge { challenge } => self.cancel_challenge(id, challenge),
            HallCommand::ChallengeSettings => self.challenge_settings().await.into(),
            HallCommand::SetChallengePolicy { challenges } => {
                self.set_challenge_policy(challenges).await.into()
            }
            HallCommand::Block { player } => self.block(player).await.into(),
            HallCommand::Unblock { player } => self.unblock(player).await.into(),
            HallCommand::Ping => Ok(Ack::Pong(Pong {
                time: crate::time::now_ms(),
            }))
            .into(),
            HallCommand::Guest { name, client } => self.guest(name, client).await.into(),
            HallCommand::Register {
                name,
                password,
                client,
            } => self.register(name, password, client).await.into(),
            HallCommand::Login {
                name,
                password,
                client,
            } => {
                let outcome = self.login(name, password, client).await;
                self.signed_in_then_challenges(id, outcome)
            }
            HallCommand::Auth { token, client } => {
                let outcome = self.auth(token, client).await;
                self.signed_in_then_challenges(id, outcome)
            }
            HallCommand::Leaderboard {
                game,
                by,
                offset,
                limit,
                bots,
            } => self.leaderboard(game, by, bots, offset, limit).await.into(),
            HallCommand::Profile { player_id } => self.profile(player_id).await.into(),
            HallCommand::MyGames { limit } => self.my_games(limit).await.into(),
            HallCommand::PlayersOnline { limit } => self.players_online(limit).await.into(),
            HallCommand::SignOutEverywhere => self.sign_out_everywhere().await.into(),
            HallCommand::HallUnsubscribe => {
                self.hall.unsubscribe(self.outbox.id);
                Ok(Ack::DONE).into()
            }
            HallCommand::Arenas => self.arenas().into(),
            HallCommand::ArenaSubscribe { arena } => {
                self.arena_order(id, arena, ArenaOrder::Follow).await.into()
            }
            HallCommand::ArenaUnsubscribe => self.arena_unsubscribe(id).await.into(),
            HallCommand::ArenaJoin { arena } => self.arena_join(id, arena).await.into(),
            HallCommand::ArenaWithdraw { arena } => self
                .arena_order(id, arena, ArenaOrder::Withdraw)
                .await
                .into(),
            HallCommand::ArenaStandings {
                arena,
                offset,
                limit,
            } => self.arena_standings(id, arena, offset, limit).await.into(),
            HallCommand::Review { game } => self.review(id, game).await,
        }
    }

    fn require_player(&self) -> Result<&Player, ProtoError> {
        self.player
            .as_ref()
            .ok_or_else(crate::accounts::sign_in_first)
    }

    /// The request of this connection's player for a room.
    fn request(&self, id: u64, player: Option<Player>, order: Order) -> RoomRequest {
        RoomRequest {
            outbox: self.outbox.clone(),
            player,
            client: self.client.clone(),
            id,
            order,
        }
    }

    /// Sits the player in a room it created or quick match opened; the room answers.
    async fn enter_room(
        &mut self,
        id: u64,
        handle: RoomHandle,
        player: Player,
        order: Order,
    ) -> Reply {
        let request = self.request(id, Some(player), order);
        match handle.command(request).await {
            Ok(answered) => {
                self.rooms.insert(handle.code().to_owned(), handle);
                Reply::Sent(answered)
            }
            Err(RoomClosed) => Reply::Answer(Err(ProtoError::new(
                ErrorCode::NoRoom,
                "the room has closed",
            ))),
        }
    }

    async fn quick_match(&mut self, id: u64, game: GameKind) -> Reply {
        let player = match self.require_player() {
            Ok(player) => player.clone(),
            Err(e) => return Err(e).into(),
        };
        if player.bot {
            let message = "a bot account never plays by quick match: it plays the challenges it accepts (P-BOT-ACCOUNT)";
            return Err(ProtoError::new(ErrorCode::Forbidden, message)).into();
        }
        if let Err(e) = crate::room::storage_available(&self.hall.store)
            .and_then(|()| self.hall.check_seat_limit(player.id))
        {
            return Err(e).into();
        }
        // P-SCORE: quick-match rooms play for the default stake.
        let stake = (game == GameKind::Flight).then_some(hangar_games::DEFAULT_STAKE);
        if let Err(e) = crate::stakes::check_stake(&self.hall.store, player.id, stake).await {
            return Err(e).into();
        }
        for code in self.quick_order(game, player.id).await {
            let Some(handle) = self.hall.find_room(&code).await else {
                continue;
            };
            // Only a free seat is a match; a full room answers quietly and we try the next.
            let request = self.request(id, Some(player.clone()), Order::QuickJoin);
            if let Ok(answered) = handle.command(request).await
                && answered.outcome.is_ok()
            {
                self.rooms.insert(code, handle);
                return Reply::Sent(answered);
            }
        }
        match open_room(
            self.hall.clone(),
            RoomSettings {
                game,
                private: false,
                options: Value::Null,
            },
        ) {
            Ok(handle) => self.enter_room(id, handle, player, Order::QuickOpen).await,
            Err(e) => Err(e).into(),
        }
    }

    /// A command for a room's task.
    async fn room_command(&mut self, id: u64, command: RoomCommand) -> Answered {
        let RoomCommand { mut room, action } = command;
        room.make_ascii_uppercase();
        // A room this connection is in is known here: no lookup in the hall's shared map.
        let known = self.rooms.get(&room).filter(|h| !h.is_closed()).cloned();
        let found = match known {
            Some(handle) => Some(handle),
            None => self.hall.find_room(&room).await,
        };
        let Some(handle) = found else {
            return self.send_error(id, ErrorCode::NoRoom, format!("no room {room}"));
        };
        let joins = matches!(
            action,
            RoomAction::JoinRoom { .. } | RoomAction::Spectate { .. } | RoomAction::TakeSeat { .. }
        );
        let leaves = matches!(action, RoomAction::LeaveRoom { .. });
        let request = self.request(id, self.player.clone(), Order::Command(action));
        match handle.command(request).await {
            Ok(answered) => {
                if answered.outcome.is_ok() && joins {
                    self.rooms.insert(room, handle);
                } else if answered.outcome.is_ok() && leaves {
                    self.rooms.remove(&room);
                }
                answered
            }
            Err(RoomClosed) => {
                self.send_error(id, ErrorCode::NoRoom, format!("room {room} has closed"))
            }
        }
    }

    /// Sends an error answer made here and returns it.
    fn send_error(&self, id: u64, code: ErrorCode, message: String) -> Answered {
        let error = ProtoError::new(code, message);
        let frame = Utf8Bytes::from(error_frame(Some(id), &error));
        self.outbox.send(frame.clone());
        Answered {
            outcome: Err(error),
            frame,
        }
    }
}

fn invalid(message: String) -> ProtoError {
    ProtoError::new(ErrorCode::Invalid, message)
}

fn internal(e: crate::store::StoreError) -> ProtoError {
    tracing::error!(error = %e, "storage failed");
    ProtoError::new(ErrorCode::Internal, "storage failed; nothing was changed")
}
