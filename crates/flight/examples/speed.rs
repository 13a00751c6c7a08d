//! Plays random 4-player traditional games and prints turns per second (one core).
//! `cargo run --release -p hangar-flight --example speed -- 200000`
use std::time::Instant;

use hangar_flight::{Colour, Game, Options, Phase};

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ((state >> 32) * n) >> 32
    };
    let cpu_start = cpu_seconds();
    let start = Instant::now();
    let mut turns = 0u64;
    for _ in 0..games {
        let mut game =
            Game::new(Options::traditional(), &Colour::ALL, Colour::Red).expect("valid start");
        while game.phase() != Phase::Over {
            let roll = next(6) as u8 + 1;
            game.roll_and_pick(roll, |_, moves| next(moves.len() as u64) as usize)
                .expect("a roll is awaited");
            turns += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {turns} turns in {secs:.3} s: {:.2} M turns/s, {:.0} turns/game",
        turns as f64 / secs / 1e6,
        turns as f64 / games as f64
    );
    // On a shared machine the wall clock counts time spent waiting for the CPU; the time
    // this thread actually ran (Linux schedstat) gives the single-core speed.
    if let Some(cpu) = cpu_seconds().map(|s| s - cpu_start.unwrap_or(0.0)) {
        println!(
            "CPU time {cpu:.3} s: {:.2} M turns per CPU-second",
            turns as f64 / cpu / 1e6
        );
    }
}

/// Seconds this process has run on a CPU, from `/proc/self/schedstat` (Linux).
fn cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    let nanos: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(nanos / 1e9)
}
