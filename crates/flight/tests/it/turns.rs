//! Turns and dice: F-ORDER, F-ROLL, F-TAKEOFF, F-BONUS, F-THREE-SIXES, F-CHOICE, F-D-SAME,
//! F-D-SIXES, F-D-SEATS.
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{has, planes_of, player, position, roll_move, roll_only};
use hangar_flight::{
    Action, Colour, Event, Finish, Game, Options, Phase, PlayError, ReturnReason, Seating,
    ThreeSixes,
};

use Colour::{Blue, Green, Red, Yellow};

fn two(options: Options, red: &[i16], blue: &[i16]) -> Game {
    position(options, vec![player(Red, red), player(Blue, blue)], Red)
}

fn sixes(rule: ThreeSixes) -> Options {
    Options {
        three_sixes: rule,
        ..Options::traditional()
    }
}

/// F-ROLL: with no legal move the roll is spent and the turn passes.
#[test]
fn f_roll_no_legal_move_is_spent() {
    let mut g = two(Options::traditional(), &[-1; 4], &[-1; 4]);
    let events = roll_only(&mut g, 3);
    assert_eq!(
        events,
        vec![
            Event::Rolled {
                colour: Red,
                value: 3
            },
            Event::RollSpent {
                colour: Red,
                value: 3
            },
            Event::Turn { colour: Blue },
        ]
    );
}

/// F-ROLL: out-of-phase and bad actions are refused and change nothing.
#[test]
fn f_roll_refuses_bad_actions() {
    let mut g = two(Options::traditional(), &[3, 10, -1, -1], &[-1; 4]);
    let before = g;
    assert_eq!(
        g.play(Action::Move { plane: 0 }, &mut Vec::new()),
        Err(PlayError::RollExpected)
    );
    assert_eq!(
        g.play(Action::Roll { value: 7 }, &mut Vec::new()),
        Err(PlayError::BadDie { value: 7 })
    );
    assert_eq!(g, before);
    g.roll(2, &mut Vec::new()).unwrap();
    let pending = g;
    assert_eq!(
        g.roll(2, &mut Vec::new()),
        Err(PlayError::MoveExpected),
        "no passing"
    );
    assert_eq!(
        g.choose(2, &mut Vec::new()),
        Err(PlayError::IllegalMove { plane: 2, roll: 2 })
    );
    assert_eq!(
        g.choose(9, &mut Vec::new()),
        Err(PlayError::NoSuchPlane { plane: 9 })
    );
    assert_eq!(g, pending);
}

/// F-TAKEOFF traditional: only a 6 takes off; taking off uses the roll; the 6 earns a bonus.
#[test]
fn f_takeoff_six() {
    let mut g = two(Options::traditional(), &[-1; 4], &[-1; 4]);
    roll_only(&mut g, 5);
    assert_eq!(g.turn(), Blue);
    roll_only(&mut g, 1);
    let events = roll_move(&mut g, 6, 0);
    assert_eq!(planes_of(&g, Red), vec![0, -1, -1, -1]);
    assert!(has(&events, |e| matches!(
        e,
        Event::TookOff { plane: 0, .. }
    )));
    assert!(has(&events, |e| matches!(
        e,
        Event::BonusRoll { colour: Red }
    )));
    assert_eq!(g.turn(), Red);
}

/// F-TAKEOFF improved: a 5 or a 6 takes off; a take-off on 5 earns no bonus roll.
#[test]
fn f_takeoff_five_or_six() {
    let mut g = two(Options::improved(), &[-1; 4], &[-1; 4]);
    let events = roll_move(&mut g, 5, 0);
    assert_eq!(planes_of(&g, Red)[0], 0);
    assert!(!has(&events, |e| matches!(e, Event::BonusRoll { .. })));
    assert_eq!(g.turn(), Blue);
}

/// F-BONUS: a 6 earns another roll, also when it could not be used.
#[test]
fn f_bonus_six_even_when_unused() {
    let o = Options {
        finish: Finish::ExactOnly,
        ..Options::traditional()
    };
    let mut g = two(o, &[53, 56, 56, 56], &[-1; 4]);
    let events = roll_only(&mut g, 6);
    assert!(has(&events, |e| matches!(
        e,
        Event::RollSpent { value: 6, .. }
    )));
    assert!(has(&events, |e| matches!(
        e,
        Event::BonusRoll { colour: Red }
    )));
    assert_eq!(g.turn(), Red);
    assert_eq!(g.phase(), Phase::Roll);
}

