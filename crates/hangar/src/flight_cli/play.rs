//! `hangar play --game flight`: a game in the terminal against bots.
//!
//! You are player 1; the bots (`--bot`, default `normal`) take the other seats. Colours and the
//! first player are drawn from the seed (F-D-SEATS, F-ORDER). Your rolls are thrown for you;
//! when two or more planes can move, type the plane's number (1–4) and Enter. `q` quits.
//! The board is drawn in colour when standard output is a terminal; piped, it is plain text,
//! so the game can be scripted (`printf '1\n2\n' | hangar play`).

use std::io::{BufRead, IsTerminal, Write};

use anyhow::Context;
use hangar_bots::flight::{FlightBot, parse_bot};
use hangar_dice::{Dice, Seed};
use hangar_flight::board::locate;
use hangar_flight::{Colour, Event, Game, Item, Location, Progress, ReturnReason, Table, Weather};

use super::board::{COLOUR_NAMES, LETTERS, PlaneMark, Spot, SquareMark, render_with};
use crate::args::play::PlayArgs;
use crate::args::rules::parse_options;

/// The human's planes are numbered from 1 on screen; the engine counts from 0.
fn shown(plane: u8) -> u8 {
    plane + 1
}

fn name(colour: Colour) -> &'static str {
    COLOUR_NAMES[colour.index()]
}

fn place(progress: Progress) -> String {
    match progress.get() {
        _ if progress.is_hangar() => "hangar".to_owned(),
        0 => "launch pad".to_owned(),
        p @ 1..=50 => format!("track {p}"),
        p @ 51..=55 => format!("home column {}", p - 50),
        56 => "finish".to_owned(),
        p => format!("centre loop {}", p - 56),
    }
}

