//! End of game, ranks and scores: F-WIN, F-RANK, F-PLANES, F-PLAYERS, F-TEAM, F-SCORE,
//! F-CAPTURE-BONUS, F-D-DONE, F-D-RANK, F-D-SCORE, and resignations.
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{has, planes_of, player, position, roll_move, roll_only, same, with_planes};
use hangar_flight::{Colour, Event, Finish, Game, Options, Phase, PlayError, SetupError, Stacks};

use Colour::{Blue, Green, Red, Yellow};

fn play_on() -> Options {
    Options {
        play_on: true,
        ..Options::traditional()
    }
}

fn teams() -> Options {
    Options {
        teams: true,
        ..Options::traditional()
    }
}

/// F-WIN: the first player whose planes have all finished wins and the game ends.
/// F-RANK: the others by finished planes, then total progress.
#[test]
fn f_win_first_to_finish_all() {
    let mut g = position(
        Options::traditional(),
        vec![
            player(Red, &[56, 56, 56, 55]),
            player(Yellow, &[56, 56, 56, -1]),
            player(Blue, &[56, 56, 10, 20]),
            player(Green, &[56, 56, 30, 5]),
        ],
        Red,
    );
    let events = roll_move(&mut g, 1, 3);
    assert_eq!(g.phase(), Phase::Over);
    let ranks = g.ranks().unwrap();
    assert_eq!(ranks, [Some(1), Some(2), Some(4), Some(3)]);
    assert!(has(
        &events,
        |e| matches!(e, Event::GameOver { ranks: r } if *r == ranks)
    ));
    assert_eq!(g.roll(3, &mut Vec::new()), Err(PlayError::GameOver));
}

/// F-RANK: players who did not finish are ranked by finished planes, then by total progress.
#[test]
fn f_rank_by_finished_planes_then_progress() {
    let mut g = position(
        Options::traditional(),
        vec![
            player(Red, &[56, 56, 56, 55]),
            player(Yellow, &[56, 10, -1, -1]),
            player(Blue, &[56, 56, -1, -1]),
            player(Green, &[56, 50, 50, -1]),
        ],
        Red,
    );
    // Green is further along in all (156 against blue's 112) but finished fewer planes.
    assert!(g.total_progress(Green) > g.total_progress(Blue));
    roll_move(&mut g, 1, 3);
    // Blue finished two; Green and Yellow one each, Green further along.
    assert_eq!(g.ranks().unwrap(), [Some(1), Some(4), Some(2), Some(3)]);
}

/// F-D-RANK: equal finished planes and equal total progress share a rank.
#[test]
fn f_d_rank_ties_share() {
    let mut g = position(
        Options::traditional(),
        vec![
            player(Red, &[56, 56, 56, 55]),
            player(Yellow, &[56, 10, -1, -1]),
            player(Blue, &[56, 10, -1, -1]),
            player(Green, &[5, -1, -1, -1]),
        ],
        Red,
    );
    roll_move(&mut g, 1, 3);
    assert_eq!(g.ranks().unwrap(), [Some(1), Some(2), Some(2), Some(4)]);
}

