//! `hangar admin`: ban a player, lift a ban, revoke a player's tokens, close a room, make an
//! arena — by
//! writing to the hall's database, which every running node polls (see `hangar_hall::admin`),
//! so it works on a running hall or a whole cluster. Each command prints one JSON line saying
//! what it did, and fails with a clear message (changing nothing) for an unknown name or room.

use std::time::Duration;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use hangar_hall::Store;
use hangar_hall::accounts::Player;
use hangar_hall::arena::{NewArena, create_arena};
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
    },
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
        println!("{}", done?);
        Ok(())
    })
}

/// Does one act; the JSON line that says what was done.
async fn act(store: &Store, command: &AdminCommand) -> anyhow::Result<serde_json::Value> {
    Ok(match command {
        AdminCommand::Ban { who, reason } => {
            let player = find(store, who).await?;
            store.ban(player.id, reason).await?;
            json!({"done": "ban", "player": view(&player), "reason": reason})
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

/// `--start`: `now`, `+MINUTES` from now, or Unix milliseconds.
fn start_time(start: &str) -> anyhow::Result<i64> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .context("the clock is before 1970")?
        .as_millis() as i64;
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
