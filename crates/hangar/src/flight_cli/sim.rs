//! `hangar sim --game flight`: many bot games on worker threads, with win rates per seat and
//! per bot (Wilson 95% intervals), mean turns and speed.
//!
//! Game `i` is played from `Seed::from_u64(seed).derive(i)`, which draws the colours, the
//! first player and the dice, so the report depends on the seed only, not on the threads.
//! Colours and the first player are drawn at random each game (F-D-SEATS, F-ORDER), so no
//! colour or turn position favours a seat: seats are rotated by the draw itself.

use std::io::IsTerminal;
use std::time::Instant;

use hangar_bots::flight::{Clock, FlightBot, parse_bot_clocked, play_game, split_bot_list};
use hangar_dice::Seed;
use indicatif::{ProgressBar, ProgressStyle};

use super::pool::run_indexed;
use super::tally::{GameOutcome, ReportContext, render_text, summarise};
use crate::args::sim::SimArgs;

/// The options as `key=value` text for the report.
fn describe(preset: Option<&str>, settings: &[String]) -> String {
    let mut text = preset.unwrap_or("traditional").to_owned();
    for setting in settings {
        text.push(' ');
        text.push_str(setting);
    }
    text
}

/// The bots of each seat: one spec per seat, or one spec for every seat; `clock` measures
/// their time budgets unless a spec names its own.
pub fn seat_bots(
    list: &str,
    players: usize,
    clock: Clock,
) -> anyhow::Result<Vec<Box<dyn FlightBot>>> {
    let mut specs = split_bot_list(list);
    if specs.len() == 1 {
        specs = vec![specs[0].clone(); players];
    }
    if specs.len() != players {
        anyhow::bail!(
            "{} bots given for {players} players: give one per seat or one for all",
            specs.len()
        );
    }
    specs
        .iter()
        .map(|spec| parse_bot_clocked(spec, clock).map_err(anyhow::Error::from))
        .collect()
}

fn progress_bar(games: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(games);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
            .expect("the template is valid"),
    );
    bar
}

/// Runs `hangar sim --game flight`.
pub fn sim(args: &SimArgs) -> anyhow::Result<()> {
    if !(2..=4).contains(&args.players) {
        anyhow::bail!("flight is for 2 to 4 players, not {}", args.players);
    }
    let options = args.settings.flight_options()?;
    let bots = seat_bots(&args.bots, args.players, args.clock)?;
    let bot_refs: Vec<&dyn FlightBot> = bots.iter().map(|b| b.as_ref()).collect();
    // Refuse impossible settings (e.g. teams with 3 players) before starting threads.
    play_game(options, &bot_refs, Seed::from_u64(args.settings.seed))
        .map_err(anyhow::Error::from)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let master = Seed::from_u64(args.settings.seed);
    let bar = progress_bar(args.games);
    let start = Instant::now();
    let outcomes = run_indexed(
        args.games,
        threads,
        |index| {
            let result = play_game(options, &bot_refs, master.derive(index))
                .expect("the settings were checked on a first game");
            GameOutcome {
                won: result.ranks.iter().map(|&rank| rank == 1).collect(),
                turns: result.rolls,
            }
        },
        || bar.inc(1),
    );
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let display_names: Vec<String> = bots.iter().map(|b| b.name()).collect();
    let report = summarise(
        &outcomes,
        &ReportContext {
            bot_names: &display_names,
            seed: args.settings.seed,
            rules: describe(args.settings.preset.as_deref(), &args.settings.options),
            threads,
            seconds,
        },
    );
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", render_text(&report));
    }
    Ok(())
}
