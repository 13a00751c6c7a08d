//! Seats, watchers, readiness, bots, chat and leaving (P-SEATS, P-SPECTATE, P-CHAT,
//! P-DISCONNECT's bookkeeping).

use tokio::time::Instant;

use super::{Member, Room, Seat, Status};
use crate::accounts::Player;
use crate::outbox::{ConnId, Outbox};
use crate::time::now_ms;
use hangar_games::{Act, check_bot_level};
use hangar_protocol::{
    Ack, BotLevel, CHAT_MAX_CHARS, ChatLine, ErrorCode, Joined, Matched, Outcome, ProtoError,
    RoomEvent, Seated, UnknownBotLevel, Watching,
};

/// Quick phrases a chat line may name by index.
pub const QUICK_PHRASES: [&str; 8] = [
    "Hello!",
    "Good luck!",
    "Hurry up, please.",
    "Nice move!",
    "Oops.",
    "Good game!",
    "Thanks!",
    "Bye!",
];

/// Chat lines allowed per player in [`CHAT_WINDOW_SECONDS`].
pub const CHAT_LINES_PER_WINDOW: usize = 5;
/// The chat rate window.
pub const CHAT_WINDOW_SECONDS: u64 = 10;
/// Chat lines kept for snapshots.
const KEPT_CHAT: usize = 20;

fn err(code: ErrorCode, message: impl Into<String>) -> ProtoError {
    ProtoError::new(code, message)
}

impl Room {
    /// Seat `index` exists and nobody (player or bot) sits in it.
    fn check_empty_seat(&self, index: usize) -> Result<(), ProtoError> {
        let target = self
            .seats
            .get(index)
            .ok_or_else(|| err(ErrorCode::NoSeat, format!("no seat {index}")))?;
        if !target.is_empty() {
            return Err(err(ErrorCode::SeatTaken, format!("seat {index} is taken")));
        }
        Ok(())
    }

    /// A bot account never sits in a public room on its own (P-BOT-ACCOUNT): it plays in the
    /// private rooms of challenges, or of anyone who gives it the code.
    fn check_bot_account(&self, player: &Player) -> Result<(), ProtoError> {
        if player.bot && !self.private {
            return Err(err(
                ErrorCode::Forbidden,
                "a bot account sits only in private rooms: challenge it instead",
            ));
        }
        Ok(())
    }

    /// A person sits at a flight table only with a score of at least its stake (P-SCORE).
    /// An arena's table is formed by the arena, which seats whom it paired: the stake was
    /// checked when each player joined the arena.
    async fn check_stake(&self, player: &Player) -> Result<(), ProtoError> {
        if self.hall.arena_of(&self.code).is_some() {
            return Ok(());
        }
        let stake = self.options.stake();
        crate::stakes::check_stake(self.hall.store(), player.id, stake).await
    }

