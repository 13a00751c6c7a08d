//! One WebSocket connection: reads commands (size and rate limits, ids answered once),
//! handles identity and hall commands itself, hands room commands to the room's task, and
//! writes queued frames in batches.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::SinkExt;
use serde_json::{Value, json};
use tokio::time::Instant;

use crate::accounts::{
    Player, check_name, check_password, hash_password, token_well_formed, verify_password,
};
use crate::hall::{AnswerCache, Hall};
use crate::outbox::{Out, Outbox};
use crate::protocol::{
    Answer, Command, ErrorCode, GameKind, MAX_MESSAGE_BYTES, ProtoError, answer_frame, error_frame,
    parse_command, welcome_frame,
};
use crate::room::{RoomHandle, RoomSettings, open_room};

/// Largest frame read at all; bigger ones close the socket with code 1009.
pub const HARD_MAX_MESSAGE_BYTES: usize = 64 * 1024;

/// A token bucket: `rate` per second, at most `burst` at once.
struct RateLimit {
    tokens: f64,
    last: Instant,
    rate: f64,
    burst: f64,
}

impl RateLimit {
    fn new(rate: u32, burst: u32) -> Self {
        RateLimit {
            tokens: f64::from(burst),
            last: Instant::now(),
            rate: f64::from(rate),
            burst: f64::from(burst),
        }
    }

    fn allow(&mut self) -> bool {
        let now = Instant::now();
        let elapsed = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Where repeated ids are looked up: the player's client memory, or this connection's.
enum Answers {
    Local(AnswerCache),
    Shared(Arc<Mutex<AnswerCache>>),
}

impl Answers {
    fn get(&self, id: u64) -> Option<String> {
        match self {
            Answers::Local(cache) => cache.get(id).map(str::to_owned),
            Answers::Shared(cache) => cache.lock().expect("cache lock").get(id).map(str::to_owned),
        }
    }

    fn put(&mut self, id: u64, frame: Utf8Bytes) {
        match self {
            Answers::Local(cache) => cache.put(id, frame),
            Answers::Shared(cache) => cache.lock().expect("cache lock").put(id, frame),
        }
    }
}

/// What a locally handled command gave: an answer to send, or a frame already sent.
enum Reply {
    Answer(Answer),
    Sent(Utf8Bytes),
}

impl From<Answer> for Reply {
    fn from(answer: Answer) -> Self {
        Reply::Answer(answer)
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
}

/// Serves one upgraded WebSocket until it closes. One task per connection both reads
/// commands and writes what rooms and the hall queued: no split socket, no second task, and
/// everything queued while a command ran (its answer, then its events) leaves in one write.
pub async fn serve_socket(mut socket: WebSocket, hall: Arc<Hall>) {
    let (outbox, mut rx) = Outbox::new();
    hall.count_connection(true);
    outbox.send_text(welcome_frame());
    let mut conn = Conn {
        hall: hall.clone(),
        outbox: outbox.clone(),
        player: None,
        client: None,
        answers: Answers::Local(AnswerCache::default()),
        rooms: HashMap::new(),
    };
    let (per_second, burst) = (hall.config.messages_per_second, hall.config.message_burst);
    let mut rate = RateLimit::new(per_second, burst);
    let mut batch = Vec::with_capacity(16);
    // When the game action whose ack is queued was read (for the latency report).
    let mut acked_since = None;
    loop {
        let message = tokio::select! {
            // Output first: a client waiting for an answer is served before it is read again.
            biased;
            _ = rx.recv_many(&mut batch, 64) => {
                if write_frames(&mut socket, &mut batch).await.is_err() {
                    break;
                }
                if let Some(since) = acked_since.take() {
                    crate::latency::record(since);
                }
                continue;
            }
            message = socket.recv() => message,
        };
        let received = Instant::now();
        let text = match message {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Binary(_))) => {
                conn.error(
                    None,
                    ErrorCode::BadMessage,
                    "binary frames are not accepted: send JSON text",
                );
                continue;
            }
            Some(Ok(Message::Close(_))) | None => break,
            Some(Ok(_)) => continue,
            Some(Err(e)) => {
                tracing::debug!(error = %e, "websocket read failed");
                let close = Message::Close(Some(CloseFrame {
                    code: 1009,
                    reason: Utf8Bytes::from_static("message too big or broken frame"),
                }));
                let _ = tokio::time::timeout(Duration::from_secs(5), socket.send(close)).await;
                break;
            }
        };
        if !rate.allow() {
            let (id, _) = parse_command(&text);
            conn.error(
                id,
                ErrorCode::RateLimited,
                format!("at most {per_second} messages per second (burst {burst})"),
            );
            continue;
        }
        if text.len() > MAX_MESSAGE_BYTES {
            let (id, _) = parse_command(&text);
            conn.error(
                id,
                ErrorCode::TooLarge,
                format!("a message is at most {MAX_MESSAGE_BYTES} bytes"),
            );
            continue;
        }
        if conn.handle_text(&text).await {
            acked_since = Some(received);
        }
    }
    for room in conn.rooms.values() {
        room.detach(outbox.id);
    }
    hall.unsubscribe(outbox.id);
    hall.count_connection(false);
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
        if let Some(frame) = self.answers.get(id) {
            self.outbox.send_text(mark_repeat(&frame));
            return false;
        }
        let action = matches!(
            command,
            Command::Roll { .. } | Command::Move { .. } | Command::UseItem { .. }
        );
        let frame = match room_of(&command) {
            Some(code) => self.room_command(id, code.to_owned(), command).await,
            None => match self.local_command(id, command).await {
                Reply::Sent(frame) => frame,
                Reply::Answer(answer) => {
                    let frame = Utf8Bytes::from(answer_frame(id, &answer));
                    self.outbox.send(frame.clone());
                    frame
                }
            },
        };
        self.answers.put(id, frame);
        action
    }

