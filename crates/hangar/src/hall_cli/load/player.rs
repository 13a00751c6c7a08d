//! One client of the swarm: plays its seat of a flight game, and when its connection breaks
//! (a node of a cluster killed or stopped) comes back on another node and resumes where it
//! was: `auth` with its token, `join_room` with the last version it saw, the command that was
//! waiting for its answer sent again with the same id (answered as a repeat if it was done).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

use hangar_protocol::{HallCommand, RoomAction, RoomCommand};

use super::{START_GRACE, Socket, Stats, call, connect};

/// The `client` string of every load client (ids are scoped to the player and it, so a command
/// sent again after a reconnection is recognised as a repeat).
pub(super) const CLIENT: &str = "hangar-load";

/// How long a client waits before sending again a command its room's node did not answer, or
/// before trying the next address when it could not come back.
const RETRY_AFTER: Duration = Duration::from_millis(250);

/// How long a client whose connection broke keeps trying to come back before it gives up.
const RESUME_PATIENCE: Duration = Duration::from_secs(45);

/// A client seated at its table, ready to play.
pub(super) struct Seated {
    pub(super) socket: Socket,
    pub(super) room: String,
    /// The last command id it used.
    pub(super) next_id: u64,
    /// Which of the addresses it is connected to.
    pub(super) node: usize,
    /// Whether its node is not its room's (a cluster).
    pub(super) remote: bool,
    /// Its guest token, to come back with.
    pub(super) token: String,
}

/// The parts of a server frame the swarm looks at; everything else is skipped without
/// being built (borrowed strings, no `serde_json::Value`).
#[derive(Deserialize)]
struct Incoming<'a> {
    #[serde(rename = "type", borrow)]
    kind: &'a str,
    id: Option<u64>,
    /// An error's code.
    #[serde(borrow)]
    code: Option<&'a str>,
    /// The room's version after an event or at a snapshot.
    v: Option<u64>,
    #[serde(borrow)]
    event: Option<EventHead<'a>>,
    /// A snapshot's room (sent on a resume when the missed events are no longer kept).
    #[serde(borrow)]
    state: Option<SnapshotHead<'a>>,
}

#[derive(Deserialize)]
struct SnapshotHead<'a> {
    #[serde(borrow)]
    status: &'a str,
    #[serde(borrow)]
    turn: Option<TurnHead<'a>>,
    game: Option<GameHead>,
}

#[derive(Deserialize)]
struct TurnHead<'a> {
    seat: usize,
    #[serde(borrow)]
    need: &'a str,
}

#[derive(Deserialize)]
struct GameHead {
    moves: Option<Vec<MoveHead>>,
}

#[derive(Deserialize)]
struct EventHead<'a> {
    #[serde(borrow)]
    kind: &'a str,
    seat: Option<usize>,
    #[serde(borrow)]
    need: Option<&'a str>,
    moves: Option<Vec<MoveHead>>,
}

#[derive(Deserialize)]
struct MoveHead {
    plane: u8,
}

/// What a player does with a frame.
enum Step {
    Nothing,
    /// Send the unanswered command again in a moment (the room's node did not answer).
    Retry,
    Act,
    Ready,
    Stop,
}

/// A command sent and not answered yet.
struct Pending {
    id: u64,
    sent: Instant,
    /// Whether it is a game action (counted and timed).
    action: bool,
    /// The command, to send again after a reconnection (shared: no copy per command).
    text: Utf8Bytes,
}