/// One line of text per event, or `None` for events that need no line.
fn describe(event: &Event) -> Option<String> {
    Some(match *event {
        Event::Rolled { colour, value } => format!("{} rolls {value}", name(colour)),
        Event::TookOff { colour, plane } => {
            format!("  {} plane {} takes off", name(colour), shown(plane))
        }
        Event::Walked {
            colour,
            plane,
            from,
            to,
        } => format!(
            "  {} plane {} walks {} -> {}",
            name(colour),
            shown(plane),
            place(from),
            place(to)
        ),
        Event::Bounced {
            colour, plane, to, ..
        } => format!(
            "  {} plane {} bounces back from the finish to {}",
            name(colour),
            shown(plane),
            place(to)
        ),
        Event::TurnedBack {
            colour, plane, to, ..
        } => format!(
            "  {} plane {} is turned back by a stack to {}",
            name(colour),
            shown(plane),
            place(to)
        ),
        Event::Jumped {
            colour, plane, to, ..
        } => {
            format!(
                "  {} plane {} jumps to {}",
                name(colour),
                shown(plane),
                place(to)
            )
        }
        Event::Flew {
            colour, plane, to, ..
        } => format!(
            "  {} plane {} flies the shortcut to {}",
            name(colour),
            shown(plane),
            place(to)
        ),
        Event::CrossingCapture { by, colour, plane } => format!(
            "  {} sends {} plane {} home on the crossing",
            name(by),
            name(colour),
            shown(plane)
        ),
        Event::CrossingBlocked { colour, plane } => format!(
            "  {} plane {} cannot fly: a stack blocks the crossing",
            name(colour),
            shown(plane)
        ),
        Event::Captured {
            by,
            colour,
            plane,
            from,
        } => format!(
            "  {} captures {} plane {} on {} — back to its hangar!",
            name(by),
            name(colour),
            shown(plane),
            place(from)
        ),
        Event::Returned {
            colour,
            plane,
            reason,
            ..
        } => format!(
            "  {} plane {} goes back to its hangar ({})",
            name(colour),
            shown(plane),
            match reason {
                ReturnReason::Collision => "it landed on a stack",
                ReturnReason::ThreeSixes => "three sixes",
            }
        ),
        Event::Stacked {
            colour, at, height, ..
        } => {
            format!("  {} stacks {height} planes on {}", name(colour), place(at))
        }
        Event::SatOnStack { colour, plane, .. } => format!(
            "  {} plane {} sits on an enemy stack and must move next roll",
            name(colour),
            shown(plane)
        ),
        Event::ForcedMove { colour, plane } => {
            format!("  {} must move plane {}", name(colour), shown(plane))
        }
        Event::Finished { colour, plane } => {
            format!(
                "  {} plane {} reaches the finish!",
                name(colour),
                shown(plane)
            )
        }
        Event::ThreeSixes { colour } => format!("  three sixes: {}'s turn ends", name(colour)),
        Event::RollSpent { colour, .. } => format!("  {} cannot move", name(colour)),
        Event::BonusRoll { colour } => format!("  {} rolls again", name(colour)),
        Event::PlayerDone { colour, rank } => match rank {
            Some(rank) => format!("{} has finished, rank {rank}", name(colour)),
            None => format!("{} has finished", name(colour)),
        },
        Event::Resigned { colour } => format!("{} resigns", name(colour)),
        Event::ItemAppeared { item, square } => {
            format!("  an item appears: {item} on track square {}", square.0)
        }
        Event::ItemPicked {
            colour,
            plane,
            item,
            kept,
            ..
        } => format!(
            "  {} plane {} picks up {item}{}",
            name(colour),
            shown(plane),
            if kept {
                ""
            } else {
                " — the bar is full, it is lost"
            }
        ),
        Event::ItemUsed { colour, item } => format!("{} uses {item}", name(colour)),
        Event::WeatherAppeared { weather, square } => {
            format!("  weather: {weather} on track square {}", square.0)
        }
        Event::WeatherCleared { weather, .. } => format!("  the {weather} clears"),
        Event::WeatherFelt {
            colour,
            plane,
            weather,
            ..
        } => format!(
            "  {} plane {} meets the {weather}",
            name(colour),
            shown(plane)
        ),
        Event::BlownBack {
            colour, plane, to, ..
        } => format!(
            "  {} plane {} is blown back to {}",
            name(colour),
            shown(plane),
            place(to)
        ),
        Event::GameOver { .. } => "game over".to_owned(),
        Event::Turn { .. } => return None,
    })
}

/// Where every plane is drawn.
fn marks(game: &Game) -> Vec<PlaneMark> {
    let mut marks = Vec::new();
    for colour in game.players() {
        for (i, &progress) in game.planes(colour).iter().enumerate() {
            let spot = if progress.is_finished() {
                Spot::Finished
            } else {
                match locate(colour, progress) {
                    Location::Hangar { .. } => Spot::Hangar,
                    Location::Pad { .. } => Spot::Pad,
                    Location::Track { square } => Spot::Track(usize::from(square)),
                    Location::Column { step, .. } => Spot::Home(usize::from(step)),
                    Location::Finish { colour } => Spot::Loop(colour.index()),
                }
            };
            marks.push(PlaneMark {
                colour: colour.index(),
                number: i + 1,
                spot,
            });
        }
    }
    marks
}

/// The marks of items and the weather cell on track squares (drawn where no plane stands).
fn square_marks(game: &Game) -> Vec<SquareMark> {
    let mut marks: Vec<SquareMark> = game
        .board_items()
        .map(|i| SquareMark {
            square: usize::from(i.square.0),
            text: item_mark(i.item),
        })
        .collect();
    if let Some(cell) = game.weather() {
        marks.push(SquareMark {
            square: usize::from(cell.square.0),
            text: weather_mark(cell.weather),
        });
    }
    marks
}

/// Three characters for an item on the board.
fn item_mark(item: Item) -> &'static str {
    match item {
        Item::SixDie => "i6 ",
        Item::Booster => "iB ",
    }
}

