//! `hangar admin`: ban a player (and give back what it took from the players it beat), lift a
//! ban, revoke a player's tokens, close a room, make an arena — by
//! writing to the hall's database, which every running node polls (see `hangar_hall::admin`),
//! so it works on a running hall or a whole cluster. Each command prints one JSON line saying
//! what it did, and fails with a clear message (changing nothing) for an unknown name or room.
//! `fair-play` reads only: a report for moderators, a table (or JSON with `--json`).

use std::time::Duration;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use hangar_hall::Store;
use hangar_hall::accounts::Player;
use hangar_hall::arena::{NewArena, create_arena};
use hangar_hall::store::{FairPlayLimits, FairPlayReport, Identity};
use hangar_protocol::GameKind;
use serde_json::json;

/// How long `close-room` waits for the node that runs the room to close it.
const CLOSE_WAIT: Duration = Duration::from_secs(10);

/// Arguments of `hangar admin`.
#[derive(Args, Debug)]
pub struct AdminArgs {
    /// The hall's database: the SQLite file or the postgres:// URL the hall (or cluster) serves.
    #[arg(long, env = "HANGAR_DATABASE", default_value = "hangar.db")]
    pub database: String,
    #[command(subcommand)]
    pub command: AdminCommand,
}

/// One administrative act.
#[derive(Subcommand, Debug)]
pub enum AdminCommand {
    /// Ban a player: no sign-in is accepted, its tokens are revoked, its connections closed.
    Ban {
        #[command(flatten)]
        who: Who,
        /// Why (shown to the player when a sign-in is refused).
        #[arg(long, default_value = "banned by the hall's administrators")]
        reason: String,
        /// Also give back what the players it beat lost to it: in every scored game it played,
        /// each person ranked below it gets back the score and the rating it lost there, once
        /// (each refund is stored; a second run refunds nothing new). In the ban's transaction.
        #[arg(long)]
        refund: bool,
    },
    /// A fair-play report for moderators over the scored games of a window: pairs with many
    /// games against each other, games a person left within their first decisions, players
    /// whose wins come mostly from new identities — each with the game ids.
    FairPlay(FairPlayArgs),
    /// Lift a player's ban.
    Unban {
        #[command(flatten)]
        who: Who,
    },
    /// Revoke every token of a player and close its open connections.
    RevokeTokens {
        #[command(flatten)]
        who: Who,
    },
    /// Close a room on whatever node runs it: a running game ends without score changes.
    CloseRoom {
        /// The room's code.
        code: String,
    },
    /// List the accounts kept from before names were unique by look (P-ACCOUNT): each
    /// account whose name looks like an older account's, with that older one.
    NameCollisions,
    /// Arena tournaments (P-ARENA).
    Arena {
        #[command(subcommand)]
        command: ArenaAdmin,
    },
}

/// `hangar admin fair-play`'s window and thresholds.
#[derive(Args, Debug)]
pub struct FairPlayArgs {
    /// The window: the games finished in the last HOURS hours.
    #[arg(long, default_value_t = 24)]
    hours: i64,
    /// The window's start instead, in Unix milliseconds.
    #[arg(long, conflicts_with = "hours")]
    since: Option<i64>,
    /// List a pair with at least this many scored games against each other.
    #[arg(long, default_value_t = 3)]
    pair_games: usize,
    /// List a scored jungle game in which some person made at most this many moves of their
    /// own (the timer's not counted).
    #[arg(long, default_value_t = 5)]
    early_decisions: u32,
    /// List a scored flight game in which some person made at most this many decisions of
    /// their own (rolls, moves, items; auto-play's and the timer's not counted). Flight allows
    /// a resignation after 15 turns, when each of two people has made about 20.
    #[arg(long, default_value_t = 25)]
    early_flight_decisions: u32,
    /// An opponent is a new identity when its guest or account was made at most this many
    /// minutes before the game started…
    #[arg(long, default_value_t = 60)]
    new_minutes: i64,
    /// …or when it has at most this many scored games in all.
    #[arg(long, default_value_t = 3)]
    new_games: i64,
    /// Consider a winner with at least this many scored wins in the window…
    #[arg(long, default_value_t = 3)]
    min_wins: usize,
    /// …and list it when at least this share (0–1) of those wins beat a new identity.
    #[arg(long, default_value_t = 0.5)]
    new_share: f64,
    /// Print the report as one JSON object instead of tables.
    #[arg(long)]
    json: bool,
}

