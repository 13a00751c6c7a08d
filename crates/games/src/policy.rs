//! The platform rules that differ by game, asked of the [`GameSession`] so that the room
//! keeps no `match` on the game: who plays for a seat whose timer ran out or whose player is
//! away, and whether draws are offered. Scoring is [`GameSession::score`] (`scoring.rs`).

use hangar_protocol::{EndReason, ErrorCode, ProtoError};

use crate::scoring::{SeatOutcome, flight_score, jungle_score};
use crate::{Act, Ending, GameSession, RoomOptions};

/// What takes a seat's place when it does not act itself: its decision timer ran out
/// (P-TIMER), or its player's last connection closed (P-DISCONNECT).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StandIn {
    /// Auto-play plays the seat's turns (P-AUTOPLAY): flight.
    Autoplay,
    /// The room records this act for the seat and the game goes on by its rules: in jungle a
    /// timeout passes the move and is counted (P-JUNGLE-TIMEOUT), a disconnection is counted
    /// (P-JUNGLE-DISCONNECT).
    Act(Act),
}

impl GameSession {
    /// What the room does when the seat on turn lets its timer run out (P-TIMER): flight puts
    /// it on auto-play at once, which stays on (P-AUTOPLAY); jungle passes the move and counts
    /// a timeout (P-JUNGLE-TIMEOUT).
    pub const fn on_timeout(&self) -> StandIn {
        match self {
            GameSession::Flight(_) => StandIn::Autoplay,
            GameSession::Jungle(_) => StandIn::Act(Act::Timeout),
        }
    }

    /// What the room does when a seated player's last connection closes during the game
    /// (P-DISCONNECT): flight plays their turns by auto-play until they are back; jungle counts
    /// the disconnection (P-JUNGLE-DISCONNECT) and lets their timer run.
    pub const fn on_away(&self) -> StandIn {
        match self {
            GameSession::Flight(_) => StandIn::Autoplay,
            GameSession::Jungle(_) => StandIn::Act(Act::Disconnect),
        }
    }

    /// Whether a draw may be offered in this game (P-JUNGLE-DRAW): in jungle only.
    pub fn may_offer_draw(&self) -> Result<(), ProtoError> {
        match self {
            GameSession::Jungle(_) => Ok(()),
            GameSession::Flight(_) => Err(ProtoError::new(
                ErrorCode::Illegal,
                "draws are offered in jungle only",
            )),
        }
    }

    /// The score change of each seat and why the game ended (P-SCORE): `ending` is this
    /// session's [`GameSession::ending`], `options` the room's (the flight stake and planes,
    /// the jungle level), `seats` what the room knows of each seat. A game that ended because
    /// a player left is named by how the last one left.
    pub fn score(
        &self,
        options: &RoomOptions,
        ending: &Ending,
        seats: &[SeatOutcome],
    ) -> (Vec<i64>, EndReason) {
        match (self, options) {
            (GameSession::Flight(_), RoomOptions::Flight(flight)) => {
                flight_score(flight.stake, u32::from(flight.rules.planes), ending, seats)
            }
            (GameSession::Jungle(_), RoomOptions::Jungle(jungle)) => {
                jungle_score(jungle.level, ending, seats)
            }
            _ => unreachable!("a room's session plays the room's game"),
        }
    }
}

#[cfg(test)]
mod tests {
    use hangar_dice::{DiceScheme, Seed};
    use hangar_protocol::{GameKind, OutReason};
    use serde_json::json;

    use super::*;
    use crate::check_options;

    fn room(game: GameKind, given: serde_json::Value) -> (RoomOptions, GameSession) {
        let (options, seats, _) = check_options(game, &given, 20).expect("options");
        let session = GameSession::start(&options, seats, Seed::random(), DiceScheme::PerRoll)
            .expect("starts");
        (options, session)
    }

    /// A flight ending: ranks, finished planes and captures by seat, colours in seat order.
    fn flight_ending(ranks: &[u32], finished: &[u32], captures: &[u32]) -> Ending {
        Ending {
            ranks: ranks.iter().map(|&r| Some(r)).collect(),
            finished: finished.to_vec(),
            captures: captures.to_vec(),
            colours: (0..ranks.len()).collect(),
            jungle_winner: None,
            reason: EndReason::Finished,
        }
    }

    fn stays(finished: u32) -> SeatOutcome {
        SeatOutcome {
            finished,
            ..SeatOutcome::default()
        }
    }

    fn left(reason: OutReason, order: u32, finished: u32) -> SeatOutcome {
        SeatOutcome {
            out: Some((reason, order)),
            finished,
            ..SeatOutcome::default()
        }
    }

    #[test]
    fn p_autoplay_a_flight_timeout_or_absence_is_played_by_autoplay() {
        let (_, flight) = room(GameKind::Flight, json!({}));
        assert_eq!(flight.on_timeout(), StandIn::Autoplay);
        assert_eq!(flight.on_away(), StandIn::Autoplay);
    }

    #[test]
    fn p_jungle_timeout_a_jungle_timeout_is_a_pass_and_an_absence_is_counted() {
        let (_, jungle) = room(GameKind::Jungle, json!({}));
        assert_eq!(jungle.on_timeout(), StandIn::Act(Act::Timeout));
        // P-JUNGLE-DISCONNECT: the disconnection is an act of the log, scored at the end.
        assert_eq!(jungle.on_away(), StandIn::Act(Act::Disconnect));
    }

