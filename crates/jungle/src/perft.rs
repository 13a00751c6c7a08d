//! Perft: the number of legal move sequences of a given length, the movegen's test vector.

use crate::moves::Move;
use crate::position::Position;

/// The number of legal move sequences of `depth` plies from `pos`, counting the last ply in
/// bulk (popcount of target sets). History rules do not apply (J-REPEAT): perft is about one
/// position. A position where a den has been entered has no moves.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => u64::from(pos.count_moves()),
        _ => {
            let mut nodes = 0;
            for &m in &pos.legal_moves() {
                let mut next = *pos;
                next.play_unchecked(m);
                nodes += perft(&next, depth - 1);
            }
            nodes
        }
    }
}

/// Perft split by first move (`--divide`): each legal move with the count below it.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut next = *pos;
            next.play_unchecked(m);
            (m, perft(&next, depth - 1))
        })
        .collect()
}