/// F-THREE-SIXES none (traditional): no limit on sixes in a row.
#[test]
fn f_three_sixes_none() {
    let mut g = two(sixes(ThreeSixes::None), &[10, -1, -1, -1], &[-1; 4]);
    for _ in 0..4 {
        let events = roll_move(&mut g, 6, 0);
        assert!(has(&events, |e| matches!(e, Event::BonusRoll { .. })));
    }
    assert_eq!(g.turn(), Red);
}

/// F-THREE-SIXES all-to-hangar: the third 6 is not moved; every plane goes back, finished
/// ones included, and the turn ends.
#[test]
fn f_three_sixes_all_to_hangar() {
    let mut g = two(sixes(ThreeSixes::AllToHangar), &[56, 30, -1, 52], &[-1; 4]);
    roll_move(&mut g, 6, 2);
    roll_move(&mut g, 6, 1);
    let events = roll_only(&mut g, 6);
    assert!(has(&events, |e| matches!(
        e,
        Event::ThreeSixes { colour: Red }
    )));
    assert!(has(&events, |e| matches!(
        e,
        Event::Returned {
            plane: 0,
            reason: ReturnReason::ThreeSixes,
            ..
        }
    )));
    assert_eq!(planes_of(&g, Red), vec![-1, -1, -1, -1]);
    assert_eq!(g.turn(), Blue);
}

/// F-THREE-SIXES moved-to-hangar + F-D-SIXES: the planes moved by the two earlier sixes go
/// back, even a finished one and one that took off; a spent 6 still counts.
#[test]
fn f_three_sixes_moved_to_hangar() {
    let mut g = two(
        sixes(ThreeSixes::MovedToHangar),
        &[50, -1, 20, 52],
        &[-1; 4],
    );
    roll_move(&mut g, 6, 0); // 50 + 6 = 56: finished
    roll_move(&mut g, 6, 1); // takes off
    assert_eq!(planes_of(&g, Red), vec![56, 0, 20, 52]);
    roll_only(&mut g, 6);
    assert_eq!(planes_of(&g, Red), vec![-1, -1, 20, 52]);
    assert_eq!(g.turn(), Blue);

    // A spent 6 counts toward three (F-D-SIXES): all planes in the hangar or stuck.
    let o = Options {
        finish: Finish::ExactOnly,
        ..sixes(ThreeSixes::AllToHangar)
    };
    let mut g = two(o, &[53, 56, 56, 56], &[-1; 4]);
    roll_only(&mut g, 6);
    roll_only(&mut g, 6);
    let events = roll_only(&mut g, 6);
    assert!(has(&events, |e| matches!(e, Event::ThreeSixes { .. })));
    assert_eq!(planes_of(&g, Red), vec![-1, -1, -1, -1]);
}

/// F-D-SIXES: in a team game the penalty touches the roller's own planes only.
#[test]
fn f_d_sixes_team_penalty_own_planes_only() {
    let o = Options {
        teams: true,
        ..sixes(ThreeSixes::AllToHangar)
    };
    let mut g = position(
        o,
        vec![
            player(Red, &[10, -1, -1, -1]),
            player(Yellow, &[-1; 4]),
            player(Blue, &[20, -1, -1, -1]),
            player(Green, &[-1; 4]),
        ],
        Red,
    );
    roll_move(&mut g, 6, 0);
    roll_move(&mut g, 6, 0);
    roll_only(&mut g, 6);
    assert_eq!(planes_of(&g, Red)[0], -1);
    assert_eq!(planes_of(&g, Blue)[0], 20);
}

/// F-CHOICE: when several planes can move, the player chooses.
#[test]
fn f_choice_player_chooses() {
    let mut g = two(Options::traditional(), &[3, 21, -1, -1], &[-1; 4]);
    let moves = g.roll(2, &mut Vec::new()).unwrap();
    assert_eq!(
        moves.iter().map(|m| m.plane).collect::<Vec<_>>(),
        vec![0, 1]
    );
    g.choose(1, &mut Vec::new()).unwrap();
    assert_eq!(planes_of(&g, Red), vec![3, 23, -1, -1]);
}

