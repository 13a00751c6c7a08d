//! `hangar rules GAME`: the rule engines as JSON in, JSON out, for outside tools.

use std::io::{Read, Write};

use clap::Args;
use hangar_games::rules_json;
use serde_json::json;

use crate::sim::Game;

/// Arguments of `hangar rules`.
#[derive(Args, Debug)]
pub struct RulesArgs {
    /// The game whose rules to query; the request is read from standard input.
    #[arg(value_enum)]
    pub game: Game,
}

/// Runs `hangar rules`.
pub fn run(args: &RulesArgs) -> anyhow::Result<()> {
    match args.game {
        Game::Flight => flight(),
        Game::Jungle => jungle(),
    }
}

/// Reads the request text from standard input: bytes that are not UTF-8 are a bad request
/// like any other (answered in JSON), not a failure of the program.
fn read_request() -> std::io::Result<Result<String, String>> {
    let mut bytes = Vec::new();
    std::io::stdin().read_to_end(&mut bytes)?;
    Ok(String::from_utf8(bytes).map_err(|e| format!("bad request: the input is not UTF-8 ({e})")))
}

/// `hangar rules flight` on standard input and output.
fn flight() -> anyhow::Result<()> {
    let answered = read_request()?.and_then(|input| rules_json::flight::answer(&input));
    match answered {
        Ok(value) => {
            println!("{value}");
            Ok(())
        }
        Err(reason) => {
            println!("{}", json!({"ok": false, "error": reason}));
            std::process::exit(1);
        }
    }
}

/// `hangar rules jungle` on standard input and output.
fn jungle() -> anyhow::Result<()> {
    let (text, ok) = match read_request()? {
        Ok(input) => rules_json::jungle::respond(&input),
        Err(reason) => (rules_json::jungle::refuse(reason), false),
    };
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()?;
    if !ok {
        // The JSON error is on standard output; the exit status tells scripts it failed.
        eprintln!("hangar rules jungle: request refused");
        std::process::exit(1);
    }
    Ok(())
}
