//! Closing a room for the hall's administrators (`hangar admin close-room`): a running game
//! ends with reason `closed` and changes nobody's score or rating, its record staying a
//! whole, verifiable one; the members are told (`closed`), and the room's task ends, taking
//! it off the hall list.

use super::Room;
use super::finish::result_line;
use crate::store::{ScoreLine, Scoring};
use hangar_protocol::{EndReason, GameResult, RoomEvent};

/// What members of a closed room are told.
pub(super) const CLOSED_MESSAGE: &str = "closed by the hall's administrators";

/// What members of an arena's room are told when its game is over (P-ARENA).
pub(super) const ARENA_MESSAGE: &str = "the arena game is over";

impl Room {
    /// Closes the room; false (and the room left as it was) when a running game's result
    /// could not be stored.
    pub(super) async fn close_by_admin(&mut self, reason: &str) -> bool {
        if self.game.is_some() && !self.end_game_closed().await {
            return false;
        }
        self.emit(RoomEvent::Closed {
            reason: reason.to_owned(),
        });
        self.flush();
        // The connections keep their handle; their next command finds the room gone.
        self.members.clear();
        self.closed = true;
        true
    }

    /// Ends the running game where it stands: stored as finished with reason `closed`, every
    /// delta 0 and no rating change (stored as a practice game is), then `game_over`.
    async fn end_game_closed(&mut self) -> bool {
        let Some(running) = self.game.as_ref() else {
            return true;
        };
        let ending = running.session.ending();
        let seat_count = self.seats.len() as u32;
        let mut lines = Vec::new();
        let mut players = Vec::new();
        for (i, seat) in self.seats.iter().enumerate() {
            let rank = ending.ranks[i].unwrap_or(seat_count);
            if let Some(id) = seat.player_id() {
                lines.push(ScoreLine {
                    player_id: id,
                    seat: i as i64,
                    delta: 0,
                    rank: i64::from(rank),
                    team: self.team(i),
                    won: false,
                });
            }
            players.push(result_line(
                i,
                seat,
                rank,
                seat.finished_planes(ending.finished[i]),
                ending.captures[i],
                0,
            ));
        }
        let mut result = GameResult {
            game_id: running.game_id,
            reason: EndReason::Closed,
            seed: running.seed.to_string(),
            commitment: running.commitment.clone(),
            practice: running.practice,
            aborted: false,
            players,
        };
        let game_id = running.game_id;
        let text = serde_json::to_string(&result).expect("a result serialises");
        let settled = match self
            .hall
            .store()
            .finish_game(game_id, &text, &lines, Scoring::Practice)
            .await
        {
            Ok(settled) => settled,
            Err(e) => {
                tracing::error!(room = %self.code, error = %e, "the closed game's result could not be stored");
                return false;
            }
        };
        self.apply_settled(&mut result, &lines, settled);
        self.announce_game_over(result, true);
        true
    }
}
