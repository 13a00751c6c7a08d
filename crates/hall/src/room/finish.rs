//! The end of a game: scores (P-SCORE, F-SCORE, P-CAPTURE-BONUS, P-RESIGN, P-ESCAPE,
//! P-JUNGLE-DRAW), the result written in one transaction with every score change, the seed
//! revealed (P-FAIR-DICE); and rebuilding a running game after a restart (P-DURABLE).

use std::sync::Arc;

use hangar_dice::Seed;
use hangar_protocol::EndReason;
use serde_json::Value;

use super::RoomHost;
use super::{OutReason, Room, Seat, Status};
use crate::accounts::level;
use crate::store::{ScoreLine, Scoring, Settled, StoredGame};
use hangar_games::LoggedAct;
use hangar_games::scoring::ESCAPE_PENALTY;
use hangar_games::{Ending, GameSession, SeatOutcome, stored_bot_level, stored_options};
use hangar_protocol::RatingChange;
use hangar_protocol::{GameKind, GameResult, ResultLine, RoomEvent, answer_frame};

impl Room {
    /// The score changes and end reason of the finished game: the room gives what it knows of
    /// each seat (how and when it left, its disconnections, its finished pieces as the result
    /// shows them) and the game scores them by its rules (P-SCORE).
    fn score_deltas(&self, session: &GameSession, ending: &Ending) -> (Vec<i64>, EndReason) {
        let seats: Vec<SeatOutcome> = self
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| SeatOutcome {
                out: s.out.map(|o| (o, s.out_order)),
                disconnects: s.disconnects,
                finished: s.finished_planes(ending.finished[i]),
            })
            .collect();
        session.score(&self.options, ending, &seats)
    }

    /// Whether the game's winner made fewer decisions of their own than a game needs to count
    /// (P-ABORT): every person in first place (a winning team's people, both players of a
    /// jungle draw). Only the winner's decisions matter: a loser who leaves the seat to
    /// auto-play, resigns or escapes cannot turn a lost game into an aborted one, and a
    /// winner who let auto-play or a puppet's resignation win for them gains nothing.
    fn winner_made_too_few_decisions(&self, ranks: &[u32]) -> bool {
        too_few_winner_decisions(&self.seats, ranks, self.hall.config().fair.abort_decisions)
    }

    /// The rating team of a seat: partners share one (F-TEAMS), otherwise each seat is one.
    pub(super) fn team(&self, seat: usize) -> usize {
        let teams = self.options.flight().is_some_and(|f| f.rules.teams);
        if teams { seat % 2 } else { seat }
    }

    /// Scores the finished game, stores result, scores and ratings in one transaction,
    /// announces it and reopens the room for the next game (P-REMATCH). A practice game
    /// (P-PRACTICE) is stored and listed like any other, and changes nobody's score or rating.
    pub(super) async fn finish(&mut self) {
        let Some(running) = self.game.as_ref() else {
            return;
        };
        let ending = running.session.ending();
        let practice = running.practice;
        let (mut deltas, reason) = self.score_deltas(&running.session, &ending);
        let ranks: Vec<u32> = (0..self.seats.len())
            .map(|i| ending.ranks[i].unwrap_or(self.seats.len() as u32))
            .collect();
        let aborted = !practice && self.winner_made_too_few_decisions(&ranks);
        if practice {
            deltas.iter_mut().for_each(|d| *d = 0);
        } else if aborted {
            for (delta, seat) in deltas.iter_mut().zip(&self.seats) {
                *delta = abort_penalty(seat, *delta);
            }
        }
        let worst = ranks.iter().copied().max().unwrap_or(1);
        let mut players = Vec::new();
        let mut lines = Vec::new();
        for (i, seat) in self.seats.iter().enumerate() {
            let rank = ranks[i];
            if let Some(id) = seat.player_id() {
                lines.push(ScoreLine {
                    player_id: id,
                    seat: i as i64,
                    delta: deltas[i],
                    rank: i64::from(rank),
                    team: self.team(i),
                    won: rank == 1 && worst > 1,
                });
            }
            players.push(result_line(
                i,
                seat,
                rank,
                seat.finished_planes(ending.finished[i]),
                ending.captures[i],
                deltas[i],
            ));
        }
        let mut result = GameResult {
            game_id: running.game_id,
            reason,
            seed: running.seed.to_string(),
            commitment: running.commitment.clone(),
            practice,
            aborted,
            players,
        };
        let game_id = running.game_id;
        let scoring = if practice {
            Scoring::Practice
        } else if aborted {
            Scoring::Aborted
        } else {
            Scoring::Rated(self.game_kind)
        };
        match self
            .hall
            .store()
            .finish_game(
                game_id,
                &serde_json::to_string(&result).expect("a result serialises"),
                &lines,
                scoring,
            )
            .await
        {
            Ok(settled) => self.apply_settled(&mut result, &lines, settled),
            Err(e) => {
                // Keep the game: a restart finishes it again from its stored log.
                tracing::error!(room = %self.code, error = %e, "the result could not be stored");
                return;
            }
        }
        tracing::info!(room = %self.code, game_id, reason = ?result.reason, "game over");
        // A scored game between these people: their count for the day changed.
        self.pair_checked = None;
        self.hall.game_over(&self.code, &result);
        self.announce_game_over(result, practice);
        for index in 0..self.seats.len() {
            let seat = &self.seats[index];
            // P-REMATCH: everyone still in the room keeps the seat, a resigner included; one
            // who escaped has left.
            let gone = seat.out == Some(OutReason::Escaped)
                || seat.player_id().is_some_and(|id| !self.is_connected(id));
            if seat.player.is_some() && gone {
                self.free_seat(index);
            }
            let seat = &mut self.seats[index];
            seat.ready = seat.bot.is_some();
            seat.autoplay = false;
            seat.autoplay_for_away = false;
            seat.away_until = None;
            seat.away_deadline = None;
            seat.out = None;
        }
        self.publish();
    }

    /// Writes what the store settled into the result's lines (score, level, rating change)
    /// and the seated players' scores.
    pub(super) fn apply_settled(
        &mut self,
        result: &mut GameResult,
        lines: &[ScoreLine],
        settled: Vec<Settled>,
    ) {
        for (line, settled) in lines.iter().zip(settled) {
            let seat = line.seat as usize;
            let score = settled.score;
            result.players[seat].delta = settled.delta;
            result.players[seat].score = Some(score);
            result.players[seat].level = Some(level(score));
            result.players[seat].rating = settled.rating.map(|(before, after)| RatingChange {
                before: before.rating,
                after: after.view(self.game_kind),
            });
            if let Some(player) = self.seats[seat].player.as_mut() {
                player.score = score;
            }
        }
    }

    /// The stored game is over: counted, announced (`game_over`), kept as the room's last
    /// result, and the room waits again.
    pub(super) fn announce_game_over(&mut self, result: GameResult, practice: bool) {
        metrics::counter!(
            crate::metrics::GAMES_FINISHED,
            "game" => self.game_kind.name(),
            "practice" => if practice { "true" } else { "false" }
        )
        .increment(1);
        self.emit(RoomEvent::GameOver {
            result: result.clone(),
        });
        self.last_result = Some(result);
        self.game = None;
        self.status = Status::Waiting;
    }

    /// Rebuilds a running game's room from its stored settings, seed and action log.
    pub(super) async fn restore(
        hall: Arc<dyn RoomHost>,
        stored: &StoredGame,
    ) -> anyhow::Result<Room> {
        let kind = GameKind::from_name(&stored.start.game)
            .ok_or_else(|| anyhow::anyhow!("unknown game {:?}", stored.start.game))?;
        let given: Value = serde_json::from_str(&stored.start.options)?;
        let (options, seat_count, turn_seconds) =
            stored_options(kind, &given, hall.config().turn_seconds)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
        let seed: Seed = stored.start.seed.parse()?;
        let seats_json: Vec<Value> = serde_json::from_str(&stored.start.seats)?;
        let mut room = Room::new(
            hall.clone(),
            stored.start.room.clone(),
            kind,
            stored.start.private,
            options,
            seat_count,
            turn_seconds,
        );
        for (i, seat) in seats_json.iter().enumerate().take(seat_count) {
            let mut restored = Seat {
                ready: true,
                ..Seat::default()
            };
            if let Some(id) = seat["player_id"].as_i64() {
                restored.player = hall.store().player(id).await?;
                hall.set_seated(id, &room.code, true);
                if room.host.is_none() {
                    room.host = Some(id);
                }
            } else {
                restored.bot = seat["bot"]
                    .as_str()
                    .map(|bot| stored_bot_level(room.game_kind, bot));
            }
            room.seats[i] = restored;
        }
        let session = GameSession::start(&room.options, seat_count, seed, stored.start.dice)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        room.restore_pair_practice(stored.id).await;
        room.replaying = true;
        room.begin(session, stored.id, seed, stored.start.commitment.clone());
        for (idx, data) in stored.actions.iter().enumerate() {
            let logged = LoggedAct::from_line(data)?;
            let answer = room
                .perform(logged.seat, logged.action, logged.entropy, logged.auto)
                .await;
            if let Err(e) = &answer {
                anyhow::bail!("game {}: action {idx} does not replay: {e}", stored.id);
            }
            // The command that asked for it is answered as a repeat if its client sends it
            // again (it may have lost the acknowledgement in the crash).
            if let (Some(cmd), Some(player)) = (&logged.cmd, room.seats[logged.seat].player_id()) {
                let frame_len = answer_frame(cmd.id, &answer).len();
                hall.answer_cache(player, &cmd.client)
                    .lock()
                    .expect("cache lock")
                    .put(cmd.id, &answer, frame_len);
            }
        }
        room.replaying = false;
        let running = room.game.as_mut().expect("the game was begun");
        running.next_idx = stored.actions.len() as i64;
        running.deadline = None;
        // Everyone is away until they reconnect (P-DISCONNECT), with a fresh countdown.
        let grace = hall.config().reconnect_grace;
        for seat in &mut room.seats {
            if seat.player.is_some() && seat.out.is_none() {
                seat.hold(grace);
            }
        }
        room.number_events_anew();
        room.after_change(false).await;
        tracing::info!(room = %room.code, game_id = stored.id, actions = stored.actions.len(), "game restored");
        Ok(room)
    }
}