/// F-CHOICE / F-D-SAME: two planes on one square are one choice; either is accepted.
#[test]
fn f_d_same_planes_on_one_square_are_one_choice() {
    let mut g = two(Options::traditional(), &[3, 3, -1, -1], &[-1; 4]);
    let moves = g.roll(2, &mut Vec::new()).unwrap();
    assert_eq!(moves.len(), 1);
    assert!(g.is_legal(1));
    // Planes in the hangar, too: one take-off choice.
    let mut g = two(Options::traditional(), &[-1, -1, -1, 3], &[-1; 4]);
    let moves = g.roll(6, &mut Vec::new()).unwrap();
    assert_eq!(moves.len(), 2);
}

/// F-D-SAME: moves that swap two planes' spots are different choices (the planes end on
/// one spot or the other), but two moves that both change nothing are one choice.
#[test]
fn f_d_same_only_identical_results_merge() {
    let mut g = two(Options::traditional(), &[53, 54, -1, -1], &[-1; 4]);
    let moves = g.roll(5, &mut Vec::new()).unwrap();
    assert_eq!(moves.len(), 2, "53→54 and 54→53 give different positions");
    g.choose(1, &mut Vec::new()).unwrap();
    assert_eq!(planes_of(&g, Red), vec![53, 53, -1, -1]);

    let circle = Options {
        finish: Finish::Circle,
        ..Options::traditional()
    };
    let mut g = two(circle, &[58, 59, 10, -1], &[-1; 4]);
    let moves = g.roll(4, &mut Vec::new()).unwrap();
    assert_eq!(
        moves.len(),
        2,
        "two full laps are one choice, plus the plane at 10"
    );
    assert_eq!(moves[0].to, moves[0].from);
}

/// F-ORDER + F-D-SEATS: the first player is drawn among the players, play goes clockwise
/// and an empty seat is skipped.
#[test]
fn f_order_first_drawn_then_clockwise() {
    // Three players, empty seat blue (draw 2), no swaps, first index 2 → green.
    let mut draws = vec![2u32, 0, 0, 2].into_iter();
    let seating = Seating::draw(3, false, |n| {
        let d = draws.next().unwrap();
        assert!(d < n);
        d
    })
    .unwrap();
    assert_eq!(seating.seated(), vec![Red, Yellow, Green]);
    assert_eq!(seating.first, Green);
    let mut g = Game::new(Options::traditional(), &seating.seated(), seating.first).unwrap();
    assert_eq!(g.turn(), Green);
    roll_only(&mut g, 1);
    assert_eq!(g.turn(), Red);
    roll_only(&mut g, 1);
    assert_eq!(g.turn(), Yellow);
    roll_only(&mut g, 1);
    assert_eq!(g.turn(), Green, "blue's empty seat is skipped");
}

/// F-D-SEATS: two players get red–blue or yellow–green; four players a permutation; teams
/// keep partners opposite.
#[test]
fn f_d_seats_draws() {
    for pair in 0..2 {
        let mut draws = vec![pair, 0, 0].into_iter();
        let s = Seating::draw(2, false, |_| draws.next().unwrap()).unwrap();
        let expected = if pair == 0 {
            vec![Red, Blue]
        } else {
            vec![Yellow, Green]
        };
        assert_eq!(s.seated(), expected);
        assert_eq!(
            s.colours,
            vec![expected[1], expected[0]],
            "shuffled by the draw"
        );
    }
    let mut counter = 0;
    let s = Seating::draw(4, false, |n| {
        counter += 1;
        n - 1
    })
    .unwrap();
    assert_eq!(s.seated(), Colour::ALL.to_vec());
    assert_eq!(counter, 4, "three shuffle draws and the first player");
    for a in 0..2 {
        for b in 0..2 {
            for pair in 0..2 {
                let mut draws = vec![pair, a, b, 0].into_iter();
                let s = Seating::draw(4, true, |_| draws.next().unwrap()).unwrap();
                assert_eq!(s.colours[0].opposite(), s.colours[2]);
                assert_eq!(s.colours[1].opposite(), s.colours[3]);
            }
        }
    }
    assert!(Seating::draw(3, true, |_| 0).is_err());
    assert!(Seating::draw(5, false, |_| 0).is_err());
}
