//! The game flow of a room: starting, player and bot actions, the action log (stored before
//! the acknowledgement, P-DURABLE), timers (P-TIMER), auto-play (P-AUTOPLAY), absence
//! (P-DISCONNECT) and leaving (P-RESIGN, P-ESCAPE, P-JUNGLE-TIMEOUT, P-JUNGLE-DRAW).

use hangar_dice::{DiceScheme, Entropy, Seed};
use serde_json::{Value, json};
use tokio::time::Instant;

use super::{OutReason, Room, Running, Seat, Status};
use crate::store::NewGame;
use crate::time::now_ms;
use hangar_games::{
    Act, CommandRef, GameSession, JUNGLE_TIMEOUTS_ALLOWED, LoggedAct, SessionMark, StandIn,
    WireEvent, autoplay_level, wire,
};
use hangar_protocol::{Ack, AutoplayReason, ErrorCode, Outcome, ProtoError, RoomEvent, TurnView};

/// How a room comes back to where it was before an action whose write failed: everything
/// [`Room::apply`] may change. The game itself is not copied (it grows with every action):
/// its mark is replayed to on the rare failure instead.
struct Undo {
    session: SessionMark,
    deadline: Option<Instant>,
    deadline_ms: i64,
    act_at: Option<Instant>,
    draw_offer: Option<usize>,
    /// A copy of the seats, for the acts that change them.
    seats: Option<Vec<Seat>>,
}

/// How long timers wait before acting again after a write failed.
const STORE_RETRY: std::time::Duration = std::time::Duration::from_secs(1);

fn err(code: ErrorCode, message: impl Into<String>) -> ProtoError {
    ProtoError::new(code, message)
}

/// Whether `seat` may make a move of the game (roll, move, item) now: its turn, in a game
/// not over.
fn turn_of(session: &GameSession, seat: usize) -> Result<(), ProtoError> {
    match session.turn() {
        Some((on_turn, _)) if on_turn == seat => Ok(()),
        Some((on_turn, _)) => Err(err(
            ErrorCode::NotYourTurn,
            format!("it is seat {on_turn}'s turn"),
        )),
        None => Err(err(ErrorCode::NotPlaying, "the game is over")),
    }
}

impl Room {
    /// A command from a seated person; `entropy` is the person's bytes of a roll or booster
    /// (P-FAIR-DICE, already checked). `act` is the command as typed: one that did not read
    /// as a move of the game is refused after the checks a move passes before the game sees
    /// it (the room's game, the seat, the turn), as when the game read the text itself.
    pub(super) async fn player_act(
        &mut self,
        player: i64,
        act: Result<Act, ProtoError>,
        entropy: Option<Entropy>,
    ) -> Outcome {
        if self.game.is_none() {
            return Err(err(
                ErrorCode::NotPlaying,
                "no game is running in this room",
            ));
        }
        let Some(seat) = self.seat_of(player) else {
            return Err(err(
                ErrorCode::Spectator,
                "watchers act on nothing (P-SPECTATE)",
            ));
        };
        if self.seats[seat].out.is_some() {
            return Err(err(ErrorCode::Illegal, "you have left this game"));
        }
        let act = match act {
            Ok(act) => act,
            Err(refusal) => {
                self.check_turn(seat)?;
                return Err(refusal);
            }
        };
        self.perform(seat, act, entropy, false).await
    }

    /// Checks, applies, stores, then announces one action. The action exists once it is
    /// stored: when the write fails, the room is put back exactly as it was before (turn,
    /// dice stream position, timers, seats), nothing is announced, and the caller gets an
    /// `internal` error that is safe to retry (the same command id runs once it is stored).
    /// `entropy` is the roller's bytes of a person's roll or booster; `None` for the hall's
    /// (bots, auto-play, the timer).
    pub(super) async fn perform(
        &mut self,
        seat: usize,
        act: Act,
        entropy: Option<Entropy>,
        auto: bool,
    ) -> Outcome {
        let before = if self.replaying {
            None
        } else {
            self.undo_point(&act)
        };
        let (events, roll, ack) = self.apply(seat, &act, entropy.as_ref(), auto)?;
        if let Some(undo) = before {
            // Only the act a person's command asked for carries the command (the first one).
            let cmd = if auto { None } else { self.command_ref.take() };
            let logged = LoggedAct {
                seat,
                action: act,
                roll,
                // Only a die thrown keeps the bytes (a six die throws none).
                entropy: roll.and(entropy),
                auto,
                cmd: cmd.as_ref().map(|(client, id)| CommandRef {
                    client: client.to_string(),
                    id: *id,
                }),
            };
            if let Err(e) = self.store(logged).await {
                self.undo(undo);
                self.command_ref = cmd;
                self.store_retry_at = Some(Instant::now() + STORE_RETRY);
                return Err(e);
            }
            self.store_retry_at = None;
        }
        // Counted once stored (or replayed from the log): an undone act is no decision.
        if !auto && act.is_play() {
            self.seats[seat].own_decisions += 1;
        }
        for event in &events {
            self.emit_wire(event);
        }
        self.after_change(matches!(
            act,
            Act::Autoplay { .. } | Act::Disconnect | Act::DrawOffer
        ))
        .await;
        Ok(ack)
    }

