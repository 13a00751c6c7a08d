//! Moving: F-WALK, F-FINISH (every value), F-JUMP, F-FLY, F-CROSS, F-D-CROSS, F-D-ORDER,
//! F-D-CIRCLE.
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{has, p, planes_of, player, position, roll_move, roll_only, same};
use hangar_flight::{Colour, Event, Finish, Options, Phase, Stacks};

use Colour::{Blue, Green, Red, Yellow};

fn two(options: Options, red: &[i16], blue: &[i16]) -> hangar_flight::Game {
    position(options, vec![player(Red, red), player(Blue, blue)], Red)
}

fn with_finish(finish: Finish) -> Options {
    Options {
        finish,
        ..Options::traditional()
    }
}

/// F-WALK: one square per pip along the route.
#[test]
fn f_walk_moves_one_square_per_pip() {
    let mut g = two(Options::traditional(), &[3, -1, -1, -1], &[-1; 4]);
    let events = roll_move(&mut g, 2, 0);
    assert_eq!(planes_of(&g, Red)[0], 5);
    assert!(has(
        &events,
        |e| matches!(e, Event::Walked { from, to, .. } if *from == p(3) && *to == p(5))
    ));
    assert_eq!(g.turn(), Blue);
}

/// F-FINISH bounce: exact roll finishes; a larger roll turns back from the finish.
#[test]
fn f_finish_bounce() {
    let mut g = two(with_finish(Finish::Bounce), &[53, 53, -1, -1], &[-1; 4]);
    let events = roll_move(&mut g, 5, 0);
    assert_eq!(planes_of(&g, Red)[0], 54);
    assert!(has(
        &events,
        |e| matches!(e, Event::Bounced { from, to, .. } if *from == p(56) && *to == p(54))
    ));
    let mut g = two(with_finish(Finish::Bounce), &[53, -1, -1, -1], &[-1; 4]);
    let events = roll_move(&mut g, 3, 0);
    assert_eq!(planes_of(&g, Red)[0], 56);
    assert!(has(&events, |e| matches!(
        e,
        Event::Finished { plane: 0, .. }
    )));
}

/// F-FINISH overshoot: any roll reaching the finish finishes.
#[test]
fn f_finish_overshoot() {
    let mut g = two(with_finish(Finish::Overshoot), &[53, -1, -1, -1], &[-1; 4]);
    let events = roll_move(&mut g, 5, 0);
    assert_eq!(planes_of(&g, Red)[0], 56);
    assert!(has(&events, |e| matches!(e, Event::Finished { .. })));
}

/// F-FINISH exact-only: a move passing the finish is illegal; another plane moves or the
/// roll is lost.
#[test]
fn f_finish_exact_only() {
    let mut g = two(with_finish(Finish::ExactOnly), &[53, 10, -1, -1], &[-1; 4]);
    let moves = g.roll(5, &mut Vec::new()).unwrap();
    assert_eq!(moves.iter().map(|m| m.plane).collect::<Vec<_>>(), vec![1]);
    assert!(g.choose(0, &mut Vec::new()).is_err());
    let mut g = two(with_finish(Finish::ExactOnly), &[53, 56, -1, -1], &[-1; 4]);
    let events = roll_only(&mut g, 5);
    assert!(has(&events, |e| matches!(
        e,
        Event::RollSpent { value: 5, .. }
    )));
    assert_eq!(planes_of(&g, Red)[0], 53);
    let events = roll_move(
        &mut two(with_finish(Finish::ExactOnly), &[53, 56, -1, -1], &[-1; 4]),
        3,
        0,
    );
    assert!(has(&events, |e| matches!(e, Event::Finished { .. })));
}

/// F-FINISH circle: past the finish square a plane walks round the loop; it finishes only
/// by landing exactly on its own finish square.
#[test]
fn f_finish_circle_loop_and_exact_landing() {
    let o = with_finish(Finish::Circle);
    let mut g = two(o, &[54, -1, -1, -1], &[-1; 4]);
    roll_move(&mut g, 4, 0);
    // 55, own finish square (passed), yellow's finish square, blue's finish square.
    assert_eq!(planes_of(&g, Red)[0], 59);
    roll_only(&mut g, 1); // blue: nothing can move
    let events = roll_move(&mut g, 2, 0);
    assert!(has(&events, |e| matches!(
        e,
        Event::Finished { plane: 0, .. }
    )));
    assert_eq!(planes_of(&g, Red)[0], 56);
}

/// F-FINISH circle + F-D-CIRCLE: a plane that captures on its own finish square does not
/// finish; it is a loop plane and finishes by going round once more.
#[test]
fn f_finish_circle_capture_on_own_finish_square() {
    let o = with_finish(Finish::Circle);
    // Yellow's loop square 3 steps after its finish is red's finish square.
    let mut g = position(
        o,
        vec![
            player(Red, &[55, -1, -1, -1]),
            player(Yellow, &[60, -1, -1, -1]),
            player(Blue, &[-1; 4]),
            player(Green, &[-1; 4]),
        ],
        Red,
    );
    let events = roll_move(&mut g, 1, 0);
    assert!(has(&events, |e| matches!(
        e,
        Event::Captured { colour: Yellow, .. }
    )));
    assert!(!has(&events, |e| matches!(e, Event::Finished { .. })));
    assert_eq!(planes_of(&g, Red)[0], 57);
    assert_eq!(planes_of(&g, Yellow)[0], -1);
    for _ in 0..3 {
        roll_only(&mut g, 1);
    }
    let events = roll_move(&mut g, 4, 0);
    assert!(has(&events, |e| matches!(e, Event::Finished { .. })));
}

