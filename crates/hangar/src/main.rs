//! `hangar`: the hall server and the command-line tools around Hangar's two games.

mod admin_cli;
mod args;
mod engine;
mod flight_cli;
mod hall_cli;
mod jungle_cli;
mod play;
mod review;
mod rules;
mod sim;

use clap::{Parser, Subcommand};

/// mimalloc instead of glibc malloc: the hall's many small, short-lived allocations cost a
/// sixth of its CPU under load with glibc (see docs/benchmarks.md, "Hall load"). The feature
/// `system-allocator` keeps glibc's, for heap profilers that watch `malloc` (heaptrack).
#[cfg(not(feature = "system-allocator"))]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Hangar: an online hall for Aeroplane Chess (飞行棋) and Jungle (斗兽棋).
#[derive(Parser, Debug)]
#[command(name = "hangar", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve the hall over HTTP and WebSocket (the default command).
    Serve(hall_cli::ServeArgs),
    /// Play a game in the terminal against bots.
    Play(args::play::PlayArgs),
    /// Play many bot games and report win rates and speed.
    Sim(args::sim::SimArgs),
    /// The rule engines as JSON in, JSON out: legal moves, apply a move, result.
    Rules(rules::RulesArgs),
    /// Play an engine (any program speaking docs/engine.md) against the built-in bots, offline.
    Match(engine::MatchArgs),
    /// Play an engine in a hall as a bot account: accept challenges, play their games.
    Bot(engine::BotArgs),
    /// Count the legal move sequences of a Jungle position (perft).
    Perft(jungle_cli::PerftArgs),
    /// Check the fair-dice commitment and every roll of a finished game's record.
    Verify(hall_cli::VerifyArgs),
    /// Show a finished game's record move by move.
    Replay(hall_cli::ReplayArgs),
    /// Review a finished game: each move's and each die's worth by the engines' judgement.
    Review(review::ReviewArgs),
    /// Copy the hall's SQLite database to a new file, while the hall serves it.
    Backup(hall_cli::BackupArgs),
    /// Load-test a running hall with a swarm of WebSocket clients.
    Load(hall_cli::LoadArgs),
    /// Measure what an abusive client costs a hall it starts (memory, CPU).
    Attack(hall_cli::AttackArgs),
    /// Ban a player, revoke its tokens or close a room, on a running hall or cluster.
    Admin(admin_cli::AdminArgs),
}

fn main() -> anyhow::Result<()> {
    // With no subcommand, `hangar` serves the hall with every default (`cargo run --release`).
    let command = match Cli::parse().command {
        Some(command) => command,
        None => Cli::parse_from(["hangar", "serve"])
            .command
            .expect("`serve` is a subcommand"),
    };
    match command {
        Command::Serve(args) => hall_cli::serve(&args),
        Command::Play(args) => play::run(&args),
        Command::Sim(args) => sim::run(&args),
        Command::Rules(args) => rules::run(&args),
        Command::Match(args) => engine::run_match(&args),
        Command::Bot(args) => engine::run_bot(&args),
        Command::Perft(args) => jungle_cli::perft(&args),
        Command::Verify(args) => hall_cli::verify(&args),
        Command::Replay(args) => hall_cli::replay(&args),
        Command::Review(args) => review::run(&args),
        Command::Load(args) => hall_cli::load(&args),
        Command::Attack(args) => hall_cli::attack(&args),
        Command::Backup(args) => hall_cli::backup(&args),
        Command::Admin(args) => admin_cli::run(&args),
    }
}