    /// Whether `seat` may make a move of the game now (see [`turn_of`]).
    fn check_turn(&self, seat: usize) -> Result<(), ProtoError> {
        let running = self
            .game
            .as_ref()
            .ok_or_else(|| err(ErrorCode::NotPlaying, "no game is running"))?;
        turn_of(&running.session, seat)
    }

    /// What [`Room::undo`] needs to put the room back as it is before `act`, without copying
    /// the game: the session's mark, the small fields of the running game, and the seats only
    /// for the acts that change them (a roll, move or item changes no seat). `None` when no
    /// game runs (the act is then refused).
    fn undo_point(&self, act: &Act) -> Option<Undo> {
        let running = self.game.as_ref()?;
        let changes_seats = !act.is_play();
        Some(Undo {
            session: running.session.mark(),
            deadline: running.deadline,
            deadline_ms: running.deadline_ms,
            act_at: running.act_at,
            draw_offer: running.draw_offer,
            seats: changes_seats.then(|| self.seats.clone()),
        })
    }

    /// Puts the room back where [`Room::undo_point`] was taken (a write failed).
    fn undo(&mut self, undo: Undo) {
        if let Some(running) = self.game.as_mut() {
            running.session.undo(undo.session);
            running.deadline = undo.deadline;
            running.deadline_ms = undo.deadline_ms;
            running.act_at = undo.act_at;
            running.draw_offer = undo.draw_offer;
        }
        if let Some(seats) = undo.seats {
            self.seats = seats;
        }
    }

    /// Appends an action at the game's next index; the index moves on only once the action
    /// is stored, so that a failed write leaves no gap.
    async fn store(&mut self, logged: LoggedAct) -> Result<(), ProtoError> {
        // A failing storage refuses at once: a write would only wait to fail.
        super::storage_available(self.hall.store())?;
        let running = self.game.as_mut().expect("a game runs");
        let (game_id, idx) = (running.game_id, running.next_idx);
        let data = logged.to_line();
        self.hall
            .store()
            .append_action(game_id, idx, data)
            .await
            .map_err(|e| {
                tracing::error!(room = %self.code, error = %e, "storing an action failed");
                err(
                    ErrorCode::Internal,
                    "the action could not be stored; nothing changed, send it again",
                )
            })?;
        if let Some(running) = self.game.as_mut() {
            running.next_idx = idx + 1;
        }
        Ok(())
    }

