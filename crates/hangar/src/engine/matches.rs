//! `hangar match`: an engine against the built-in bots of a level, offline, N games, with a
//! result table (P-ENGINE).
//!
//! Game `i` is played from `Seed::from_u64(seed).derive(i)`. Flight: the table draws the
//! colours, the first player and every die from it (the hall's `Table`), and the engine
//! sits as player `i mod seats`, so it takes every place in the joining order in turn.
//! Jungle: the engine is red in even games and yellow in odd ones, and both games of a pair
//! start from the same few random plies (as `hangar sim` does), so a deterministic engine
//! and bot still play different games.

use std::time::Duration;

use anyhow::{Context, bail};
use hangar_bots::flight::{FlightBot, FlightLevel, parse_bot};
use hangar_bots::jungle::{JungleBot, JungleLevel, JunglePlayer};
use hangar_dice::{Dice, Seed};
use hangar_flight::{Colour, Game as FlightGame, NoEvents, Options, Phase, Table};
use hangar_games::engine_line::{
    Answer, FlightChoice, flight_choices, flight_question, jungle_choices, jungle_question,
};
use hangar_jungle::{Color, Rules};
use serde_json::json;

use super::MatchArgs;
use super::score::{estimate, show};
use super::supervisor::{Engine, EngineStats, MAX_CRASHES};

/// Extra time for the first question of each engine process: an interpreter's start-up
/// (Python's takes tens of milliseconds, much more on a loaded machine) is not thinking time.
/// Offline there is no hall clock to keep; `hangar bot` has no such grace.
const START_GRACE: Duration = Duration::from_secs(5);
use crate::sim::Game;

/// A flight game past this many actions is stopped (none comes near it: a guard).
const ACTION_CAP: u32 = 100_000;

/// How the engine did in one game.
#[derive(Clone, Copy, Debug)]
struct Played {
    /// Jungle: 1 win, ½ draw, 0 loss; flight: the place's share of the players beaten.
    score: f64,
    /// Flight: the engine's place (1 = first); jungle: 1 win, 2 loss, 0 draw.
    place: u8,
    /// Jungle: the engine played red; flight: unused.
    first_colour: bool,
}

/// Runs `hangar match`.
pub fn run(args: &MatchArgs, runtime: &tokio::runtime::Runtime) -> anyhow::Result<()> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let master = Seed::from_u64(args.settings.seed);
    let label = format!("hangar match: engine `{}`", args.engine);
    // The engine's tasks are spawned on the runtime, and its process dropped within it.
    let _entered = runtime.enter();
    let mut engine = Engine::new(&args.engine, &label, START_GRACE);
    let mut played = Vec::new();
    match args.game {
        Game::Flight => {
            if !(2..=4).contains(&args.seats) {
                bail!("--seats must be 2, 3 or 4 for flight");
            }
            let options = args.settings.flight_options()?;
            let against = parse_bot(&args.against).context("--against")?;
            for index in 0..args.games {
                let seed = master.derive(index);
                played.push(flight_game(
                    index,
                    args,
                    options,
                    against.as_ref(),
                    &mut engine,
                    runtime,
                    seed,
                )?);
                if engine.is_given_up() {
                    break;
                }
            }
        }
        Game::Jungle => {
            if args.seats != 2 {
                bail!("jungle is played by two: leave out --seats");
            }
            let rules = args.settings.jungle_rules()?;
            let against: JungleBot = args.against.parse().context("--against")?;
            for index in 0..args.games {
                played.push(jungle_game(
                    index,
                    args,
                    rules,
                    against,
                    &mut engine,
                    runtime,
                    master,
                )?);
                if engine.is_given_up() {
                    break;
                }
            }
        }
    }
    report(args, &played, engine.stats())?;
    if engine.is_given_up() {
        bail!(
            "the engine crashed {MAX_CRASHES} times in a row; the match stopped after {} of {} games",
            played.len(),
            args.games
        );
    }
    Ok(())
}

