//! `hangar sim --game jungle`: bot-versus-bot series with Wilson confidence intervals.
//!
//! Game `i` opens with a few random plies drawn from the seed of pair `i / 2`, so games
//! `2k` and `2k + 1` share an opening with the colours swapped; the first bot plays red in
//! even games. Every draw comes from seeds derived from `--seed`, so a series with depth- or
//! node-limited bots is the same on every run whatever the thread count (time limits are not
//! reproducible by nature).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Context, bail};
use hangar_bots::jungle::{JungleBot, JunglePlayer};
use hangar_dice::{Dice, Seed};
use hangar_jungle::{Color, Game, Outcome, Rules};
use serde::Serialize;

use crate::args::sim::SimArgs;

/// Random plies at the start of each game (one pair of moves per side), so that
/// deterministic bots do not replay one game over and over.
pub(crate) const OPENING_PLIES: usize = 4;

/// The result of one game from the first bot's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Score {
    Win,
    Draw,
    Loss,
}

struct GameResult {
    score: Score,
    plies: usize,
}

/// A proportion with its 95% Wilson score interval.
#[derive(Serialize, Debug, Clone, Copy)]
struct Rate {
    count: u64,
    rate: f64,
    low: f64,
    high: f64,
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
fn wilson(k: u64, n: u64) -> Rate {
    if n == 0 {
        return Rate {
            count: 0,
            rate: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let z = 1.959_963_984_540_054_f64;
    let n_f = n as f64;
    let p = k as f64 / n_f;
    let denominator = 1.0 + z * z / n_f;
    let centre = (p + z * z / (2.0 * n_f)) / denominator;
    let half = z * (p * (1.0 - p) / n_f + z * z / (4.0 * n_f * n_f)).sqrt() / denominator;
    Rate {
        count: k,
        rate: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

#[derive(Serialize)]
struct Report {
    game: &'static str,
    bots: [String; 2],
    games: u64,
    seed: u64,
    rules: Rules,
    opening_plies: usize,
    /// Results of the first bot.
    wins: Rate,
    draws: Rate,
    losses: Rate,
    /// Wins of the first bot with red and with yellow.
    wins_as_red: u64,
    wins_as_yellow: u64,
    average_plies: f64,
    seconds: f64,
    games_per_second: f64,
}

/// Plays the random opening drawn from `seed` (the same for both games of a pair).
pub(crate) fn opening(rules: Rules, seed: Seed) -> Game {
    let mut game = Game::new(rules);
    let mut dice = Dice::new(seed);
    for _ in 0..OPENING_PLIES {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[dice.roll_below(moves.len() as u32) as usize];
        game.play(m).expect("a legal, allowed move");
    }
    game
}

fn play_one(index: u64, master: Seed, rules: Rules, players: &mut [JunglePlayer; 2]) -> GameResult {
    let mut game = opening(rules, master.derive(index / 2));
    let mut dice = Dice::new(master.derive(u64::MAX - index));
    // The first bot is red in even games.
    let first_color = if index.is_multiple_of(2) {
        Color::Red
    } else {
        Color::Yellow
    };
    for p in players.iter_mut() {
        p.new_game();
    }
    while game.outcome().is_none() {
        let seat = usize::from(game.turn() != first_color);
        let m = players[seat]
            .choose(&game, &mut dice)
            .expect("a move while the game runs");
        game.play(m).expect("bots play allowed moves");
    }
    let score = match game.outcome().and_then(Outcome::winner) {
        None => Score::Draw,
        Some(c) if c == first_color => Score::Win,
        Some(_) => Score::Loss,
    };
    GameResult {
        score,
        plies: game.plies().len(),
    }
}

/// Runs `hangar sim --game jungle`.
pub fn run(args: &SimArgs) -> anyhow::Result<()> {
    let rules = args.settings.jungle_rules()?;
    let specs: Vec<&str> = args.bots.split(',').map(str::trim).collect();
    let [first, second] = specs[..] else {
        bail!(
            "jungle is played by exactly two bots: --bots A,B (got {:?})",
            args.bots
        );
    };
    let bots: [JungleBot; 2] = [
        first
            .parse()
            .with_context(|| format!("bad bot {first:?}"))?,
        second
            .parse()
            .with_context(|| format!("bad bot {second:?}"))?,
    ];
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let master = Seed::from_u64(args.settings.seed);
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 64) as u64;
    let next = AtomicU64::new(0);
    let results: Mutex<Vec<Option<GameResult>>> =
        Mutex::new((0..args.games).map(|_| None).collect());
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(args.games) {
            scope.spawn(|| {
                let mut players = bots.map(JunglePlayer::new);
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= args.games {
                        break;
                    }
                    let result = play_one(index, master, rules, &mut players);
                    results.lock().expect("no worker panicked")[index as usize] = Some(result);
                }
            });
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    let results: Vec<GameResult> = results
        .into_inner()
        .expect("no worker panicked")
        .into_iter()
        .map(|r| r.expect("every game was played"))
        .collect();
    let n = results.len() as u64;
    let count = |s: Score| results.iter().filter(|r| r.score == s).count() as u64;
    let wins_as = |parity: u64| {
        results
            .iter()
            .enumerate()
            .filter(|(i, r)| *i as u64 % 2 == parity && r.score == Score::Win)
            .count() as u64
    };
    let report = Report {
        game: "jungle",
        bots: bots.map(|b| b.to_string()),
        games: n,
        seed: args.settings.seed,
        rules,
        opening_plies: OPENING_PLIES,
        wins: wilson(count(Score::Win), n),
        draws: wilson(count(Score::Draw), n),
        losses: wilson(count(Score::Loss), n),
        wins_as_red: wins_as(0),
        wins_as_yellow: wins_as(1),
        average_plies: results.iter().map(|r| r.plies as f64).sum::<f64>() / n as f64,
        seconds,
        games_per_second: n as f64 / seconds.max(1e-9),
    };
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_text(&report);
    }
    Ok(())
}

fn print_text(r: &Report) {
    let pct = |x: f64| x * 100.0;
    println!(
        "jungle: {} vs {}, {} games, seed {}, rules {}, {} random opening plies, colours alternate",
        r.bots[0], r.bots[1], r.games, r.seed, r.rules, r.opening_plies
    );
    for (name, rate) in [("wins", r.wins), ("draws", r.draws), ("losses", r.losses)] {
        println!(
            "  {} {name}: {} ({:.1}%, 95% CI {:.1}%–{:.1}%)",
            r.bots[0],
            rate.count,
            pct(rate.rate),
            pct(rate.low),
            pct(rate.high)
        );
    }
    println!(
        "  {} wins as red: {}, as yellow: {}",
        r.bots[0], r.wins_as_red, r.wins_as_yellow
    );
    println!(
        "  average {:.1} plies per game; {:.2} s, {:.2} games/s",
        r.average_plies, r.seconds, r.games_per_second
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_matches_known_values() {
        // 95% Wilson interval of 8/10 is about [0.490, 0.943].
        let r = wilson(8, 10);
        assert!((r.low - 0.4902).abs() < 1e-3, "{r:?}");
        assert!((r.high - 0.9433).abs() < 1e-3, "{r:?}");
        let all = wilson(100, 100);
        assert!(all.high <= 1.0 && all.low > 0.96);
    }

    #[test]
    fn openings_are_deterministic_per_seed() {
        let a = opening(Rules::default(), Seed::from_u64(3));
        let b = opening(Rules::default(), Seed::from_u64(3));
        assert_eq!(a.plies(), b.plies());
        assert_eq!(a.plies().len(), OPENING_PLIES);
    }
}
