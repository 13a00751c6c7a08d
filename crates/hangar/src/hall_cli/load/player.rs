//! One client of the swarm: plays its seat of a flight game, and when its connection breaks
//! (a node of a cluster killed or stopped) comes back on another node and resumes where it
//! was: `auth` with its token, `join_room` with the last version it saw, the command that was
//! waiting for its answer sent again with the same id (answered as a repeat if it was done).
//! A refusal of that command is an error unless the room's events show auto-play moving the
//! seat on before it ran ([`SeatMoves`]).

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
    /// Whether an ack answers a command that had already run (a repeated id).
    repeat: Option<bool>,
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
    seats: Option<Vec<SeatHead>>,
}

#[derive(Deserialize)]
struct SeatHead {
    autoplay: bool,
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
    /// A roll's bytes: a person's roll carries them, auto-play's and the timer's none.
    #[serde(borrow)]
    entropy: Option<&'a str>,
    /// Whether an `autoplay` event switched auto-play on.
    on: Option<bool>,
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
    /// What this client saw happen to its seat since the command was first sent.
    seen: SeatMoves,
}

/// What a client saw happen to its own seat while a command awaited its answer: the evidence
/// for judging a refusal of that command sent again (after a reconnection, or after
/// `unavailable`). A refusal is right only when the command never ran and something else
/// moved the seat on meanwhile — the hall's auto-play acting for the away player
/// (P-DISCONNECT) or the turn timer (P-TIMER). Live events do not mark auto-play's actions, so
/// an action of the seat counts as auto-play's when it came while the room's `autoplay`
/// events had auto-play on for the seat (and, for a roll, carried none of a person's bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct SeatMoves {
    /// An action of this seat that auto-play did not make: the command itself, run.
    own: bool,
    /// An action auto-play or the timer made for this seat.
    auto: bool,
    /// A snapshot came instead of the missed events: what happened before it is unknown.
    gap: bool,
}

/// How a command sent again and refused is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    /// Auto-play (or the timer) moved the seat on and the command never ran: not a fault.
    AutoPlayed,
    /// Nothing seen excuses it: the command ran and its repeat was refused, or nothing moved
    /// the seat on. An error.
    Fault,
    /// A snapshot hid what happened, so the client cannot tell whether the command ran:
    /// counted as an error all the same (a refusal is excused only on evidence).
    Unseen,
}

impl SeatMoves {
    /// Notes an action of this seat; `auto` when auto-play or the timer made it.
    fn note(&mut self, auto: bool) {
        if auto {
            self.auto = true;
        } else {
            self.own = true;
        }
    }

    /// How a refusal of the command sent again is counted, on what was seen.
    fn judge(self) -> Refusal {
        if self.own {
            Refusal::Fault
        } else if self.gap {
            // Even auto-play's action seen before the snapshot does not show that the
            // command did not run after it, unseen.
            Refusal::Unseen
        } else if self.auto {
            Refusal::AutoPlayed
        } else {
            Refusal::Fault
        }
    }
}

/// What one client knows of its table, read from the frames it receives (no socket here:
/// the reading is tested on recorded frames).
struct Table {
    seat: usize,
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
    /// The id of a command sent again after a reconnection or `unavailable`: its refusal is
    /// judged on what the seat went through meanwhile ([`SeatMoves`]).
    resent: Option<u64>,
    /// Whether auto-play is on for this seat, as the room's `autoplay` events say.
    autoplay: bool,
    /// Whether a snapshot showed this seat's turn while a command awaited its answer: the
    /// turn is played once the answer shows the command will bring no event (a repeat, or
    /// a refusal), unless a `turn` event came meanwhile.
    snapshot_turn: bool,
    /// Whether the time is up: finish the running game, start no other.
    draining: bool,
    need_roll: bool,
    latencies: Vec<u32>,
    /// Latencies of actions acknowledged before the timed window opened.
    start_latencies: Vec<u32>,
}

impl Table {
    fn new(seat: usize) -> Table {
        Table {
            seat,
            v: 0,
            rejoined: false,
            plane: 0,
            in_game: false,
            awaiting_start: false,
            pending: None,
            resent: None,
            autoplay: false,
            snapshot_turn: false,
            draining: false,
            need_roll: true,
            latencies: Vec::new(),
            start_latencies: Vec::new(),
        }
    }

