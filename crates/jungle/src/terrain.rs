//! The fixed features of the board (J-BOARD): the two rivers, the traps and the dens.

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::square::Square;

const fn sq(file: u8, rank: u8) -> u64 {
    1 << (rank * 7 + file)
}

/// The 12 water squares: b4–c6 and e4–f6.
pub const WATER: Bitboard = {
    let mut bits = 0;
    let mut rank = 3;
    while rank <= 5 {
        bits |= sq(1, rank) | sq(2, rank) | sq(4, rank) | sq(5, rank);
        rank += 1;
    }
    Bitboard(bits)
};

/// Every square that is not water.
pub const LAND: Bitboard = Bitboard(Bitboard::FULL.0 & !WATER.0);

/// The den of each side: d1 (red), d9 (yellow).
pub const DENS: [Square; 2] = [
    Square::from_index_unchecked(3),
    Square::from_index_unchecked(8 * 7 + 3),
];

/// The traps around each side's den: c1, e1, d2 (red); c9, e9, d8 (yellow).
pub const TRAPS: [Bitboard; 2] = [
    Bitboard(sq(2, 0) | sq(4, 0) | sq(3, 1)),
    Bitboard(sq(2, 8) | sq(4, 8) | sq(3, 7)),
];

/// The den of `color`.
#[inline]
pub const fn den(color: Color) -> Square {
    DENS[color.index()]
}

/// The traps of `color`, around its own den: enemies standing there have rank 0 (J-TRAP).
#[inline]
pub const fn traps(color: Color) -> Bitboard {
    TRAPS[color.index()]
}

/// Whether `sq` is water.
#[inline]
pub const fn is_water(sq: Square) -> bool {
    WATER.contains(sq)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(names: &[&str]) -> Bitboard {
        names.iter().map(|n| n.parse::<Square>().unwrap()).collect()
    }

    #[test]
    fn j_board_features_are_where_the_spec_puts_them() {
        // J-BOARD: rivers b4–c6 and e4–f6, dens d1/d9, traps c1 e1 d2 / c9 e9 d8.
        assert_eq!(
            WATER,
            set(&[
                "b4", "c4", "b5", "c5", "b6", "c6", "e4", "f4", "e5", "f5", "e6", "f6"
            ])
        );
        assert_eq!(den(Color::Red).to_string(), "d1");
        assert_eq!(den(Color::Yellow).to_string(), "d9");
        assert_eq!(traps(Color::Red), set(&["c1", "e1", "d2"]));
        assert_eq!(traps(Color::Yellow), set(&["c9", "e9", "d8"]));
        assert_eq!(LAND.count(), 51);
    }
}
