//! The input of the TD-trained network ([`super::net`]): a position seen from the colour about
//! to roll, TD-Gammon style.
//!
//! The seats are rotated so that the colour to roll is seat 0, the next colour clockwise seat
//! 1, and so on. The board is symmetric under that rotation (colour `c`'s progress `p` is
//! square `13c + 2 + p`), so a seat's progress in its own route already says on which square,
//! relative to the roller, its plane stands: two seats' planes meet where their progresses map
//! to the same square, which the hidden layer can learn.
//!
//! Sparse inputs, one per plane: for each seat and each place a plane can be (hangar, launch
//! pad, track squares 1..=50, home-column squares 51..=55, finished) a few "at least k planes
//! here" inputs (TD-Gammon's thresholds); the `k`-th plane on a place switches on input `k`
//! (capped), so a position has exactly one active input per plane. Four more sparse inputs say
//! which seats are played. A few dense inputs per seat come from the hand evaluation: the
//! seat's progress and its expected loss to captures next round ([`super::eval`]'s danger).

use super::eval::danger;
use super::geometry::LAST_TRACK;
use super::snapshot::{At, Snapshot};

/// Seats, rotated: 0 is the colour about to roll.
pub const SEATS: usize = 4;
/// Thresholds of the hangar, the pad and the finish (up to four planes each).
const POOL_SLOTS: usize = 4;
/// Thresholds of a track or home-column square.
const SQUARE_SLOTS: usize = 3;
/// Route squares with their own inputs: progress 1..=55.
const SQUARES: usize = 55;
/// Sparse inputs per seat: hangar, pad and finish pools, then the route squares.
pub const SEAT_INPUTS: usize = 3 * POOL_SLOTS + SQUARES * SQUARE_SLOTS;
/// Index of the first "seat is played" input.
const PRESENT_BASE: usize = SEATS * SEAT_INPUTS;
/// All sparse inputs.
pub const SPARSE_INPUTS: usize = PRESENT_BASE + SEATS;
/// Dense inputs per seat: progress share and expected loss to captures.
pub const DENSE_PER_SEAT: usize = 2;
/// All dense inputs.
pub const DENSE_INPUTS: usize = SEATS * DENSE_PER_SEAT;
/// All inputs: the sparse ones, then the dense ones.
pub const INPUTS: usize = SPARSE_INPUTS + DENSE_INPUTS;
/// Index of the first "this seat rolls next" input of a player's-view encoding
/// ([`encode_for`]); these come after the dense inputs, so a roller's-view net has no rows
/// for them.
pub const TURN_BASE: usize = INPUTS;
/// All inputs of a player's-view encoding: [`INPUTS`] and one "rolls next" flag per seat.
pub const PLAYER_VIEW_INPUTS: usize = INPUTS + SEATS;
/// Most active sparse inputs: 4 seats × 4 planes + 4 presence flags + 1 turn flag.
pub const MAX_ACTIVE: usize = SEATS * 4 + SEATS + 1;

/// Full progress of a plane, launch pad (0) to finish (56).
const ROUTE: f32 = 56.0;

/// A position as the network's input.
#[derive(Clone, Debug, PartialEq)]
pub struct Encoded {
    /// The colour about to roll (seat 0); seat `r` is colour `(roller + r) % 4`.
    pub roller: usize,
    /// Active sparse inputs (value 1 each; an index may repeat, counting twice).
    active: [u16; MAX_ACTIVE],
    /// How many of `active` are used.
    len: usize,
    /// The dense inputs.
    pub dense: [f32; DENSE_INPUTS],
    /// Which seats are played.
    pub present: [bool; SEATS],
}

impl Encoded {
    /// The active sparse inputs.
    pub fn active(&self) -> &[u16] {
        &self.active[..self.len]
    }

    fn push(&mut self, index: usize) {
        debug_assert!(index < SPARSE_INPUTS || (TURN_BASE..PLAYER_VIEW_INPUTS).contains(&index));
        if self.len < MAX_ACTIVE {
            self.active[self.len] = index as u16;
            self.len += 1;
        }
    }

    /// The colour at rotated seat `seat`.
    pub fn colour(&self, seat: usize) -> usize {
        (self.roller + seat) % SEATS
    }
}

/// The place index of a plane within its seat's inputs and its threshold cap.
fn place(at: At) -> (usize, usize) {
    match at {
        At::Hangar => (0, POOL_SLOTS),
        At::Route(0) => (POOL_SLOTS, POOL_SLOTS),
        At::Finished => (2 * POOL_SLOTS, POOL_SLOTS),
        At::Route(p) => (
            3 * POOL_SLOTS + (usize::from(p.min(55)) - 1) * SQUARE_SLOTS,
            SQUARE_SLOTS,
        ),
        // The centre loop (finish = circle) has no inputs of its own: the last home square.
        At::Loop(_) => (3 * POOL_SLOTS + (SQUARES - 1) * SQUARE_SLOTS, SQUARE_SLOTS),
    }
}

