//! The tally of a flight simulation: wins per seat and per bot with Wilson 95% intervals, mean
//! turns, speed; printed as text or JSON.

use serde::Serialize;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval (Wilson 1927) for `wins` successes in `games` trials, at 95%.
///
/// Chosen over the normal approximation because it stays inside [0, 1] and keeps its coverage
/// for rates near 0 or 1 and for small samples. `games == 0` gives the uninformative [0, 1].
pub fn wilson_95(wins: u64, games: u64) -> (f64, f64) {
    if games == 0 {
        return (0.0, 1.0);
    }
    let n = games as f64;
    let p = wins as f64 / n;
    let z2 = Z95 * Z95;
    let centre = p + z2 / (2.0 * n);
    let spread = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let denominator = 1.0 + z2 / n;
    (
        ((centre - spread) / denominator).max(0.0),
        ((centre + spread) / denominator).min(1.0),
    )
}

/// What one game contributed to the tally.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOutcome {
    /// For each player (in `--bots` order), whether it won (rank 1).
    pub won: Vec<bool>,
    /// Rolls made in the game (a turn is one roll).
    pub turns: u64,
}

/// Win count of one seat or one bot, with its interval.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct WinLine {
    /// The seat number (1-based, `--bots` order) or the bot's name.
    pub label: String,
    /// The bot playing there.
    pub bot: String,
    /// Games counted for this line (a bot in two seats counts twice per game).
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// wins / games.
    pub win_rate: f64,
    /// Lower end of the 95% Wilson interval.
    pub ci_low: f64,
    /// Upper end of the 95% Wilson interval.
    pub ci_high: f64,
}

impl WinLine {
    fn new(label: String, bot: String, wins: u64, games: u64) -> Self {
        let (ci_low, ci_high) = wilson_95(wins, games);
        WinLine {
            label,
            bot,
            games,
            wins,
            win_rate: if games == 0 {
                0.0
            } else {
                wins as f64 / games as f64
            },
            ci_low,
            ci_high,
        }
    }
}

/// The whole report of `hangar sim --game flight`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SimReport {
    /// Always "flight".
    pub game: String,
    /// Players per game.
    pub players: usize,
    /// Games played.
    pub games: u64,
    /// The master seed.
    pub seed: u64,
    /// The rule options, as `key=value` text.
    pub rules: String,
    /// Worker threads used.
    pub threads: usize,
    /// One line per seat, in `--bots` order.
    pub seats: Vec<WinLine>,
    /// One line per distinct bot, its seats pooled.
    pub bots: Vec<WinLine>,
    /// Mean rolls per game.
    pub mean_turns: f64,
    /// Total rolls.
    pub turns: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Games per second.
    pub games_per_second: f64,
    /// Rolls per second.
    pub turns_per_second: f64,
}

/// Everything the report needs besides the outcomes.
pub struct ReportContext<'a> {
    /// The bot spec of each seat, as typed.
    pub bot_names: &'a [String],
    /// The master seed.
    pub seed: u64,
    /// The rule options as text.
    pub rules: String,
    /// Worker threads used.
    pub threads: usize,
    /// Wall-clock seconds spent.
    pub seconds: f64,
}

/// Adds up the outcomes (in any order: the sums do not depend on it).
pub fn summarise(outcomes: &[GameOutcome], context: &ReportContext<'_>) -> SimReport {
    let players = context.bot_names.len();
    let games = outcomes.len() as u64;
    let mut seat_wins = vec![0u64; players];
    let mut turns = 0u64;
    for outcome in outcomes {
        turns += outcome.turns;
        for (seat, &won) in outcome.won.iter().enumerate() {
            seat_wins[seat] += u64::from(won);
        }
    }
    let seats = (0..players)
        .map(|seat| {
            WinLine::new(
                (seat + 1).to_string(),
                context.bot_names[seat].clone(),
                seat_wins[seat],
                games,
            )
        })
        .collect();
    let mut distinct: Vec<&String> = Vec::new();
    for name in context.bot_names {
        if !distinct.contains(&name) {
            distinct.push(name);
        }
    }
    let bots = distinct
        .into_iter()
        .map(|name| {
            let (wins, seat_games) = (0..players)
                .filter(|&seat| &context.bot_names[seat] == name)
                .fold((0, 0), |(w, g), seat| (w + seat_wins[seat], g + games));
            WinLine::new(name.clone(), name.clone(), wins, seat_games)
        })
        .collect();
    let seconds = context.seconds.max(1e-9);
    SimReport {
        game: "flight".to_owned(),
        players,
        games,
        seed: context.seed,
        rules: context.rules.clone(),
        threads: context.threads,
        seats,
        bots,
        mean_turns: if games == 0 {
            0.0
        } else {
            turns as f64 / games as f64
        },
        turns,
        seconds: context.seconds,
        games_per_second: games as f64 / seconds,
        turns_per_second: turns as f64 / seconds,
    }
}

