//! Move ordering for alpha-beta: TT move, den entries, captures by MVV-LVA, killers, history.

use hangar_jungle::{Color, Move, Position, SQUARES, den};

use crate::jungle::eval::value;

/// Deepest ply the killer table covers.
pub const MAX_PLY: usize = 128;

const TT_MOVE: i32 = 10_000_000;
const DEN_ENTRY: i32 = 9_000_000;
const CAPTURE: i32 = 1_000_000;
const KILLER: [i32; 2] = [900_000, 800_000];
/// History scores are halved when one passes this, keeping them below the killers.
const HISTORY_CAP: i32 = 400_000;

/// The tables the ordering learns from during a search.
pub struct Ordering {
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: Vec<i32>,
}

impl Default for Ordering {
    fn default() -> Self {
        Ordering {
            killers: [[None; 2]; MAX_PLY],
            history: vec![0; 2 * SQUARES * SQUARES],
        }
    }
}

#[inline]
fn history_index(color: Color, m: Move) -> usize {
    (color.index() * SQUARES + m.from.index()) * SQUARES + m.to.index()
}

impl Ordering {
    /// Forgets killers and ages the history before a new search.
    pub fn new_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY];
        for h in &mut self.history {
            *h /= 4;
        }
    }

    /// Records a quiet move that caused a beta cutoff.
    pub fn record_cutoff(&mut self, pos: &Position, m: Move, depth: i32, ply: usize) {
        if let Some(killers) = self.killers.get_mut(ply)
            && killers[0] != Some(m)
        {
            killers[1] = killers[0];
            killers[0] = Some(m);
        }
        let h = &mut self.history[history_index(pos.turn(), m)];
        *h += depth * depth;
        if *h > HISTORY_CAP {
            for h in &mut self.history {
                *h /= 2;
            }
        }
    }

    /// The ordering score of `m` (higher first).
    fn score(&self, pos: &Position, m: Move, tt_move: Option<Move>, ply: usize) -> i32 {
        if Some(m) == tt_move {
            return TT_MOVE;
        }
        if m.to == den(pos.turn().other()) {
            return DEN_ENTRY;
        }
        if let Some(victim) = pos.piece_at(m.to) {
            let attacker = pos.piece_at(m.from).map_or(0, |p| value(pos, p.role));
            return CAPTURE + value(pos, victim.role) * 16 - attacker / 16;
        }
        if let Some(killers) = self.killers.get(ply) {
            for (k, bonus) in killers.iter().zip(KILLER) {
                if *k == Some(m) {
                    return bonus;
                }
            }
        }
        self.history[history_index(pos.turn(), m)]
    }

    /// Sorts `moves` best first.
    pub fn sort(&self, pos: &Position, moves: &mut [Move], tt_move: Option<Move>, ply: usize) {
        let mut scores = [0i32; hangar_jungle::MAX_MOVES];
        for (s, &m) in scores.iter_mut().zip(moves.iter()) {
            *s = self.score(pos, m, tt_move, ply);
        }
        // Insertion sort: at most 32 moves, no allocation.
        for i in 1..moves.len() {
            let (m, s) = (moves[i], scores[i]);
            let mut j = i;
            while j > 0 && scores[j - 1] < s {
                moves[j] = moves[j - 1];
                scores[j] = scores[j - 1];
                j -= 1;
            }
            moves[j] = m;
            scores[j] = s;
        }
    }
}
