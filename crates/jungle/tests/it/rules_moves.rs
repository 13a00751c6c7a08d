//! Hand-made positions for the movement rules: J-STEP, J-WATER, J-LEAP, J-DEN.
//! Every expected move set is derived by reading the rule, not by running the engine.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use crate::common;

use common::{mv, red, targets, try_position, yellow};
use hangar_jungle::{Color, IllegalMove, Rules, perft};

#[test]
fn j_step_one_square_orthogonally_onto_empty_squares() {
    let pos = red("Ca1 Dd3 lg9");
    assert_eq!(targets(&pos, "a1"), ["a2", "b1"]);
    // d3: d2 (own trap, allowed), c3, e3, d4 (land between the rivers).
    assert_eq!(targets(&pos, "d3"), ["c3", "d2", "d4", "e3"]);
    assert_eq!(
        pos.check_move(mv("a1b2")),
        Err(IllegalMove::NotAStep(hangar_jungle::Role::Cat, ""))
    );
    assert_eq!(pos.check_move(mv("a1a3")).map_err(|_| ()), Err(()));
    assert_eq!(perft(&pos, 1), 6);
}

#[test]
fn j_water_only_rats_enter_the_water() {
    // A dog beside the river stays on land; a rat walks into it, through it and out.
    let pos = red("Dd4 Ra4 lg9");
    assert_eq!(targets(&pos, "d4"), ["d3", "d5"]);
    assert_eq!(pos.check_move(mv("d4c4")), Err(IllegalMove::Water));
    assert_eq!(targets(&pos, "a4"), ["a3", "a5", "b4"]);
    let pos = red("Rb5 lg9");
    assert_eq!(targets(&pos, "b5"), ["a5", "b4", "b6", "c5"]);
    let pos = red("Rc4 lg9");
    assert_eq!(targets(&pos, "c4"), ["b4", "c3", "c5", "d4"]);
}

#[test]
fn j_leap_lion_and_tiger_leap_across_both_ways() {
    let pos = red("La5 Td5 Ec3 lg9");
    // Sideways across b5-c5 from a5; no step into the water.
    assert_eq!(targets(&pos, "a5"), ["a4", "a6"]);
    // Td5 blocks the landing of the lion (own piece); move the tiger away to see the leap.
    let pos = red("La5 Td4 lg9");
    assert_eq!(targets(&pos, "a5"), ["a4", "a6", "d5"]);
    // From d4 the tiger leaps both ways: to a4 and g4.
    assert_eq!(targets(&pos, "d4"), ["a4", "d3", "d5", "g4"]);
    // Lengthwise across the three water ranks: b3 to b7 and back, f7 to f3.
    let pos = red("Tb3 Lf7 lg9");
    assert_eq!(targets(&pos, "b3"), ["a3", "b2", "b7", "c3"]);
    assert_eq!(targets(&pos, "f7"), ["e7", "f3", "f8", "g7"]);
}

#[test]
fn j_leap_blocked_by_own_and_enemy_rats_on_the_path() {
    // Own rat in the water on the path blocks.
    let pos = red("La5 Rc5 lg9");
    assert_eq!(targets(&pos, "a5"), ["a4", "a6"]);
    assert_eq!(
        pos.check_move(mv("a5d5")),
        Err(IllegalMove::LeapBlocked("c5".parse().unwrap()))
    );
    // Enemy rat on the first water square blocks too.
    let pos = red("La5 rb5 lg9");
    assert_eq!(targets(&pos, "a5"), ["a4", "a6"]);
    // A rat in the other river, or beside the path, does not block.
    let pos = red("La5 re5 Rb4 lg9");
    assert_eq!(targets(&pos, "a5"), ["a4", "a6", "d5"]);
    // Lengthwise: any of the three water squares of the file blocks.
    for rat in ["c4", "c5", "c6"] {
        let pos = red(&format!("Tc3 r{rat} lg9"));
        assert_eq!(targets(&pos, "c3"), ["b3", "c2", "d3"], "rat on {rat}");
    }
    let pos = red("Tc3 rb5 lg9");
    assert_eq!(targets(&pos, "c3"), ["b3", "c2", "c7", "d3"]);
}