    /// A command was sent: it awaits its answer (`action`: a game action, counted and timed).
    fn sent(&mut self, id: u64, action: bool, text: Utf8Bytes) {
        self.pending = Some(Pending {
            id,
            sent: Instant::now(),
            action,
            text,
            seen: SeatMoves::default(),
        });
    }

    /// The connection came back and rejoined the room: the unanswered command, marked as sent
    /// again, to send on the new connection.
    fn rejoined(&mut self) -> Option<Utf8Bytes> {
        self.rejoined = true;
        self.mark_sent_again()
    }

    /// Whether `id` is the command awaiting its answer.
    fn is_pending(&self, id: Option<u64>) -> bool {
        self.pending.as_ref().is_some_and(|p| Some(p.id) == id)
    }

    /// The unanswered command, marked as sent again (its refusal is then judged apart).
    fn mark_sent_again(&mut self) -> Option<Utf8Bytes> {
        let pending = self.pending.as_ref()?;
        self.resent = Some(pending.id);
        Some(pending.text.clone())
    }

    /// Notes an action of this seat on the command awaiting its answer (nothing to note when
    /// none awaits one). `person` is true for a roll that carried a person's bytes.
    fn note_own_seat(&mut self, person: bool) {
        let auto = self.autoplay && !person;
        if let Some(pending) = self.pending.as_mut() {
            pending.seen.note(auto);
        }
    }