/// F-D-CIRCLE: a loop plane turned back by a stack goes on backwards round the loop; one
/// from the home column turns back into it; a turn-back ending on its own finish square
/// finishes.
#[test]
fn f_d_circle_turning_back() {
    let o = with_finish(Finish::Circle);
    // Blue's own finish square as seen by red is loop offset 2 (progress 59).
    let blue_stack = &[57, 57, -1, -1];
    let mut g = two(o, &[58, -1, -1, -1], blue_stack);
    let events = roll_move(&mut g, 4, 0);
    assert!(has(&events, |e| matches!(e, Event::TurnedBack { .. })));
    assert_eq!(planes_of(&g, Red)[0], 60, "backwards round the loop");

    // Stack on yellow's finish square (red loop offset 1): yellow planes at yellow 57.
    let four = |red: &[i16]| {
        position(
            o,
            vec![
                player(Red, red),
                player(Yellow, &[57, 57, -1, -1]),
                player(Blue, &[-1; 4]),
                player(Green, &[-1; 4]),
            ],
            Red,
        )
    };
    let mut g = four(&[55, -1, -1, -1]);
    roll_move(&mut g, 4, 0);
    assert_eq!(planes_of(&g, Red)[0], 55, "back into its home column");
    let mut g = four(&[55, -1, -1, -1]);
    let events = roll_move(&mut g, 3, 0);
    assert!(has(&events, |e| matches!(e, Event::Finished { .. })));
}

/// F-D-SAME (circle): a full lap of the loop is a legal move that changes nothing.
#[test]
fn f_d_same_full_lap_is_legal() {
    let o = with_finish(Finish::Circle);
    let mut g = two(o, &[58, -1, -1, -1], &[-1; 4]);
    let moves = g.roll(4, &mut Vec::new()).unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].to, p(58));
    g.choose(0, &mut Vec::new()).unwrap();
    assert_eq!(planes_of(&g, Red)[0], 58);
    assert_eq!(g.turn(), Blue);
}

/// F-JUMP: ending a walk on an own-colour square jumps 4 to the next; 50 never jumps.
#[test]
fn f_jump_on_own_colour_square() {
    let mut g = two(Options::traditional(), &[4, 47, -1, -1], &[-1; 4]);
    let events = roll_move(&mut g, 2, 0);
    assert_eq!(planes_of(&g, Red)[0], 10);
    assert!(has(
        &events,
        |e| matches!(e, Event::Jumped { from, to, .. } if *from == p(6) && *to == p(10))
    ));
    roll_only(&mut g, 1);
    roll_move(&mut g, 3, 1);
    assert_eq!(planes_of(&g, Red)[1], 50, "the turn-in square never jumps");
}

/// F-FLY: a walk ending on 18 flies to 30 and jumps to 34; a jump onto 18 flies and stops.
#[test]
fn f_fly_walk_and_jump_chains() {
    let mut g = two(Options::traditional(), &[15, 11, -1, -1], &[-1; 4]);
    let events = roll_move(&mut g, 3, 0);
    assert_eq!(planes_of(&g, Red)[0], 34);
    assert!(has(
        &events,
        |e| matches!(e, Event::Flew { from, to, .. } if *from == p(18) && *to == p(30))
    ));
    roll_only(&mut g, 1);
    let events = roll_move(&mut g, 3, 1);
    assert_eq!(planes_of(&g, Red)[1], 30);
    assert!(has(
        &events,
        |e| matches!(e, Event::Jumped { from, to, .. } if *from == p(14) && *to == p(18))
    ));
}

/// F-CROSS: one enemy plane on the crossing square is sent back and the flight goes on.
#[test]
fn f_cross_single_enemy_is_captured() {
    let mut g = two(Options::traditional(), &[15, -1, -1, -1], &[53, -1, -1, -1]);
    let events = roll_move(&mut g, 3, 0);
    assert!(has(&events, |e| matches!(
        e,
        Event::CrossingCapture {
            colour: Blue,
            plane: 0,
            ..
        }
    )));
    assert_eq!(planes_of(&g, Red)[0], 34);
    assert_eq!(planes_of(&g, Blue)[0], -1);
    assert_eq!(g.captures(Red), 1);
}

