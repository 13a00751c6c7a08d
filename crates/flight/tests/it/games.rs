//! Whole random games end (F-WIN) under every preset.
#![allow(clippy::unwrap_used)]

use crate::common;

use common::Rng;
use hangar_flight::{Colour, Game, NoEvents, Options, Phase};

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

/// F-WIN with items and weather (§7–8): random games, using every item picked up at the
/// next chance, with draws from the generator, all end.
#[test]
fn random_games_with_items_and_weather_end() {
    let mut rng = Rng(7);
    let mut used = 0u32;
    for preset in [Options::traditional(), Options::improved()] {
        let options = Options {
            items: true,
            weather: true,
            ..preset
        };
        for _ in 0..2_000 {
            let mut game = Game::new(options, &Colour::ALL, Colour::Green).unwrap();
            let mut turns = 0u64;
            while game.phase() != Phase::Over {
                game.settle_draws(|n| rng.below(u64::from(n)) as u32, &mut NoEvents);
                if let Some(item) = game.item_bar(game.turn()).items().next()
                    && game.item_in_use().is_none()
                {
                    let moves = game.use_item(item, &mut NoEvents).unwrap();
                    used += 1;
                    if !moves.is_empty() {
                        let m = moves[rng.below(moves.len() as u64) as usize];
                        game.play_unchecked(&m, &mut NoEvents);
                    }
                    continue;
                }
                let roll = rng.below(6) as u8 + 1;
                game.roll_and_pick(roll, |_, m| rng.below(m.len() as u64) as usize)
                    .unwrap();
                turns += 1;
                assert!(turns < 100_000, "game does not end: {game:?}");
            }
        }
    }
    assert!(used > 1_000, "items are picked up and used: {used}");
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