/// `hangar admin arena …`.
#[derive(Subcommand, Debug)]
pub enum ArenaAdmin {
    /// Make an arena: every running hall takes it up within a second and lists it.
    Create {
        /// `jungle` or `flight`.
        #[arg(long)]
        game: String,
        /// When pairing starts: `now`, `+MINUTES` from now, or Unix milliseconds.
        #[arg(long, default_value = "now")]
        start: String,
        /// How long it runs, 1–1440 minutes.
        #[arg(long, default_value_t = 30)]
        minutes: i64,
        /// Its name (default: the game and the length, e.g. `Jungle arena, 30 min`).
        #[arg(long)]
        name: Option<String>,
        /// Seconds per decision in its games, 5–120.
        #[arg(long, default_value_t = 20)]
        turn_seconds: u64,
    },
}

/// Which player: by name (as the hall matches names: an account's name in any case or
/// width, or a guest's), or by id when several players share a name.
#[derive(Args, Debug)]
pub struct Who {
    /// The player's name.
    #[arg(required_unless_present = "id")]
    name: Option<String>,
    /// The player's id instead of a name.
    #[arg(long, conflicts_with = "name")]
    id: Option<i64>,
}

/// `hangar admin …`.
pub fn run(args: &AdminArgs) -> anyhow::Result<()> {
    if !args.database.contains("://") {
        // A mistyped path must not create an empty database and report "no such player".
        let path = args
            .database
            .strip_prefix("sqlite:")
            .unwrap_or(&args.database);
        let path = path.split('?').next().unwrap_or(path);
        if !std::path::Path::new(path).exists() {
            bail!("no database at {path}: give the hall's --database");
        }
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let store = Store::open(&args.database)
            .await
            .with_context(|| format!("opening {}", args.database))?;
        let done = act(&store, &args.command).await;
        store.close().await;
        match done? {
            // A table (`fair-play` without `--json`).
            serde_json::Value::String(text) => print!("{text}"),
            done => println!("{done}"),
        }
        Ok(())
    })
}

