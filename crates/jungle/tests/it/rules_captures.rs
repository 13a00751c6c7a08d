//! Hand-made positions for the capture rules: J-RANK, J-RAT-ELEPHANT, J-WATER-CAPTURE, J-TRAP,
//! and the `order` and `elephant-takes-rat` options. Expected sets come from the rules' text.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use crate::common;

use common::{mv, red, targets, try_position, yellow};
use hangar_jungle::{Color, IllegalMove, Order, Role, Rules, perft};

#[test]
fn j_rank_equal_or_lower_rank_only() {
    // A red dog between a yellow cat (lower), a yellow dog (equal) and a yellow leopard (higher).
    let pos = red("Dd3 cc3 de3 pd4 lg9");
    assert_eq!(targets(&pos, "d3"), ["c3", "d2", "e3"]);
    assert_eq!(
        pos.check_move(mv("d3d4")),
        Err(IllegalMove::Outranked(Role::Dog, Role::Leopard))
    );
    // The lion takes anything but the elephant.
    let pos = red("Ld3 ec3 te3 lg9");
    assert_eq!(targets(&pos, "d3"), ["d2", "d4", "e3"]);
}

#[test]
fn j_pieces_order_option_swaps_dog_and_wolf() {
    // Default: the dog (4) takes the wolf (3), the wolf cannot take the dog.
    let pos = red("Dd3 we3 Wa1 db1 lg9");
    assert_eq!(targets(&pos, "d3"), ["c3", "d2", "d4", "e3"]);
    assert_eq!(targets(&pos, "a1"), ["a2"]);
    // wolf-over-dog: the other way round.
    let rules = Rules {
        order: Order::WolfOverDog,
        ..Rules::default()
    };
    let pos = try_position("Dd3 we3 Wa1 db1 lg9", Color::Red, rules).unwrap();
    assert_eq!(targets(&pos, "d3"), ["c3", "d2", "d4"]);
    assert_eq!(targets(&pos, "a1"), ["a2", "b1"]);
}

#[test]
fn j_rat_elephant_the_rat_takes_the_elephant_not_the_reverse() {
    let pos = red("Ra3 ea4 lg9");
    assert_eq!(targets(&pos, "a3"), ["a2", "a4", "b3"]);
    let pos = yellow("Ra3 ea4 La1");
    assert_eq!(targets(&pos, "a4"), ["a5"], "b4 is water, a3 holds the rat");
    assert_eq!(
        pos.check_move(mv("a4a3")),
        Err(IllegalMove::Outranked(Role::Elephant, Role::Rat))
    );
    // The cat still takes the rat; the rat does not take the cat.
    let pos = yellow("Ra3 ca4 La1");
    assert_eq!(targets(&pos, "a4"), ["a3", "a5"]);
}

#[test]
fn j_rat_elephant_option_lets_the_elephant_take_the_rat() {
    let rules = Rules {
        elephant_takes_rat: true,
        ..Rules::default()
    };
    let pos = try_position("Ra3 ea4 La1", Color::Yellow, rules).unwrap();
    assert_eq!(targets(&pos, "a4"), ["a3", "a5"]);
    // The rat still takes the elephant too.
    let pos = try_position("Ra3 ea4 lg9", Color::Red, rules).unwrap();
    assert_eq!(targets(&pos, "a3"), ["a2", "a4", "b3"]);
}

