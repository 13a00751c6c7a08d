//! Property tests: on random games and random positions, the bitboard generator, the
//! rule-by-rule `is_legal`, the bulk count and the incremental hash all agree, and every
//! position reached stays valid (cozy-chess style; the fuzz target checks the same).

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use hangar_jungle::{Color, Move, Piece, Position, Role, Rules, Setup, Square, perft};
use proptest::prelude::*;

fn rules_strategy() -> impl Strategy<Value = Rules> {
    (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(wolf, etr, leap)| Rules {
        order: if wolf {
            hangar_jungle::Order::WolfOverDog
        } else {
            hangar_jungle::Order::DogOverWolf
        },
        elephant_takes_rat: etr,
        leopard_leaps: leap,
    })
}

/// Checks everything that must hold in any position.
fn check_position(pos: &Position) {
    let list = pos.legal_moves();
    assert_eq!(pos.count_moves() as usize, list.len(), "{pos}");
    assert_eq!(perft(pos, 1) as usize, list.len());
    assert_eq!(pos.has_moves(), !list.is_empty());
    for from in Square::ALL {
        for to in Square::ALL {
            if from == to {
                continue;
            }
            let m = Move::new(from, to);
            assert_eq!(
                pos.is_legal(m),
                list.contains(&m),
                "{pos}: {m} {:?}",
                pos.check_move(m)
            );
        }
    }
    let captures = pos.capture_moves();
    assert!(
        captures
            .iter()
            .all(|&m| list.contains(&m) && pos.is_capture(m))
    );
    assert_eq!(
        captures.len(),
        list.iter().filter(|&&m| pos.is_capture(m)).count()
    );
    // The position is still valid, and rebuilding it gives the same hash.
    let rebuilt = Position::from_setup(&pos.to_setup(), pos.rules()).expect("stays valid");
    assert_eq!(rebuilt.hash(), pos.hash());
    let text: Position = pos.to_string().parse().expect("text round-trips");
    assert_eq!(&text, pos);
    for &m in &list {
        let mut next = *pos;
        next.play_unchecked(m);
        assert_eq!(next.hash(), pos.hash_after(m));
        assert_eq!(pos.play(m).expect("legal"), next);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn random_games_agree(rules in rules_strategy(), choices in prop::collection::vec(any::<u16>(), 0..160)) {
        let mut pos = Position::start(rules);
        for choice in choices {
            check_position(&pos);
            let list = pos.legal_moves();
            if list.is_empty() {
                break;
            }
            pos.play_unchecked(list[choice as usize % list.len()]);
        }
    }

    #[test]
    fn random_positions_agree(
        rules in rules_strategy(),
        squares in prop::collection::vec(prop::option::of(0u8..63), 16),
        yellow_to_move in any::<bool>(),
    ) {
        let turn = if yellow_to_move { Color::Yellow } else { Color::Red };
        let mut setup = Setup::empty(turn);
        for (i, sq) in squares.iter().enumerate() {
            let color = if i < 8 { Color::Red } else { Color::Yellow };
            let piece = Piece { color, role: Role::ALL[i % 8] };
            if let Some(sq) = sq.and_then(Square::new).filter(|&sq| setup.piece_at(sq).is_none()) {
                setup.set(sq, Some(piece));
            }
        }
        // Impossible placements are refused; the rest must satisfy every property.
        if let Ok(pos) = Position::from_setup(&setup, rules) {
            check_position(&pos);
        }
    }
}
