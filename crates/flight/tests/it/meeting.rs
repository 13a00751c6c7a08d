//! Meeting other planes: F-CAPTURE, F-STACK, F-STACK-TRADITIONAL, F-STACK-IMPROVED, F-SAFE,
//! F-D-SINGLE, F-D-SIT, F-D-PAD, F-D-COLLISION.
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{has, planes_of, player, position, roll_move, same};
use hangar_flight::{Colour, Event, Game, Options, Phase, ReturnReason, Stacks, ThreeSixes};

use Colour::{Blue, Green, Red, Yellow};

fn four(options: Options, red: &[i16], yellow: &[i16], green: &[i16]) -> Game {
    position(
        options,
        vec![
            player(Red, red),
            player(Yellow, yellow),
            player(Blue, &[-1; 4]),
            player(Green, green),
        ],
        Red,
    )
}

fn pass() -> Options {
    Options {
        stacks: Stacks::Pass,
        ..Options::traditional()
    }
}

fn y(red_progress: i16) -> i16 {
    same(Red, red_progress, Yellow)
}

/// F-CAPTURE: coming to rest on one enemy plane sends it back; walking over does not.
#[test]
fn f_capture_single_enemy_at_rest() {
    let mut g = four(
        Options::traditional(),
        &[3, -1, -1, -1],
        &[y(5), y(4), -1, -1],
        &[-1; 4],
    );
    let events = roll_move(&mut g, 2, 0);
    assert_eq!(
        planes_of(&g, Yellow),
        vec![-1, y(4), -1, -1],
        "passed plane untouched (F-D-SINGLE)"
    );
    assert!(has(&events, |e| matches!(
        e,
        Event::Captured {
            by: Red,
            colour: Yellow,
            plane: 0,
            ..
        }
    )));
    assert_eq!(g.captures(Red), 1);
}

/// F-CAPTURE: a jump passes over squares without touching them.
#[test]
fn f_capture_jump_passes_over() {
    let mut g = four(
        Options::traditional(),
        &[4, -1, -1, -1],
        &[y(8), -1, -1, -1],
        &[-1; 4],
    );
    roll_move(&mut g, 2, 0);
    assert_eq!(planes_of(&g, Red)[0], 10);
    assert_eq!(planes_of(&g, Yellow)[0], y(8));
}

/// F-STACK: own planes on one square form a stack; a single enemy walking past (`pass`)
/// or landing elsewhere never captures it.
#[test]
fn f_stack_own_planes_stack() {
    let mut g = four(Options::traditional(), &[3, 5, -1, -1], &[-1; 4], &[-1; 4]);
    let events = roll_move(&mut g, 2, 0);
    assert!(has(&events, |e| matches!(
        e,
        Event::Stacked { height: 2, .. }
    )));
    assert_eq!(planes_of(&g, Red), vec![5, 5, -1, -1]);
    // Under pass, a yellow plane walks over the red stack and leaves it alone.
    let mut g = position(
        pass(),
        vec![
            player(Red, &[5, 5, -1, -1]),
            player(Yellow, &[y(3), -1, -1, -1]),
            player(Blue, &[-1; 4]),
            player(Green, &[-1; 4]),
        ],
        Yellow,
    );
    roll_move(&mut g, 3, 0);
    assert_eq!(planes_of(&g, Red), vec![5, 5, -1, -1]);
    assert_eq!(planes_of(&g, Yellow)[0], y(3) + 3);
}

/// F-STACK-TRADITIONAL: landing exactly on an enemy stack sends the mover and the stack
/// back (同时返回停机坪); F-D-COLLISION: the capture bonus counts each enemy plane.
#[test]
fn f_stack_traditional_and_f_d_collision_landing_on_a_stack_sends_all_back() {
    let mut g = four(
        Options::traditional(),
        &[5, -1, -1, -1],
        &[y(8), y(8), -1, -1],
        &[-1; 4],
    );
    let events = roll_move(&mut g, 3, 0);
    assert_eq!(planes_of(&g, Red)[0], -1);
    assert_eq!(planes_of(&g, Yellow), vec![-1, -1, -1, -1]);
    assert!(has(&events, |e| matches!(
        e,
        Event::Returned {
            colour: Red,
            reason: ReturnReason::Collision,
            ..
        }
    )));
    assert_eq!(g.captures(Red), 2, "F-D-COLLISION");
}