/// One client of the swarm at its seat.
pub(super) struct Player {
    /// How long this table waits before its first `ready` (see where tables are started).
    phase: Duration,
    socket: Socket,
    room: String,
    seat: usize,
    next_id: u64,
    think: Duration,
    /// The hall's addresses (the nodes of a cluster) and the one this client is on.
    addrs: Arc<Vec<String>>,
    node: usize,
    /// Its guest token, to come back with.
    token: String,
    /// The room's version this client has seen (the `since` of a resume).
    v: u64,
    /// Whether it has just rejoined its room: a snapshot then says where the game is (the
    /// snapshot of its first join, before the game, says nothing new).
    rejoined: bool,
    /// The plane to move when asked (the first of the last roll's choices).
    plane: u8,
    /// Whether a game of this table runs (between `game_started` and `game_over`).
    in_game: bool,
    /// Whether this player said `ready` and has not seen its game start yet.
    awaiting_start: bool,
    /// The command awaiting its answer.
    pending: Option<Pending>,
    /// The id of a command sent again after a reconnection: its refusal (the turn was played
    /// for this seat meanwhile) is counted apart from errors.
    resent: Option<u64>,
    /// Whether the time is up: finish the running game, start no other.
    draining: bool,
    /// Fresh bytes for each roll (P-FAIR-DICE); a roll sent again keeps its first ones.
    roll_bytes: super::entropy::RollBytes,
    /// Whether to finish the running game when the time is up (else stop at once).
    finish: bool,
    need_roll: bool,
    /// Whether this player's node is not its room's (a cluster).
    remote: bool,
    latencies: Vec<u32>,
    /// Latencies of actions acknowledged before the timed window opened.
    start_latencies: Vec<u32>,
}

impl Player {
    /// Seat `seat` of a table, on `at`; its first `ready` waits `phase`, each decision `think`;
    /// with `finish` it plays its game to the end when the time is up.
    pub(super) fn new(
        at: Seated,
        seat: usize,
        addrs: Arc<Vec<String>>,
        phase: Duration,
        think: Duration,
        finish: bool,
    ) -> Player {
        Player {
            phase,
            socket: at.socket,
            room: at.room,
            seat,
            next_id: at.next_id,
            think,
            addrs,
            node: at.node,
            token: at.token,
            v: 0,
            rejoined: false,
            plane: 0,
            in_game: false,
            awaiting_start: false,
            pending: None,
            resent: None,
            draining: false,
            roll_bytes: super::entropy::RollBytes::new(),
            finish,
            need_roll: true,
            remote: at.remote,
            latencies: Vec::new(),
            start_latencies: Vec::new(),
        }
    }

    /// Sends a command of the room; false when neither this connection nor a new one took it.
    async fn send(&mut self, kind: &str, extra: &str, action: bool, stats: &Stats) -> bool {
        self.next_id += 1;
        let text = Utf8Bytes::from(format!(
            r#"{{"type":"{kind}","id":{},"room":"{}"{extra}}}"#,
            self.next_id, self.room
        ));
        self.pending = Some(Pending {
            id: self.next_id,
            sent: Instant::now(),
            action,
            text: text.clone(),
        });
        self.socket.send(Message::Text(text)).await.is_ok() || self.resume(stats).await
    }

    /// Whether `id` is the command awaiting its answer.
    fn is_pending(&self, id: Option<u64>) -> bool {
        self.pending.as_ref().is_some_and(|p| Some(p.id) == id)
    }

    /// Sends the unanswered command again, with its id (on a new connection if this one broke).
    async fn send_again(&mut self, stats: &Stats) -> bool {
        match self.mark_sent_again() {
            Some(text) => {
                self.socket.send(Message::Text(text)).await.is_ok() || self.resume(stats).await
            }
            None => true,
        }
    }

    /// The unanswered command, marked as sent again (its refusal is then no error).
    fn mark_sent_again(&mut self) -> Option<Utf8Bytes> {
        let pending = self.pending.as_ref()?;
        self.resent = Some(pending.id);
        Some(pending.text.clone())
    }

    /// The connection broke: comes back on the next address (the same one when there is only
    /// one), signs in with the token, rejoins the room from the last version seen (the missed
    /// events, or a snapshot, follow) and sends the unanswered command again with its id.
    async fn resume(&mut self, stats: &Stats) -> bool {
        let deadline = Instant::now() + RESUME_PATIENCE;
        let mut attempt = 0;
        while Instant::now() < deadline {
            attempt += 1;
            let node = (self.node + attempt) % self.addrs.len();
            let addr = self.addrs[node].clone();
            match self.rejoin(&addr).await {
                Ok(socket) => {
                    self.socket = socket;
                    self.node = node;
                    self.rejoined = true;
                    stats.resumed.fetch_add(1, Ordering::Relaxed);
                    let Some(text) = self.mark_sent_again() else {
                        return true;
                    };
                    if self.socket.send(Message::Text(text)).await.is_ok() {
                        return true;
                    }
                }
                // The room's node may be gone and not taken over yet: try again shortly.
                Err(_) => tokio::time::sleep(RETRY_AFTER).await,
            }
        }
        eprintln!(
            "seat {} of room {} could not come back within {} s",
            self.seat,
            self.room,
            RESUME_PATIENCE.as_secs()
        );
        false
    }