    /// Reads one frame: counts acks and errors, follows the game, says what to do next.
    fn read(&mut self, text: &str, stats: &Stats) -> Step {
        // Most frames are other seats' `moved` events, which need nothing but their version:
        // skip them unread. Only while a command awaits its answer is the seat looked at
        // (a `moved` of this seat then is the command run, or auto-play's).
        if text.contains(r#""kind":"moved""#) {
            if let Some(v) = version_of(text) {
                self.v = v;
            }
            if self.pending.is_some() && seat_of_moved(text) == Some(self.seat) {
                self.note_own_seat(false);
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
            "ack" => self.read_ack(frame.id, frame.repeat == Some(true), stats),
            "error" if frame.code == Some("unavailable") && self.is_pending(frame.id) => {
                // The room's node did not answer (stopped or died; its rooms are moving):
                // nothing was done, and the same command may be sent again.
                stats.retried.fetch_add(1, Ordering::Relaxed);
                Step::Retry
            }
            "error" => self.read_error(frame.id, text, stats),
            "snapshot" => self.read_snapshot(frame.state),
            "event" => match frame.event {
                Some(event) => self.read_event(event, stats),
                None => Step::Nothing,
            },
            _ => Step::Nothing,
        }
    }

    /// An acknowledgement: the answered action is counted and timed. A repeat (the command
    /// had run before a snapshot showed the game) is followed by no event of it: the
    /// snapshot's turn is then this seat's to play.
    fn read_ack(&mut self, id: Option<u64>, repeat: bool, stats: &Stats) -> Step {
        let answered = self.pending.take_if(|p| id == Some(p.id));
        let step = self.turn_after_answer(answered.is_some() && repeat);
        let Some(Pending {
            sent, action: true, ..
        }) = answered
        else {
            return step;
        };
        let micros = sent.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
        if self.draining {
            stats.late_actions.fetch_add(1, Ordering::Relaxed);
        } else if !stats.window_open.load(Ordering::Relaxed) {
            self.start_latencies.push(micros);
            stats.start_actions.fetch_add(1, Ordering::Relaxed);
        } else {
            self.latencies.push(micros);
            stats.actions.fetch_add(1, Ordering::Relaxed);
        }
        step
    }

    /// What to do once the command awaiting its answer is answered: play the turn a snapshot
    /// showed (`snapshot_turn`) when `its_turn`, i.e. when no event of the command will follow.
    fn turn_after_answer(&mut self, its_turn: bool) -> Step {
        if std::mem::take(&mut self.snapshot_turn) && its_turn {
            Step::Act
        } else {
            Step::Nothing
        }
    }

    /// A refusal: an error, unless it refused a command sent again that auto-play had
    /// overtaken ([`SeatMoves::judge`]).
    /// A refused command changed nothing: the turn a snapshot showed is still to be played.
    fn read_error(&mut self, id: Option<u64>, text: &str, stats: &Stats) -> Step {
        let refused = self.pending.take().filter(|p| id == Some(p.id));
        let step = self.turn_after_answer(refused.is_some());
        let resent = refused
            .filter(|p| self.resent == Some(p.id))
            .map(|p| p.seen.judge());
        match resent {
            Some(Refusal::AutoPlayed) => {
                stats.resent_auto_played.fetch_add(1, Ordering::Relaxed);
                return step;
            }
            Some(Refusal::Unseen) => {
                stats.resent_refused.fetch_add(1, Ordering::Relaxed);
                stats.resent_unseen.fetch_add(1, Ordering::Relaxed);
            }
            Some(Refusal::Fault) => {
                stats.resent_refused.fetch_add(1, Ordering::Relaxed);
            }
            None => {}
        }
        if stats.errors.fetch_add(1, Ordering::Relaxed) < 3 {
            let again = if resent.is_some() {
                " (sent again)"
            } else {
                ""
            };
            eprintln!("error{again}: {text}");
        }
        step
    }

    /// A room event: follows the game, and this seat's actions and auto-play.
    fn read_event(&mut self, event: EventHead, stats: &Stats) -> Step {
        let mine = event.seat == Some(self.seat);
        match event.kind {
            "rolled" if mine => {
                // A person's roll carries the roller's bytes; the hall's (auto-play, the
                // timer) none.
                self.note_own_seat(event.entropy.is_some());
                self.plane = event
                    .moves
                    .and_then(|m| m.first().map(|m| m.plane))
                    .unwrap_or(0);
                Step::Nothing
            }
            "autoplay" if mine => {
                self.autoplay = event.on == Some(true);
                Step::Nothing
            }
            "turn" => {
                // A later turn than the snapshot's.
                self.snapshot_turn = false;
                if !mine {
                    return Step::Nothing;
                }
                self.need_roll = event.need == Some("roll");
                Step::Act
            }
            "game_started" => {
                self.in_game = true;
                self.awaiting_start = false;
                // A game starts with auto-play off for every seat.
                self.autoplay = false;
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

    /// A snapshot instead of the missed events (a resume from too far back, or into a room
    /// rebuilt on another node): where the game is. What happened to the seat before it is
    /// unknown to the command awaiting its answer.
    fn read_snapshot(&mut self, state: Option<SnapshotHead>) -> Step {
        let Some(state) = state.filter(|_| std::mem::take(&mut self.rejoined)) else {
            return Step::Nothing;
        };
        if let Some(pending) = self.pending.as_mut() {
            pending.seen.gap = true;
        }
        if let Some(seat) = state.seats.as_ref().and_then(|s| s.get(self.seat)) {
            self.autoplay = seat.autoplay;
        }
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
            Some(turn) if turn.seat == self.seat => {
                self.need_roll = turn.need == "roll";
                if let Some(first) = state
                    .game
                    .and_then(|g| g.moves)
                    .and_then(|m| m.first().map(|m| m.plane))
                {
                    self.plane = first;
                }
                // With a command sent again awaiting its answer, the turn is played once that
                // answer says no event of the command will come (see `read_ack`).
                self.snapshot_turn = self.pending.is_some();
                if self.snapshot_turn {
                    Step::Nothing
                } else {
                    Step::Act
                }
            }
            _ => Step::Nothing,
        }
    }
}

/// One client of the swarm at its seat.
pub(super) struct Player {
    /// How long this table waits before its first `ready` (see where tables are started).
    phase: Duration,
    socket: Socket,
    room: String,
    next_id: u64,
    think: Duration,
    /// The hall's addresses (the nodes of a cluster) and the one this client is on.
    addrs: Arc<Vec<String>>,
    node: usize,
    /// Its guest token, to come back with.
    token: String,
    /// What it knows of its table.
    table: Table,
    /// Fresh bytes for each roll (P-FAIR-DICE); a roll sent again keeps its first ones.
    roll_bytes: super::entropy::RollBytes,
    /// Whether to finish the running game when the time is up (else stop at once).
    finish: bool,
    /// Whether this player's node is not its room's (a cluster).
    remote: bool,
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
            next_id: at.next_id,
            think,
            addrs,
            node: at.node,
            token: at.token,
            table: Table::new(seat),
            roll_bytes: super::entropy::RollBytes::new(),
            finish,
            remote: at.remote,
        }
    }

    /// Sends a command of the room; false when neither this connection nor a new one took it.
    async fn send(&mut self, kind: &str, extra: &str, action: bool, stats: &Stats) -> bool {
        self.next_id += 1;
        let text = Utf8Bytes::from(format!(
            r#"{{"type":"{kind}","id":{},"room":"{}"{extra}}}"#,
            self.next_id, self.room
        ));
        self.table.sent(self.next_id, action, text.clone());
        self.socket.send(Message::Text(text)).await.is_ok() || self.resume(stats).await
    }

    /// Sends the unanswered command again, with its id (on a new connection if this one broke).
    async fn send_again(&mut self, stats: &Stats) -> bool {
        match self.table.mark_sent_again() {
            Some(text) => {
                self.socket.send(Message::Text(text)).await.is_ok() || self.resume(stats).await
            }
            None => true,
        }
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
                    stats.resumed.fetch_add(1, Ordering::Relaxed);
                    let Some(text) = self.table.rejoined() else {
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
            self.table.seat,
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
                since: Some(self.table.v),
            },
        };
        call(&mut connection, &join).await?;
        self.next_id = connection.last_id();
        Ok(connection.into_socket())
    }

