//! `hangar review RECORD.json [--nodes N] [--json]`: a finished game's review (P-REVIEW), and
//! `hangar review --calibrate jungle|flight`: the measurements behind its numbers
//! (docs/review.md).

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use hangar_bots::jungle::JungleBot;
use hangar_dice::Seed;
use hangar_games::record::GameRecord;
use hangar_games::review::calibrate::{calibrate_flight, calibrate_jungle};
use hangar_games::review::{DEFAULT_NODES, ReviewSettings, review_record};

/// Which measurement `--calibrate` runs.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Calibration {
    /// Fit the Jungle score → win chance curve on self-play games.
    Jungle,
    /// Measure the flight value net's win chance against rollouts.
    Flight,
}

/// Arguments of `hangar review`.
#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// Path of a finished game's record (JSON, as served by GET /api/games/{id}); `-` reads
    /// stdin.
    #[arg(required_unless_present = "calibrate")]
    pub record: Option<PathBuf>,
    /// Jungle: the search's node budget per position (the same review on any machine).
    #[arg(long, default_value_t = DEFAULT_NODES)]
    pub nodes: u64,
    /// Print the review as JSON (docs/review.md) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Instead of a review, run a calibration (docs/review.md) and print what it measured.
    #[arg(long, value_enum, conflicts_with = "record")]
    pub calibrate: Option<Calibration>,
    /// Calibration: games to play.
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Calibration: the master seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Jungle calibration: the self-play bot (a level or an `ab:` spec); default the hall's
    /// `hard` level.
    #[arg(long, default_value = "hard")]
    pub bot: String,
    /// Jungle calibration: random plies opening each self-play game.
    #[arg(long, default_value_t = 6)]
    pub opening: usize,
    /// Flight calibration: players per game.
    #[arg(long, default_value_t = 2)]
    pub players: usize,
    /// Flight calibration: rollouts per position.
    #[arg(long, default_value_t = 200)]
    pub rollouts: usize,
    /// Flight calibration: measure every N-th roll of each game.
    #[arg(long, default_value_t = 10)]
    pub every: usize,
    /// Flight calibration: rules preset (`traditional`, `improved`).
    #[arg(long = "rules")]
    pub preset: Option<String>,
}

/// Runs `hangar review`.
pub fn run(args: &ReviewArgs) -> anyhow::Result<()> {
    if let Some(which) = args.calibrate {
        return calibrate(args, which);
    }
    let Some(path) = &args.record else {
        anyhow::bail!("give a record file");
    };
    let text = if path.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())?
    } else {
        std::fs::read_to_string(path)?
    };
    let record: GameRecord = serde_json::from_str(&text)?;
    let review = review_record(&record, &ReviewSettings { nodes: args.nodes })?;
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&review)?)?;
    } else {
        write!(out, "{}", review.to_text())?;
    }
    Ok(())
}

fn calibrate(args: &ReviewArgs, which: Calibration) -> anyhow::Result<()> {
    let seed = Seed::from_u64(args.seed);
    let report = match which {
        Calibration::Jungle => {
            let bot: JungleBot = args.bot.parse()?;
            let result = calibrate_jungle(
                args.games,
                seed,
                bot,
                args.nodes,
                args.opening,
                |game, positions| eprintln!("game {game}: {positions} positions"),
            );
            serde_json::to_value(result)?
        }
        Calibration::Flight => {
            let options = crate::flight_cli::parse_options(args.preset.as_deref(), &[])?;
            let result = calibrate_flight(
                options,
                args.players,
                args.games,
                args.rollouts,
                args.every,
                seed,
                |game, positions| eprintln!("game {game}: {positions} positions"),
            )
            .ok_or_else(|| anyhow::anyhow!("no value net for these options and players"))?;
            serde_json::to_value(result)?
        }
    };
    println!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}
