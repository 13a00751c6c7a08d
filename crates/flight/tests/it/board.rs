//! F-BOARD: the route, the track squares, the shortcut and the crossing square.
#![allow(clippy::unwrap_used)]

use crate::common;

use common::p;
use hangar_flight::board::{CROSSING, TURN_IN, crossing, locate, square};
use hangar_flight::{Colour, Location, Progress, Square};

/// F-BOARD: progress p of seat k is track square (13k + 2 + p) mod 52; 1..=50 on the track.
#[test]
fn f_board_progress_maps_to_track_squares() {
    for colour in Colour::ALL {
        let k = colour.index() as u8;
        for v in 1..=50u8 {
            let s = square(colour, p(v as i16)).unwrap();
            assert_eq!(s, Square((13 * k + 2 + v) % 52));
        }
        // Private places have no shared square (F-SAFE).
        for v in [-1, 0, 51, 53, 55, 56] {
            assert_eq!(square(colour, p(v)), None);
        }
        assert_eq!(
            locate(colour, Progress::HANGAR),
            Location::Hangar { colour }
        );
        assert_eq!(locate(colour, p(0)), Location::Pad { colour });
        assert_eq!(locate(colour, p(53)), Location::Column { colour, step: 3 });
        assert_eq!(locate(colour, p(56)), Location::Finish { colour });
    }
    // Every route visits 50 distinct squares; each colour owns 13 squares.
    let mut seen = std::collections::HashSet::new();
    for v in 1..=50 {
        seen.insert(square(Colour::Red, p(v)).unwrap());
    }
    assert_eq!(seen.len(), 50);
    assert_eq!(
        (0..52u8)
            .filter(|s| Square(*s).colour() == Colour::Red)
            .count(),
        13
    );
}

/// F-BOARD: own-colour squares are p ≡ 2 (mod 4); the turn-in is 50 and never jumps.
#[test]
fn f_board_own_colour_squares() {
    for colour in Colour::ALL {
        for v in 1..=50i16 {
            let s = square(colour, p(v)).unwrap();
            assert_eq!(s.colour() == colour, v % 4 == 2, "{colour} {v}");
        }
    }
    assert!(p(46).jumps());
    assert!(!p(TURN_IN as i16).jumps());
    assert!(!p(3).jumps());
}

/// F-BOARD: the shortcut 18 → 30 crosses the opposite colour's home column at its third
/// square (progress 53), between the two ends of the shortcut on the track.
#[test]
fn f_board_crossing_square_is_opposite_third_column_square() {
    for colour in Colour::ALL {
        let (opposite, at) = crossing(colour);
        assert_eq!(opposite, colour.opposite());
        assert_eq!(at.get(), CROSSING);
        // The opposite colour's turn-in square lies strictly between 18 and 30.
        let turn_in = square(opposite, p(50)).unwrap().0 as i16;
        let from = square(colour, p(18)).unwrap().0 as i16;
        let d = (turn_in - from).rem_euclid(52);
        assert!(0 < d && d < 12, "{colour}: {d}");
    }
}

/// F-BOARD (circle): loop squares follow red → yellow → blue → green.
#[test]
fn f_board_loop_squares() {
    assert_eq!(square(Colour::Red, p(57)), Some(Square(52)));
    assert_eq!(square(Colour::Red, p(58)), Some(Square(53)));
    assert_eq!(square(Colour::Green, p(57)), Some(Square(55)));
    assert_eq!(square(Colour::Green, p(58)), Some(Square(52)));
}
