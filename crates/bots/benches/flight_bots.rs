//! Time per decision of the flight bots on mid-game positions (4 players, traditional).
//! `cargo bench -p hangar-bots --bench flight_bots`

#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use hangar_bots::flight::{FlightBot, HeuristicBot, RandomBot, SearchBot, parse_bot};
use hangar_dice::{Dice, Seed};
use hangar_flight::{Game, NoEvents, Options, Seating};

/// Positions awaiting a choice between at least two moves, reached by random play.
fn positions(count: usize) -> Vec<Game> {
    let mut found = Vec::new();
    let mut seed = 0;
    while found.len() < count {
        seed += 1;
        let mut dice = Dice::new(Seed::from_u64(seed));
        let seating = Seating::draw(4, false, |n| dice.roll_below(n)).expect("4 players");
        let mut game =
            Game::new(Options::traditional(), &seating.seated(), seating.first).expect("new game");
        for step in 0.. {
            if game.is_over() {
                break;
            }
            let moves = game
                .roll(dice.roll(), &mut NoEvents)
                .expect("a roll is awaited");
            if moves.is_empty() {
                continue;
            }
            if step > 80 && moves.len() >= 2 {
                found.push(game);
                break;
            }
            let index = dice.roll_below(moves.len() as u32) as usize;
            game.play_unchecked(&moves[index], &mut NoEvents);
        }
    }
    found
}

fn bench_bot(c: &mut Criterion, name: &str, bot: &dyn FlightBot, games: &[Game]) {
    let mut rng = Dice::new(Seed::from_u64(1));
    let mut i = 0;
    c.bench_function(name, |b| {
        b.iter(|| {
            let game = &games[i % games.len()];
            i += 1;
            bot.choose(game, &mut rng)
        })
    });
}

fn decisions(c: &mut Criterion) {
    let games = positions(64);
    bench_bot(c, "flight random decision", &RandomBot, &games);
    bench_bot(
        c,
        "flight heuristic decision",
        &HeuristicBot::default(),
        &games,
    );
    bench_bot(
        c,
        "flight search depth 2 decision",
        &SearchBot::with_depth(2),
        &games,
    );
    let rollout = parse_bot("rollout:n=64,horizon=4,temp=80").expect("a valid spec");
    bench_bot(
        c,
        "flight rollout n=64 horizon 4 decision",
        rollout.as_ref(),
        &games,
    );
    let learned = parse_bot("search:depth=2,leaf=learned").expect("a valid spec");
    bench_bot(
        c,
        "flight search depth 2 learned-leaf decision",
        learned.as_ref(),
        &games,
    );
}

criterion_group!(benches, decisions);
criterion_main!(benches);