/// F-D-RANK under `circle`: a loop plane counts `56 − pips still to go`, not how far it
/// walked, so a plane that walked past its finish square is behind one standing in its home
/// column a few pips away, and level with one as far from home.
#[test]
fn f_d_rank_circle_counts_pips_still_to_go() {
    let circle = Options {
        finish: Finish::Circle,
        ..Options::traditional()
    };
    let mut g = position(
        circle,
        vec![
            player(Red, &[56, 56, 56, 55]),
            // One step past its finish square: 3 pips still to go, counts 53.
            player(Yellow, &[56, 56, 58, -1]),
            // Home column, 3 pips away: counts 53, the same as yellow's loop plane.
            player(Blue, &[56, 56, 53, -1]),
            // Home column, 1 pip away: counts 55, ahead of yellow's plane that walked further.
            player(Green, &[56, 56, 55, -1]),
        ],
        Red,
    );
    assert_eq!(g.total_progress(Yellow), g.total_progress(Blue));
    assert!(g.total_progress(Green) > g.total_progress(Yellow));
    // Red's last plane steps onto its own finish square and finishes: the game is over.
    roll_move(&mut g, 1, 3);
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(g.ranks().unwrap(), [Some(1), Some(3), Some(3), Some(2)]);

    // A plane standing on its own finish square as a loop plane (after a capture there)
    // still has the whole loop, 4 pips, to go: behind a home-column plane 2 pips away.
    let g = position(
        with_planes(circle, 2),
        vec![player(Red, &[56, 57]), player(Blue, &[56, 54])],
        Red,
    );
    assert_eq!(g.final_ranks(), [Some(2), None, Some(1), None]);
}

/// F-WIN play-on + F-D-DONE: the others play on; a finisher takes the next rank at once, is
/// skipped from then on, and the 6 that brought its last plane home earns no bonus; the
/// last player left takes the last rank.
#[test]
fn f_d_done_play_on() {
    let mut g = position(
        play_on(),
        vec![
            player(Red, &[56, 56, 56, 50]),
            player(Yellow, &[56, 56, 56, 55]),
            player(Green, &[10, -1, -1, -1]),
        ],
        Red,
    );
    let events = roll_move(&mut g, 6, 3);
    assert!(has(&events, |e| matches!(
        e,
        Event::PlayerDone {
            colour: Red,
            rank: Some(1)
        }
    )));
    assert!(
        !has(&events, |e| matches!(e, Event::BonusRoll { .. })),
        "no bonus after the last plane"
    );
    assert_eq!(g.turn(), Yellow);
    assert_eq!(g.phase(), Phase::Roll);
    roll_move(&mut g, 1, 3);
    assert_eq!(g.phase(), Phase::Over, "only green is left");
    assert_eq!(g.ranks().unwrap(), [Some(1), Some(2), None, Some(3)]);
}

/// F-D-DONE: a finished player is skipped in turn order (play-on, three players left).
#[test]
fn f_d_done_skipped() {
    let mut g = position(
        play_on(),
        vec![
            player(Red, &[56, 56, 56, 55]),
            player(Yellow, &[10, -1, -1, -1]),
            player(Blue, &[10, -1, -1, -1]),
            player(Green, &[10, -1, -1, -1]),
        ],
        Red,
    );
    roll_move(&mut g, 1, 3);
    for expected in [Yellow, Blue, Green, Yellow] {
        assert_eq!(g.turn(), expected);
        roll_move(&mut g, 1, 0);
    }
}

/// F-TEAM: partners stack together and never capture each other; the team wins when all
/// eight planes are home; a partner who is done is skipped (F-D-DONE).
#[test]
fn f_team_partners_and_win() {
    let mut g = position(
        teams(),
        vec![
            player(Red, &[56, 56, 56, 55]),
            player(Yellow, &[10, -1, -1, -1]),
            player(Blue, &[56, 56, 56, 54]),
            player(Green, &[10, -1, -1, -1]),
        ],
        Red,
    );
    let events = roll_move(&mut g, 1, 3);
    assert!(has(&events, |e| matches!(
        e,
        Event::PlayerDone {
            colour: Red,
            rank: None
        }
    )));
    assert_eq!(g.phase(), Phase::Roll, "the team has not won yet");
    roll_move(&mut g, 1, 0); // yellow
    roll_move(&mut g, 2, 3); // blue finishes: team red–blue wins
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(g.ranks().unwrap(), [Some(1), Some(2), Some(1), Some(2)]);

    // Partners share a square (a stack for both) without capturing.
    let b12 = common::same(Red, 12, Blue);
    let mut g = position(
        teams(),
        vec![
            player(Red, &[10, -1, -1, -1]),
            player(Yellow, &[-1; 4]),
            player(Blue, &[b12, -1, -1, -1]),
            player(Green, &[-1; 4]),
        ],
        Red,
    );
    let events = roll_move(&mut g, 2, 0);
    assert_eq!(planes_of(&g, Blue)[0], b12);
    assert!(has(&events, |e| matches!(
        e,
        Event::Stacked { height: 2, .. }
    )));
}

