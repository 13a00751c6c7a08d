//! The end of the game and the history rules: J-WIN-DEN, J-WIN-WIPE, J-REPEAT, J-DRAW.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use crate::common;

use common::{mv, red, yellow};
use hangar_jungle::{
    Color, DENS, DRAW_PLIES, DrawReason, Game, GameError, Move, Outcome, Position, Rules, WinReason,
};

fn win(winner: Color, reason: WinReason) -> Option<Outcome> {
    Some(Outcome::Win { winner, reason })
}

#[test]
fn j_win_den_entering_the_enemy_den_wins_at_once() {
    let mut game = Game::from_position(red("Dd8 La1 ra9"));
    assert_eq!(game.outcome(), None);
    assert_eq!(
        game.play(mv("d8d9")).unwrap(),
        win(Color::Red, WinReason::Den)
    );
    assert!(game.legal_moves().is_empty());
    assert!(matches!(game.play(mv("a9a8")), Err(GameError::Over(_))));
    // Yellow wins the same way into d1.
    let mut game = Game::from_position(yellow("le1 Ra9"));
    assert_eq!(
        game.play(mv("e1d1")).unwrap(),
        win(Color::Yellow, WinReason::Den)
    );
}

#[test]
fn j_win_wipe_capturing_the_last_piece_wins() {
    let mut game = Game::from_position(red("Dd3 cd4 La1"));
    assert_eq!(
        game.play(mv("d3d4")).unwrap(),
        win(Color::Red, WinReason::NoPieces)
    );
    // A position whose side to move has no pieces is already decided.
    let game = Game::from_position(yellow("La1"));
    assert_eq!(game.outcome(), win(Color::Red, WinReason::NoPieces));
}

#[test]
fn j_win_wipe_no_legal_move_loses() {
    // The yellow cat on a9 is walled in by a red dog (a8) and a red wolf (b9): no move.
    let pos = yellow("ca9 Da8 Wb9 La1");
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.outcome(), win(Color::Red, WinReason::NoMoves));
    assert_eq!(
        Game::from_position(pos).outcome(),
        win(Color::Red, WinReason::NoMoves)
    );
    // Reached by a move: the red wolf closes the cage.
    let mut game = Game::from_position(red("ca9 Da8 Wc9 La1"));
    assert_eq!(
        game.play(mv("c9b9")).unwrap(),
        win(Color::Red, WinReason::NoMoves)
    );
}

fn play_all(game: &mut Game, moves: &[&str]) {
    for m in moves {
        assert_eq!(game.play(mv(m)).unwrap(), None, "{m}");
    }
}

#[test]
fn j_repeat_third_occurrence_is_refused_with_the_reason() {
    let mut game = Game::new(Rules::default());
    // The start position occurs at ply 0 and again after 4 plies; the third time is refused.
    play_all(
        &mut game,
        &["a1a2", "g9g8", "a2a1", "g8g9", "a1a2", "g9g8", "a2a1"],
    );
    let before = game.position().to_string();
    let err = game.play(mv("g8g9")).unwrap_err();
    assert_eq!(err, GameError::Repetition(mv("g8g9")));
    assert!(err.to_string().contains("third time"), "{err}");
    assert_eq!(
        game.position().to_string(),
        before,
        "a refused move changes nothing"
    );
    assert!(game.is_refused(mv("g8g9")));
    assert!(!game.legal_moves().contains(&mv("g8g9")));
    // Another move is fine.
    assert_eq!(game.play(mv("a7a6")).unwrap(), None);
}

#[test]
fn j_repeat_a_player_whose_only_moves_are_refused_loses() {
    // The red cat is boxed in a corridor a1–a3 by stronger yellow pieces (dog b1, wolf b2,
    // leopard b3, tiger a4); the yellow lion shuffles g9–g8. Position Y = (cat a2, lion g9,
    // yellow to move) is reached from a1 and from a3, twice in all; then red, with the cat on
    // a1 and a1a2 as its only move, may only repeat Y a third time, and loses.
    let pos = red("Ca1 db1 wb2 pb3 ta4 lg9");
    let mut game = Game::from_position(pos);
    play_all(
        &mut game,
        &["a1a2", "g9g8", "a2a3", "g8g9", "a3a2", "g9g8", "a2a1"],
    );
    assert_eq!(
        game.play(mv("g8g9")).unwrap(),
        win(Color::Yellow, WinReason::OnlyRepetitions)
    );
    assert_eq!(
        game.position().legal_moves().len(),
        1,
        "the move exists but is refused"
    );
}