    pub(super) fn seat_of(&self, player: i64) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.player_id() == Some(player))
    }

    fn attach(&mut self, outbox: &Outbox, player: Option<i64>, since: Option<u64>) {
        let spectators_before = self.spectator_count();
        self.members.insert(
            outbox.id,
            Member {
                outbox: outbox.clone(),
                player,
                seen: self.version,
                deferred: Vec::new(),
                last_sent: None,
            },
        );
        self.catch_up = Some((outbox.id, since));
        if self.spectator_count() != spectators_before {
            self.emit_spectators();
        }
    }

    /// Announces the number of watchers.
    fn emit_spectators(&mut self) {
        let count = self.spectator_count();
        self.emit(RoomEvent::Spectators { count });
    }

    /// The answer of a join: the seat held, or `None` when watching.
    fn joined(&self, seat: Option<usize>, resumed: bool) -> Ack {
        Ack::Joined(Joined {
            room: self.code.clone(),
            seat,
            resumed,
            v: self.version,
        })
    }

    pub(super) fn spectator_count(&self) -> usize {
        self.members
            .values()
            .filter(|m| m.player.is_none_or(|p| self.seat_of(p).is_none()))
            .count()
    }

    pub(super) fn is_connected(&self, player: i64) -> bool {
        self.members.values().any(|m| m.player == Some(player))
    }

    /// `join_room`: back in the seat the player holds, a free seat of a waiting room, or
    /// watching.
    pub(super) async fn join(
        &mut self,
        outbox: &Outbox,
        player: Player,
        seat: Option<usize>,
        since: Option<u64>,
    ) -> Outcome {
        self.enter(outbox, player, seat, since, false).await
    }

    /// [`Room::join`], or the arena seating its player (`by_arena`): an arena's room has
    /// seats only for whom the arena paired (P-ARENA), others watch.
    pub(super) async fn enter(
        &mut self,
        outbox: &Outbox,
        player: Player,
        seat: Option<usize>,
        since: Option<u64>,
        by_arena: bool,
    ) -> Outcome {
        if let Some(index) = self.seat_of(player.id) {
            // Back in the seat this player already holds (a reconnection, P-DISCONNECT).
            // Judged before coming back, whose events are kept and follow the missed ones.
            let resumed = since.is_some_and(|since| self.can_resume_from(since));
            self.attach(outbox, Some(player.id), since);
            self.come_back(index).await;
            self.ready_as_arrived(index);
            return Ok(self.joined(Some(index), resumed));
        }
        let may_sit = by_arena || self.hall.arena_of(&self.code).is_none();
        if self.status == Status::Waiting && may_sit {
            let free = match seat {
                Some(index) => {
                    self.check_empty_seat(index)?;
                    Some(index)
                }
                None => self.seats.iter().position(Seat::is_empty),
            };
            if let Some(index) = free {
                self.check_bot_account(&player)?;
                self.hall.check_seat_limit(player.id)?;
                self.check_stake(&player).await?;
                self.attach(outbox, Some(player.id), since);
                self.seat_player(index, player);
                self.publish();
                return Ok(self.joined(Some(index), false));
            }
        }
        // No seat for this player: watch instead.
        self.attach(outbox, Some(player.id), since);
        Ok(self.joined(None, false))
    }

    /// A challenge's party arrives in the seat held for them: ready at once (P-CHALLENGE:
    /// accepting starts the game), which starts it when every party is there. Only for the
    /// challenge's game: a rematch in the room waits for everyone's Ready as in any room.
    fn ready_as_arrived(&mut self, index: usize) {
        let first_game = self.last_result.is_none() && self.game.is_none();
        if !self.ready_on_arrival
            || !first_game
            || self.status != Status::Waiting
            || self.seats[index].ready
        {
            return;
        }
        self.seats[index].ready = true;
        self.emit(RoomEvent::Ready {
            seat: index,
            ready: true,
        });
        self.publish();
        self.start_at = Some(Instant::now());
    }

    /// Quick match: a free seat of a waiting room, or an error (answered quietly).
    pub(super) async fn quick_join(&mut self, outbox: &Outbox, player: Player) -> Outcome {
        if self.status != Status::Waiting || self.seat_of(player.id).is_some() {
            return Err(err(ErrorCode::SeatTaken, "no free seat"));
        }
        let Some(index) = self.seats.iter().position(Seat::is_empty) else {
            return Err(err(ErrorCode::SeatTaken, "no free seat"));
        };
        self.hall.check_seat_limit(player.id)?;
        self.check_stake(&player).await?;
        self.attach(outbox, Some(player.id), None);
        self.seat_player(index, player);
        self.publish();
        Ok(Ack::Matched(Matched {
            room: self.code.clone(),
            seat: index,
            created: false,
        }))
    }

    pub(super) fn seat_player(&mut self, index: usize, player: Player) {
        let id = player.id;
        self.seats[index] = Seat {
            player: Some(player.clone()),
            ..Seat::default()
        };
        if self.host.is_none() {
            self.host = Some(id);
        }
        self.hall.set_seated(id, &self.code, true);
        self.emit(RoomEvent::Joined {
            seat: index,
            player: player.view(),
        });
        // Watching from a seat is not watching: the spectator count may drop.
        self.emit_spectators();
    }

    pub(super) fn spectate(
        &mut self,
        outbox: &Outbox,
        player: Option<i64>,
        since: Option<u64>,
    ) -> Outcome {
        self.attach(outbox, player, since);
        Ok(Ack::Watching(Watching {
            room: self.code.clone(),
        }))
    }

    pub(super) fn require_waiting(&self) -> Result<(), ProtoError> {
        if self.status == Status::Playing {
            return Err(err(
                ErrorCode::AlreadyPlaying,
                "the game has started; seats are fixed",
            ));
        }
        Ok(())
    }

    pub(super) async fn take_seat(
        &mut self,
        outbox: &Outbox,
        player: Player,
        index: usize,
    ) -> Outcome {
        self.require_waiting()?;
        self.check_empty_seat(index)?;
        self.check_bot_account(&player)?;
        if self.seat_of(player.id).is_none() {
            self.hall.check_seat_limit(player.id)?;
            self.check_stake(&player).await?;
        }
        if let Some(old) = self.seat_of(player.id) {
            self.seats[old] = Seat::default();
            self.emit(RoomEvent::Left { seat: old });
        }
        if !self.members.contains_key(&outbox.id) {
            self.attach(outbox, Some(player.id), None);
        }
        self.seat_player(index, player);
        self.publish();
        Ok(Ack::Seated(Seated {
            room: self.code.clone(),
            seat: index,
        }))
    }

    pub(super) async fn set_ready(&mut self, player: i64, ready: bool) -> Outcome {
        // Ready for a game that runs already is nothing to do: a challenge's game starts as
        // its parties arrive (P-CHALLENGE), before a client that readies after joining asks.
        if ready && self.status != Status::Waiting && self.seat_of(player).is_some() {
            return Ok(Ack::DONE);
        }
        self.require_waiting()?;
        let index = self
            .seat_of(player)
            .ok_or_else(|| err(ErrorCode::NotInRoom, "take a seat first"))?;
        if self.seats[index].ready != ready {
            self.seats[index].ready = ready;
            self.emit(RoomEvent::Ready { seat: index, ready });
            self.publish();
        }
        self.maybe_start().await;
        Ok(Ack::DONE)
    }

    pub(super) async fn add_bot(
        &mut self,
        player: i64,
        index: usize,
        bot: &Result<BotLevel, UnknownBotLevel>,
    ) -> Outcome {
        self.require_waiting()?;
        if self.host != Some(player) {
            return Err(err(ErrorCode::NotHost, "only the host may add bots"));
        }
        let bot = check_bot_level(self.game_kind, bot)?;
        self.check_empty_seat(index)?;
        self.seats[index] = Seat {
            bot: Some(bot),
            ready: true,
            ..Seat::default()
        };
        self.emit(RoomEvent::BotAdded { seat: index, bot });
        self.publish();
        self.maybe_start().await;
        Ok(Ack::DONE)
    }

    pub(super) fn remove_bot(&mut self, player: i64, index: usize) -> Outcome {
        self.require_waiting()?;
        if self.host != Some(player) {
            return Err(err(ErrorCode::NotHost, "only the host may remove bots"));
        }
        if self.seats.get(index).is_none_or(|s| s.bot.is_none()) {
            return Err(err(ErrorCode::NoSeat, format!("seat {index} holds no bot")));
        }
        self.seats[index] = Seat::default();
        self.emit(RoomEvent::Left { seat: index });
        self.publish();
        Ok(Ack::DONE)
    }

    pub(super) fn chat(
        &mut self,
        player: i64,
        text: Option<String>,
        phrase: Option<usize>,
    ) -> Outcome {
        let seat = self.seat_of(player);
        if seat.is_none() && !self.members.values().any(|m| m.player == Some(player)) {
            return Err(err(ErrorCode::NotInRoom, "join or watch the room first"));
        }
        // An arena game is its players' (P-ARENA): watchers of it do not chat there.
        if seat.is_none() && self.hall.arena_of(&self.code).is_some() {
            return Err(err(
                ErrorCode::Spectator,
                "only the players of an arena game chat in it",
            ));
        }
        let text = match (text, phrase) {
            (Some(text), None) => {
                let text = text.trim().to_owned();
                let chars = text.chars().count();
                if chars == 0 || chars > CHAT_MAX_CHARS || !crate::names::showable_chat(&text) {
                    return Err(err(
                        ErrorCode::ChatLimit,
                        format!(
                            "a chat line is 1–{CHAT_MAX_CHARS} characters without control, invisible or direction characters"
                        ),
                    ));
                }
                text
            }
            (None, Some(index)) => QUICK_PHRASES
                .get(index)
                .ok_or_else(|| err(ErrorCode::Invalid, format!("no quick phrase {index}")))?
                .to_string(),
            _ => {
                return Err(err(
                    ErrorCode::BadMessage,
                    "chat: give \"text\" or \"phrase\"",
                ));
            }
        };
        let now = Instant::now();
        let window = std::time::Duration::from_secs(CHAT_WINDOW_SECONDS);
        let times = self.chat_times.entry(player).or_default();
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) >= window)
        {
            times.pop_front();
        }
        if times.len() >= CHAT_LINES_PER_WINDOW {
            return Err(err(
                ErrorCode::ChatLimit,
                format!("at most {CHAT_LINES_PER_WINDOW} lines per {CHAT_WINDOW_SECONDS} s"),
            ));
        }
        times.push_back(now);
        let name = seat.map_or_else(|| "watcher".to_owned(), |s| self.seats[s].name());
        let line = ChatLine {
            seat,
            name,
            text,
            at: now_ms(),
        };
        if self.chat.len() == KEPT_CHAT {
            self.chat.pop_front();
        }
        self.chat.push_back(line.clone());
        self.emit(RoomEvent::Chat(line));
        Ok(Ack::DONE)
    }

    pub(super) async fn leave(&mut self, outbox: &Outbox, player: i64, escape: bool) -> Outcome {
        if let Some(index) = self.seat_of(player) {
            if self.status == Status::Playing && self.seats[index].out.is_none() {
                if !escape {
                    return Err(err(
                        ErrorCode::ConfirmEscape,
                        "leaving a running game costs 200 points (P-ESCAPE): send \"escape\": true",
                    ));
                }
                self.perform(index, Act::Escape, None, false).await?;
            }
            if self.status == Status::Waiting {
                self.free_seat(index);
            }
        } else if !self.members.contains_key(&outbox.id) {
            return Err(err(ErrorCode::NotInRoom, "you are not in this room"));
        }
        let before = self.spectator_count();
        self.members.retain(|_, m| m.player != Some(player));
        self.members.remove(&outbox.id);
        if self.spectator_count() != before {
            self.emit_spectators();
        }
        Ok(Ack::DONE)
    }

    /// Frees a seat before the game (or after it), handing the host role on if needed.
    pub(super) fn free_seat(&mut self, index: usize) {
        let Some(player) = self.seats[index].player_id() else {
            return;
        };
        self.seats[index] = Seat::default();
        self.hall.set_seated(player, &self.code, false);
        self.emit(RoomEvent::Left { seat: index });
        if self.host == Some(player) {
            self.host = self.seats.iter().find_map(Seat::player_id);
        }
        self.publish();
    }

    /// A connection closed.
    pub(super) async fn detach(&mut self, conn: ConnId) {
        let Some(member) = self.members.remove(&conn) else {
            return;
        };
        self.member_gone(member.player).await;
    }

    /// Handles the members dropped by a flush (gone, or too slow to keep up) as
    /// disconnections, so that no seat is left held by a connection that is no more.
    pub(super) async fn drop_lost(&mut self) {
        while !self.lost.is_empty() {
            for player in std::mem::take(&mut self.lost) {
                self.member_gone(player).await;
            }
            self.persist_waiting().await;
            // What the departures caused (away, auto-play); may drop more members.
            self.flush();
        }
    }

    /// A member left the room: a watcher leaves, a seated player's seat is freed (waiting
    /// room) or held for the reconnection grace (P-DISCONNECT).
    async fn member_gone(&mut self, player: Option<i64>) {
        if self.hall.is_closing() {
            // The hall restarts: its players will be back, their seats and games as stored
            // (no seat freed, no auto-play started for a socket closed by the drain).
            return;
        }
        let Some(player) = player else {
            self.emit_spectators();
            return;
        };
        if self.is_connected(player) {
            return;
        }
        match self.seat_of(player) {
            None => {
                self.emit_spectators();
            }
            Some(index) if self.status == Status::Waiting => self.free_seat(index),
            Some(index) => self.go_away(index).await,
        }
    }

    /// Whether the game running (or the next, before it starts) is a practice game: a bot sits
    /// in it (P-PRACTICE), or its people played their day's scored games together (P-ABORT).
    /// A person on auto-play is still a person.
    pub(super) fn practice(&self) -> bool {
        match &self.game {
            Some(running) => running.practice,
            None => self.pair_practice || self.seats.iter().any(|s| s.bot.is_some()),
        }
    }

    /// Whether the room has nobody left and nothing running: its task may end.
    pub(super) fn is_abandoned(&self) -> bool {
        self.status == Status::Waiting
            && self.members.is_empty()
            && self.seats.iter().all(|s| s.player.is_none())
    }

    /// Tells the hall how this room looks now (P-HALL); private rooms are not listed.
    pub(super) fn publish(&self) {
        let taken = self.seats.iter().filter(|s| !s.is_empty()).count();
        let summary = (!self.private).then(|| self.summary());
        self.hall.list(
            &self.code,
            self.game_kind,
            summary,
            self.seats.len() - taken,
            taken,
            self.seats.iter().filter_map(Seat::player_id).collect(),
        );
    }
}