fn percent(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

fn write_lines(out: &mut String, title: &str, lines: &[WinLine]) {
    out.push_str(&format!(
        "{title:<10} {:<24} {:>8} {:>8} {:>9}   95% CI\n",
        "bot", "games", "wins", "win rate"
    ));
    for line in lines {
        out.push_str(&format!(
            "{:<10} {:<24} {:>8} {:>8} {:>9}   [{}, {}]\n",
            line.label,
            line.bot,
            line.games,
            line.wins,
            percent(line.win_rate),
            percent(line.ci_low),
            percent(line.ci_high)
        ));
    }
}

/// The report as a human-readable table.
pub fn render_text(report: &SimReport) -> String {
    let mut out = format!(
        "flight: {} games, {} players, seed {}, rules {}, {} threads\n\n",
        report.games, report.players, report.seed, report.rules, report.threads
    );
    write_lines(&mut out, "seat", &report.seats);
    out.push('\n');
    let by_bot: Vec<WinLine> = report
        .bots
        .iter()
        .map(|line| WinLine {
            label: String::new(),
            ..line.clone()
        })
        .collect();
    write_lines(&mut out, "per bot", &by_bot);
    out.push_str(&format!(
        "\nmean turns per game: {:.1}\ntime: {:.3} s, {:.1} games/s, {:.0} turns/s ({} turns)\n",
        report.mean_turns,
        report.seconds,
        report.games_per_second,
        report.turns_per_second,
        report.turns
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_textbook_value() {
        // 50 of 100: the Wilson interval is 0.4038..0.5962 (Brown, Cai & DasGupta 2001).
        let (low, high) = wilson_95(50, 100);
        assert!((low - 0.4038).abs() < 1e-3, "{low}");
        assert!((high - 0.5962).abs() < 1e-3, "{high}");
    }

    #[test]
    fn wilson_stays_inside_zero_one() {
        let (low, high) = wilson_95(0, 10);
        assert!(low.abs() < 1e-12, "{low}");
        assert!(high > 0.2 && high < 0.35, "{high}");
        let (low, high) = wilson_95(10, 10);
        assert!((high - 1.0).abs() < 1e-12, "{high}");
        assert!(low > 0.65, "{low}");
        assert_eq!(wilson_95(0, 0), (0.0, 1.0));
    }

    #[test]
    fn summary_pools_seats_of_one_bot() {
        let names: Vec<String> = ["a", "b", "a"].iter().map(|s| s.to_string()).collect();
        let outcomes = vec![
            GameOutcome {
                won: vec![true, false, false],
                turns: 10,
            },
            GameOutcome {
                won: vec![false, true, false],
                turns: 20,
            },
            GameOutcome {
                won: vec![false, false, true],
                turns: 30,
            },
        ];
        let report = summarise(
            &outcomes,
            &ReportContext {
                bot_names: &names,
                seed: 1,
                rules: "traditional".into(),
                threads: 1,
                seconds: 1.0,
            },
        );
        assert_eq!(report.seats[0].wins, 1);
        assert_eq!(report.bots.len(), 2);
        assert_eq!(report.bots[0].bot, "a");
        assert_eq!((report.bots[0].wins, report.bots[0].games), (2, 6));
        assert_eq!(report.mean_turns, 20.0);
        assert_eq!(report.turns, 60);
        let text = render_text(&report);
        assert!(text.contains("mean turns per game: 20.0"), "{text}");
    }
}
