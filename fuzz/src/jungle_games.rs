//! Jungle games: plays the move sequence the fuzzer's bytes choose (first byte: rule options;
//! each later byte: an index into the allowed moves, 255 a pass) and checks after every ply
//! that the position is still valid, that every generated move is legal and every other move
//! illegal, and that the incremental hash is right.

use hangar_jungle::{Game, Move, Order, Position, Rules, Square};

/// Runs the target on the fuzzer's bytes.
pub fn run(data: &[u8]) {
    let Some((&options, choices)) = data.split_first() else {
        return;
    };
    let rules = Rules {
        order: if options & 1 == 0 {
            Order::DogOverWolf
        } else {
            Order::WolfOverDog
        },
        elephant_takes_rat: options & 2 != 0,
        leopard_leaps: options & 4 != 0,
    };
    let mut game = Game::new(rules);
    for &choice in choices {
        check(game.position());
        let allowed = game.legal_moves();
        if allowed.is_empty() {
            assert!(
                game.outcome().is_some(),
                "no allowed move but the game goes on"
            );
            break;
        }
        if choice == 255 {
            game.pass().expect("a running game accepts a pass");
            continue;
        }
        let m = allowed[choice as usize % allowed.len()];
        game.play(m).expect("an allowed move is accepted");
    }
}

fn check(pos: &Position) {
    let moves = pos.legal_moves();
    assert_eq!(pos.count_moves() as usize, moves.len());
    for &m in &moves {
        assert!(pos.is_legal(m), "{pos}: generated {m} is illegal");
        assert_eq!(pos.play(m).expect("legal").hash(), pos.hash_after(m));
    }
    // Every move the generator left out must be illegal.
    for from in pos.pieces(pos.turn()) {
        for to in Square::ALL {
            let m = Move::new(from, to);
            if from != to && !moves.contains(&m) {
                assert!(!pos.is_legal(m), "{pos}: {m} legal but not generated");
            }
        }
    }
    let rebuilt = Position::from_setup(&pos.to_setup(), pos.rules()).expect("still valid");
    assert_eq!(rebuilt.hash(), pos.hash());
    let reparsed: Position = pos.to_string().parse().expect("text round-trips");
    assert_eq!(&reparsed, pos);
}