/// Does one act; the JSON line that says what was done.
async fn act(store: &Store, command: &AdminCommand) -> anyhow::Result<serde_json::Value> {
    Ok(match command {
        AdminCommand::Ban {
            who,
            reason,
            refund: false,
        } => {
            let player = find(store, who).await?;
            store.ban(player.id, reason).await?;
            json!({"done": "ban", "player": view(&player), "reason": reason})
        }
        AdminCommand::Ban {
            who,
            reason,
            refund: true,
        } => {
            let player = find(store, who).await?;
            let refunds = store.ban_with_refund(player.id, reason).await?;
            let score: i64 = refunds.iter().map(|r| r.score).sum();
            json!({"done": "ban", "player": view(&player), "reason": reason,
                   "refunds": refunds, "refunded_score": score})
        }
        AdminCommand::FairPlay(args) => {
            let since = match args.since {
                Some(since) => since,
                None => {
                    if args.hours < 1 {
                        bail!("--hours {}: at least 1", args.hours);
                    }
                    now_ms()? - args.hours * 3_600_000
                }
            };
            if !(0.0..=1.0).contains(&args.new_share) {
                bail!("--new-share {}: a share from 0 to 1", args.new_share);
            }
            let limits = FairPlayLimits {
                since,
                pair_games: args.pair_games.max(1),
                early_decisions: args.early_decisions,
                early_flight_decisions: args.early_flight_decisions,
                new_minutes: args.new_minutes,
                new_games: args.new_games,
                min_wins: args.min_wins.max(1),
                new_share: args.new_share,
            };
            let report = store.fair_play_report(&limits).await?;
            if args.json {
                json!({"done": "fair_play", "report": report})
            } else {
                serde_json::Value::String(fair_play_table(&report, &limits))
            }
        }
        AdminCommand::Unban { who } => {
            let player = find(store, who).await?;
            if !store.unban(player.id).await? {
                bail!("{} (id {}) is not banned", player.name, player.id);
            }
            json!({"done": "unban", "player": view(&player)})
        }
        AdminCommand::RevokeTokens { who } => {
            let player = find(store, who).await?;
            store.revoke_everywhere(player.id).await?;
            json!({"done": "revoke_tokens", "player": view(&player)})
        }
        AdminCommand::NameCollisions => {
            let pairs: Vec<serde_json::Value> = store
                .name_collisions()
                .await?
                .iter()
                .map(|(newer, older)| json!({"account": view(newer), "looks_like": view(older)}))
                .collect();
            json!({"done": "name_collisions", "collisions": pairs})
        }
        AdminCommand::Arena {
            command:
                ArenaAdmin::Create {
                    game,
                    start,
                    minutes,
                    name,
                    turn_seconds,
                },
        } => {
            let kind = GameKind::from_name(game)
                .with_context(|| format!("no game {game:?}: jungle or flight"))?;
            let starts_at = start_time(start)?;
            let name = name.clone().unwrap_or_else(|| {
                let game = match kind {
                    GameKind::Jungle => "Jungle",
                    GameKind::Flight => "Flight",
                };
                format!("{game} arena, {minutes} min")
            });
            let new = NewArena {
                name,
                game: kind,
                starts_at,
                minutes: *minutes,
                turn_seconds: *turn_seconds,
            };
            let id = create_arena(store, &new).await?.ok_or_else(|| {
                anyhow::anyhow!(
                    "an arena named {:?} of {game} starting then exists already",
                    new.name
                )
            })?;
            json!({"done": "arena_create", "arena": id, "name": new.name, "game": game,
                   "starts_at": starts_at, "ends_at": starts_at + minutes * 60_000})
        }
        AdminCommand::CloseRoom { code } => {
            let code = code.to_ascii_uppercase();
            if !store.room_known(&code).await? {
                bail!("no open room {code}");
            }
            let order = store.order_close_room(&code).await?;
            let deadline = tokio::time::Instant::now() + CLOSE_WAIT;
            loop {
                if let Some(node) = store.order_applied_by(order).await? {
                    break json!({"done": "close_room", "room": code, "node": node});
                }
                if tokio::time::Instant::now() >= deadline {
                    bail!(
                        "no running hall closed room {code} within {} s: is the hall (or the node \
                         that runs the room) running?",
                        CLOSE_WAIT.as_secs()
                    );
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    })
}

/// Now, in Unix milliseconds.
fn now_ms() -> anyhow::Result<i64> {
    Ok(std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .context("the clock is before 1970")?
        .as_millis() as i64)
}

/// `--start`: `now`, `+MINUTES` from now, or Unix milliseconds.
fn start_time(start: &str) -> anyhow::Result<i64> {
    let now = now_ms()?;
    if start == "now" {
        return Ok(now);
    }
    if let Some(minutes) = start.strip_prefix('+') {
        let minutes: i64 = minutes
            .parse()
            .with_context(|| format!("--start {start}: +MINUTES"))?;
        return Ok(now + minutes * 60_000);
    }
    start
        .parse()
        .with_context(|| format!("--start {start}: now, +MINUTES or Unix milliseconds"))
}

/// The one player `who` names.
async fn find(store: &Store, who: &Who) -> anyhow::Result<Player> {
    if let Some(id) = who.id {
        return store
            .player(id)
            .await?
            .with_context(|| format!("no player has id {id}"));
    }
    let name = who.name.as_deref().unwrap_or_default();
    let mut found = store.players_named(name).await?;
    match found.len() {
        0 => bail!("no player is named {name:?}"),
        1 => Ok(found.remove(0)),
        n => {
            let ids: Vec<String> = found.iter().map(|p| p.id.to_string()).collect();
            let what = if found.iter().any(|p| !p.guest) {
                "players (an account and guests)"
            } else {
                "guests"
            };
            bail!(
                "{n} {what} are named {name:?} (ids {}): give --id",
                ids.join(", ")
            )
        }
    }
}

fn view(player: &Player) -> serde_json::Value {
    json!({"id": player.id, "name": player.name, "guest": player.guest})
}

/// `hangar admin fair-play`'s report as tables.
fn fair_play_table(report: &FairPlayReport, limits: &FairPlayLimits) -> String {
    let mut out = format!(
        "Fair play: scored games finished from {} to {} (UTC)\n",
        utc(report.since),
        utc(report.until)
    );
    out += &format!(
        "\nPairs with at least {} scored games against each other: {}\n",
        limits.pair_games,
        report.pairs.len()
    );
    let rows: Vec<Vec<String>> = report
        .pairs
        .iter()
        .map(|pair| {
            vec![
                who(&pair.players[0]),
                who(&pair.players[1]),
                pair.games.len().to_string(),
                format!("{}-{}", pair.wins[0], pair.wins[1]),
                ids(&pair.games),
            ]
        })
        .collect();
    out += &table(&["PLAYER", "PLAYER", "GAMES", "WINS", "GAME IDS"], &rows);
    out += &format!(
        "\nScored games a person left within their first decisions (jungle {}, flight {}): {}\n",
        limits.early_decisions,
        limits.early_flight_decisions,
        report.early.len()
    );
    let rows: Vec<Vec<String>> = report
        .early
        .iter()
        .map(|game| {
            let seats: Vec<String> = game
                .seats
                .iter()
                .map(|s| {
                    format!(
                        "{} {} {:+} ({} decisions)",
                        who(&s.player),
                        if s.won { "won" } else { "lost" },
                        s.delta,
                        s.decisions
                    )
                })
                .collect();
            vec![
                game.game_id.to_string(),
                game.game.clone(),
                game.reason.clone().unwrap_or_default(),
                game.actions.to_string(),
                seats.join("; "),
            ]
        })
        .collect();
    out += &table(&["GAME ID", "GAME", "ENDED", "ACTIONS", "PLAYERS"], &rows);
    out += &format!(
        "\nPlayers with at least {} wins, {}% or more over new identities (made at most {} min \
         before the game, or with at most {} scored games): {}\n",
        limits.min_wins,
        (limits.new_share * 100.0).round(),
        limits.new_minutes,
        limits.new_games,
        report.new_identity_wins.len()
    );
    let rows: Vec<Vec<String>> = report
        .new_identity_wins
        .iter()
        .map(|w| {
            let opponents: Vec<String> = w.opponents.iter().map(who).collect();
            vec![
                who(&w.player),
                w.wins.to_string(),
                w.from_new.to_string(),
                opponents.join(", "),
                ids(&w.games),
            ]
        })
        .collect();
    out += &table(
        &["PLAYER", "WINS", "OVER NEW", "NEW OPPONENTS", "GAME IDS"],
        &rows,
    );
    out
}

/// A player as the tables show it: name, id, and a guest mark.
fn who(player: &Identity) -> String {
    let guest = if player.guest { ", guest" } else { "" };
    format!("{} (id {}{guest})", player.name, player.id)
}

fn ids(games: &[i64]) -> String {
    let ids: Vec<String> = games.iter().map(i64::to_string).collect();
    ids.join(", ")
}

/// Columns padded to their widest cell; `(none)` for no rows.
fn table(head: &[&str], rows: &[Vec<String>]) -> String {
    if rows.is_empty() {
        return "  (none)\n".to_owned();
    }
    let mut widths: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(cell, &width)| format!("{cell:<width$}"))
            .collect();
        format!("  {}\n", padded.join("  ").trim_end())
    };
    let mut out = line(head.to_vec());
    for row in rows {
        out += &line(row.iter().map(String::as_str).collect());
    }
    out
}

/// Unix milliseconds as `YYYY-MM-DD HH:MM` (UTC).
fn utc(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's days-to-civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        rest / 3600,
        rest % 3600 / 60
    )
}