#[test]
fn j_leap_captures_where_it_lands_by_rank() {
    // The lion may land on and capture the tiger; not the elephant; not its own piece.
    let pos = red("La5 td5 lg9");
    assert_eq!(targets(&pos, "a5"), ["a4", "a6", "d5"]);
    let pos = red("La5 ed5 lg9");
    assert_eq!(targets(&pos, "a5"), ["a4", "a6"]);
    assert_eq!(
        pos.check_move(mv("a5d5")),
        Err(IllegalMove::Outranked(
            hangar_jungle::Role::Lion,
            hangar_jungle::Role::Elephant
        ))
    );
    // A yellow tiger leaps down onto the red wolf.
    let pos = yellow("tc7 Wc3 La1");
    assert_eq!(targets(&pos, "c7"), ["b7", "c3", "c8", "d7"]);
}

#[test]
fn j_leap_leopard_only_with_the_option_and_only_sideways() {
    let pos = red("Pa5 Pc3 lg9".replace("Pc3", "Wc2").as_str());
    assert_eq!(targets(&pos, "a5"), ["a4", "a6"]);
    let rules = Rules {
        leopard_leaps: true,
        ..Rules::default()
    };
    let pos = try_position("Pa5 lg9", Color::Red, rules).unwrap();
    assert_eq!(targets(&pos, "a5"), ["a4", "a6", "d5"]);
    let pos = try_position("Pd4 lg9", Color::Red, rules).unwrap();
    assert_eq!(targets(&pos, "d4"), ["a4", "d3", "d5", "g4"]);
    // Never lengthwise, and blocked by a rat like the lion.
    let pos = try_position("Pc3 lg9", Color::Red, rules).unwrap();
    assert_eq!(targets(&pos, "c3"), ["b3", "c2", "d3"]);
    let pos = try_position("Pa5 rb5 lg9", Color::Red, rules).unwrap();
    assert_eq!(targets(&pos, "a5"), ["a4", "a6"]);
    // Captures where it lands, by rank: a dog yes, a tiger no.
    let pos = try_position("Pa5 dd5 lg9", Color::Red, rules).unwrap();
    assert_eq!(targets(&pos, "a5"), ["a4", "a6", "d5"]);
    let pos = try_position("Pa5 td5 lg9", Color::Red, rules).unwrap();
    assert_eq!(targets(&pos, "a5"), ["a4", "a6"]);
}

#[test]
fn j_den_no_piece_enters_its_own_den() {
    let pos = red("Dd2 Cc1 Te1 lg9");
    assert_eq!(targets(&pos, "d2"), ["c2", "d3", "e2"]);
    assert_eq!(targets(&pos, "c1"), ["b1", "c2"]);
    assert_eq!(pos.check_move(mv("d2d1")), Err(IllegalMove::OwnDen));
    let pos = yellow("dd8 La1");
    assert_eq!(targets(&pos, "d8"), ["c8", "d7", "e8"]);
    // But the enemy den may be entered, and then the game is over: no moves at all.
    let pos = red("Dd8 ra1");
    assert_eq!(targets(&pos, "d8"), ["c8", "d7", "d9", "e8"]);
    let after = pos.play(mv("d8d9")).unwrap();
    assert_eq!(after.den_winner(), Some(Color::Red));
    assert!(after.legal_moves().is_empty());
    assert_eq!(perft(&after, 3), 0);
    assert_eq!(after.check_move(mv("a1a2")), Err(IllegalMove::GameOver));
}

#[test]
fn moving_the_wrong_side_or_nothing_is_refused() {
    let pos = red("Dd3 lg9");
    assert_eq!(
        pos.check_move(mv("e3e4")),
        Err(IllegalMove::NoPiece("e3".parse().unwrap()))
    );
    assert!(matches!(
        pos.check_move(mv("g9g8")),
        Err(IllegalMove::NotYourPiece(_))
    ));
    let pos = red("Dd3 Cd4 lg9");
    assert!(matches!(
        pos.check_move(mv("d3d4")),
        Err(IllegalMove::OwnPiece(..))
    ));
    let err = pos.play(mv("d3d4")).unwrap_err();
    assert!(err.to_string().contains("d3d4"), "{err}");
}