/// Three characters for a weather cell.
fn weather_mark(weather: Weather) -> &'static str {
    match weather {
        Weather::Storm => "wS ",
        Weather::Tailwind => "wT ",
        Weather::Headwind => "wH ",
    }
}

fn status(game: &Game) -> String {
    let mut text = game
        .players()
        .map(|c| {
            let bar: Vec<String> = game.item_bar(c).items().map(|i| i.to_string()).collect();
            format!(
                "{} ({}): {}/{} finished{}",
                name(c),
                LETTERS[c.index()],
                game.finished(c),
                game.plane_count(),
                if game.options().items {
                    format!(", items [{}]", bar.join(", "))
                } else {
                    String::new()
                }
            )
        })
        .collect::<Vec<_>>()
        .join("   ");
    if game.options().items || game.options().weather {
        let items: Vec<String> = game
            .board_items()
            .map(|i| {
                format!(
                    "{} {item} on square {}",
                    item_mark(i.item).trim(),
                    i.square.0,
                    item = i.item
                )
            })
            .collect();
        let weather = match game.weather() {
            Some(cell) => format!(
                "{} {} on square {}",
                weather_mark(cell.weather).trim(),
                cell.weather,
                cell.square.0
            ),
            None => "clear".to_owned(),
        };
        text.push_str(&format!(
            "\nitems on the board: {}   weather: {weather}",
            if items.is_empty() {
                "none".to_owned()
            } else {
                items.join(", ")
            }
        ));
    }
    text
}

/// Draws the board with planes, items and weather.
fn board(game: &Game, colour_output: bool) -> String {
    render_with(&marks(game), &square_marks(game), colour_output)
}

/// What the human typed when asked for a plane.
enum Answer {
    Plane(u8),
    Quit,
}

/// What the human typed when holding items before a roll.
enum BeforeRoll {
    Roll,
    Use(Item),
    Quit,
}

/// Asks whether to use an item before rolling (F-ITEM-USE); Enter rolls.
fn ask_item(
    game: &Game,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<BeforeRoll> {
    let held: Vec<Item> = game.item_bar(game.turn()).items().collect();
    loop {
        let names: Vec<String> = held.iter().map(|i| i.to_string()).collect();
        write!(
            out,
            "you hold {} — type an item to use it, Enter to roll (q quits): ",
            names.join(", ")
        )?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(BeforeRoll::Quit);
        }
        let text = line.trim();
        if text.is_empty() {
            return Ok(BeforeRoll::Roll);
        }
        if text.eq_ignore_ascii_case("q") {
            return Ok(BeforeRoll::Quit);
        }
        match text.parse::<Item>() {
            Ok(item) if held.contains(&item) => return Ok(BeforeRoll::Use(item)),
            _ => writeln!(out, "`{text}` is not an item you hold")?,
        }
    }
}

/// Asks for a plane until the answer is a legal one. End of input counts as quitting.
fn ask_plane(
    game: &Game,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<Answer> {
    loop {
        write!(out, "your move — plane number (or q to quit): ")?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            return Ok(Answer::Quit);
        }
        let text = line.trim();
        if text.eq_ignore_ascii_case("q") {
            return Ok(Answer::Quit);
        }
        match text.parse::<u8>() {
            Ok(number) if number >= 1 && game.is_legal(number - 1) => {
                return Ok(Answer::Plane(number - 1));
            }
            _ => writeln!(
                out,
                "`{text}` is not a plane that can move; choose one listed"
            )?,
        }
    }
}