/// The choice of a built-in bot (the opponent, or auto-play for the engine).
fn bot_choice(game: &FlightGame, bot: &dyn FlightBot, rng: &mut Dice) -> FlightChoice {
    match game.phase() {
        Phase::Move { .. } => {
            let moves = game.legal_moves();
            let index = bot.pick(game, &moves, rng).min(moves.len() - 1);
            FlightChoice::Move(moves[index])
        }
        _ => FlightChoice::Roll,
    }
}

fn flight_game(
    index: u64,
    args: &MatchArgs,
    options: Options,
    against: &dyn FlightBot,
    engine: &mut Engine,
    runtime: &tokio::runtime::Runtime,
    seed: Seed,
) -> anyhow::Result<Played> {
    let timeout = Duration::from_millis(args.move_ms);
    let seats = args.seats;
    let mut table = Table::new(options, seats as u8, seed)?;
    let seat = (index % seats as u64) as usize;
    let engine_colour: Colour = table.seating().colours[seat];
    let mut rng = Dice::new(seed.derive(u64::MAX));
    let autoplay = FlightLevel::AUTOPLAY.bot();
    let mut actions = 0;
    while !table.game().is_over() {
        actions += 1;
        if actions > ACTION_CAP {
            bail!("game {index} ran past {ACTION_CAP} actions");
        }
        let game = *table.game();
        let choice = if game.turn() == engine_colour {
            let choices = flight_choices(&game);
            if choices.len() == 1 {
                // Nothing to choose: the engine is not asked.
                choices[0]
            } else {
                let question = flight_question(&game, seat, &choices, args.move_ms);
                match runtime.block_on(engine.ask(question, choices.len(), timeout)) {
                    Ok(Answer::Action(id)) => choices[id],
                    Ok(Answer::Resign) => {
                        engine.log(&format!("resigned game {index}"));
                        table.resign(engine_colour, &mut NoEvents)?;
                        continue;
                    }
                    Err(_) => bot_choice(&game, autoplay.as_ref(), &mut rng),
                }
            }
        } else {
            bot_choice(&game, against, &mut rng)
        };
        match choice {
            FlightChoice::Roll => table.roll(&mut NoEvents).map(drop)?,
            FlightChoice::UseItem(item) => table.use_item(item, &mut NoEvents).map(drop)?,
            FlightChoice::Move(m) => table.choose(m.plane, &mut NoEvents)?,
        }
    }
    let place = table.game().final_ranks()[engine_colour.index()].unwrap_or(seats as u8);
    Ok(Played {
        score: (seats as f64 - f64::from(place)) / (seats as f64 - 1.0),
        place,
        first_colour: false,
    })
}

fn jungle_game(
    index: u64,
    args: &MatchArgs,
    rules: Rules,
    against: JungleBot,
    engine: &mut Engine,
    runtime: &tokio::runtime::Runtime,
    master: Seed,
) -> anyhow::Result<Played> {
    let timeout = Duration::from_millis(args.move_ms);
    let mut game = crate::jungle_cli::opening(rules, master.derive(index / 2));
    let engine_colour = if index.is_multiple_of(2) {
        Color::Red
    } else {
        Color::Yellow
    };
    let seat = engine_colour.index();
    let mut bot = JunglePlayer::new(against);
    let mut autoplay = JunglePlayer::new(JungleBot::level(JungleLevel::AUTOPLAY));
    let mut dice = Dice::new(master.derive(u64::MAX - index));
    while game.outcome().is_none() {
        let chosen = if game.turn() == engine_colour {
            let moves = jungle_choices(&game);
            if moves.len() == 1 {
                Some(moves[0])
            } else {
                let question = jungle_question(&game, seat, &moves, args.move_ms);
                match runtime.block_on(engine.ask(question, moves.len(), timeout)) {
                    Ok(Answer::Action(id)) => Some(moves[id]),
                    Ok(Answer::Resign) => {
                        engine.log(&format!("resigned game {index}"));
                        game.resign(engine_colour)?;
                        break;
                    }
                    Err(_) => autoplay.choose(&game, &mut dice),
                }
            }
        } else {
            bot.choose(&game, &mut dice)
        };
        let m = chosen.context("a running game has an allowed move")?;
        game.play(m)?;
    }
    let winner = game.outcome().and_then(|o| o.winner());
    let (score, place) = match winner {
        None => (0.5, 0),
        Some(c) if c == engine_colour => (1.0, 1),
        Some(_) => (0.0, 2),
    };
    Ok(Played {
        score,
        place,
        first_colour: engine_colour == Color::Red,
    })
}