/// F-PLANES: 2 or 3 planes per player for a shorter game; other counts are refused.
#[test]
fn f_planes_two_or_three() {
    let mut g = position(
        with_planes(Options::traditional(), 2),
        vec![player(Red, &[56, 55]), player(Blue, &[-1, -1])],
        Red,
    );
    roll_move(&mut g, 1, 1);
    assert_eq!(g.phase(), Phase::Over);
    let g = Game::new(with_planes(Options::traditional(), 3), &[Red, Blue], Red).unwrap();
    assert_eq!(g.planes(Red).len(), 3);
    assert_eq!(
        Game::new(with_planes(Options::traditional(), 5), &[Red, Blue], Red),
        Err(SetupError::PlaneCount(5))
    );
}

/// F-PLAYERS: 2–4 players; two players take opposite colours.
#[test]
fn f_players_counts_and_opposite() {
    let o = Options::traditional();
    assert!(Game::new(o, &[Yellow, Green], Green).is_ok());
    assert_eq!(
        Game::new(o, &[Red, Yellow], Red),
        Err(SetupError::NotOpposite)
    );
    assert_eq!(Game::new(o, &[Red], Red), Err(SetupError::PlayerCount(1)));
    assert!(Game::new(o, &[Red, Yellow, Green], Red).is_ok());
    assert_eq!(
        Game::new(teams(), &[Red, Blue], Red),
        Err(SetupError::TeamsNeedFour)
    );
}

/// F-SCORE: the seed's example, S = 1000, finished 4/3/2/1 → +1500/−250/−500/−750.
/// F-CAPTURE-BONUS: +5 per enemy plane sent back, a stack counting twice.
#[test]
fn f_score_example_and_f_capture_bonus() {
    let mut s = position(
        Options::traditional(),
        vec![
            player(Red, &[56, 56, 56, 55]),
            player(Yellow, &[56, 56, 56, -1]),
            player(Blue, &[56, 56, 10, 20]),
            player(Green, &[56, 30, 5, -1]),
        ],
        Red,
    )
    .to_setup();
    s.players[1].captures = 2;
    let mut g = Game::from_setup(s).unwrap();
    assert_eq!(g.scores(1000), None, "not over yet");
    roll_move(&mut g, 1, 3);
    let scores = g.scores(1000).unwrap();
    assert_eq!(scores.result, [1500, -250, -500, -750]);
    assert_eq!(scores.capture_bonus, [0, 10, 0, 0]);
    assert_eq!(scores.total(Yellow), -240);
}

/// F-CAPTURE-BONUS in play: a loser who sends back a stack of two (F-STACK-IMPROVED) earns
/// +10 and one who sends back a single plane +5, counted by the moves themselves, on top of
/// a losing result; the winner, who sent nothing back, earns none.
#[test]
fn f_capture_bonus_counts_each_plane_sent_back_whatever_the_result() {
    let red = |yellow_progress: i16| same(Yellow, yellow_progress, Red);
    for (stacks, red_planes, bonus) in [
        (Stacks::Pass, [red(8), red(8), -1, -1], 10),
        (Stacks::Block, [red(8), -1, -1, -1], 5),
    ] {
        let mut g = position(
            Options {
                stacks,
                ..Options::traditional()
            },
            vec![
                player(Red, &red_planes),
                player(Yellow, &[5, -1, -1, -1]),
                player(Blue, &[56, 56, 56, 55]),
            ],
            Yellow,
        );
        // Yellow walks 5 → 8 (not an own-colour square: no jump) onto the red plane(s).
        let events = roll_move(&mut g, 3, 0);
        assert_eq!(planes_of(&g, Red), vec![-1; 4], "{stacks:?}");
        assert_eq!(planes_of(&g, Yellow)[0], 8, "{stacks:?}");
        assert!(has(&events, |e| matches!(
            e,
            Event::Captured {
                by: Yellow,
                colour: Red,
                ..
            }
        )));
        // Blue brings its last plane home: the game is over and yellow lost.
        roll_move(&mut g, 1, 3);
        assert_eq!(g.phase(), Phase::Over);
        let scores = g.scores(1000).unwrap();
        assert_eq!(scores.result, [-1000, -1000, 2000, 0], "{stacks:?}");
        assert_eq!(scores.capture_bonus, [0, bonus, 0, 0], "{stacks:?}");
        assert_eq!(scores.total(Yellow), -1000 + bonus);
        assert_eq!(scores.total(Blue), 2000);
    }
}