    /// The pure part of an action: validate and change the state; returns events, the roll
    /// drawn and the ack. An error changes nothing.
    fn apply(
        &mut self,
        seat: usize,
        act: &Act,
        entropy: Option<&Entropy>,
        auto: bool,
    ) -> Result<(Vec<WireEvent>, Option<u8>, Ack), ProtoError> {
        let running = self
            .game
            .as_mut()
            .ok_or_else(|| err(ErrorCode::NotPlaying, "no game is running"))?;
        let mut events = Vec::new();
        match act {
            Act::Roll | Act::Plane(_) | Act::Step(_) | Act::UseItem(_) => {
                turn_of(&running.session, seat)?;
                let played = running.session.play(seat, act, entropy)?;
                // A move by the other side answers an open draw offer with "no".
                if let Some(offerer) = running.draw_offer
                    && offerer != seat
                {
                    running.draw_offer = None;
                    events.push(wire(&RoomEvent::DrawDeclined { seat }));
                }
                running.deadline = None;
                events.extend(played.events);
                return Ok((events, played.roll, played.ack));
            }
            Act::Autoplay { on } => {
                let s = &mut self.seats[seat];
                s.autoplay = *on;
                s.autoplay_for_away = false;
                let reason = if auto {
                    AutoplayReason::Timeout
                } else {
                    AutoplayReason::Choice
                };
                events.push(wire(&RoomEvent::Autoplay {
                    seat,
                    on: *on,
                    reason,
                }));
            }
            Act::Timeout => {
                self.seats[seat].timeouts += 1;
                let count = self.seats[seat].timeouts;
                events.push(wire(&RoomEvent::Timeout { seat, count }));
                running.deadline = None;
                if count > JUNGLE_TIMEOUTS_ALLOWED {
                    events.extend(self.put_out(seat, OutReason::Timeouts));
                } else {
                    let played = running.session.pass()?;
                    events.extend(played.events);
                }
            }
            Act::Resign => {
                running.session.may_resign()?;
                events.extend(self.put_out(seat, OutReason::Resigned));
            }
            Act::Escape => events.extend(self.put_out(seat, OutReason::Escaped)),
            Act::Abandon => events.extend(self.put_out(seat, OutReason::Disconnected)),
            Act::Disconnect => {
                self.seats[seat].disconnects += 1;
            }
            Act::DrawOffer => {
                running.session.may_offer_draw()?;
                if running.draw_offer.is_some() {
                    return Err(err(ErrorCode::Illegal, "a draw offer is already open"));
                }
                running.draw_offer = Some(seat);
                events.push(wire(&RoomEvent::DrawOffered { seat }));
            }
            Act::DrawAnswer { accept } => {
                match running.draw_offer {
                    Some(offerer) if offerer != seat => {}
                    _ => return Err(err(ErrorCode::Illegal, "there is no draw offer to answer")),
                }
                running.draw_offer = None;
                if *accept {
                    running.session.agree_draw();
                } else {
                    events.push(wire(&RoomEvent::DrawDeclined { seat }));
                }
            }
        }
        Ok((events, None, Ack::DONE))
    }

    /// A player leaves the game: out for good, the game goes on without them or ends.
    fn put_out(&mut self, seat: usize, reason: OutReason) -> Vec<WireEvent> {
        let running = self.game.as_mut().expect("a game runs");
        let finished = running.session.finished(seat);
        let order = self.seats.iter().filter(|s| s.out.is_some()).count() as u32;
        let s = &mut self.seats[seat];
        s.out = Some(reason);
        s.out_order = order;
        s.out_finished = finished;
        s.autoplay = false;
        s.away_until = None;
        s.away_deadline = None;
        let mut events = vec![wire(&RoomEvent::Out { seat, reason })];
        events.extend(running.session.remove(seat));
        running.deadline = None;
        events
    }

    /// After a change: the game may be over; otherwise the next decision gets its timer, and
    /// a bot or auto-play is scheduled to act.
    pub(super) async fn after_change(&mut self, same_decision: bool) {
        let Some(running) = self.game.as_mut() else {
            return;
        };
        if running.session.is_over() {
            if !self.replaying {
                self.finish().await;
            }
            return;
        }
        let (seat, need) = running.session.turn().expect("not over");
        if running.deadline.is_none() || !same_decision {
            let seconds = self.turn_seconds;
            let now = now_ms();
            // An arena game's first turn is timed from when its players see the board.
            let wait_ms = self.clock_from.take().map_or(0, |from| (from - now).max(0));
            let length = self.hall.config().turn_unit * seconds as u32
                + std::time::Duration::from_millis(wait_ms as u64);
            running.deadline = Some(Instant::now() + length);
            running.deadline_ms = now + length.as_millis() as i64;
            let deadline = running.deadline_ms;
            self.emit(RoomEvent::Turn(TurnView {
                seat,
                need,
                deadline,
                seconds,
            }));
        }
        self.schedule_bot();
    }

    /// Schedules a bot or auto-play action when the seat on turn is one.
    pub(super) fn schedule_bot(&mut self) {
        let delay = self.hall.config().bot_delay;
        let Some(running) = self.game.as_mut() else {
            return;
        };
        running.act_at = running.session.turn().and_then(|(seat, _)| {
            let s = &self.seats[seat];
            (s.bot.is_some() || s.autoplay).then(|| Instant::now() + delay)
        });
    }