/// The input of `snapshot` seen from `roller` (usually the colour about to roll).
pub fn encode(snapshot: &Snapshot, roller: usize) -> Encoded {
    let mut encoded = Encoded {
        roller,
        active: [0; MAX_ACTIVE],
        len: 0,
        dense: [0.0; DENSE_INPUTS],
        present: [false; SEATS],
    };
    for seat in 0..SEATS {
        let colour = (roller + seat) % SEATS;
        if !snapshot.present[colour] {
            continue;
        }
        encoded.present[seat] = true;
        encoded.push(PRESENT_BASE + seat);
        // A game of fewer planes is a four-plane game whose missing planes have finished:
        // the same race to bring the rest home, and a position the nets have seen.
        let mut planes = [At::Finished; 4];
        planes[..snapshot.planes].copy_from_slice(snapshot.planes_of(colour));
        let mut seen: [At; 4] = [At::Hangar; 4];
        let mut progress = 0.0;
        let mut loss = 0.0;
        for (i, &at) in planes.iter().enumerate() {
            let (base, cap) = place(at);
            let earlier = seen[..i].iter().filter(|&&s| s == at).count();
            seen[i] = at;
            encoded.push(seat * SEAT_INPUTS + base + earlier.min(cap - 1));
            let worth = match at {
                At::Hangar => 0.0,
                At::Route(p) => f32::from(p) + 1.0,
                At::Loop(short) => ROUTE - f32::from(short),
                At::Finished => ROUTE + 1.0,
            };
            progress += worth;
            if let At::Route(p) = at
                && p >= 1
                && (p <= LAST_TRACK || p == super::geometry::CROSSING)
            {
                loss += danger(snapshot, colour, p) * (worth + 6.0);
            }
        }
        let full = (ROUTE + 1.0) * planes.len() as f32;
        encoded.dense[seat * DENSE_PER_SEAT] = progress / full;
        encoded.dense[seat * DENSE_PER_SEAT + 1] = loss / full;
    }
    encoded
}

/// The input of `snapshot` seen from player `me` (seat 0 is `me`, whoever rolls next), with
/// a flag on the seat that rolls next: the input of a net that values positions for one
/// player against known opponents (trained with `train_td … view=player`), where it matters
/// who the position belongs to and not only who rolls.
pub fn encode_for(snapshot: &Snapshot, me: usize) -> Encoded {
    let mut encoded = encode(snapshot, me);
    if let Some(roller) = snapshot.to_roll {
        encoded.push(TURN_BASE + (roller + SEATS - me) % SEATS);
    }
    encoded
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flight::snapshot::two_player;

    #[test]
    fn one_active_input_per_plane_and_one_per_seat() {
        let s = two_player(
            [At::Hangar, At::Route(0), At::Route(7), At::Route(7)],
            [At::Finished, At::Route(52), At::Hangar, At::Hangar],
        );
        let e = encode(&s, 0);
        assert_eq!(e.active().len(), 8 + 2);
        assert!(e.active().iter().all(|&i| usize::from(i) < SPARSE_INPUTS));
        // Red's two planes on 7 switch on "at least one" and "at least two" there.
        let seven = 3 * POOL_SLOTS + 6 * SQUARE_SLOTS;
        assert!(e.active().contains(&(seven as u16)));
        assert!(e.active().contains(&(seven as u16 + 1)));
        // Blue is two seats after red.
        assert_eq!(e.present, [true, false, true, false]);
        assert!(
            e.active()
                .contains(&((2 * SEAT_INPUTS + 2 * POOL_SLOTS) as u16))
        );
    }

    #[test]
    fn a_players_view_flags_the_seat_that_rolls_next() {
        let mut s = two_player([At::Route(3); 4], [At::Hangar; 4]);
        s.to_roll = Some(2);
        let red = encode_for(&s, 0);
        let blue = encode_for(&s, 2);
        assert!(red.active().contains(&((TURN_BASE + 2) as u16)));
        assert!(blue.active().contains(&(TURN_BASE as u16)));
        assert_eq!(red.active().len(), encode(&s, 0).active().len() + 1);
    }

    #[test]
    fn seen_from_the_other_side_the_seats_swap() {
        let s = two_player(
            [At::Route(3), At::Hangar, At::Hangar, At::Hangar],
            [At::Route(20), At::Route(0), At::Hangar, At::Hangar],
        );
        let red = encode(&s, 0);
        let blue = encode(&s, 2);
        assert_eq!(blue.colour(0), 2);
        assert_eq!(red.dense[0], blue.dense[2 * DENSE_PER_SEAT]);
        assert_eq!(red.dense[2 * DENSE_PER_SEAT], blue.dense[0]);
    }
}