/// F-D-SCORE: v is rounded down; teams split the gain, the odd point to the earlier colour;
/// under play-on only rank 1 gains.
#[test]
fn f_d_score_rounding_split_and_play_on() {
    let mut g = position(
        Options {
            teams: true,
            planes: 3,
            ..Options::traditional()
        },
        vec![
            player(Red, &[56, 56, 55]),
            player(Yellow, &[-1, -1, -1]),
            player(Blue, &[56, 56, 56]),
            player(Green, &[56, 56, -1]),
        ],
        Red,
    );
    roll_move(&mut g, 1, 2);
    // v = 100 / 3 = 33; losers lose 99 and 33: the pot 132 splits 66/66.
    let scores = g.scores(100).unwrap();
    assert_eq!(scores.result, [66, -99, 66, -33]);
    let mut g = position(
        Options {
            teams: true,
            planes: 3,
            ..Options::traditional()
        },
        vec![
            player(Red, &[56, 56, 55]),
            player(Yellow, &[-1, -1, -1]),
            player(Blue, &[56, 56, 56]),
            player(Green, &[56, 56, 56]),
        ],
        Red,
    );
    roll_move(&mut g, 1, 2);
    // Pot 99 between red and blue: 50 to red (earlier), 49 to blue.
    assert_eq!(g.scores(100).unwrap().result, [50, -99, 49, 0]);

    let mut red = player(Red, &[56, 56, 56, 56]);
    red.rank = Some(1);
    let mut g = position(
        play_on(),
        vec![
            red,
            player(Yellow, &[56, 56, 56, 55]),
            player(Green, &[10, 20, -1, 56]),
        ],
        Yellow,
    );
    roll_move(&mut g, 1, 3);
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(g.scores(1000).unwrap().result, [750, 0, 0, -750]);
}

/// Resignation (platform P-RESIGN): the resigner's planes leave the board; with one player
/// left the game ends; in a team game the other team wins.
#[test]
fn resignation_ends_or_continues() {
    let mut g = Game::new(Options::traditional(), &[Red, Yellow, Green], Red).unwrap();
    let events = {
        let mut ev = Vec::new();
        g.resign(Red, &mut ev).unwrap();
        ev
    };
    assert!(has(&events, |e| matches!(
        e,
        Event::Resigned { colour: Red }
    )));
    assert_eq!(g.turn(), Yellow);
    assert_eq!(
        g.resign(Red, &mut Vec::new()),
        Err(PlayError::NotPlaying { colour: Red })
    );
    g.resign(Green, &mut Vec::new()).unwrap();
    assert_eq!(g.phase(), Phase::Over);
    assert_eq!(g.ranks().unwrap(), [Some(2), Some(1), None, Some(2)]);
    let mut g = Game::new(teams(), &Colour::ALL, Red).unwrap();
    roll_only(&mut g, 1);
    g.resign(Blue, &mut Vec::new()).unwrap();
    assert_eq!(g.ranks().unwrap(), [Some(2), Some(1), Some(2), Some(1)]);
}
