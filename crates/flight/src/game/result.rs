//! Ranks and scores (F-WIN, F-RANK, F-D-RANK, F-SCORE, F-D-SCORE, F-CAPTURE-BONUS).

use serde::{Deserialize, Serialize};

use crate::colour::Colour;
use crate::game::Game;

/// Points per enemy plane sent back (F-CAPTURE-BONUS).
pub const CAPTURE_BONUS: i64 = 5;

/// The score of a finished game, indexed by colour (red, yellow, blue, green); empty seats 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Scores {
    /// Points won or lost by the result (F-SCORE, F-D-SCORE).
    pub result: [i64; 4],
    /// Capture bonus: +5 per enemy plane sent back (F-CAPTURE-BONUS).
    pub capture_bonus: [i64; 4],
}

impl Scores {
    /// Result plus capture bonus.
    pub fn total(&self, colour: Colour) -> i64 {
        self.result[colour.index()] + self.capture_bonus[colour.index()]
    }
}

impl Game {
    /// Total progress of `colour`'s planes, for ranking (F-RANK).
    pub fn total_progress(&self, colour: Colour) -> u32 {
        self.planes(colour).iter().map(|p| p.score() as u32).sum()
    }

    /// The ranks by colour index once the game is over (F-RANK, F-D-RANK); `None` before.
    pub fn ranks(&self) -> Option<[Option<u8>; 4]> {
        self.is_over().then(|| self.final_ranks())
    }

    /// Ranks as they would be if the game ended now: ranks already taken under play-on, then
    /// the others by finished planes and total progress, ties sharing a rank; resigned
    /// players last. In a team game the winning team ranks 1, the other 2.
    pub fn final_ranks(&self) -> [Option<u8>; 4] {
        let mut ranks = [None; 4];
        if self.options.teams {
            // The team with all planes finished wins; without one, the team without a
            // resignation (a resignation ends a team game).
            let side_done = |s: u8| {
                Colour::ALL
                    .iter()
                    .filter(|c| c.index() as u8 & 1 == s)
                    .all(|&c| self.is_done(c))
            };
            let side_resigned = |s: u8| {
                Colour::ALL
                    .iter()
                    .any(|&c| c.index() as u8 & 1 == s && self.has_resigned(c))
            };
            let winner = if side_done(0) || side_resigned(1) {
                Some(0)
            } else if side_done(1) || side_resigned(0) {
                Some(1)
            } else {
                None
            };
            for c in self.players() {
                let side = c.index() as u8 & 1;
                ranks[c.index()] = Some(match winner {
                    Some(w) if w == side => 1,
                    Some(_) => 2,
                    // Not over yet: order the teams by finished planes, then progress.
                    None => {
                        let key = |s: u8| {
                            Colour::ALL
                                .iter()
                                .filter(|x| x.index() as u8 & 1 == s)
                                .map(|&x| (self.finished(x) as u32, self.total_progress(x)))
                                .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
                        };
                        if key(side) >= key(1 - side) { 1 } else { 2 }
                    }
                });
            }
            return ranks;
        }
        let mut taken = 0u8;
        for c in self.players() {
            if self.ranks[c.index()] != 0 {
                ranks[c.index()] = Some(self.ranks[c.index()]);
                taken += 1;
            }
        }
        let key = |c: Colour| (self.finished(c), self.total_progress(c));
        let open: Vec<Colour> = self
            .players()
            .filter(|&c| self.ranks[c.index()] == 0 && !self.has_resigned(c))
            .collect();
        for &c in &open {
            let better = open.iter().filter(|&&o| key(o) > key(c)).count() as u8;
            ranks[c.index()] = Some(taken + 1 + better);
        }
        let last = taken + open.len() as u8 + 1;
        for c in self.players() {
            if self.has_resigned(c) {
                ranks[c.index()] = Some(last);
            }
        }
        ranks
    }

    /// The score once the game is over, for a room stake `stake` (F-SCORE, F-D-SCORE): each
    /// player not ranked 1 loses `v = stake / planes` per unfinished plane; the rank-1
    /// player(s) share the sum, the odd points going to the earlier colour. Scoring of
    /// resignations and escapes is the hall's (platform P-RESIGN, P-ESCAPE).
    pub fn scores(&self, stake: u32) -> Option<Scores> {
        let ranks = self.ranks()?;
        let v = i64::from(stake / u32::from(self.options.planes));
        let mut result = [0i64; 4];
        let mut capture_bonus = [0i64; 4];
        let mut pot = 0i64;
        let mut winners = Vec::new();
        for c in self.players() {
            capture_bonus[c.index()] = CAPTURE_BONUS * i64::from(self.captures(c));
            if ranks[c.index()] == Some(1) {
                winners.push(c);
            } else {
                let unfinished = (self.plane_count() - self.finished(c)) as i64;
                result[c.index()] = -v * unfinished;
                pot += v * unfinished;
            }
        }
        if !winners.is_empty() {
            let share = pot / winners.len() as i64;
            let mut odd = pot % winners.len() as i64;
            for c in winners {
                result[c.index()] = share + i64::from(odd > 0);
                odd -= 1;
            }
        }
        Some(Scores {
            result,
            capture_bonus,
        })
    }
}