    /// Starts the game when every seat is filled and ready (P-SEATS).
    pub(super) async fn maybe_start(&mut self) {
        if self.status != Status::Waiting || self.seats.iter().any(|s| s.is_empty() || !s.ready) {
            return;
        }
        if let Err(e) = super::storage_available(self.hall.store()) {
            tracing::warn!(room = %self.code, error = %e, "the game waits for the storage");
            return;
        }
        let seed = Seed::random();
        // New games draw each roll from its own key (P-FAIR-DICE, protocol.md §10).
        let dice = DiceScheme::PerRoll;
        let session = match GameSession::start(&self.options, self.seats.len(), seed, dice) {
            Ok(session) => session,
            Err(e) => {
                tracing::error!(room = %self.code, error = %e, "the game could not start");
                return;
            }
        };
        let commitment = seed.commitment();
        let seats: Vec<Value> = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| json!({"seat": i, "name": s.name(), "player_id": s.player_id(), "bot": s.bot}))
            .collect();
        let stored = NewGame {
            room: self.code.clone(),
            game: self.game_kind.name().to_owned(),
            private: self.private,
            options: self.options.to_string(),
            seats: Value::from(seats).to_string(),
            seed: seed.to_string(),
            commitment: commitment.clone(),
            dice,
        };
        let game_id = match self.hall.store().start_game(&stored).await {
            Ok(id) => id,
            Err(e) => {
                tracing::error!(room = %self.code, error = %e, "the game could not be stored");
                return;
            }
        };
        // Decided now, for good: another room's game of the same pair may be starting too.
        self.decide_pair_practice(game_id).await;
        self.begin(session, game_id, seed, commitment);
        metrics::counter!(crate::metrics::GAMES_STARTED, "game" => self.game_kind.name())
            .increment(1);
        self.after_change(false).await;
    }

    /// Puts a started (or restored) game in place and announces it.
    pub(super) fn begin(
        &mut self,
        session: GameSession,
        game_id: i64,
        seed: Seed,
        commitment: String,
    ) {
        let colours = session.colours(self.seats.len());
        let first = session.turn().map(|(seat, _)| seat);
        let view = session.view();
        for seat in &mut self.seats {
            seat.out = None;
            seat.timeouts = 0;
            seat.disconnects = 0;
            seat.autoplay = false;
            seat.own_decisions = 0;
        }
        let practice = self.practice();
        // The quick match's wait for people ends with its start: no bot is seated into a
        // later game (P-QUICK, P-REMATCH).
        self.quick_fill_at = None;
        self.game = Some(Running {
            session,
            game_id,
            seed,
            commitment: commitment.clone(),
            next_idx: 0,
            deadline: None,
            deadline_ms: 0,
            act_at: None,
            draw_offer: None,
            practice,
        });
        self.status = Status::Playing;
        self.last_result = None;
        self.emit(RoomEvent::GameStarted {
            colours,
            first,
            commitment,
            game: view,
        });
        self.publish();
        tracing::info!(room = %self.code, game_id, "game started");
    }

    /// The next moment the room must wake up for.
    pub(super) fn next_wake(&self) -> Option<Instant> {
        if self.hall.is_closing() {
            // Nothing acts while the hall drains (see `on_timer`): no timer to wake for.
            return None;
        }
        // Seats held for players (after a restart, see `waiting.rs`) and events held for
        // members (see `flush_with`) are due with or without a running game.
        let away = self.seats.iter().filter_map(|s| s.away_deadline).min();
        let game = self.game.as_ref();
        let timers = [
            game.and_then(|running| running.act_at),
            game.and_then(|running| running.deadline),
            away,
            self.quick_fill_at,
            self.start_at,
            self.next_idle_deadline(),
        ]
        .into_iter()
        .flatten()
        .min()
        // Timers wait for the retry after a failed write; held events do not.
        .map(|at| self.store_retry_at.map_or(at, |retry| at.max(retry)));
        [timers, self.deferred_until].into_iter().flatten().min()
    }

    /// Timers fired: absences that ran out, bot moves, turn timeouts.
    pub(super) async fn on_timer(&mut self) {
        if self.hall.is_closing() {
            // Nothing acts while the hall drains: the games go on after the restart.
            return;
        }
        let now = Instant::now();
        if self.deferred_until.is_some_and(|at| at <= now) {
            self.flush_deferred();
        }
        if self.store_retry_at.is_some_and(|at| at > now) {
            // A write failed a moment ago: the timers that are due act once it is time to
            // retry (their actions would only fail again meanwhile).
            return;
        }
        for seat in 0..self.seats.len() {
            if self.seats[seat].away_deadline.is_some_and(|d| d <= now) && self.game.is_some() {
                // Leaving clears the deadline once stored; a failed write keeps it due.
                let answer = self.perform(seat, Act::Abandon, None, true).await;
                self.report(answer);
            }
        }
        if self.quick_fill_at.is_some_and(|at| at <= now) {
            self.quick_fill().await;
        }
        if self.start_at.is_some_and(|at| at <= now) {
            self.start_at = None;
            self.maybe_start().await;
        }
        if self.next_idle_deadline().is_some_and(|at| at <= now) {
            self.free_idle_seats(now);
            self.persist_waiting().await;
        }
        let Some(running) = self.game.as_ref() else {
            self.release_expired_holds(now);
            self.flush();
            return;
        };
        let turn = running.session.turn();
        if let (Some(at), Some((seat, _))) = (running.act_at, turn)
            && at <= now
        {
            let level = self.seats[seat]
                .bot
                .unwrap_or(autoplay_level(self.game_kind));
            let running = self.game.as_mut().expect("checked above");
            running.act_at = None;
            let decided = if running.session.bot_is_slow(level) {
                // A searching bot thinks off the runtime's threads (other rooms go on).
                let mut session = running.session.clone();
                tokio::task::spawn_blocking(move || session.bot_act(seat, level))
                    .await
                    .expect("the bot does not panic")
            } else {
                running.session.bot_act(seat, level)
            };
            let answer = match decided {
                Some(act) => self.perform(seat, act, None, true).await,
                // The engines leave no seat on turn without a move: said, not played.
                None => Err(err(ErrorCode::Illegal, "the bot found nothing to play")),
            };
            if answer
                .as_ref()
                .is_err_and(|e| matches!(e.code, ErrorCode::Internal | ErrorCode::Unavailable))
                && let Some(running) = self.game.as_mut()
            {
                // Not stored: the same decision is taken again once the retry is due.
                running.act_at = Some(now);
            }
            self.report(answer);
        } else if let (Some(deadline), Some((seat, _))) = (running.deadline, turn)
            && deadline <= now
        {
            self.timeout(seat).await;
        }
        self.flush();
    }

    fn report(&self, answer: Outcome) {
        if let Err(e) = answer {
            tracing::warn!(room = %self.code, error = %e, "an automatic action was refused");
        }
    }

    /// A decision's timer ran out (P-TIMER): the game says what stands in for the seat.
    async fn timeout(&mut self, seat: usize) {
        let Some(running) = self.game.as_ref() else {
            return;
        };
        match running.session.on_timeout() {
            StandIn::Autoplay => {
                // P-AUTOPLAY: auto-play takes over at once and stays on.
                if !self.seats[seat].autoplay {
                    let answer = self
                        .perform(seat, Act::Autoplay { on: true }, None, true)
                        .await;
                    self.report(answer);
                }
                if let Some(running) = self.game.as_mut() {
                    running.act_at = Some(Instant::now());
                }
            }
            StandIn::Act(act) => {
                // The game's own act for it (jungle: the move passes and the timeout is
                // counted, P-JUNGLE-TIMEOUT).
                let answer = self.perform(seat, act, None, true).await;
                self.report(answer);
            }
        }
    }

    /// A seated player's last connection closed during the game (P-DISCONNECT): the game
    /// says what stands in for the seat meanwhile.
    pub(super) async fn go_away(&mut self, seat: usize) {
        let Some(running) = self.game.as_ref() else {
            return;
        };
        if self.seats[seat].out.is_some() {
            return;
        }
        let stand_in = running.session.on_away();
        let until = self.seats[seat].hold(self.hall.config().reconnect_grace);
        self.emit(RoomEvent::Away { seat, until });
        match stand_in {
            StandIn::Autoplay => {
                if !self.seats[seat].autoplay {
                    self.seats[seat].autoplay = true;
                    self.seats[seat].autoplay_for_away = true;
                    self.emit(RoomEvent::Autoplay {
                        seat,
                        on: true,
                        reason: AutoplayReason::Disconnect,
                    });
                    self.schedule_bot();
                }
            }
            StandIn::Act(act) => {
                // The game's own act for it (jungle: the disconnection is counted and scored
                // at the end, P-JUNGLE-DISCONNECT).
                let answer = self.perform(seat, act, None, true).await;
                self.report(answer);
            }
        }
    }

    /// A seated player is back in time.
    pub(super) async fn come_back(&mut self, seat: usize) {
        if self.seats[seat].away_until.take().is_none() {
            return;
        }
        self.seats[seat].away_deadline = None;
        self.emit(RoomEvent::Back { seat });
        if self.seats[seat].autoplay_for_away {
            self.seats[seat].autoplay = false;
            self.seats[seat].autoplay_for_away = false;
            self.emit(RoomEvent::Autoplay {
                seat,
                on: false,
                reason: AutoplayReason::Back,
            });
            self.schedule_bot();
        }
    }
}