/// F-CROSS / F-D-CROSS: an enemy stack on the crossing square blocks the flight; the plane
/// stays on 18 and does not jump. Under `pass` the stack is sent back whole.
#[test]
fn f_cross_stack_blocks_or_is_sent_back() {
    let mut g = two(Options::traditional(), &[15, -1, -1, -1], &[53, 53, -1, -1]);
    let events = roll_move(&mut g, 3, 0);
    assert!(has(&events, |e| matches!(e, Event::CrossingBlocked { .. })));
    assert_eq!(planes_of(&g, Red)[0], 18);
    assert_eq!(planes_of(&g, Blue), vec![53, 53, -1, -1]);

    let pass = Options {
        stacks: Stacks::Pass,
        ..Options::traditional()
    };
    let mut g = two(pass, &[15, -1, -1, -1], &[53, 53, -1, -1]);
    roll_move(&mut g, 3, 0);
    assert_eq!(planes_of(&g, Red)[0], 34);
    assert_eq!(planes_of(&g, Blue), vec![-1, -1, -1, -1]);
    assert_eq!(g.captures(Red), 2);
}

/// F-D-CROSS: nothing happens on the crossing square when the opposite seat is empty or is
/// the mover's partner.
#[test]
fn f_d_cross_empty_seat_and_partner() {
    // Three players, blue's seat empty: no blue planes can be there.
    let mut g = position(
        Options::traditional(),
        vec![
            player(Red, &[15, -1, -1, -1]),
            player(Yellow, &[-1; 4]),
            player(Green, &[-1; 4]),
        ],
        Red,
    );
    roll_move(&mut g, 3, 0);
    assert_eq!(planes_of(&g, Red)[0], 34);
    // Team game: blue is red's partner; its stack on the crossing square does not block.
    let teams = Options {
        teams: true,
        ..Options::traditional()
    };
    let mut g = position(
        teams,
        vec![
            player(Red, &[15, -1, -1, -1]),
            player(Yellow, &[-1; 4]),
            player(Blue, &[53, 53, -1, -1]),
            player(Green, &[-1; 4]),
        ],
        Red,
    );
    roll_move(&mut g, 3, 0);
    assert_eq!(planes_of(&g, Red)[0], 34);
    assert_eq!(planes_of(&g, Blue), vec![53, 53, -1, -1]);
}

/// F-D-ORDER: capture at the end of the walk, then the jump, then capture at its end; a
/// capture on 18 does not stop the flight; capture at 30 then the jump and capture at 34.
#[test]
fn f_d_order_capture_does_not_end_the_move() {
    let y6 = same(Red, 6, Yellow);
    let y10 = same(Red, 10, Yellow);
    let g18 = same(Red, 18, Green);
    let y30 = same(Red, 30, Yellow);
    let g34 = same(Red, 34, Green);
    let mut g = position(
        Options::traditional(),
        vec![
            player(Red, &[4, 15, -1, -1]),
            player(Yellow, &[y6, y10, y30, -1]),
            player(Blue, &[-1; 4]),
            player(Green, &[g18, g34, -1, -1]),
        ],
        Red,
    );
    let events = roll_move(&mut g, 2, 0);
    assert_eq!(planes_of(&g, Red)[0], 10);
    let captured: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::Captured { colour, plane, .. } => Some((*colour, *plane)),
            _ => None,
        })
        .collect();
    assert_eq!(captured, vec![(Yellow, 0), (Yellow, 1)]);
    // Order: walk, capture at 6, jump, capture at 10.
    let kinds: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Walked { .. } => Some("walk"),
            Event::Captured { .. } => Some("capture"),
            Event::Jumped { .. } => Some("jump"),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, vec!["walk", "capture", "jump", "capture"]);
    let mut g = position(
        Options::traditional(),
        vec![
            player(Red, &[4, 15, -1, -1]),
            player(Yellow, &[y6, y10, y30, -1]),
            player(Blue, &[-1; 4]),
            player(Green, &[g18, g34, -1, -1]),
        ],
        Red,
    );
    let events = roll_move(&mut g, 3, 1);
    assert_eq!(planes_of(&g, Red)[1], 34);
    assert_eq!(planes_of(&g, Green), vec![-1, -1, -1, -1]);
    assert_eq!(planes_of(&g, Yellow)[2], -1);
    assert_eq!(g.captures(Red), 3);
    assert!(matches!(g.phase(), Phase::Roll));
    assert!(has(&events, |e| matches!(e, Event::Flew { .. })));
}

/// F-D-CIRCLE: a plane that captured on its own finish square is an ordinary loop plane:
/// another colour's plane may capture it there.
#[test]
fn f_d_circle_loop_plane_on_own_finish_square_can_be_captured() {
    let o = with_finish(Finish::Circle);
    // Yellow's loop offset 3 (progress 60) is red's finish square.
    let mut g = position(
        o,
        vec![
            player(Red, &[57, -1, -1, -1]),
            player(Yellow, &[59, -1, -1, -1]),
            player(Blue, &[-1; 4]),
            player(Green, &[-1; 4]),
        ],
        Yellow,
    );
    let events = roll_move(&mut g, 1, 0);
    assert!(has(&events, |e| matches!(
        e,
        Event::Captured {
            by: Yellow,
            colour: Red,
            plane: 0,
            ..
        }
    )));
    assert_eq!(planes_of(&g, Red)[0], -1);
    assert_eq!(planes_of(&g, Yellow)[0], 60);
}