#[test]
fn j_repeat_does_not_affect_perft_or_position_moves() {
    let mut game = Game::new(Rules::default());
    play_all(
        &mut game,
        &["a1a2", "g9g8", "a2a1", "g8g9", "a1a2", "g9g8", "a2a1"],
    );
    let fresh: Position = game.position().to_string().parse().unwrap();
    assert_eq!(
        fresh.legal_moves().len(),
        game.position().legal_moves().len()
    );
    assert_eq!(game.legal_moves().len() + 1, fresh.legal_moves().len());
}

/// Plays quiet moves, preferring positions seen least often, so no position repeats thrice.
fn quiet_walk(game: &mut Game, plies: usize) {
    for _ in 0..plies {
        let m: Move = game
            .legal_moves()
            .into_iter()
            .filter(|&m| !game.position().is_capture(m) && !DENS.contains(&m.to))
            .min_by_key(|&m| {
                let h = game.position().hash_after(m);
                (game.recent_hashes().iter().filter(|&&x| x == h).count(), m)
            })
            .expect("a quiet move");
        assert_eq!(game.play(m).unwrap(), None);
    }
}

/// J-DRAW: 100 moves of each side in a row without a capture, that is 200 plies. The number
/// is written out here, not read from the constant under test, so a changed constant fails.
const SPEC_DRAW_PLIES: usize = 200;

#[test]
fn j_draw_after_100_moves_each_without_a_capture() {
    assert_eq!(DRAW_PLIES, SPEC_DRAW_PLIES);
    // Two lions far apart with room to roam.
    let mut game = Game::from_position(red("La1 lg9"));
    // The 199 quiet plies before the last leave the game open (quiet_walk checks each).
    quiet_walk(&mut game, SPEC_DRAW_PLIES - 1);
    assert_eq!(game.quiet_plies(), SPEC_DRAW_PLIES - 1);
    let m = game.legal_moves()[0];
    let outcome = game.play(m).unwrap();
    assert_eq!(
        outcome,
        Some(Outcome::Draw {
            reason: DrawReason::NoCapture
        })
    );
}

#[test]
fn j_draw_counter_restarts_at_each_capture() {
    let mut game = Game::from_position(red("La1 lg9 cb1 Ee3"));
    quiet_walk(&mut game, 0);
    assert_eq!(
        game.play(mv("a1b1")).unwrap(),
        None,
        "the lion takes the cat"
    );
    assert_eq!(game.quiet_plies(), 0);
    game.play(mv("g9g8")).unwrap();
    assert_eq!(game.quiet_plies(), 1);
}

#[test]
fn passes_count_towards_the_draw_and_hand_over_the_move() {
    let mut game = Game::new(Rules::default());
    assert_eq!(game.pass().unwrap(), None);
    assert_eq!(game.turn(), Color::Yellow);
    assert_eq!(game.quiet_plies(), 1);
    game.play(mv("g9g8")).unwrap();
    let record = game.record();
    let json = serde_json::to_string(&record).unwrap();
    assert!(json.contains("\"pass\""), "{json}");
    let back: hangar_jungle::GameRecord = serde_json::from_str(&json).unwrap();
    let replayed = Game::replay(&back).unwrap();
    assert_eq!(replayed.position(), game.position());
}

#[test]
fn resignation_and_agreement_end_the_game_and_survive_a_replay() {
    let mut game = Game::new(Rules::default());
    game.play(mv("a1a2")).unwrap();
    game.resign(Color::Yellow).unwrap();
    assert_eq!(game.outcome(), win(Color::Red, WinReason::Resignation));
    assert!(game.resign(Color::Red).is_err());
    let replayed = Game::replay(&game.record()).unwrap();
    assert_eq!(replayed.outcome(), game.outcome());
    let mut game = Game::new(Rules::default());
    game.end(Outcome::Draw {
        reason: DrawReason::Agreement,
    })
    .unwrap();
    assert!(matches!(game.play(mv("a1a2")), Err(GameError::Over(_))));
}

#[test]
fn a_bad_record_does_not_replay() {
    let mut record = Game::new(Rules::default()).record();
    record.plies.push(hangar_jungle::Ply::Move(mv("a1a3")));
    assert!(Game::replay(&record).is_err());
    let mut record = Game::new(Rules::default()).record();
    record.outcome = win(Color::Red, WinReason::Den);
    assert!(
        Game::replay(&record).is_err(),
        "an outcome the plies do not give"
    );
}
