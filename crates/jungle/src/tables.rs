//! Tables computed at compile time: the steps and leaps from every square, and Zobrist keys.

use crate::bitboard::Bitboard;
use crate::square::{SQUARES, Square};
use crate::terrain::WATER;

/// The four directions as (file, rank) offsets: east, west (sideways), north, south.
const DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// How many of [`DIRECTIONS`] are sideways (the leopard's leaps with `leopard-leaps`).
pub(crate) const SIDEWAYS_DIRECTIONS: usize = 2;

/// Marks "no leap" in [`LEAP_TO`].
pub(crate) const NO_LEAP: u8 = u8::MAX;

/// The orthogonal neighbours of each square (J-STEP).
pub(crate) const STEPS: [Bitboard; SQUARES] = {
    let mut table = [Bitboard::EMPTY; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let sq = Square::from_index_unchecked(i as u8);
        let mut bits = 0u64;
        let mut d = 0;
        while d < 4 {
            if let Some(to) = sq.offset(DIRECTIONS[d].0, DIRECTIONS[d].1) {
                bits |= 1 << to.index();
            }
            d += 1;
        }
        table[i] = Bitboard(bits);
        i += 1;
    }
    table
};

/// A leap across a river from a land square (J-LEAP): walk straight while on water; the first
/// land square is where the leap lands. Returns the landing square and the water crossed.
const fn leap(from: Square, df: i8, dr: i8) -> Option<(Square, u64)> {
    if WATER.contains(from) {
        return None;
    }
    let mut path = 0u64;
    let mut at = from;
    loop {
        match at.offset(df, dr) {
            None => return None,
            Some(next) => {
                if WATER.contains(next) {
                    path |= 1 << next.index();
                    at = next;
                } else if path == 0 {
                    return None;
                } else {
                    return Some((next, path));
                }
            }
        }
    }
}

/// Landing square index of the leap from each square in each direction, or [`NO_LEAP`].
pub(crate) const LEAP_TO: [[u8; 4]; SQUARES] = {
    let mut table = [[NO_LEAP; 4]; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let mut d = 0;
        while d < 4 {
            let sq = Square::from_index_unchecked(i as u8);
            if let Some((to, _)) = leap(sq, DIRECTIONS[d].0, DIRECTIONS[d].1) {
                table[i][d] = to.index() as u8;
            }
            d += 1;
        }
        i += 1;
    }
    table
};

/// The water squares each leap crosses: a rat on any of them blocks it.
pub(crate) const LEAP_PATH: [[Bitboard; 4]; SQUARES] = {
    let mut table = [[Bitboard::EMPTY; 4]; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let mut d = 0;
        while d < 4 {
            let sq = Square::from_index_unchecked(i as u8);
            if let Some((_, path)) = leap(sq, DIRECTIONS[d].0, DIRECTIONS[d].1) {
                table[i][d] = Bitboard(path);
            }
            d += 1;
        }
        i += 1;
    }
    table
};

/// The squares from which some leap starts: lets move generation skip the leap loop.
pub(crate) const LEAP_FROM: Bitboard = {
    let mut bits = 0u64;
    let mut i = 0;
    while i < SQUARES {
        let mut d = 0;
        while d < 4 {
            if LEAP_TO[i][d] != NO_LEAP {
                bits |= 1 << i;
            }
            d += 1;
        }
        i += 1;
    }
    Bitboard(bits)
};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Zobrist keys of a piece (colour, animal) on each square.
pub(crate) const ZOBRIST_PIECES: [[[u64; SQUARES]; 8]; 2] = {
    let mut table = [[[0u64; SQUARES]; 8]; 2];
    let mut state = 0x4A55_4E47_4C45_u64; // "JUNGLE"
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 8 {
            let mut s = 0;
            while s < SQUARES {
                let (next, key) = splitmix64(state);
                state = next;
                table[c][r][s] = key;
                s += 1;
            }
            r += 1;
        }
        c += 1;
    }
    table
};

/// Zobrist key toggled when yellow is to move.
pub(crate) const ZOBRIST_YELLOW: u64 = splitmix64(0x5945_4C4C_4F57).1;

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    fn leaps_from(name: &str) -> Vec<String> {
        let from = sq(name);
        LEAP_TO[from.index()]
            .iter()
            .filter(|&&to| to != NO_LEAP)
            .map(|&to| Square::new(to).unwrap().to_string())
            .collect()
    }

    #[test]
    fn j_leap_table_crosses_each_river_straight() {
        // J-LEAP: sideways across the two water files, lengthwise across the three ranks.
        assert_eq!(leaps_from("a4"), ["d4"]);
        assert_eq!(leaps_from("d5"), ["g5", "a5"]);
        assert_eq!(leaps_from("g6"), ["d6"]);
        assert_eq!(leaps_from("b3"), ["b7"]);
        assert_eq!(leaps_from("f7"), ["f3"]);
        assert!(leaps_from("d3").is_empty());
        assert!(leaps_from("b4").is_empty(), "no leap starts in water");
        assert_eq!(
            LEAP_FROM.count(),
            9 + 8,
            "a4-6, d4-6, g4-6, then b3 c3 e3 f3 b7 c7 e7 f7"
        );
        let path = LEAP_PATH[sq("c3").index()][2];
        assert_eq!(path, [sq("c4"), sq("c5"), sq("c6")].into_iter().collect());
    }

    #[test]
    fn zobrist_keys_are_distinct() {
        let mut keys: Vec<u64> = ZOBRIST_PIECES.iter().flatten().flatten().copied().collect();
        keys.push(ZOBRIST_YELLOW);
        let n = keys.len();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), n);
    }
}