    /// Commands answered here: identity, hall, room creation and quick match.
    async fn local_command(&mut self, id: u64, command: Command) -> Reply {
        match command {
            Command::HallSubscribe { game } => {
                self.hall.unsubscribe(self.outbox.id);
                // The ack goes first, then the list.
                let frame = Utf8Bytes::from(answer_frame(id, &Ok(json!({}))));
                self.outbox.send(frame.clone());
                self.hall.subscribe(game, &self.outbox);
                Reply::Sent(frame)
            }
            Command::CreateRoom {
                game,
                private,
                options,
            } => {
                let player = match self.require_player() {
                    Ok(player) => player.clone(),
                    Err(e) => return Err(e).into(),
                };
                match open_room(
                    &self.hall,
                    RoomSettings {
                        game,
                        private,
                        options,
                    },
                ) {
                    Ok(handle) => self.enter_room(id, handle, player).await,
                    Err(e) => Err(e).into(),
                }
            }
            Command::QuickMatch { game } => self.quick_match(id, game).await,
            other => self.identity_command(other).await.into(),
        }
    }

    /// Identity, leaderboard and history commands.
    async fn identity_command(&mut self, command: Command) -> Answer {
        match command {
            Command::Ping => Ok(json!({"time": crate::time::now_ms()})),
            Command::Guest { name, client } => {
                check_name(&name).map_err(|e| invalid(e.to_string()))?;
                let (player, token) = self
                    .hall
                    .store
                    .create_player(&name, None)
                    .await
                    .map_err(internal)?;
                self.sign_in(player.clone(), client.as_deref());
                Ok(json!({"token": token, "player": player.view()}))
            }
            Command::Register {
                name,
                password,
                client,
            } => self.register(name, password, client).await,
            Command::Login {
                name,
                password,
                client,
            } => {
                let found = self.hall.store.account(&name).await.map_err(internal)?;
                let Some((player, hash)) = found else {
                    return Err(ProtoError::new(
                        ErrorCode::BadCredentials,
                        "wrong name or password",
                    ));
                };
                let ok = tokio::task::spawn_blocking(move || verify_password(&password, &hash))
                    .await
                    .unwrap_or(false);
                if !ok {
                    return Err(ProtoError::new(
                        ErrorCode::BadCredentials,
                        "wrong name or password",
                    ));
                }
                let token = self
                    .hall
                    .store
                    .issue_token(player.id)
                    .await
                    .map_err(internal)?;
                self.sign_in(player.clone(), client.as_deref());
                Ok(json!({"token": token, "player": player.view()}))
            }
            Command::Auth { token, client } => {
                if !token_well_formed(&token) {
                    return Err(ProtoError::new(
                        ErrorCode::BadToken,
                        "a token is 32 hexadecimal digits",
                    ));
                }
                let Some(player) = self
                    .hall
                    .store
                    .player_by_token(&token)
                    .await
                    .map_err(internal)?
                else {
                    return Err(ProtoError::new(ErrorCode::BadToken, "unknown token"));
                };
                self.sign_in(player.clone(), client.as_deref());
                Ok(json!({"player": player.view(), "rooms": self.hall.seated_rooms(player.id)}))
            }
            Command::Leaderboard { limit } => {
                let limit = limit.unwrap_or(20).clamp(1, 100);
                let players = self.hall.store.leaderboard(limit).await.map_err(internal)?;
                let entries: Vec<Value> = players
                    .iter()
                    .enumerate()
                    .map(|(i, p)| json!({"rank": i + 1, "player": p.view()}))
                    .collect();
                Ok(json!({"entries": entries}))
            }
            Command::MyGames { limit } => {
                let player = self.require_player()?;
                let games = self
                    .hall
                    .store
                    .player_games(player.id, limit.unwrap_or(20).clamp(1, 100))
                    .await
                    .map_err(internal)?;
                Ok(json!({"games": games}))
            }
            Command::HallUnsubscribe => {
                self.hall.unsubscribe(self.outbox.id);
                Ok(json!({}))
            }
            _ => Err(ProtoError::new(ErrorCode::Internal, "not a local command")),
        }
    }

