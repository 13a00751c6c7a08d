//! Perft from the start position: the given test vectors (jungle.md §5).

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use hangar_jungle::{Order, Position, Rules, perft, perft_divide};

#[test]
fn perft_from_the_start_matches_the_given_counts() {
    let start = Position::start(Rules::default());
    let expected = [1, 24, 576, 12_240, 260_099];
    for (depth, want) in expected.into_iter().enumerate() {
        assert_eq!(perft(&start, depth as u32), want, "depth {depth}");
    }
}

#[test]
fn divide_sums_to_perft() {
    let start = Position::start(Rules::default());
    let divided = perft_divide(&start, 3);
    assert_eq!(divided.len(), 24);
    assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), 12_240);
}

#[test]
fn options_change_the_opening_counts_only_where_they_should() {
    // Within 4 plies of the start no leap or dog-wolf contact is possible, so `order` and
    // `leopard-leaps` keep the counts. `elephant-takes-rat` adds exactly one leaf:
    // g3g4 g7g6 g4g5 g6g5, the yellow elephant taking the red rat (J-RAT-ELEPHANT option).
    for order in Order::ALL {
        for leopard_leaps in [false, true] {
            let rules = Rules {
                order,
                elephant_takes_rat: false,
                leopard_leaps,
            };
            assert_eq!(perft(&Position::start(rules), 4), 260_099);
        }
    }
    let rules = Rules {
        elephant_takes_rat: true,
        ..Rules::default()
    };
    assert_eq!(perft(&Position::start(rules), 4), 260_100);
}
