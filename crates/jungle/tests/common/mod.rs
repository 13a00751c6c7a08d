//! Helpers shared by the integration tests: build positions from short piece lists.

#![allow(dead_code, clippy::unwrap_used)]

use hangar_jungle::{Color, Move, Piece, Position, PositionError, Rules, Setup, Square};

/// A setup from `"Ld5 rc5"`: piece letter (upper case red) then square, space separated.
pub fn setup(pieces: &str, turn: Color) -> Setup {
    let mut setup = Setup::empty(turn);
    for item in pieces.split_whitespace() {
        let mut chars = item.chars();
        let piece = Piece::from_char(chars.next().unwrap()).unwrap();
        let square: Square = chars.as_str().parse().unwrap();
        assert!(setup.piece_at(square).is_none(), "{square} used twice");
        setup.set(square, Some(piece));
    }
    setup
}

/// A checked position from a piece list.
pub fn try_position(pieces: &str, turn: Color, rules: Rules) -> Result<Position, PositionError> {
    Position::from_setup(&setup(pieces, turn), rules)
}

/// A checked position from a piece list, with red to move and standard rules.
pub fn red(pieces: &str) -> Position {
    try_position(pieces, Color::Red, Rules::default()).unwrap()
}

/// A checked position from a piece list, with yellow to move and standard rules.
pub fn yellow(pieces: &str) -> Position {
    try_position(pieces, Color::Yellow, Rules::default()).unwrap()
}

/// The squares the piece on `from` may move to, sorted.
pub fn targets(pos: &Position, from: &str) -> Vec<String> {
    let from: Square = from.parse().unwrap();
    let mut list: Vec<String> = pos
        .moves_from(from)
        .iter()
        .map(|m| m.to.to_string())
        .collect();
    list.sort();
    // `moves_from` must agree with the full list.
    let all: Vec<Move> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| m.from == from)
        .collect();
    assert_eq!(all.len(), list.len());
    list
}

/// A move from text.
pub fn mv(text: &str) -> Move {
    text.parse().unwrap()
}
