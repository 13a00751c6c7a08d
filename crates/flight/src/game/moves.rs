//! The legal choices for a roll (F-CHOICE, F-D-SAME, F-D-SIT); `walk.rs` resolves each into
//! a [`Move`] (`choice.rs`).

use std::ops::Deref;

use crate::board::Progress;
use crate::event::NoEvents;
use crate::game::walk::Occupancy;
use crate::game::{Game, Phase};
use crate::options::ThreeSixes;

// The crate exports the list and its entries from here, together; `Move` itself is
// defined in `choice.rs`, which `walk.rs` shares without depending on this file.
pub use crate::game::choice::Move;

/// The legal choices for a roll, one per distinct result (F-D-SAME): at most one per plane,
/// in plane order, held inline (no allocation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Moves {
    len: u8,
    items: [Move; 4],
}

impl Moves {
    /// No legal move.
    pub const EMPTY: Moves = Moves {
        len: 0,
        items: [Move::NONE; 4],
    };

    #[inline]
    fn push(&mut self, m: Move) {
        self.items[self.len as usize] = m;
        self.len += 1;
    }

    #[inline]
    fn remove(&mut self, index: usize) {
        let len = self.len as usize;
        self.items.copy_within(index + 1..len, index);
        self.len -= 1;
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.items[..self.len as usize]
    }

    /// The choice that moves `plane`, if it is a listed representative.
    pub fn by_plane(&self, plane: u8) -> Option<&Move> {
        self.as_slice().iter().find(|m| m.plane == plane)
    }
}

impl Deref for Moves {
    type Target = [Move];

    #[inline]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a Moves {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl Game {
    /// The legal choices of the player on turn for `roll`, whatever the phase (bots use this
    /// to look ahead). One entry per distinct result (F-CHOICE, F-D-SAME); only the plane
    /// sitting on a stack when there is one (F-D-SIT). Ignores the three-sixes penalty.
    pub fn moves_for(&self, roll: u8) -> Moves {
        let mut moves = Moves::EMPTY;
        if self.phase == Phase::Over || !(1..=6).contains(&roll) {
            return moves;
        }
        let colour = self.turn;
        if let Some(plane) = self.forced {
            let board = Occupancy::new(self, colour);
            if let Some(m) = self.resolve(&board, colour, plane, roll, &mut NoEvents) {
                moves.push(m);
            }
            return moves;
        }
        let takeoff = self.options.is_takeoff(roll);
        let pips = self.pips(roll);
        // The board is built only when a plane on it may move: early in a game most rolls
        // move nothing, and the simulation speed depends on it.
        let mut board: Option<Occupancy> = None;
        // All four slots: unused ones hold FINISHED and are skipped like finished planes,
        // and a fixed-length loop unrolls.
        let planes = &self.planes[colour.index()];
        // Spots already listed, one bit per progress (the hangar is bit 63); finished
        // planes never move, so their spot counts as listed. Under `moved-to-hangar` a plane
        // already moved by this run of sixes differs from its neighbours while the run goes
        // on (a 6), so marked and unmarked planes are listed apart.
        let finished = 1u64 << Progress::FINISHED.get();
        let (mut seen, mut seen_marked) = (finished, finished);
        let marks = if roll == 6 { self.six_moved } else { 0 };
        for (i, &p) in planes.iter().enumerate() {
            // Planes on one spot are interchangeable: only the first is listed.
            let bit = 1u64 << (p.get() & 63);
            let set = if marks & (1 << i) == 0 {
                &mut seen
            } else {
                &mut seen_marked
            };
            if *set & bit != 0 {
                continue;
            }
            *set |= bit;
            if p.is_hangar() {
                if takeoff {
                    moves.push(Move {
                        plane: i as u8,
                        from: p,
                        to: Progress::PAD,
                        captured: 0,
                        sits: false,
                        picked: 0,
                    });
                }
                continue;
            }
            let board = board.get_or_insert_with(|| Occupancy::new(self, colour));
            if let Some(to) = board.plain_walk(&self.options, colour, p, pips) {
                moves.push(Move {
                    plane: i as u8,
                    from: p,
                    to,
                    captured: 0,
                    sits: false,
                    picked: 0,
                });
                continue;
            }
            if let Some(m) = self.resolve(board, colour, i as u8, roll, &mut NoEvents) {
                moves.push(m);
            }
        }
        if moves.len >= 2 && !(roll == 6 && self.options.three_sixes == ThreeSixes::MovedToHangar) {
            merge_equivalent(&mut moves);
        }
        moves
    }

    /// The legal choices for the pending roll; empty unless a move is awaited.
    pub fn legal_moves(&self) -> Moves {
        match self.phase {
            Phase::Move { roll } => self.moves_for(roll),
            _ => Moves::EMPTY,
        }
    }

    /// Whether moving `plane` by the pending roll is legal (any plane of an equivalent group
    /// is accepted, not only the listed one).
    pub fn is_legal(&self, plane: u8) -> bool {
        let Phase::Move { roll } = self.phase else {
            return false;
        };
        if plane as usize >= self.plane_count() || self.forced.is_some_and(|f| f != plane) {
            return false;
        }
        let board = Occupancy::new(self, self.turn);
        self.resolve(&board, self.turn, plane, roll, &mut NoEvents)
            .is_some()
    }
}

/// Two moves of planes on different spots give the same position only when both change
/// nothing (a full lap of the loop, a turn-back onto the start square): then neither
/// captures or takes an item, and the planes stay where they were (F-D-SAME).
fn merge_equivalent(moves: &mut Moves) {
    let mut i = 0;
    while i < moves.len as usize {
        let a = moves.items[i];
        let mut j = i + 1;
        while j < moves.len as usize {
            let b = moves.items[j];
            let both_still = a.to == a.from
                && b.to == b.from
                && a.captured == 0
                && b.captured == 0
                && a.picked == 0
                && b.picked == 0;
            if both_still {
                moves.remove(j);
            } else {
                j += 1;
            }
        }
        i += 1;
    }
}