/// F-STACK-TRADITIONAL: a larger roll (not 6) walks to the stack and turns back the rest;
/// the turned-back walk never jumps.
#[test]
fn f_stack_traditional_turns_back_without_jumping() {
    let mut g = four(
        Options::traditional(),
        &[5, -1, -1, -1],
        &[y(8), y(8), -1, -1],
        &[-1; 4],
    );
    let events = roll_move(&mut g, 5, 0);
    assert_eq!(
        planes_of(&g, Red)[0],
        6,
        "8 back 2 = 6, an own-colour square: no jump"
    );
    assert!(has(&events, |e| matches!(e, Event::TurnedBack { .. })));
    assert_eq!(planes_of(&g, Yellow), vec![y(8), y(8), -1, -1]);
}

/// F-STACK-TRADITIONAL: stacks block neither the turned-back part of a walk nor jumps.
#[test]
fn f_stack_traditional_turn_back_and_jump_pass_stacks() {
    // The stack at 6 blocks; the walk turns back over the green stack at 4 (behind the
    // start) and stops at 2.
    let g4 = same(Red, 4, Green);
    let mut g = four(
        Options::traditional(),
        &[5, -1, -1, -1],
        &[y(6), y(6), -1, -1],
        &[g4, g4, -1, -1],
    );
    roll_move(&mut g, 5, 0);
    assert_eq!(planes_of(&g, Red)[0], 2);
    assert_eq!(planes_of(&g, Green), vec![g4, g4, -1, -1]);
    // A jump from 6 to 10 passes over the stack at 8.
    let mut g = four(
        Options::traditional(),
        &[4, -1, -1, -1],
        &[y(8), y(8), -1, -1],
        &[-1; 4],
    );
    roll_move(&mut g, 2, 0);
    assert_eq!(planes_of(&g, Red)[0], 10);
}

/// F-STACK-TRADITIONAL: a jump that ends on an enemy stack counts as landing on it.
#[test]
fn f_stack_traditional_jump_ending_on_stack() {
    let mut g = four(
        Options::traditional(),
        &[4, -1, -1, -1],
        &[y(10), y(10), -1, -1],
        &[-1; 4],
    );
    roll_move(&mut g, 2, 0);
    assert_eq!(planes_of(&g, Red)[0], -1);
    assert_eq!(planes_of(&g, Yellow), vec![-1, -1, -1, -1]);
}

/// F-STACK-TRADITIONAL + F-D-SIT: a 6 past a stack stops on top of it, captures nothing and
/// does not jump; the bonus roll moves that plane automatically.
#[test]
fn f_d_sit_six_sits_on_stack_and_moves_next() {
    let mut g = four(
        Options::traditional(),
        &[5, 20, -1, -1],
        &[y(10), y(10), -1, -1],
        &[-1; 4],
    );
    let mut events = Vec::new();
    g.roll(6, &mut events).unwrap();
    g.choose(0, &mut events).unwrap();
    assert!(has(&events, |e| matches!(e, Event::SatOnStack { .. })));
    assert_eq!(
        planes_of(&g, Red)[0],
        10,
        "on top, no jump although 10 is red"
    );
    assert_eq!(planes_of(&g, Yellow), vec![y(10), y(10), -1, -1]);
    assert_eq!(g.forced_plane(), Some(0));
    assert_eq!(g.moves_for(3).len(), 1);
    let mut events = Vec::new();
    let moves = g.roll(3, &mut events).unwrap();
    assert!(moves.is_empty(), "the forced move is played at once");
    assert!(has(&events, |e| matches!(
        e,
        Event::ForcedMove { plane: 0, .. }
    )));
    assert_eq!(planes_of(&g, Red), vec![13, 20, -1, -1]);
    assert_eq!(g.turn(), Yellow);
}

/// F-D-SIT: a penalised third 6 replaces the forced move.
#[test]
fn f_d_sit_third_six_penalty_replaces_forced_move() {
    let o = Options {
        three_sixes: ThreeSixes::AllToHangar,
        ..Options::traditional()
    };
    // One 6 already rolled this turn; the second makes plane 0 sit on the stack.
    let mut s = four(o, &[5, 20, -1, -1], &[y(10), y(10), -1, -1], &[-1; 4]).to_setup();
    s.sixes = 1;
    let mut g = Game::from_setup(s).unwrap();
    g.roll(6, &mut Vec::new()).unwrap();
    g.choose(0, &mut Vec::new()).unwrap();
    assert_eq!(g.forced_plane(), Some(0));
    let mut events = Vec::new();
    g.roll(6, &mut events).unwrap();
    assert!(has(&events, |e| matches!(e, Event::ThreeSixes { .. })));
    assert!(!has(&events, |e| matches!(e, Event::ForcedMove { .. })));
    assert_eq!(planes_of(&g, Red), vec![-1, -1, -1, -1]);
    assert_eq!(g.forced_plane(), None);
    assert_eq!(g.turn(), Yellow);
}

