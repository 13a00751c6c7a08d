//! Random players, 4-player traditional games, one core: turns (rolls) per second.
//! `cargo bench -p hangar-flight --bench random_games`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hangar_flight::{Colour, Game, Options, Phase};
use std::hint::black_box;

/// A tiny xorshift generator: the engine takes rolls as inputs, the bench supplies them.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        // Multiply-shift: unbiased enough for a benchmark.
        ((self.next() >> 32) * n) >> 32
    }
}

/// Plays one random game; returns its number of turns (rolls).
fn random_game(options: Options, rng: &mut Rng) -> u64 {
    let mut game = Game::new(options, &Colour::ALL, Colour::Red).expect("valid start");
    let mut turns = 0;
    while game.phase() != Phase::Over {
        let roll = rng.below(6) as u8 + 1;
        game.roll_and_pick(roll, |_, moves| rng.below(moves.len() as u64) as usize)
            .expect("a roll is awaited");
        turns += 1;
    }
    turns
}

fn bench(c: &mut Criterion) {
    let options = Options::traditional();
    // Turns per game vary; measure a fixed batch of games and report turns/s from a count.
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let batch = 100;
    let turns: u64 = (0..batch).map(|_| random_game(options, &mut rng)).sum();
    let mut group = c.benchmark_group("flight");
    group.throughput(Throughput::Elements(turns));
    group.bench_function("random_4p_traditional_100_games", |b| {
        b.iter(|| {
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
            let mut total = 0;
            for _ in 0..batch {
                total += random_game(black_box(options), &mut rng);
            }
            total
        })
    });
    group.finish();
}

/// Runs the LUDOpy comparison (`benches/ludopy_random.py`) in the same run, when Python
/// and `ludopy` are installed; prints its turns per second.
fn ludopy(_c: &mut Criterion) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/ludopy_random.py");
    match std::process::Command::new("python3")
        .args([script, "100"])
        .output()
    {
        Ok(out) if out.status.success() => {
            print!("{}", String::from_utf8_lossy(&out.stdout));
        }
        _ => println!("ludopy: not measured (needs python3 and `pip install ludopy`)"),
    }
}

criterion_group!(benches, bench, ludopy);
criterion_main!(benches);