/// Prints the result table (or JSON with `--json`).
fn report(args: &MatchArgs, played: &[Played], stats: EngineStats) -> anyhow::Result<()> {
    let scores: Vec<f64> = played.iter().map(|p| p.score).collect();
    let elo = estimate(&scores);
    let count = |f: &dyn Fn(&Played) -> bool| played.iter().filter(|p| f(p)).count();
    let (head, rows) = match args.game {
        Game::Jungle => {
            let row = |name: &str, f: &dyn Fn(&Played) -> bool| {
                let of: Vec<&Played> = played.iter().filter(|p| f(p)).collect();
                let wins = of.iter().filter(|p| p.place == 1).count();
                let draws = of.iter().filter(|p| p.place == 0).count();
                let losses = of.iter().filter(|p| p.place == 2).count();
                let score = of.iter().map(|p| p.score).sum::<f64>() / of.len().max(1) as f64;
                (
                    format!(
                        "{name:<10} {:>6} {wins:>6} {draws:>6} {losses:>6} {score:>7.3}",
                        of.len()
                    ),
                    json!({"games": of.len(), "wins": wins, "draws": draws, "losses": losses}),
                )
            };
            (
                format!(
                    "{:<10} {:>6} {:>6} {:>6} {:>6} {:>7}",
                    "", "games", "wins", "draws", "losses", "score"
                ),
                vec![
                    row("as red", &|p| p.first_colour),
                    row("as yellow", &|p| !p.first_colour),
                    row("total", &|_| true),
                ],
            )
        }
        Game::Flight => {
            let places: Vec<usize> = (1..=args.seats as u8)
                .map(|place| count(&|p| p.place == place))
                .collect();
            let mut head = format!("{:<10} {:>6}", "", "games");
            let mut line = format!("{:<10} {:>6}", "total", played.len());
            for (i, n) in places.iter().enumerate() {
                head.push_str(&format!(" {:>6}", ordinal(i + 1)));
                line.push_str(&format!(" {n:>6}"));
            }
            head.push_str(&format!(" {:>7}", "score"));
            line.push_str(&format!(" {:>7.3}", elo.score));
            (
                head,
                vec![(line, json!({"games": played.len(), "places": places}))],
            )
        }
    };
    if args.json {
        let totals = &rows.last().expect("a total row").1;
        let out = json!({
            "game": match args.game { Game::Flight => "flight", Game::Jungle => "jungle" },
            "engine": args.engine,
            "against": args.against,
            "seats": args.seats,
            "seed": args.settings.seed,
            "result": totals,
            "score": elo.score,
            "elo": finite(elo.elo),
            "elo_low": finite(elo.low),
            "elo_high": finite(elo.high),
            "decisions": {
                "asked": stats.asked, "answered": stats.answered, "late": stats.late,
                "invalid": stats.invalid, "crashes": stats.crashes, "given_up": stats.given_up,
                "hangs": stats.hangs,
            },
        });
        println!("{out}");
        return Ok(());
    }
    let game = match args.game {
        Game::Flight => format!("flight, {} seats", args.seats),
        Game::Jungle => "jungle".to_owned(),
    };
    println!(
        "engine `{}` against `{}` ({game}), {} games, seed {}",
        args.engine,
        args.against,
        played.len(),
        args.settings.seed
    );
    println!("{head}");
    for (line, _) in &rows {
        println!("{line}");
    }
    println!(
        "Elo difference {} (95 % interval {} to {})",
        show(elo.elo),
        show(elo.low),
        show(elo.high)
    );
    println!(
        "engine decisions: {} asked, {} answered; auto-play chose {} ({} late, {} invalid, {} crashed, {} after giving up)",
        stats.asked,
        stats.answered,
        stats.auto_played(),
        stats.late,
        stats.invalid,
        stats.crashes,
        stats.given_up
    );
    Ok(())
}

/// JSON has no infinity: an unbounded end is `null`.
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

fn ordinal(n: usize) -> String {
    match n {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        _ => format!("{n}th"),
    }
}
