//! Static evaluation of a Jungle position: material, distance to the enemy den, pieces on
//! traps, leap lanes and mobility.

use hangar_jungle::{Bitboard, Color, Position, Role, Square, den, traps};

/// Value of each rank 1..=8 (index 0 unused): the rat is dearer than its rank because it kills
/// the elephant, swims and blocks leaps.
const VALUE_BY_STRENGTH: [i32; 9] = [0, 450, 250, 300, 350, 500, 800, 900, 1000];

/// Bonus for standing `d` steps (Manhattan) from the enemy den: a steady pull forward plus a
/// steep bonus for the last three steps, where games are won (J-WIN-DEN).
const ADVANCE: [i32; 15] = {
    let mut table = [0; 15];
    let mut d = 0;
    while d < 15 {
        let near = match d {
            0 | 1 => 120,
            2 => 70,
            3 => 35,
            _ => 0,
        };
        table[d] = 8 * (14 - d as i32) + near;
        d += 1;
    }
    table
};

/// Mobility weight per legal move.
const MOBILITY: i32 = 4;

/// Bonus for a lion or tiger on a square from which it can leap (J-LEAP).
const LEAP_LANE: i32 = 20;

/// Bonus for each of up to two pieces standing guard beside the own traps.
const TRAP_GUARD: i32 = 15;

/// The squares beside `color`'s traps (not the traps or den themselves).
fn trap_guard_squares(color: Color) -> Bitboard {
    let t = traps(color);
    let mut squares = Bitboard::EMPTY;
    for sq in t {
        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            if let Some(n) = sq.offset(df, dr) {
                squares = squares.with(n);
            }
        }
    }
    squares & !t & !Bitboard::from_square(den(color))
}

/// The material value of `role` under the position's order option.
#[inline]
pub fn value(pos: &Position, role: Role) -> i32 {
    VALUE_BY_STRENGTH[role.strength(pos.rules().order) as usize]
}

/// The squares next to each side's den: a piece of the enemy there wins next move.
pub fn den_neighbours(color: Color) -> Bitboard {
    let d = den(color);
    [(1, 0), (-1, 0), (0, 1), (0, -1)]
        .into_iter()
        .filter_map(|(df, dr)| d.offset(df, dr))
        .collect()
}

/// Squares from which a lion or tiger has a leap (beside a river, facing across it).
fn leap_squares() -> Bitboard {
    [
        "a4", "a5", "a6", "d4", "d5", "d6", "g4", "g5", "g6", "b3", "c3", "e3", "f3", "b7", "c7",
        "e7", "f7",
    ]
    .into_iter()
    .map(|s| s.parse::<Square>().expect("a square name"))
    .collect()
}

/// The per-side part of the evaluation, from `color`'s point of view.
fn side_score(pos: &Position, color: Color, leap_lanes: Bitboard) -> i32 {
    let target = den(color.other());
    let guard_squares = trap_guard_squares(color);
    let mut guards = 0;
    let mut score = 0;
    for sq in pos.pieces(color) {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        let v = value(pos, piece.role);
        score += v;
        let advance = ADVANCE[sq.distance(target) as usize];
        // The elephant and the big cats win games; the rat advances slowly on purpose.
        score += match piece.role {
            Role::Rat => advance / 2,
            _ => advance,
        };
        if guard_squares.contains(sq) && piece.role != Role::Elephant {
            // Beside our traps a piece can take anything that steps on them (J-TRAP).
            guards += 1;
        }
        if matches!(piece.role, Role::Lion | Role::Tiger) && leap_lanes.contains(sq) {
            score += LEAP_LANE;
        }
    }
    score + TRAP_GUARD * guards.min(2)
}

/// The evaluation in centipawn-like units from the side to move's point of view.
pub struct Evaluator {
    leap_lanes: Bitboard,
}

impl Default for Evaluator {
    fn default() -> Self {
        Evaluator {
            leap_lanes: leap_squares(),
        }
    }
}

impl Evaluator {
    /// The score of `pos` for the side to move (positive: better for it).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let us = pos.turn();
        let mut score =
            side_score(pos, us, self.leap_lanes) - side_score(pos, us.other(), self.leap_lanes);
        score += MOBILITY * pos.count_moves() as i32;
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hangar_jungle::Rules;

    #[test]
    fn the_start_position_is_balanced_apart_from_mobility() {
        let pos = Position::start(Rules::default());
        let e = Evaluator::default();
        // Symmetric material and advance; only the side to move's mobility counts.
        assert_eq!(e.evaluate(&pos), MOBILITY * 24);
    }

    #[test]
    fn more_material_and_closer_to_the_den_score_higher() {
        let e = Evaluator::default();
        let up: Position = "l6/7/7/7/7/7/7/7/L5E r".parse().unwrap();
        let even: Position = "l6/7/7/7/7/7/7/7/L6 r".parse().unwrap();
        assert!(e.evaluate(&up) > e.evaluate(&even) + 500);
        let near: Position = "l6/2L4/7/7/7/7/7/7/7 r".parse().unwrap();
        let far: Position = "l6/7/7/7/7/7/7/7/L6 r".parse().unwrap();
        assert!(e.evaluate(&near) > e.evaluate(&far) + 100);
        assert_eq!(den_neighbours(Color::Yellow).count(), 3);
        // b1, c2, d3, e2 and f1 guard red's traps c1, e1 and d2.
        assert_eq!(trap_guard_squares(Color::Red).count(), 5);
    }
}
