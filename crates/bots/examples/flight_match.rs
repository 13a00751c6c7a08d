//! A quick tournament between flight bots without building the whole `hangar` binary, for
//! trying bot settings: prints the first bot's win rate with its 95% Wilson interval.
//!
//! ```sh
//! cargo run --release -p hangar-bots --example flight_match -- \
//!     GAMES SEED THREADS PRESET BOT [BOT...]
//! cargo run --release -p hangar-bots --example flight_match -- \
//!     400 1 2 traditional rollout:n=32,horizon=40 heuristic heuristic heuristic
//! ```
//! `PRESET` is `traditional` or `improved`, then any options as `+key=value` (`+planes=3`,
//! `+stacks=pass`; a flag alone is `true`: `+teams` for 2-vs-2 team games, the first and third
//! bot against the second and fourth). `hangar sim` gives the full table; the published
//! numbers come from it. Also prints how long the first bot's decisions took (wall clock
//! inside `pick`, at least two moves to choose from; under load this is more than the CPU it
//! got).

#![allow(clippy::unwrap_used, clippy::expect_used)] // An example: fail loudly.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use hangar_bots::flight::{FlightBot, parse_bot, play_game};
use hangar_dice::{Dice, Seed};
use hangar_flight::{Game, Moves, Preset};

/// A bot whose decisions are timed.
struct Timed {
    bot: Box<dyn FlightBot>,
    nanos: AtomicU64,
    decisions: AtomicU64,
    slowest: AtomicU64,
}

impl FlightBot for Timed {
    fn name(&self) -> String {
        self.bot.name()
    }

    fn pick(&self, game: &Game, moves: &Moves, rng: &mut Dice) -> usize {
        let start = Instant::now();
        let index = self.bot.pick(game, moves, rng);
        if moves.len() >= 2 {
            let nanos = start.elapsed().as_nanos() as u64;
            self.nanos.fetch_add(nanos, Ordering::Relaxed);
            self.decisions.fetch_add(1, Ordering::Relaxed);
            self.slowest.fetch_max(nanos, Ordering::Relaxed);
        }
        index
    }
}

fn wilson(wins: u64, games: u64) -> (f64, f64) {
    let n = games as f64;
    let p = wins as f64 / n;
    let z = 1.96f64;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (centre - half, centre + half)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    assert!(
        args.len() >= 6,
        "usage: GAMES SEED THREADS PRESET BOT BOT [BOT BOT]"
    );
    let games: u64 = args[0].parse().unwrap();
    let seed: u64 = args[1].parse().unwrap();
    let threads: u64 = args[2].parse().unwrap();
    let mut parts = args[3].split('+');
    let mut options = parts.next().unwrap().parse::<Preset>().unwrap().options();
    for option in parts {
        let (key, value) = option.split_once('=').unwrap_or((option, "true"));
        options.set(key, value).unwrap();
    }
    let specs = &args[4..];
    let mut bots: Vec<Box<dyn FlightBot>> = specs.iter().map(|s| parse_bot(s).unwrap()).collect();
    let timed = Timed {
        bot: bots.remove(0),
        nanos: AtomicU64::new(0),
        decisions: AtomicU64::new(0),
        slowest: AtomicU64::new(0),
    };
    let next = AtomicU64::new(0);
    let wins = AtomicU64::new(0);
    let ranks = AtomicU64::new(0);
    let played = AtomicU64::new(0);
    let master = Seed::from_u64(seed);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut refs: Vec<&dyn FlightBot> = vec![&timed];
                refs.extend(bots.iter().map(|b| b.as_ref()));
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= games {
                        break;
                    }
                    let result = play_game(options, &refs, master.derive(g)).unwrap();
                    played.fetch_add(1, Ordering::Relaxed);
                    ranks.fetch_add(u64::from(result.ranks[0]), Ordering::Relaxed);
                    if result.ranks[0] == 1 {
                        wins.fetch_add(1, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let (w, n) = (wins.load(Ordering::Relaxed), played.load(Ordering::Relaxed));
    let (lo, hi) = wilson(w, n);
    println!(
        "{}: {w}/{n} = {:.2}% [{:.2}, {:.2}], mean rank {:.3}, in {:.1}s",
        specs.join(" "),
        100.0 * w as f64 / n as f64,
        100.0 * lo,
        100.0 * hi,
        ranks.load(Ordering::Relaxed) as f64 / n as f64,
        start.elapsed().as_secs_f64()
    );
    let decisions = timed.decisions.load(Ordering::Relaxed).max(1);
    println!(
        "  first bot: {decisions} decisions with a choice, mean {:.3} ms, slowest {:.1} ms (wall clock)",
        timed.nanos.load(Ordering::Relaxed) as f64 / decisions as f64 / 1e6,
        timed.slowest.load(Ordering::Relaxed) as f64 / 1e6
    );
}