    fn require_player(&self) -> Result<&Player, ProtoError> {
        self.player.as_ref().ok_or_else(|| {
            ProtoError::new(
                ErrorCode::Unauthenticated,
                "sign in first (guest, login, register or auth)",
            )
        })
    }

    fn sign_in(&mut self, player: Player, client: Option<&str>) {
        if let Some(client) = client.filter(|c| !c.is_empty() && c.len() <= 64) {
            self.answers = Answers::Shared(self.hall.answer_cache(player.id, client));
            self.client = Some(Arc::from(client));
        } else {
            // Another player's memory must not answer for this one.
            self.answers = Answers::Local(AnswerCache::default());
            self.client = None;
        }
        self.player = Some(player);
    }

    async fn register(&mut self, name: String, password: String, client: Option<String>) -> Answer {
        check_name(&name).map_err(|e| invalid(e.to_string()))?;
        check_password(&password).map_err(|e| invalid(e.to_string()))?;
        if self.hall.store.name_taken(&name).await.map_err(internal)? {
            return Err(ProtoError::new(
                ErrorCode::NameTaken,
                format!("the name {name:?} is taken"),
            ));
        }
        let hash = tokio::task::spawn_blocking(move || hash_password(&password))
            .await
            .map_err(|_| ProtoError::new(ErrorCode::Internal, "hashing failed"))?;
        let (player, token) = match self.player.clone().filter(|p| p.guest) {
            Some(mut guest) => {
                self.hall
                    .store
                    .upgrade_guest(guest.id, &name, &hash)
                    .await
                    .map_err(|_| {
                        ProtoError::new(ErrorCode::NameTaken, format!("the name {name:?} is taken"))
                    })?;
                guest.name = name;
                guest.guest = false;
                let token = self
                    .hall
                    .store
                    .issue_token(guest.id)
                    .await
                    .map_err(internal)?;
                (guest, token)
            }
            None => self
                .hall
                .store
                .create_player(&name, Some(&hash))
                .await
                .map_err(|_| {
                    ProtoError::new(ErrorCode::NameTaken, format!("the name {name:?} is taken"))
                })?,
        };
        self.sign_in(player.clone(), client.as_deref());
        Ok(json!({"token": token, "player": player.view()}))
    }