    #[test]
    fn p_jungle_draw_draws_are_offered_in_jungle_only() {
        let (_, jungle) = room(GameKind::Jungle, json!({}));
        assert_eq!(jungle.may_offer_draw(), Ok(()));
        let (_, flight) = room(GameKind::Flight, json!({}));
        let refused = flight.may_offer_draw().expect_err("no draws in flight");
        assert_eq!(refused.code, ErrorCode::Illegal);
        assert_eq!(refused.message, "draws are offered in jungle only");
    }

    #[test]
    fn p_score_a_flight_game_played_to_the_end_is_scored_by_finished_planes() {
        // F-SCORE with S = 100, 4 planes (v = 25) and P-CAPTURE-BONUS.
        let (options, flight) = room(GameKind::Flight, json!({"seats": 2, "stake": 100}));
        let ending = flight_ending(&[1, 2], &[4, 1], &[0, 2]);
        let (deltas, reason) = flight.score(&options, &ending, &[stays(4), stays(1)]);
        assert_eq!(deltas, vec![75, -75 + 10]);
        assert_eq!(reason, EndReason::Finished);
    }

    #[test]
    fn p_resign_a_flight_resigner_loses_v_per_unfinished_plane() {
        // Two players, v = 25: the resigner (1 finished when it left) loses 3 × 25; the winner
        // gains 25 per own finished plane; the game ends as resigned.
        let (options, flight) = room(GameKind::Flight, json!({"seats": 2, "stake": 100}));
        let ending = flight_ending(&[1, 2], &[2, 3], &[0, 0]);
        let seats = [stays(2), left(OutReason::Resigned, 0, 1)];
        let (deltas, reason) = flight.score(&options, &ending, &seats);
        assert_eq!(deltas, vec![50, -75]);
        assert_eq!(reason, EndReason::Resigned);
    }

    #[test]
    fn p_disconnect_a_flight_player_gone_too_long_scores_as_a_resigner() {
        let (options, flight) = room(GameKind::Flight, json!({"seats": 2, "stake": 100}));
        let ending = flight_ending(&[1, 2], &[2, 1], &[0, 0]);
        let seats = [stays(2), left(OutReason::Disconnected, 0, 1)];
        let (deltas, reason) = flight.score(&options, &ending, &seats);
        assert_eq!(deltas, vec![50, -75]);
        assert_eq!(reason, EndReason::Disconnected);
    }

    #[test]
    fn p_escape_a_flight_escaper_loses_200_and_the_game_goes_on_to_its_end() {
        // Three players: yellow escapes first; red then finishes all 4 planes, so the game
        // ended by play (finished), the escaper pays 200 and blue loses 2 × 25 to red.
        let (options, flight) = room(GameKind::Flight, json!({"seats": 3, "stake": 100}));
        let ending = flight_ending(&[1, 3, 2], &[4, 0, 2], &[1, 0, 0]);
        let seats = [stays(4), left(OutReason::Escaped, 0, 1), stays(2)];
        let (deltas, reason) = flight.score(&options, &ending, &seats);
        assert_eq!(deltas, vec![50 + 5, -200, -50]);
        assert_eq!(reason, EndReason::Finished);
    }

    #[test]
    fn p_jungle_timeout_a_jungle_timeout_forfeit_is_scored_as_a_loss() {
        // P-JUNGLE-TIMEOUT: the fourth timeout lost seat 1 the game (a forfeit, named by the
        // timeouts); P-JUNGLE-DRAW's winner gains 2 × level 3, the loser loses 2, and each
        // disconnection costs 10 (P-JUNGLE-DISCONNECT).
        let (options, mut jungle) = room(GameKind::Jungle, json!({"level": 3}));
        jungle.remove(1);
        let ending = jungle.ending();
        let seats = [
            SeatOutcome::default(),
            SeatOutcome {
                out: Some((OutReason::Timeouts, 0)),
                disconnects: 1,
                finished: 0,
            },
        ];
        let (deltas, reason) = jungle.score(&options, &ending, &seats);
        assert_eq!(deltas, vec![6, -2 - 10]);
        assert_eq!(reason, EndReason::Timeouts);
    }

    #[test]
    fn p_escape_a_jungle_escaper_loses_200_not_the_losers_2() {
        let (options, mut jungle) = room(GameKind::Jungle, json!({}));
        jungle.remove(0);
        let ending = jungle.ending();
        let seats = [left(OutReason::Escaped, 0, 0), SeatOutcome::default()];
        let (deltas, reason) = jungle.score(&options, &ending, &seats);
        assert_eq!(deltas, vec![-200, 2]);
        assert_eq!(reason, EndReason::Escaped);
    }

    #[test]
    fn p_jungle_draw_an_agreed_draw_changes_no_score() {
        let (options, mut jungle) = room(GameKind::Jungle, json!({"level": 5}));
        jungle.agree_draw();
        let ending = jungle.ending();
        let seats = [SeatOutcome::default(); 2];
        assert_eq!(
            jungle.score(&options, &ending, &seats),
            (vec![0, 0], EndReason::Draw)
        );
    }
}
