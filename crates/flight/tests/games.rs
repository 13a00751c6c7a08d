//! Whole random games end (F-WIN) under every preset.
#![allow(clippy::unwrap_used)]

mod common;

use common::Rng;
use hangar_flight::{Colour, Game, Options, Phase};

fn play_random(options: Options, players: &[Colour], rng: &mut Rng) -> u64 {
    let mut game = Game::new(options, players, players[0]).unwrap();
    let mut turns = 0u64;
    while game.phase() != Phase::Over {
        let roll = rng.below(6) as u8 + 1;
        game.roll_and_pick(roll, |_, m| rng.below(m.len() as u64) as usize)
            .unwrap();
        turns += 1;
        assert!(turns < 100_000, "game does not end: {game:?}");
    }
    turns
}

/// F-WIN: 100,000 random 4-player traditional games all end.
#[test]
fn hundred_thousand_random_games_end() {
    let mut rng = Rng(1);
    let mut total = 0;
    for _ in 0..100_000 {
        total += play_random(Options::traditional(), &Colour::ALL, &mut rng);
    }
    assert!(total > 100_000);
}

/// The state stays a small `Copy` value (the fast path copies it freely).
#[test]
fn game_state_is_small() {
    assert!(
        std::mem::size_of::<Game>() <= 64,
        "{}",
        std::mem::size_of::<Game>()
    );
    assert!(std::mem::size_of::<hangar_flight::Moves>() <= 48);
}