    async fn ready(&mut self, stats: &Stats) -> bool {
        self.table.awaiting_start = true;
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
            let message = if let Some(deadline) = start_deadline.filter(|_| !self.table.in_game) {
                let left = deadline.saturating_duration_since(Instant::now());
                match tokio::time::timeout(left, self.socket.next()).await {
                    Ok(message) => message,
                    Err(_) => break,
                }
            } else if self.table.draining {
                self.socket.next().await
            } else {
                tokio::select! {
                    m = self.socket.next() => m,
                    _ = stop.changed() => {
                        self.table.draining = true;
                        let table = &self.table;
                        if !self.finish || !(table.in_game || table.awaiting_start) {
                            break;
                        }
                        if !table.in_game {
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
            match self.table.read(&text, stats) {
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
                    let sent = if self.table.need_roll {
                        let entropy = self.roll_bytes.field();
                        self.send("roll", &entropy, true, stats).await
                    } else {
                        let plane = format!(r#","plane":{}"#, self.table.plane);
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
        kept.lock().await.extend(self.table.latencies.drain(..));
        stats
            .start_latencies
            .lock()
            .await
            .extend(self.table.start_latencies.drain(..));
    }
}

/// The seat of a `moved` event frame, read without parsing the frame: the event's fields are
/// written in alphabetical order (`hangar_protocol::GameEvent`), `seat` last, after the game's
/// view, so the last `"seat":` of the frame is the event's.
fn seat_of_moved(text: &str) -> Option<usize> {
    let start = text.rfind(r#""seat":"#)? + 7;
    let digits = &text[start..];
    let end = digits.find(|c: char| !c.is_ascii_digit())?;
    digits[..end].parse().ok()
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
    use std::sync::atomic::Ordering;

    use hangar_protocol::{AutoplayReason, GameEvent, RoomEvent, TurnNeed, TurnView};
    use serde::Serialize;
    use serde_json::{Value, json};
    use tokio_tungstenite::tungstenite::Utf8Bytes;

    use super::{Stats, Step, Table, seat_of_moved, version_of};

    /// Seat 1 of the tables below.
    const ME: usize = 1;
    /// The id of its roll that is sent again.
    const ROLL: u64 = 9;

    /// An event frame as the room writes it.
    fn frame(v: u64, event: impl Serialize) -> String {
        let event = serde_json::to_string(&event).unwrap();
        format!(r#"{{"type":"event","room":"K7QX2M","v":{v},"event":{event}}}"#)
    }

    /// `seat` rolled a six; `entropy` when a person rolled.
    fn rolled(v: u64, seat: usize, entropy: Option<&str>) -> String {
        frame(
            v,
            GameEvent::<Value>::Rolled {
                entropy: entropy.map(str::to_owned),
                item: None,
                moves: vec![json!({"plane": 2, "to": 0})],
                seat,
                value: 6,
            },
        )
    }

    /// `seat` moved; the game's view names seats too, as views may.
    fn moved(v: u64, seat: usize) -> String {
        frame(
            v,
            GameEvent::<Value>::Moved {
                effects: vec![json!({"type": "took_off", "colour": "yellow", "plane": 2})],
                game: json!({"turn": {"seat": 3}, "planes": [{"seat": 0}, {"seat": 2}]}),
                plane: Some(2),
                seat,
            },
        )
    }

    fn autoplay(v: u64, seat: usize, on: bool, reason: AutoplayReason) -> String {
        frame(v, RoomEvent::Autoplay { seat, on, reason })
    }

    fn turn(v: u64, seat: usize) -> String {
        let view = TurnView {
            seat,
            need: TurnNeed::Roll,
            deadline: 1_764_585_620_000,
            seconds: 120,
        };
        frame(v, RoomEvent::Turn(view))
    }

    /// What the seat's player sees when its node dies and it comes back elsewhere: auto-play
    /// switched on for the away seat, then back off when it returns.
    fn away_and_back(v: u64, acts: &[String]) -> Vec<String> {
        let mut frames = vec![
            frame(
                v,
                RoomEvent::Away {
                    seat: ME,
                    until: 1_764_585_780_000,
                },
            ),
            autoplay(v + 1, ME, true, AutoplayReason::Disconnect),
        ];
        frames.extend(acts.iter().cloned());
        frames.push(frame(v + 10, RoomEvent::Back { seat: ME }));
        frames.push(autoplay(v + 11, ME, false, AutoplayReason::Back));
        frames
    }

    fn refused(id: u64, code: &str) -> String {
        format!(r#"{{"type":"error","id":{id},"code":"{code}","message":"it is seat 2's turn"}}"#)
    }

    /// Seat 1 sends its roll, reads `live` on the connection that then breaks, comes back,
    /// sends the roll again, reads `resumed` and then the roll's refusal: the counters.
    fn refusal_counted(live: &[String], resumed: &[String]) -> Stats {
        let stats = Stats::default();
        let mut table = Table::new(ME);
        table.in_game = true;
        table.sent(ROLL, true, Utf8Bytes::from_static(r#"{"type":"roll"}"#));
        for text in live {
            table.read(text, &stats);
        }
        assert!(table.rejoined().is_some(), "the roll is sent again");
        for text in resumed {
            table.read(text, &stats);
        }
        table.read(&refused(ROLL, "not_your_turn"), &stats);
        stats
    }

    /// (errors, refused re-sends among them, refused after a snapshot, refused rightly)
    fn counts(stats: &Stats) -> (u64, u64, u64, u64) {
        (
            stats.errors.load(Ordering::Relaxed),
            stats.resent_refused.load(Ordering::Relaxed),
            stats.resent_unseen.load(Ordering::Relaxed),
            stats.resent_auto_played.load(Ordering::Relaxed),
        )
    }

    #[test]
    fn a_resend_refused_after_auto_play_rolled_and_moved_for_the_seat_is_no_error() {
        let acts = [rolled(42, ME, None), moved(43, ME), turn(44, 2)];
        let stats = refusal_counted(&[], &away_and_back(40, &acts));
        assert_eq!(counts(&stats), (0, 0, 0, 1));
    }

    #[test]
    fn a_resend_refused_after_the_roll_ran_is_an_error_even_if_auto_play_moved_next() {
        // The roll ran (the person's bytes), its ack died with the node; auto-play then moved
        // for the away seat. The hall should have answered the roll as a repeat.
        let acts = [moved(43, ME), turn(44, 2)];
        let mut resumed = vec![rolled(39, ME, Some("9f86d081884c7d659a2feaa0c55ad015"))];
        resumed.extend(away_and_back(40, &acts));
        let stats = refusal_counted(&[], &resumed);
        assert_eq!(counts(&stats), (1, 1, 0, 0));
    }

    #[test]
    fn a_move_seen_before_the_break_is_the_command_run_not_auto_plays() {
        // Read on the fast path (`moved` frames are not parsed): the seat's move before
        // auto-play was on is the player's own.
        let live = [moved(39, ME)];
        let acts = [rolled(42, ME, None), moved(43, ME)];
        let stats = refusal_counted(&live, &away_and_back(40, &acts));
        assert_eq!(counts(&stats), (1, 1, 0, 0));
    }

    #[test]
    fn a_resend_refused_when_nothing_moved_the_seat_is_an_error() {
        let others = [
            rolled(41, 2, Some("00112233445566778899aabbccddeeff")),
            moved(42, 2),
        ];
        let stats = refusal_counted(&others, &[turn(43, ME)]);
        assert_eq!(counts(&stats), (1, 1, 0, 0));
        // Auto-play switched on and off again without acting excuses nothing either.
        let stats = refusal_counted(&[], &away_and_back(40, &[]));
        assert_eq!(counts(&stats), (1, 1, 0, 0));
    }

    #[test]
    fn a_resend_refused_after_a_snapshot_cannot_be_told_and_counts_as_an_error() {
        let snapshot = json!({"type": "snapshot", "room": "K7QX2M", "v": 1_765_000_000_000_u64,
            "state": {"status": "playing", "seats": [{"autoplay": false}, {"autoplay": true},
            {"autoplay": false}, {"autoplay": false}], "turn": {"seat": 2, "need": "roll"},
            "game": {}}});
        // Even auto-play's roll seen before it: the roll may have run, unseen, after that.
        let live = [
            autoplay(40, ME, true, AutoplayReason::Timeout),
            rolled(41, ME, None),
        ];
        let stats = refusal_counted(&live, &[snapshot.to_string()]);
        assert_eq!(counts(&stats), (1, 1, 1, 0));
    }

    #[test]
    fn a_refusal_of_a_command_not_sent_again_is_an_error() {
        let stats = Stats::default();
        let mut table = Table::new(ME);
        table.in_game = true;
        table.sent(ROLL, true, Utf8Bytes::from_static(r#"{"type":"roll"}"#));
        table.read(&autoplay(40, ME, true, AutoplayReason::Timeout), &stats);
        table.read(&rolled(41, ME, None), &stats);
        table.read(&refused(ROLL, "not_your_turn"), &stats);
        assert_eq!(counts(&stats), (1, 0, 0, 0));
    }

    /// Seat 1's roll sent again into a room rebuilt on another node: the snapshot shows the
    /// seat on turn to move (the roll had run); then the roll's answer, `answer`. What the
    /// table does after it, and whether it is then to roll.
    fn after_snapshot_then(answer: &str) -> (Step, bool) {
        let stats = Stats::default();
        let mut table = Table::new(ME);
        table.in_game = true;
        table.sent(ROLL, true, Utf8Bytes::from_static(r#"{"type":"roll"}"#));
        assert!(table.rejoined().is_some());
        let snapshot = json!({"type": "snapshot", "room": "K7QX2M", "v": 1_765_000_000_000_u64,
            "state": {"status": "playing", "seats": [], "turn": {"seat": ME, "need": "move"},
            "game": {"moves": [{"plane": 3, "to": 20}]}}});
        assert!(matches!(
            table.read(&snapshot.to_string(), &stats),
            Step::Nothing
        ));
        let step = table.read(answer, &stats);
        assert_eq!(table.plane, 3, "the plane the snapshot offers");
        (step, table.need_roll)
    }

    #[test]
    fn after_a_snapshot_a_repeat_answer_lets_the_seat_play_the_snapshots_turn() {
        let repeat =
            format!(r#"{{"type":"ack","id":{ROLL},"result":{{"value":2}},"repeat":true}}"#);
        assert!(matches!(after_snapshot_then(&repeat), (Step::Act, false)));
        // Run now: its own events follow, with the turn to play.
        let ran = format!(r#"{{"type":"ack","id":{ROLL},"result":{{"value":2}}}}"#);
        assert!(matches!(after_snapshot_then(&ran), (Step::Nothing, _)));
    }

    #[test]
    fn a_moved_events_seat_is_read_without_parsing_it() {
        assert_eq!(seat_of_moved(&moved(7, 3)), Some(3));
        assert_eq!(seat_of_moved(&moved(7, 0)), Some(0));
        assert_eq!(seat_of_moved(r#"{"type":"event"}"#), None);
    }

    #[test]
    fn an_events_version_is_read_without_parsing_it() {
        let frame = r#"{"type":"event","room":"K7QX2M","v":42,"event":{"kind":"moved","v":7}}"#;
        assert_eq!(version_of(frame), Some(42));
        assert_eq!(version_of(r#"{"type":"event"}"#), None);
    }
}
