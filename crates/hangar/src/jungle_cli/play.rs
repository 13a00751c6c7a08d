//! `hangar play --game jungle`: you against a bot in the terminal. Type moves like `e3e4`;
//! `moves` lists yours and `quit` leaves. `--option side=yellow` lets the bot start. Colours
//! are ANSI, switched off when the output is not a terminal or `NO_COLOR` is set.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::{Context, bail};
use hangar_bots::jungle::{JungleBot, JunglePlayer};
use hangar_dice::{Dice, Seed};
use hangar_jungle::{
    Color, FILES, Game, Move, Position, RANKS, Role, Rules, Square, den, is_water, traps,
};

use crate::args::play::PlayArgs;

/// Draws the board, rank 9 at the top; red pieces upper case, yellow lower case.
pub(crate) fn board_text(pos: &Position, colour: bool) -> String {
    let mut out = String::new();
    out.push_str("    a  b  c  d  e  f  g\n");
    for rank in (0..RANKS).rev() {
        out.push_str(&format!(" {} ", rank + 1));
        for file in 0..FILES {
            let sq = Square::from_coords(file, rank).expect("on the board");
            let (background, filler) = if is_water(sq) {
                ("\x1b[44m", '~')
            } else if Color::ALL.iter().any(|&c| den(c) == sq) {
                ("\x1b[45m", '@')
            } else if Color::ALL.iter().any(|&c| traps(c).contains(sq)) {
                ("\x1b[100m", '#')
            } else {
                ("", '.')
            };
            let cell = match pos.piece_at(sq) {
                Some(piece) => {
                    let fg = match piece.color {
                        Color::Red => "\x1b[1;31m",
                        Color::Yellow => "\x1b[1;33m",
                    };
                    (fg, piece.char())
                }
                None => ("", filler),
            };
            if colour {
                out.push_str(&format!(
                    "{background}{} {}\x1b[0m{background} \x1b[0m",
                    cell.0, cell.1
                ));
            } else {
                out.push_str(&format!(" {} ", cell.1));
            }
        }
        out.push_str(&format!(" {}\n", rank + 1));
    }
    out.push_str("    a  b  c  d  e  f  g\n");
    out
}

fn legend() -> String {
    let names: Vec<String> = Role::ALL
        .iter()
        .rev()
        .map(|r| format!("{}={}{}", r.upper_char(), r.name(), r.chinese()))
        .collect();
    format!(
        "pieces: {} (red upper case, yellow lower case); ~ water, # trap, @ den",
        names.join(" ")
    )
}

/// Splits `--option` flags into the human's side (`side=red|yellow`) and rule options.
fn side_and_rules(options: &[String]) -> anyhow::Result<(Color, Rules)> {
    let mut side = Color::Red;
    let mut rules = Rules::default();
    for pair in options {
        match pair.split_once('=') {
            Some(("side", value)) => {
                side = value
                    .parse()
                    .with_context(|| format!("bad --option {pair:?}"))?
            }
            _ => rules
                .set_pair(pair)
                .with_context(|| format!("bad --option {pair:?}"))?,
        }
    }
    Ok((side, rules))
}

/// Runs `hangar play --game jungle`, reading moves from standard input.
pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    if let Some(preset) = args.rules.as_deref().filter(|&p| p != "standard") {
        bail!("jungle has no rules preset {preset:?}; use --option key=value");
    }
    let (human, rules) = side_and_rules(&args.options)?;
    let bot: JungleBot = match &args.bot {
        Some(spec) => spec
            .parse()
            .with_context(|| format!("bad --bot {spec:?}"))?,
        None => JungleBot::default_bot(),
    };
    let seed = args.seed.map_or_else(Seed::random, Seed::from_u64);
    let mut dice = Dice::new(seed);
    let mut player = JunglePlayer::new(bot);
    let mut game = Game::new(rules);
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = std::io::stdout();
    writeln!(
        out,
        "Jungle (斗兽棋): you play {human}, the bot ({bot}) plays {}.",
        human.other()
    )?;
    writeln!(out, "{}", legend())?;
    writeln!(
        out,
        "Type a move like e3e4, `moves` for your moves, `quit` to leave."
    )?;
    let mut show_board = true;
    while game.outcome().is_none() {
        if game.turn() != human {
            let m = player
                .choose(&game, &mut dice)
                .expect("the bot has a move while the game runs");
            game.play(m).expect("the bot plays allowed moves");
            writeln!(out, "bot plays {m}")?;
            show_board = true;
            continue;
        }
        if show_board {
            write!(out, "\n{}", board_text(game.position(), colour))?;
            show_board = false;
        }
        write!(out, "your move ({human}): ")?;
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(out, "\nbye")?;
            return Ok(());
        };
        let line = line?;
        match line.trim() {
            "" => {}
            "quit" | "exit" => {
                writeln!(out, "bye")?;
                return Ok(());
            }
            "moves" => {
                let moves: Vec<String> = game.legal_moves().iter().map(Move::to_string).collect();
                writeln!(out, "{}", moves.join(" "))?;
            }
            text => match text.parse::<Move>() {
                Err(e) => writeln!(out, "not a move: {e}")?,
                Ok(m) => match game.play(m) {
                    Ok(_) => show_board = true,
                    Err(e) => writeln!(out, "refused: {e}")?,
                },
            },
        }
    }
    write!(out, "\n{}", board_text(game.position(), colour))?;
    if let Some(outcome) = game.outcome() {
        writeln!(out, "game over: {outcome}")?;
    }
    Ok(())
}