/// F-D-PAD: a walk turned back by a stack stops on the launch pad; extra pips are lost.
#[test]
fn f_d_pad_turn_back_stops_on_pad() {
    let mut g = four(
        Options::traditional(),
        &[1, -1, -1, -1],
        &[y(2), y(2), -1, -1],
        &[-1; 4],
    );
    roll_move(&mut g, 5, 0);
    assert_eq!(planes_of(&g, Red)[0], 0);
}

/// F-STACK-IMPROVED: walks pass over enemy stacks; landing on one sends it back whole and
/// the mover stays.
#[test]
fn f_stack_improved_pass_and_capture_stack() {
    let mut g = four(pass(), &[5, -1, -1, -1], &[y(8), y(8), -1, -1], &[-1; 4]);
    roll_move(&mut g, 5, 0);
    assert_eq!(
        planes_of(&g, Red)[0],
        14,
        "walked over the stack to 10, jumped to 14"
    );
    assert_eq!(planes_of(&g, Yellow), vec![y(8), y(8), -1, -1]);
    let mut g = four(pass(), &[5, -1, -1, -1], &[y(8), y(8), -1, -1], &[-1; 4]);
    let events = roll_move(&mut g, 3, 0);
    assert_eq!(planes_of(&g, Red)[0], 8);
    assert_eq!(planes_of(&g, Yellow), vec![-1, -1, -1, -1]);
    assert_eq!(g.captures(Red), 2);
    assert!(!has(&events, |e| matches!(e, Event::Returned { .. })));
}

/// F-SAFE: launch pads, home columns and the hangar are private: nothing happens there.
#[test]
fn f_safe_private_places() {
    // Blue planes in blue's column (not the crossing square) and on its pad: a red flight
    // and walks leave them alone.
    let mut g = position(
        Options::traditional(),
        vec![
            player(Red, &[15, 0, -1, -1]),
            player(Blue, &[52, 0, 54, -1]),
        ],
        Red,
    );
    roll_move(&mut g, 3, 0);
    assert_eq!(planes_of(&g, Red)[0], 34);
    assert_eq!(planes_of(&g, Blue), vec![52, 0, 54, -1]);
    // Two red planes on the pad with blue's: pads are separate squares.
    assert!(hangar_flight::board::square(Red, hangar_flight::Progress::PAD).is_none());
}

/// F-D-SINGLE: single enemy planes of different colours on one square do not block; in a
/// team game a yellow and a green plane together are a stack to red. Own and partner
/// planes never block.
#[test]
fn f_d_single_team_stack_and_partner() {
    let teams = Options {
        teams: true,
        ..Options::traditional()
    };
    let g8 = same(Red, 8, Green);
    let b7 = same(Red, 7, Blue);
    let mut g = position(
        teams,
        vec![
            player(Red, &[5, -1, -1, -1]),
            player(Yellow, &[y(8), -1, -1, -1]),
            player(Blue, &[b7, b7, -1, -1]),
            player(Green, &[g8, -1, -1, -1]),
        ],
        Red,
    );
    roll_move(&mut g, 5, 0);
    assert_eq!(
        planes_of(&g, Red)[0],
        6,
        "yellow+green stack at 8 turns red back; blue partner stack at 7 does not block"
    );
    assert_eq!(
        planes_of(&g, Blue),
        vec![b7, b7, -1, -1],
        "partners never capture each other"
    );
}

/// F-D-SAME: a walk that turns back from a stack onto its own start square is legal.
#[test]
fn f_d_same_turn_back_onto_start_square() {
    let mut g = four(
        Options::traditional(),
        &[0, -1, -1, -1],
        &[y(1), y(1), -1, -1],
        &[-1; 4],
    );
    let moves = g.roll(2, &mut Vec::new()).unwrap();
    assert_eq!(moves.len(), 1);
    g.choose(0, &mut Vec::new()).unwrap();
    assert_eq!(planes_of(&g, Red)[0], 0);
    assert_eq!(g.phase(), Phase::Roll);
    assert_eq!(g.turn(), Yellow);
}
