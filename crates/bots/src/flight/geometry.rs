//! Route geometry the bots reason with (flight.md §1, §3): which squares a plane can come to
//! rest on with one roll, and how likely an enemy plane is to land on a square next turn.
//!
//! These tables ignore stacks, bounces and weather on purpose: they estimate danger for the
//! evaluation; the engine alone decides what really happens.

use std::sync::OnceLock;

/// Last progress on the outer track (the turn-in square).
pub const LAST_TRACK: u8 = 50;
/// Progress of the crossing square in the opposite colour's home column (F-CROSS).
pub const CROSSING: u8 = 53;
/// Progress of the shortcut's start (F-FLY).
pub const FLY_FROM: u8 = 18;
/// Progress the shortcut lands on.
pub const FLY_TO: u8 = 30;

/// The outer-track square (0..52) of progress `progress` (1..=50) of colour `colour`.
pub fn square_of(colour: usize, progress: u8) -> usize {
    (13 * colour + 2 + usize::from(progress)) % 52
}

/// The progress, in colour `colour`'s route, of outer-track square `square`, if that colour's
/// planes can stand there (1..=50).
pub fn progress_of(colour: usize, square: usize) -> Option<u8> {
    let progress = (square + 52 * 2 - 13 * colour - 2) % 52;
    (1..=50).contains(&progress).then_some(progress as u8)
}

/// Whether progress `progress` is an own-colour track square that jumps (F-JUMP).
fn jumps(progress: u8) -> bool {
    progress % 4 == 2 && progress < LAST_TRACK
}

/// The resting points (in order) of a forward move of `roll` pips from `from` (0..=50) when
/// nothing blocks: the end of the walk, then of the jump and of the flight. Points past the
/// outer track are left out (nothing can be captured in a home column).
pub fn rest_points(from: u8, roll: u8) -> ([u8; 3], usize) {
    let mut points = [0u8; 3];
    let mut count = 0;
    let landed = from + roll;
    if landed > LAST_TRACK {
        return (points, 0);
    }
    points[count] = landed;
    count += 1;
    if landed == FLY_FROM {
        // Walked onto 18: fly to 30, then jump to 34 (F-FLY).
        points[count] = FLY_TO;
        points[count + 1] = FLY_TO + 4;
        count += 2;
    } else if jumps(landed) {
        let jumped = landed + 4;
        points[count] = jumped;
        count += 1;
        if jumped == FLY_FROM {
            // Jumped onto 18: fly to 30 and stop.
            points[count] = FLY_TO;
            count += 1;
        }
    }
    (points, count)
}

/// Where a forward move from `from` stops when nothing blocks (its last resting point), or
/// `None` when it leaves the outer track.
pub fn final_point(from: u8, roll: u8) -> Option<u8> {
    let (points, count) = rest_points(from, roll);
    (count > 0).then(|| points[count - 1])
}

/// `HIT[q][t]`: the chance that a plane at progress `q` (0..=50) of its colour comes to rest on
/// its own progress `t` (1..=50) on its next turn: one roll, or a 6 and then another roll.
struct HitTable(Vec<[f32; 51]>);

fn build_hit_table() -> HitTable {
    let mut table = vec![[0f32; 51]; 51];
    for (from, row) in table.iter_mut().enumerate() {
        let from = from as u8;
        for roll in 1..=6u8 {
            let (points, count) = rest_points(from, roll);
            for &point in &points[..count] {
                row[usize::from(point)] += 1.0 / 6.0;
            }
        }
        if let Some(after_six) = final_point(from, 6) {
            for roll in 1..=6u8 {
                let (points, count) = rest_points(after_six, roll);
                for &point in &points[..count] {
                    row[usize::from(point)] += 1.0 / 36.0;
                }
            }
        }
        for cell in row.iter_mut() {
            *cell = cell.min(1.0);
        }
    }
    HitTable(table)
}

fn hit_table() -> &'static HitTable {
    static TABLE: OnceLock<HitTable> = OnceLock::new();
    TABLE.get_or_init(build_hit_table)
}

/// The chance that a plane at progress `from` (0..=50) comes to rest on its own progress `to`
/// during its side's next turn, if it chose to.
pub fn hit_chance(from: u8, to: u8) -> f32 {
    if from > LAST_TRACK || to > LAST_TRACK {
        return 0.0;
    }
    hit_table().0[usize::from(from)][usize::from(to)]
}

#[cfg(test)]
mod tests {
    use super::*;

    // F-BOARD: progress p of seat k is square (13k + 2 + p) mod 52, and back.
    #[test]
    fn squares_and_progress_round_trip() {
        for colour in 0..4 {
            for progress in 1..=50 {
                let square = square_of(colour, progress);
                assert_eq!(progress_of(colour, square), Some(progress));
            }
        }
        assert_eq!(square_of(0, 50), 0);
        // Squares 1 and 2 lie past red's turn-in square (0) and before its first square (3).
        assert_eq!(progress_of(0, 1), None);
        assert_eq!(progress_of(0, 2), None);
    }

    // F-JUMP and F-FLY: 14 jumps to 18 and flies to 30; 18 flies to 30 and jumps to 34.
    #[test]
    fn rest_points_follow_jumps_and_the_shortcut() {
        assert_eq!(rest_points(10, 4), ([14, 18, 30], 3));
        assert_eq!(rest_points(12, 6), ([18, 30, 34], 3));
        assert_eq!(rest_points(0, 6), ([6, 10, 0], 2));
        assert_eq!(rest_points(0, 5), ([5, 0, 0], 1));
        assert_eq!(
            rest_points(46, 4),
            ([50, 0, 0], 1),
            "the turn-in square never jumps"
        );
        assert_eq!(rest_points(48, 3).1, 0);
    }

    #[test]
    fn hit_chances_are_probabilities() {
        assert!((hit_chance(10, 13) - 1.0 / 6.0).abs() < 0.03);
        assert!(
            hit_chance(10, 30) > 0.15,
            "a 4 reaches 30 through the shortcut"
        );
        assert_eq!(hit_chance(20, 10), 0.0, "planes only move forward");
        assert!((0..=50).all(|q| (1..=50).all(|t| (0.0..=1.0).contains(&hit_chance(q, t)))));
    }
}