/// [`Room::winner_made_too_few_decisions`] on the seats and their ranks alone: whether a
/// person ranked 1 made fewer than `least` decisions of their own.
fn too_few_winner_decisions(seats: &[Seat], ranks: &[u32], least: u32) -> bool {
    seats
        .iter()
        .zip(ranks)
        .any(|(s, &rank)| rank == 1 && s.player.is_some() && s.own_decisions < least)
}

/// What a seat's score change becomes when its game is aborted (P-ABORT): nothing, except the
/// penalty of one who escaped (P-ESCAPE: 200) or was away too long (its loss as scored).
fn abort_penalty(seat: &Seat, delta: i64) -> i64 {
    match seat.out {
        Some(OutReason::Escaped) => -ESCAPE_PENALTY,
        Some(OutReason::Disconnected) => delta.min(0),
        _ => 0,
    }
}

/// Seat `i`'s line of a game's result before it is stored: the score, level and rating are
/// filled in from the store's answer.
pub(super) fn result_line(
    i: usize,
    seat: &Seat,
    rank: u32,
    finished: u32,
    captures: u32,
    delta: i64,
) -> ResultLine {
    ResultLine {
        seat: i,
        name: seat.name(),
        player_id: seat.player_id(),
        bot: seat.player.as_ref().is_some_and(|p| p.bot),
        guest: seat.player.as_ref().is_some_and(|p| p.guest),
        rank,
        finished,
        captures,
        delta,
        score: None,
        level: None,
        out: seat.out,
        rating: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accounts::Player;

    /// A person's seat with `own_decisions` decisions of their own.
    fn person(id: i64, own_decisions: u32) -> Seat {
        Seat {
            player: Some(Player {
                id,
                name: format!("p{id}"),
                guest: true,
                bot: false,
                score: 1000,
            }),
            own_decisions,
            ..Seat::default()
        }
    }

    fn bot() -> Seat {
        Seat {
            bot: Some(hangar_protocol::BotLevel::Random),
            ..Seat::default()
        }
    }

    #[test]
    fn p_abort_counts_the_winners_own_decisions_only() {
        // The winner made 3 (enough), the loser 1: scored, whichever seat wins.
        assert!(!too_few_winner_decisions(
            &[person(1, 3), person(2, 1)],
            &[1, 2],
            3
        ));
        assert!(!too_few_winner_decisions(
            &[person(1, 1), person(2, 5)],
            &[2, 1],
            3
        ));
        // The winner made 2 (one short), the loser many: aborted.
        assert!(too_few_winner_decisions(
            &[person(1, 2), person(2, 9)],
            &[1, 2],
            3
        ));
        assert!(too_few_winner_decisions(
            &[person(1, 9), person(2, 0)],
            &[2, 1],
            3
        ));
        // Every person ranked 1 counts: a winning team, or both sides of a jungle draw.
        let team = [person(1, 4), person(2, 0), person(3, 4), person(4, 0)];
        assert!(!too_few_winner_decisions(&team, &[1, 2, 1, 2], 3));
        assert!(too_few_winner_decisions(&team, &[2, 1, 2, 1], 3));
        assert!(too_few_winner_decisions(
            &[person(1, 3), person(2, 2)],
            &[1, 1],
            3
        ));
        // A bot that wins makes no game aborted (it is a practice game anyway, P-PRACTICE).
        assert!(!too_few_winner_decisions(
            &[bot(), person(2, 0)],
            &[1, 2],
            3
        ));
        // 0 switches the rule off.
        assert!(!too_few_winner_decisions(
            &[person(1, 0), person(2, 0)],
            &[1, 2],
            0
        ));
    }

    #[test]
    fn p_abort_keeps_only_the_escape_and_away_penalties() {
        let mut seat = person(1, 0);
        assert_eq!(abort_penalty(&seat, -750), 0);
        assert_eq!(abort_penalty(&seat, 1500), 0);
        seat.out = Some(OutReason::Resigned);
        assert_eq!(abort_penalty(&seat, -750), 0);
        seat.out = Some(OutReason::Escaped);
        assert_eq!(abort_penalty(&seat, -750), -ESCAPE_PENALTY);
        seat.out = Some(OutReason::Disconnected);
        assert_eq!(abort_penalty(&seat, -750), -750);
        assert_eq!(abort_penalty(&seat, 250), 0);
    }
}