    /// Sends a join to a room on behalf of create/quick match; the room answers.
    async fn enter_room(&mut self, id: u64, handle: RoomHandle, player: Player) -> Reply {
        let command = Command::JoinRoom {
            room: handle.code().to_owned(),
            seat: None,
            since: None,
        };
        match handle
            .command(
                &self.outbox,
                Some(player),
                self.client.clone(),
                id,
                command,
                false,
            )
            .await
        {
            Some(frame) => {
                self.rooms.insert(handle.code().to_owned(), handle);
                Reply::Sent(frame)
            }
            None => Reply::Answer(Err(ProtoError::new(
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
        for code in self.hall.quick_candidates(game) {
            let Some(handle) = self.hall.room(&code) else {
                continue;
            };
            // Only a free seat is a match; a full room answers quietly and we try the next.
            let command = Command::QuickJoin;
            if let Some(frame) = handle
                .command(
                    &self.outbox,
                    Some(player.clone()),
                    self.client.clone(),
                    id,
                    command,
                    true,
                )
                .await
                && frame.as_str().contains("\"type\":\"ack\"")
            {
                self.rooms.insert(code, handle);
                return Reply::Sent(frame);
            }
        }
        match open_room(
            &self.hall,
            RoomSettings {
                game,
                private: false,
                options: Value::Null,
            },
        ) {
            Ok(handle) => self.enter_room(id, handle, player).await,
            Err(e) => Err(e).into(),
        }
    }

    /// A command for a room's task.
    async fn room_command(&mut self, id: u64, mut code: String, command: Command) -> Utf8Bytes {
        code.make_ascii_uppercase();
        // A room this connection is in is known here: no lookup in the hall's shared map.
        let known = self.rooms.get(&code).filter(|h| !h.is_closed()).cloned();
        let handle = match known.or_else(|| self.hall.room(&code)) {
            Some(handle) => handle,
            None => {
                let frame = Utf8Bytes::from(error_frame(
                    Some(id),
                    &ProtoError::new(ErrorCode::NoRoom, format!("no room {code}")),
                ));
                self.outbox.send(frame.clone());
                return frame;
            }
        };
        let joins = matches!(
            command,
            Command::JoinRoom { .. } | Command::Spectate { .. } | Command::TakeSeat { .. }
        );
        let leaves = matches!(command, Command::LeaveRoom { .. });
        match handle
            .command(
                &self.outbox,
                self.player.clone(),
                self.client.clone(),
                id,
                command,
                false,
            )
            .await
        {
            Some(frame) => {
                let ok = frame.as_str().contains("\"type\":\"ack\"");
                if ok && joins {
                    self.rooms.insert(code, handle);
                } else if ok && leaves {
                    self.rooms.remove(&code);
                }
                frame
            }
            None => {
                let frame = Utf8Bytes::from(error_frame(
                    Some(id),
                    &ProtoError::new(ErrorCode::NoRoom, format!("room {code} has closed")),
                ));
                self.outbox.send(frame.clone());
                frame
            }
        }
    }
}

/// The room a command is addressed to, if it is a room command.
fn room_of(command: &Command) -> Option<&str> {
    match command {
        Command::JoinRoom { room, .. }
        | Command::Spectate { room, .. }
        | Command::TakeSeat { room, .. }
        | Command::Ready { room, .. }
        | Command::AddBot { room, .. }
        | Command::RemoveBot { room, .. }
        | Command::Chat { room, .. }
        | Command::LeaveRoom { room, .. }
        | Command::Roll { room }
        | Command::Move { room, .. }
        | Command::UseItem { room, .. }
        | Command::Autoplay { room, .. }
        | Command::Resign { room }
        | Command::OfferDraw { room }
        | Command::AnswerDraw { room, .. } => Some(room),
        _ => None,
    }
}

/// The same answer again, marked as a repeat.
fn mark_repeat(frame: &str) -> String {
    match serde_json::from_str::<Value>(frame) {
        Ok(mut value) => {
            value["repeat"] = Value::Bool(true);
            value.to_string()
        }
        Err(_) => frame.to_owned(),
    }
}

fn invalid(message: String) -> ProtoError {
    ProtoError::new(ErrorCode::Invalid, message)
}

fn internal(e: crate::store::StoreError) -> ProtoError {
    tracing::error!(error = %e, "storage failed");
    ProtoError::new(ErrorCode::Internal, "storage failed; nothing was changed")
}
