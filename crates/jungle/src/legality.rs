//! Whether one given move is legal, rule by rule, with the reason when it is not.
//!
//! Written independently of the bitboard generator on purpose: the tests check that both
//! agree on every move of many random positions (as cozy-chess does).

use crate::moves::Move;
use crate::position::{IllegalMove, Position};
use crate::role::Role;
use crate::square::Square;
use crate::terrain::{den, is_water, traps};

impl Position {
    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.check_move(m).is_ok()
    }

    /// `Ok` if `m` is legal here, otherwise the rule it breaks.
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMove> {
        if self.den_winner().is_some() {
            return Err(IllegalMove::GameOver);
        }
        let piece = self.piece_at(m.from).ok_or(IllegalMove::NoPiece(m.from))?;
        if piece.color != self.turn() {
            return Err(IllegalMove::NotYourPiece(piece));
        }
        let role = piece.role;
        if m.from.distance(m.to) != 1 {
            self.check_leap(role, m.from, m.to)?;
        }
        if let Some(target) = self.piece_at(m.to).filter(|t| t.color == piece.color) {
            return Err(IllegalMove::OwnPiece(m.to, target.role));
        }
        if m.to == den(piece.color) {
            return Err(IllegalMove::OwnDen);
        }
        if is_water(m.to) && role != Role::Rat {
            return Err(IllegalMove::Water);
        }
        if let Some(target) = self.piece_at(m.to) {
            if is_water(m.from) != is_water(m.to) {
                return Err(IllegalMove::WaterCapture);
            }
            if !self.may_capture(role, target.role, m.to) {
                return Err(IllegalMove::Outranked(role, target.role));
            }
        }
        Ok(())
    }

    /// J-RANK, J-RAT-ELEPHANT and J-TRAP for an attacker of the side to move.
    fn may_capture(&self, attacker: Role, defender: Role, at: Square) -> bool {
        if traps(self.turn()).contains(at) {
            return true; // J-TRAP: the defender has rank 0.
        }
        let rules = self.rules();
        match (attacker, defender) {
            (Role::Rat, Role::Elephant) => true,
            (Role::Elephant, Role::Rat) => rules.elephant_takes_rat,
            _ => attacker.strength(rules.order) >= defender.strength(rules.order),
        }
    }

    /// J-LEAP: `from` and `to` are the two land ends of a straight run of water, no rat is on
    /// that water, and `role` may leap that way.
    fn check_leap(&self, role: Role, from: Square, to: Square) -> Result<(), IllegalMove> {
        let sideways = from.rank() == to.rank();
        let how = match role {
            Role::Lion | Role::Tiger => " or leaps a river",
            Role::Leopard if self.rules().leopard_leaps => " or leaps a river sideways",
            _ => "",
        };
        let may_leap = match role {
            Role::Lion | Role::Tiger => true,
            Role::Leopard => self.rules().leopard_leaps && sideways,
            _ => false,
        };
        if !may_leap || is_water(from) || (!sideways && from.file() != to.file()) {
            return Err(IllegalMove::NotAStep(role, how));
        }
        let df = (to.file() as i8 - from.file() as i8).signum();
        let dr = (to.rank() as i8 - from.rank() as i8).signum();
        let mut at = from;
        let mut blocker = None;
        loop {
            at = at
                .offset(df, dr)
                .expect("walking towards a square on the board");
            if at == to {
                break;
            }
            if !is_water(at) {
                return Err(IllegalMove::NotAStep(role, how));
            }
            if blocker.is_none() && self.role(Role::Rat).contains(at) {
                blocker = Some(at);
            }
        }
        if is_water(to) {
            return Err(IllegalMove::NotAStep(role, how));
        }
        match blocker {
            Some(sq) => Err(IllegalMove::LeapBlocked(sq)),
            None => Ok(()),
        }
    }
}