/// Runs the game with the given input and output.
fn run_with(
    args: &PlayArgs,
    input: &mut impl BufRead,
    out: &mut impl Write,
    colour_output: bool,
) -> anyhow::Result<()> {
    let options = parse_options(args.rules.as_deref(), &args.options)?;
    if !(2..=4).contains(&args.players) {
        anyhow::bail!("flight is for 2 to 4 players, not {}", args.players);
    }
    let bot: Box<dyn FlightBot> = parse_bot(args.bot.as_deref().unwrap_or("normal"))?;
    let seed = args.seed.map_or_else(Seed::random, Seed::from_u64);
    let mut opening = Vec::new();
    let mut table = Table::start(options, args.players as u8, seed, &mut opening)?;
    let mut bot_rng = Dice::new(seed.derive(u64::MAX));
    let me = table
        .seating()
        .colour_of(0)
        .context("the seating has a first player")?;
    writeln!(
        out,
        "Aeroplane Chess — you are {} ({}), against {} ({} players). Seed {}.",
        name(me),
        LETTERS[me.index()],
        bot.name(),
        args.players,
        seed
    )?;
    writeln!(
        out,
        "Planes show as colour letter + number (R1 = red plane 1); `.` track, `-` home column."
    )?;
    if options.items || options.weather {
        writeln!(
            out,
            "Items: i6 six die, iB booster. Weather: wS storm, wT tailwind, wH headwind."
        )?;
    }
    for event in &opening {
        if let Some(line) = describe(event) {
            writeln!(out, "{line}")?;
        }
    }
    while !table.game().is_over() {
        let colour = table.game().turn();
        let mut events = Vec::new();
        let holds_items =
            !table.game().item_bar(colour).is_empty() && table.game().item_in_use().is_none();
        let before_roll = if colour == me && holds_items {
            writeln!(
                out,
                "\n{}{}",
                board(table.game(), colour_output),
                status(table.game())
            )?;
            ask_item(table.game(), input, out)?
        } else {
            BeforeRoll::Roll
        };
        let moves = match before_roll {
            BeforeRoll::Roll => table.roll(&mut events)?,
            BeforeRoll::Use(item) => table.use_item(item, &mut events)?,
            BeforeRoll::Quit => {
                writeln!(out, "you left the game. Seed {seed}.")?;
                return Ok(());
            }
        };
        for event in &events {
            if let Some(line) = describe(event) {
                writeln!(out, "{line}")?;
            }
        }
        if moves.is_empty() {
            continue;
        }
        let game = *table.game();
        let plane = if colour == me && moves.len() >= 2 {
            writeln!(out, "\n{}{}", board(&game, colour_output), status(&game))?;
            for m in &moves {
                writeln!(
                    out,
                    "  {}: plane {} from {} to {}{}",
                    shown(m.plane),
                    shown(m.plane),
                    place(m.from),
                    place(m.to),
                    if m.capture_count() > 0 {
                        format!(", captures {}", m.capture_count())
                    } else {
                        String::new()
                    }
                )?;
            }
            match ask_plane(&game, input, out)? {
                Answer::Plane(plane) => plane,
                Answer::Quit => {
                    writeln!(out, "you left the game. Seed {seed}.")?;
                    return Ok(());
                }
            }
        } else if colour == me {
            moves[0].plane
        } else {
            bot.choose(&game, &mut bot_rng)
                .context("a bot is asked only when a move is awaited")?
        };
        let mut events = Vec::new();
        table.choose(plane, &mut events)?;
        for event in &events {
            if let Some(line) = describe(event) {
                writeln!(out, "{line}")?;
            }
        }
    }
    let game = *table.game();
    writeln!(out, "\n{}{}", board(&game, colour_output), status(&game))?;
    let ranks = game.final_ranks();
    for colour in game.players() {
        let rank = ranks[colour.index()].map_or("-".to_owned(), |r| r.to_string());
        let who = if colour == me { " (you)" } else { "" };
        writeln!(out, "rank {rank}: {}{who}", name(colour))?;
    }
    writeln!(out, "{} rolls. Seed {seed}.", table.draws())?;
    Ok(())
}

/// Runs `hangar play --game flight` on the terminal.
pub fn play(args: &PlayArgs) -> anyhow::Result<()> {
    let colour_output = std::io::stdout().is_terminal();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    run_with(args, &mut input, &mut out, colour_output)
}
