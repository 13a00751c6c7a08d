//! `hangar perft`: count the legal move sequences of a Jungle position.

use std::time::Instant;

use anyhow::Context;
use clap::Args;
use hangar_jungle::{Position, perft, perft_divide};

use crate::args::rules::{apply_options, parse_rules};

/// Arguments of `hangar perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Search depth in plies.
    pub depth: u32,
    /// The position, in position text (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count below each first move.
    #[arg(long)]
    pub divide: bool,
    /// A rule option `key=value`, repeatable (order, elephant-takes-rat, leopard-leaps).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

/// The position of `--fen` (or the start) with the rules of `--option` set over its own: a
/// rules field in the text keeps every option the command line does not name.
pub(crate) fn parse_position(fen: Option<&str>, options: &[String]) -> anyhow::Result<Position> {
    match fen {
        None => Ok(Position::start(parse_rules(options)?)),
        Some(text) => {
            let pos: Position = text
                .parse()
                .with_context(|| format!("bad --fen {text:?}"))?;
            let rules = apply_options(pos.rules(), options)?;
            Ok(pos.with_rules(rules))
        }
    }
}

/// Runs `hangar perft`.
pub fn run(args: &PerftArgs) -> anyhow::Result<()> {
    let pos = parse_position(args.fen.as_deref(), &args.options)?;
    let started = Instant::now();
    let nodes = if args.divide {
        let divided = perft_divide(&pos, args.depth);
        for (m, n) in &divided {
            println!("{m}: {n}");
        }
        divided.iter().map(|(_, n)| n).sum()
    } else {
        perft(&pos, args.depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    println!("nodes {nodes}");
    println!(
        "time {:.3} s, {:.1} million nodes/s",
        seconds,
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_set_over_the_positions_own() {
        let fen = "l6/7/7/7/P6/7/7/7/7 r leopard-leaps=true";
        let pos = parse_position(Some(fen), &["elephant-takes-rat".to_owned()]).unwrap();
        assert!(pos.rules().leopard_leaps, "kept from the text");
        assert!(pos.rules().elephant_takes_rat, "added by the option");
        let pos = parse_position(Some(fen), &["leopard-leaps=false".to_owned()]).unwrap();
        assert!(
            !pos.rules().leopard_leaps,
            "an option names it: the option wins"
        );
    }
}