#[test]
fn j_water_capture_no_capture_between_water_and_land() {
    // A red rat in the water beside a yellow elephant on land cannot take it (鼠亦不能吃陆地上的象).
    let pos = red("Rb4 ea4 lg9");
    assert_eq!(targets(&pos, "b4"), ["b3", "b5", "c4"]);
    assert_eq!(pos.check_move(mv("b4a4")), Err(IllegalMove::WaterCapture));
    // …but from land it can.
    let pos = red("Ra5 ea4 lg9");
    assert_eq!(targets(&pos, "a5"), ["a4", "a6", "b5"]);
    // Two rats in the water take each other.
    let pos = red("Rb4 rb5 lg9");
    assert_eq!(targets(&pos, "b4"), ["a4", "b3", "b5", "c4"]);
    // A rat on land and a rat in the water cannot, either way.
    let pos = red("Ra4 rb4 lg9");
    assert_eq!(targets(&pos, "a4"), ["a3", "a5"]);
    let pos = yellow("Ra4 rb4 La1");
    assert_eq!(targets(&pos, "b4"), ["b3", "b5", "c4"]);
    // Nothing on land takes a rat in the water (the lion can only leap over it... not even that).
    let pos = yellow("Rb5 la5 La1");
    assert_eq!(targets(&pos, "a5"), ["a4", "a6"]);
}

#[test]
fn j_trap_enemy_on_our_trap_has_rank_zero() {
    // A yellow lion on red's trap d2: the red rat and red cat beside it may take it.
    let pos = red("ld2 Rd3 Cc2 Lg1 ea9");
    assert_eq!(targets(&pos, "d3"), ["c3", "d2", "d4", "e3"]);
    assert_eq!(targets(&pos, "c2"), ["b2", "c1", "c3", "d2"]);
    // Mirror: a red elephant on yellow's trap e9 falls to the yellow cat.
    let pos = yellow("Ee9 cf9 La1");
    assert_eq!(targets(&pos, "f9"), ["e9", "f8", "g9"]);
}

#[test]
fn j_trap_own_traps_keep_the_rank() {
    // A red lion on red's own trap d2 is safe from the yellow cat beside it.
    let pos = yellow("Ld2 cd3 Ea1");
    assert_eq!(targets(&pos, "d3"), ["c3", "d4", "e3"]);
    assert_eq!(
        pos.check_move(mv("d3d2")),
        Err(IllegalMove::Outranked(Role::Cat, Role::Lion))
    );
}

#[test]
fn j_trap_trapped_piece_still_captures_by_its_own_rank() {
    // Decision: the trap lowers only the defence. The yellow lion on red's trap d2 takes the
    // red tiger on d3 and the red cat on c2, but not the red elephant on e2.
    let pos = yellow("ld2 Td3 Cc2 Ee2 Lg1");
    assert_eq!(
        targets(&pos, "d2"),
        ["c2", "d1", "d3"],
        "d1 is red's den: yellow may enter it"
    );
    let pos = yellow("ld2 Td3 Cc2 Ee2 Lg1");
    assert!(pos.is_legal(mv("d2d3")));
    assert!(!pos.is_legal(mv("d2e2")));
}

#[test]
fn j_trap_elephant_takes_a_rat_on_its_own_sides_trap() {
    // The trap rule beats J-RAT-ELEPHANT: a red rat on yellow's trap d8 falls to the elephant.
    let pos = yellow("Rd8 ee8 La1");
    assert_eq!(
        targets(&pos, "e8"),
        ["d8", "e7", "e9", "f8"],
        "e9 is its own trap"
    );
    // One square off the trap it is safe again.
    let pos = yellow("Rd7 ee7 La1");
    assert_eq!(targets(&pos, "e7"), ["e8", "f7"]);
}

#[test]
fn perft_counts_of_a_small_trap_position() {
    // Red: rat d3; yellow: lion d2 (on red's trap), cat a9. Red to move.
    // Red rat d3: c3, e3, d4 and d2 (capturing the trapped lion) = 4 moves.
    // After d3d2: yellow has only the cat: a8, b9 = 2.  After d3c3/d3e3/d3d4: the lion on d2
    // moves to c2, e2, d1 (the den, which ends the game), and d3 when empty; the cat 2.
    let pos = red("Rd3 ld2 ca9");
    assert_eq!(perft(&pos, 1), 4);
    // d3d2: 2; d3c3: lion c2 d3 e2 d1 + cat 2 = 6; d3e3: 6; d3d4: 6.
    assert_eq!(perft(&pos, 2), 2 + 6 + 6 + 6);
}