    async fn rejoin(&mut self, addr: &str) -> anyhow::Result<Socket> {
        let mut connection = connect(addr).await?;
        connection.continue_ids_after(self.next_id);
        let auth = HallCommand::Auth {
            token: self.token.clone(),
            client: Some(CLIENT.to_owned()),
        };
        call(&mut connection, &auth).await?;
        let join = RoomCommand {
            room: self.room.clone(),
            action: RoomAction::JoinRoom {
                seat: None,
                since: Some(self.v),
            },
        };
        call(&mut connection, &join).await?;
        self.next_id = connection.last_id();
        Ok(connection.into_socket())
    }

    async fn ready(&mut self, stats: &Stats) -> bool {
        self.awaiting_start = true;
        self.send("ready", r#","ready":true"#, false, stats).await
    }

    pub(super) async fn play(&mut self, stats: &Stats, mut stop: watch::Receiver<bool>) {
        if !self.phase.is_zero() {
            tokio::time::sleep(self.phase).await;
        }
        if !self.ready(stats).await {
            return;
        }
        // After the window, a player who said `ready` waits this long for its game to start:
        // the hall may hold `game_started` for a moment (broadcast delay) for players who do
        // not act first, and the game then needs all four to finish.
        let mut start_deadline: Option<Instant> = None;
        loop {
            let message = if let Some(deadline) = start_deadline.filter(|_| !self.in_game) {
                let left = deadline.saturating_duration_since(Instant::now());
                match tokio::time::timeout(left, self.socket.next()).await {
                    Ok(message) => message,
                    Err(_) => break,
                }
            } else if self.draining {
                self.socket.next().await
            } else {
                tokio::select! {
                    m = self.socket.next() => m,
                    _ = stop.changed() => {
                        self.draining = true;
                        if !self.finish || !(self.in_game || self.awaiting_start) {
                            break;
                        }
                        if !self.in_game {
                            start_deadline = Some(Instant::now() + START_GRACE);
                        }
                        continue;
                    }
                }
            };
            let text = match message {
                Some(Ok(Message::Text(text))) => text,
                Some(Ok(_)) => continue,
                // Closed or broken (its node stopped or died): come back elsewhere.
                _ if self.resume(stats).await => continue,
                _ => break,
            };
            match self.read(&text, stats) {
                Step::Nothing => {}
                Step::Stop => break,
                Step::Ready => {
                    if !self.ready(stats).await {
                        break;
                    }
                }
                Step::Retry => {
                    tokio::time::sleep(RETRY_AFTER).await;
                    if !self.send_again(stats).await {
                        break;
                    }
                }
                Step::Act => {
                    if !self.think.is_zero() {
                        tokio::time::sleep(self.think).await;
                    }
                    let sent = if self.need_roll {
                        let entropy = self.roll_bytes.field();
                        self.send("roll", &entropy, true, stats).await
                    } else {
                        let plane = format!(r#","plane":{}"#, self.plane);
                        self.send("move", &plane, true, stats).await
                    };
                    if !sent {
                        break;
                    }
                }
            }
        }
        let kept = if self.remote {
            &stats.remote_latencies
        } else {
            &stats.latencies
        };
        kept.lock().await.extend(self.latencies.drain(..));
        stats
            .start_latencies
            .lock()
            .await
            .extend(self.start_latencies.drain(..));
    }

    /// Reads one frame: counts acks and errors, follows the game, says what to do next.
    fn read(&mut self, text: &str, stats: &Stats) -> Step {
        // Most frames are other seats' `moved` events, which need nothing but their version:
        // skip them unread.
        if text.contains(r#""kind":"moved""#) {
            if let Some(v) = version_of(text) {
                self.v = v;
            }
            return Step::Nothing;
        }
        let Ok(frame) = serde_json::from_str::<Incoming>(text) else {
            return Step::Nothing;
        };
        if let Some(v) = frame.v {
            self.v = v;
        }
        match frame.kind {
            "ack" => {
                let answered = self.pending.take_if(|p| frame.id == Some(p.id));
                if let Some(Pending {
                    sent, action: true, ..
                }) = answered
                {
                    if self.draining {
                        stats.late_actions.fetch_add(1, Ordering::Relaxed);
                    } else if !stats.window_open.load(Ordering::Relaxed) {
                        let micros = sent.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                        self.start_latencies.push(micros);
                        stats.start_actions.fetch_add(1, Ordering::Relaxed);
                    } else {
                        let micros = sent.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                        self.latencies.push(micros);
                        stats.actions.fetch_add(1, Ordering::Relaxed);
                    }
                }
                Step::Nothing
            }
            "error" if frame.code == Some("unavailable") && self.is_pending(frame.id) => {
                // The room's node did not answer (stopped or died; its rooms are moving):
                // nothing was done, and the same command may be sent again.
                stats.retried.fetch_add(1, Ordering::Relaxed);
                Step::Retry
            }
            "error" => {
                self.pending = None;
                if frame.id.is_some() && frame.id == self.resent {
                    // Sent again after a reconnection, but the turn was played for this seat
                    // meanwhile (auto-play of an away player): not a fault.
                    stats.resent_refused.fetch_add(1, Ordering::Relaxed);
                } else if stats.errors.fetch_add(1, Ordering::Relaxed) < 3 {
                    eprintln!("error: {text}");
                }
                Step::Nothing
            }
            "snapshot" => self.read_snapshot(frame.state),
            "event" => {
                let Some(event) = frame.event else {
                    return Step::Nothing;
                };
                let mine = event.seat == Some(self.seat);
                match event.kind {
                    "rolled" if mine => {
                        self.plane = event
                            .moves
                            .and_then(|m| m.first().map(|m| m.plane))
                            .unwrap_or(0);
                        Step::Nothing
                    }
                    "turn" if mine => {
                        self.need_roll = event.need == Some("roll");
                        Step::Act
                    }
                    "game_started" => {
                        self.in_game = true;
                        self.awaiting_start = false;
                        if self.seat == 0 {
                            stats.started.fetch_add(1, Ordering::Relaxed);
                        }
                        Step::Nothing
                    }
                    "game_over" => {
                        self.in_game = false;
                        if self.seat == 0 {
                            stats.finished.fetch_add(1, Ordering::Relaxed);
                        }
                        // The room reopens: play again, unless the time is up.
                        if self.draining {
                            Step::Stop
                        } else {
                            Step::Ready
                        }
                    }
                    _ => Step::Nothing,
                }
            }
            _ => Step::Nothing,
        }
    }

    /// A snapshot instead of the missed events (a resume from too far back): where the game is.
    fn read_snapshot(&mut self, state: Option<SnapshotHead>) -> Step {
        let Some(state) = state.filter(|_| std::mem::take(&mut self.rejoined)) else {
            return Step::Nothing;
        };
        if state.status == "waiting" {
            // The game ended while this client was away.
            self.in_game = false;
            return if self.draining {
                Step::Stop
            } else {
                Step::Ready
            };
        }
        self.in_game = true;
        self.awaiting_start = false;
        match state.turn {
            Some(turn) if turn.seat == self.seat && self.pending.is_none() => {
                self.need_roll = turn.need == "roll";
                if let Some(first) = state
                    .game
                    .and_then(|g| g.moves)
                    .and_then(|m| m.first().map(|m| m.plane))
                {
                    self.plane = first;
                }
                Step::Act
            }
            _ => Step::Nothing,
        }
    }
}

/// The room version of an event frame (`{"type":"event","room":"…","v":42,…}`), read without
/// parsing the frame.
fn version_of(text: &str) -> Option<u64> {
    let start = text.find(r#","v":"#)? + 5;
    let digits = &text[start..];
    let end = digits.find(|c: char| !c.is_ascii_digit())?;
    digits[..end].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::version_of;

    #[test]
    fn an_events_version_is_read_without_parsing_it() {
        let frame = r#"{"type":"event","room":"K7QX2M","v":42,"event":{"kind":"moved","v":7}}"#;
        assert_eq!(version_of(frame), Some(42));
        assert_eq!(version_of(r#"{"type":"event"}"#), None);
    }
}
