//! Bitboard move generation: the legal moves of a position, and their bulk count for perft.
//!
//! In Jungle every pseudo-legal move is legal (there is no check), so generation is a few
//! mask operations per piece: steps from a table, leaps from a table filtered by the rats in
//! their paths, minus own pieces and own den, minus water for non-rats, minus the enemies the
//! piece may not capture.

use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::role::Role;
use crate::rules::Order;
use crate::square::Square;
use crate::tables::{LEAP_FROM, LEAP_PATH, LEAP_TO, NO_LEAP, SIDEWAYS_DIRECTIONS, STEPS};
use crate::terrain::{LAND, WATER, den, traps};

/// Animals by rank, weakest first, under each order: the running union over this list gives
/// the enemies each animal outranks.
const BY_STRENGTH: [[Role; 8]; 2] = [
    Role::ALL,
    [
        Role::Rat,
        Role::Cat,
        Role::Dog,
        Role::Wolf,
        Role::Leopard,
        Role::Tiger,
        Role::Lion,
        Role::Elephant,
    ],
];

/// The masks shared by every piece of the side to move, computed once per position.
struct Context {
    /// Squares no piece of the side may enter: its own pieces and its own den.
    forbidden: Bitboard,
    /// Enemy pieces.
    theirs: Bitboard,
    /// Every rat of either side (they block leaps).
    rats: Bitboard,
    /// For each animal: the enemies it may capture, before the water rule.
    capturable: [Bitboard; 8],
    /// Whether the leopard leaps too (sideways only), option `leopard-leaps`.
    leopard_leaps: bool,
}

impl Position {
    fn context(&self) -> Context {
        let us = self.turn();
        let them = us.other();
        let theirs = self.pieces(them);
        // J-TRAP: an enemy on one of our traps has rank 0; any of our pieces captures it.
        let trapped = theirs & traps(us);
        let order = self.rules().order;
        let list = &BY_STRENGTH[(order == Order::WolfOverDog) as usize];
        let mut capturable = [Bitboard::EMPTY; 8];
        let mut running = Bitboard::EMPTY;
        for &role in list {
            // J-RANK: equal or lower rank (同类可以互吃).
            running |= theirs & self.role(role);
            capturable[role.index()] = running | trapped;
        }
        // J-RAT-ELEPHANT: the rat takes the elephant; the elephant not the rat (by default).
        capturable[Role::Rat.index()] |= theirs & self.role(Role::Elephant);
        if !self.rules().elephant_takes_rat {
            let rats = theirs & self.role(Role::Rat);
            capturable[Role::Elephant.index()] &= !(rats & !trapped);
        }
        Context {
            forbidden: self.pieces(us).with(den(us)),
            theirs,
            rats: self.role(Role::Rat),
            capturable,
            leopard_leaps: self.rules().leopard_leaps,
        }
    }

    /// The squares the piece `role` on `from` may move to.
    #[inline(always)]
    fn targets(&self, ctx: &Context, from: Square, role: Role) -> Bitboard {
        let mut targets = STEPS[from.index()];
        let leaps = match role {
            Role::Lion | Role::Tiger => 4,
            Role::Leopard if ctx.leopard_leaps => SIDEWAYS_DIRECTIONS,
            _ => 0,
        };
        if leaps > 0 && LEAP_FROM.contains(from) {
            let to = &LEAP_TO[from.index()];
            let path = &LEAP_PATH[from.index()];
            for d in 0..leaps {
                // J-LEAP: a rat of either side anywhere on the water crossed blocks the leap.
                if to[d] != NO_LEAP && (path[d] & ctx.rats).is_empty() {
                    targets.0 |= 1 << to[d];
                }
            }
        }
        // J-DEN: never into one's own den; never onto one's own piece.
        targets &= !ctx.forbidden;
        let capturable = ctx.capturable[role.index()];
        if role == Role::Rat {
            // J-WATER-CAPTURE: captures only water-to-water or land-to-land.
            let same_medium = if WATER.contains(from) { WATER } else { LAND };
            targets & (!ctx.theirs | (capturable & same_medium))
        } else {
            // J-WATER: only rats swim (leap landings are always land).
            targets & LAND & (!ctx.theirs | capturable)
        }
    }

    /// Whether the game is already decided by a den entry, so no move may follow.
    #[inline]
    fn is_den_over(&self) -> bool {
        self.den_winner().is_some()
    }

    /// Every legal move of the side to move (none once a den has been entered). History
    /// rules (J-REPEAT) are applied by [`Game`](crate::Game), not here.
    pub fn legal_moves(&self) -> MoveList {
        self.collect_moves(false)
    }

    /// The number of legal moves, by popcount of each piece's targets (perft's bulk count).
    #[inline]
    pub fn count_moves(&self) -> u32 {
        if self.is_den_over() {
            return 0;
        }
        let ctx = self.context();
        let mut count = 0;
        for from in self.pieces(self.turn()) {
            if let Some(piece) = self.piece_at(from) {
                count += self.targets(&ctx, from, piece.role).count();
            }
        }
        count
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_moves(&self) -> bool {
        if self.is_den_over() {
            return false;
        }
        let ctx = self.context();
        Iterator::any(&mut self.pieces(self.turn()), |from| {
            self.piece_at(from)
                .is_some_and(|piece| self.targets(&ctx, from, piece.role).has_any())
        })
    }

    /// The legal moves of the piece on `from` (empty if it is not the side to move's).
    pub fn moves_from(&self, from: Square) -> MoveList {
        let mut list = MoveList::new();
        if self.is_den_over() {
            return list;
        }
        if let Some(piece) = self.piece_at(from).filter(|p| p.color == self.turn()) {
            let ctx = self.context();
            for to in self.targets(&ctx, from, piece.role) {
                list.push(Move::new(from, to));
            }
        }
        list
    }

    /// The legal captures, for quiescence search.
    pub fn capture_moves(&self) -> MoveList {
        self.collect_moves(true)
    }

    /// The legal moves of the side to move, or only its captures.
    #[inline]
    fn collect_moves(&self, captures_only: bool) -> MoveList {
        let mut list = MoveList::new();
        if self.is_den_over() {
            return list;
        }
        let ctx = self.context();
        let keep = if captures_only {
            ctx.theirs
        } else {
            Bitboard::FULL
        };
        for from in self.pieces(self.turn()) {
            let role = self
                .piece_at(from)
                .expect("a piece on its bitboard square")
                .role;
            for to in self.targets(&ctx, from, role) & keep {
                list.push(Move::new(from, to));
            }
        }
        list
    }
}
