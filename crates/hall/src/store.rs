//! Persistence: players, tokens, games, action logs and results, in SQLite or PostgreSQL.
//!
//! One code path serves both databases through sqlx's `Any` driver with runtime queries
//! (`$1` placeholders work in both). Appending game actions goes through one writer task that
//! commits many rooms' actions in a single transaction (group commit), so the rule "an action is
//! stored before it is acknowledged" (P-DURABLE) stays cheap under load.

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Executor, Row};
use std::sync::Arc;

use tokio::sync::{Notify, mpsc};

use crate::accounts::{Player, hash_token, new_token};
use crate::time::now_ms;
use hangar_dice::DiceScheme;
use hangar_games::rating::Skill;
use hangar_protocol::GameKind;

mod admin;
mod arena_owners;
mod arenas;
mod backup;
mod batch;
mod bots;
mod cluster;
mod dice_stats;
mod fair_play;
mod health;
mod log;
mod node_scope;
mod pairs;
mod placeholders;
mod privacy;
mod profiles;
mod ratings;
mod reviews;
mod skeletons;
mod tails;
mod waiting;
mod waiting_room;
mod write;
mod writer;

pub use bots::BotRefusal;

pub use admin::{AdminOrder, OrderKind};
pub use arenas::{RoomGame, StoredArena};
pub use backup::backup;
pub use fair_play::{
    EarlyGame, FairPlayLimits, FairPlayReport, Identity, NewIdentityWins, PairGames, Refund,
    SeatDecisions,
};
pub use health::DEFAULT_FAILURE_BOUND;
pub use node_scope::{NodeScope, SEQ_RANGE};
pub use pairs::PairScope;
use placeholders::placeholders;
pub use privacy::{BlockRefusal, MAX_BLOCKS};
pub use reviews::StoredReview;
pub use waiting_room::WaitingRoom;
use write::{Append, StartGame, WRITE_QUEUE, Write};
use writer::run_writer;

/// Why a storage operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database failed.
    #[error("database: {0}")]
    Database(#[from] sqlx::Error),
    /// The schema could not be migrated.
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The action writer has stopped (the server is shutting down).
    #[error("the action writer has stopped")]
    WriterGone,
    /// The database opens but refuses writes (a read-only file, directory or database).
    #[error("the database cannot be written ({0}): the hall would lose every game it runs")]
    NotWritable(String),
    /// A backup could not be made as asked.
    #[error("backup: {0}")]
    Backup(String),
    /// The URL names no supported database.
    #[error("unsupported database URL {0:?}: use sqlite:PATH or postgres://…")]
    BadUrl(String),
}

/// Which database engine a [`Store`] talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// A SQLite file (the default).
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

pub use hangar_games::{NewGame, StoredGame};

/// One player's line of a finished game, written with the result (P-SCORE).
#[derive(Clone, Debug)]
pub struct ScoreLine {
    /// The player.
    pub player_id: i64,
    /// The seat played.
    pub seat: i64,
    /// The score change.
    pub delta: i64,
    /// The final rank (1 is best).
    pub rank: i64,
    /// The player's team, for the rating (flight F-TEAMS; otherwise one per seat).
    pub team: usize,
    /// Ranked first while another seat ranked lower (a draw is no win).
    pub won: bool,
}

/// How a finished game counts (P-PRACTICE, P-RATING).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Scores and ratings of `GameKind` change.
    Rated(GameKind),
    /// A practice game: listed for its players, scored and rated for no one.
    Practice,
    /// An aborted game (P-ABORT): stored as practice (rated for no one, counted in no pair's
    /// games), and its lines change scores only by a leaver's penalty.
    Aborted,
}

/// A player's standing after a finished game was stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settled {
    /// The score after the game.
    pub score: i64,
    /// The change made to the score: the game's, or less where the score would have gone
    /// below 0 (P-SCORE).
    pub delta: i64,
    /// The rating before and after, when the game was rated.
    pub rating: Option<(Skill, Skill)>,
}

/// The database handle: cheap to clone.
#[derive(Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    writes: mpsc::Sender<Write>,
    /// Why storage cannot be trusted now (`None`: healthy), set by the writer; the bound.
    health: health::Shared,
    /// This node in cluster mode (set once, before any write): fences every write.
    scope: Arc<std::sync::OnceLock<NodeScope>>,
}

impl Store {
    /// Opens (creating if needed) and migrates the database at `url`: `sqlite:PATH`, a bare
    /// path (SQLite) or `postgres://…`.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        install_default_drivers();
        let (backend, url) = normalise_url(url)?;
        let options = AnyPoolOptions::new().max_connections(match backend {
            Backend::Sqlite => 4,
            Backend::Postgres => 8,
        });
        let options = if backend == Backend::Sqlite {
            options.after_connect(|conn, _meta| {
                Box::pin(async move {
                    // WAL with NORMAL sync survives a process crash (kill -9); busy_timeout
                    // makes concurrent writers wait instead of failing.
                    conn.execute("PRAGMA journal_mode=WAL").await?;
                    conn.execute("PRAGMA synchronous=NORMAL").await?;
                    // Checkpoints run in the background (`checkpoint_wal`), off the path of
                    // the commits that acknowledgements wait for; the automatic one stays only
                    // as a backstop at 16k pages (64 MiB of WAL).
                    conn.execute("PRAGMA wal_autocheckpoint=16384").await?;
                    conn.execute("PRAGMA busy_timeout=10000").await?;
                    conn.execute("PRAGMA foreign_keys=ON").await?;
                    Ok(())
                })
            })
        } else {
            options.after_connect(|conn, _meta| {
                Box::pin(async move {
                    // As SQLite's busy_timeout: a write that waits for a lock held elsewhere
                    // fails after 10 s instead of hanging the hall's only writer for ever.
                    conn.execute("SET lock_timeout = '10s'").await?;
                    Ok(())
                })
            })
        };
        let pool = options.connect(&url).await?;
        // Before the migrations: on a database that refuses writes they would fail with an
        // error about their own statements, not the cause.
        check_writable(&pool).await?;
        match backend {
            Backend::Sqlite => sqlx::migrate!("./migrations/sqlite").run(&pool).await?,
            Backend::Postgres => sqlx::migrate!("./migrations/postgres").run(&pool).await?,
        }
        skeletons::fill_skeletons(&pool).await?;
        dice_stats::count_older_dice(&pool).await?;
        let file = match backend {
            Backend::Sqlite => health::DbFile::of(&url),
            Backend::Postgres => None,
        };
        let health = health::Shared::new();
        let (writes, rx) = mpsc::channel(WRITE_QUEUE);
        let committed = Arc::new(Notify::new());
        let scope = Arc::new(std::sync::OnceLock::new());
        tokio::spawn(run_writer(
            pool.clone(),
            backend,
            rx,
            committed.clone(),
            health::Health::new(file, health.clone()),
            scope.clone(),
        ));
        if backend == Backend::Sqlite {
            tokio::spawn(checkpoint_wal(pool.clone(), committed));
        }
        Ok(Store {
            pool,
            backend,
            writes,
            health,
            scope,
        })
    }

    /// How long writes may fail before the storage counts as failing (default
    /// [`DEFAULT_FAILURE_BOUND`]).
    pub fn set_failure_bound(&self, bound: std::time::Duration) {
        self.health.set_bound(bound);
    }

    /// Why the storage cannot be trusted now (the database file deleted or replaced while the
    /// hall runs, or writes failing for longer than the bound), or `None` when it is healthy;
    /// `/health` reports it, and rooms refuse new games and actions meanwhile.
    pub fn fault(&self) -> Option<String> {
        self.health.fault.lock().map_or_else(
            |_| Some("the storage state is unknown".to_owned()),
            |fault| fault.clone(),
        )
    }

    /// The database engine in use.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Closes the pool (waits for running queries).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// Creates a player (guest or account) and a token for it.
    pub async fn create_player(
        &self,
        name: &str,
        password_hash: Option<&str>,
    ) -> Result<(Player, String), StoreError> {
        let name_key = password_hash.map(|_| name.to_lowercase());
        // Accounts are unique by look (P-ACCOUNT); guests are not unique at all.
        let skeleton = password_hash.map(|_| crate::names::skeleton_key(name));
        let guest = password_hash.is_none();
        let (owned_name, password_hash) = (name.to_owned(), password_hash.map(str::to_owned));
        let token = new_token();
        let token_hash = hash_token(&token);
        // The player and its token in one write.
        let id = self
            .write(move |conn| {
                Box::pin(async move {
                    let row = sqlx::query(
                        "INSERT INTO players (name, name_key, guest, password_hash, score, created_at, skeleton) \
                         VALUES ($1, $2, $3, $4, 1000, $5, $6) RETURNING id",
                    )
                    .bind(owned_name)
                    .bind(name_key)
                    .bind(i64::from(guest))
                    .bind(password_hash)
                    .bind(now_ms())
                    .bind(skeleton)
                    .fetch_one(&mut *conn)
                    .await?;
                    let id: i64 = row.try_get("id")?;
                    insert_token(conn, token_hash, id).await?;
                    Ok(id)
                })
            })
            .await?;
        let player = Player {
            id,
            name: name.to_owned(),
            guest,
            bot: false,
            score: 1000,
        };
        Ok((player, token))
    }

    /// Whether an account already uses this name, or one that looks the same (case-insensitive,
    /// same confusable skeleton: P-ACCOUNT).
    pub async fn name_taken(&self, name: &str) -> Result<bool, StoreError> {
        let row =
            sqlx::query("SELECT COUNT(*) AS n FROM players WHERE name_key = $1 OR skeleton = $2")
                .bind(name.to_lowercase())
                .bind(crate::names::skeleton_key(name))
                .fetch_one(&self.pool)
                .await?;
        Ok(row.try_get::<i64, _>("n")? > 0)
    }

    /// Turns a guest into an account with this name and password hash.
    pub async fn upgrade_guest(
        &self,
        player_id: i64,
        name: &str,
        password_hash: &str,
    ) -> Result<(), StoreError> {
        let (name, name_key) = (name.to_owned(), name.to_lowercase());
        let skeleton = crate::names::skeleton_key(&name);
        let password_hash = password_hash.to_owned();
        self.write(move |conn| {
            Box::pin(async move {
                sqlx::query(
                    "UPDATE players SET name = $1, name_key = $2, guest = 0, password_hash = $3, \
                     skeleton = $5 WHERE id = $4",
                )
                .bind(name)
                .bind(name_key)
                .bind(password_hash)
                .bind(player_id)
                .bind(skeleton)
                .execute(&mut *conn)
                .await
                .map(drop)
            })
        })
        .await
    }

    /// A new random token for a player; only its hash is stored.
    pub async fn issue_token(&self, player_id: i64) -> Result<String, StoreError> {
        let token = new_token();
        let token_hash = hash_token(&token);
        self.write(move |conn| Box::pin(insert_token(conn, token_hash, player_id)))
            .await?;
        Ok(token)
    }

    /// Renews a token that was just used: its lifetime runs again from now (a sliding
    /// lifetime, so that a player who keeps coming back keeps their identity).
    pub async fn renew_token(&self, token: &str) -> Result<(), StoreError> {
        let token_hash = hash_token(token);
        self.write(move |conn| {
            Box::pin(async move {
                sqlx::query("UPDATE tokens SET created_at = $2 WHERE hash = $1")
                    .bind(token_hash)
                    .bind(now_ms())
                    .execute(&mut *conn)
                    .await
                    .map(drop)
            })
        })
        .await
    }

    /// The account with this name and its password hash.
    pub async fn account(&self, name: &str) -> Result<Option<(Player, String)>, StoreError> {
        let row = sqlx::query(
            "SELECT id, name, guest, bot, score, password_hash FROM players WHERE name_key = $1",
        )
        .bind(name.to_lowercase())
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| Ok((player_from_row(&row)?, row.try_get("password_hash")?)))
            .transpose()
    }

    /// The player a token belongs to.
    pub async fn player_by_token(&self, token: &str) -> Result<Option<Player>, StoreError> {
        self.player_by_token_since(token, 0).await
    }

    /// The player a token belongs to, if the token was issued or last renewed after
    /// `issued_after` (Unix ms): older tokens have expired.
    pub async fn player_by_token_since(
        &self,
        token: &str,
        issued_after: i64,
    ) -> Result<Option<Player>, StoreError> {
        let row = sqlx::query(
            "SELECT p.id, p.name, p.guest, p.bot, p.score FROM tokens t JOIN players p ON p.id = t.player_id \
             WHERE t.hash = $1 AND t.created_at > $2",
        )
        .bind(hash_token(token))
        .bind(issued_after)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| player_from_row(&row)).transpose()
    }

    /// Forgets every token of a player: each device signed in with one is signed out.
    pub async fn revoke_tokens(&self, player_id: i64) -> Result<(), StoreError> {
        self.write(move |conn| {
            Box::pin(async move {
                sqlx::query("DELETE FROM tokens WHERE player_id = $1")
                    .bind(player_id)
                    .execute(&mut *conn)
                    .await
                    .map(drop)
            })
        })
        .await
    }

    /// A player by id.
    pub async fn player(&self, id: i64) -> Result<Option<Player>, StoreError> {
        let row = sqlx::query("SELECT id, name, guest, bot, score FROM players WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| player_from_row(&row)).transpose()
    }

    /// The registered players (not guests) of `ids` that are not banned, by name.
    pub async fn accounts_of(&self, ids: &[i64]) -> Result<Vec<Player>, StoreError> {
        let mut players = Vec::new();
        // Chunks well under the bound parameters of SQLite and PostgreSQL.
        for chunk in ids.chunks(500) {
            let sql = format!(
                "SELECT id, name, guest, bot, score FROM players \
                 WHERE guest = 0 AND id NOT IN (SELECT player_id FROM bans) AND id IN ({})",
                placeholders(1, chunk.len())
            );
            let mut query = sqlx::query(&sql);
            for id in chunk {
                query = query.bind(*id);
            }
            for row in query.fetch_all(&self.pool).await? {
                players.push(player_from_row(&row)?);
            }
        }
        players.sort_by_key(|p| p.name.to_lowercase());
        Ok(players)
    }

    /// Stores a game that starts now; returns its id.
    pub async fn start_game(&self, game: &NewGame) -> Result<i64, StoreError> {
        let game = game.clone();
        self.send_write(|done| Write::StartGame(StartGame { game, done }))
            .await
    }

    /// Appends action `idx` of a game and returns once it is committed (P-DURABLE). A game's
    /// actions must come in order: one that is not the game's next is refused.
    pub async fn append_action(
        &self,
        game_id: i64,
        idx: i64,
        data: String,
    ) -> Result<(), StoreError> {
        self.send_write(|done| {
            Write::Append(Append {
                game_id,
                idx,
                data,
                done,
            })
        })
        .await
    }

    /// Writes a game's result, every score change and every rating change in ONE transaction
    /// (P-SCORE, P-RATING); returns where each player stands, in the order of `lines`. A
    /// practice game (P-PRACTICE) changes no score or rating; its lines must have no delta.
    /// A score never goes below 0 (P-SCORE): a loss greater than the score takes the score,
    /// and the change written (in `game_players` and in the result's `players[seat].delta`)
    /// is the one made.
    pub async fn finish_game(
        &self,
        game_id: i64,
        result: &str,
        lines: &[ScoreLine],
        scoring: Scoring,
    ) -> Result<Vec<Settled>, StoreError> {
        let (result, lines) = (result.to_owned(), lines.to_vec());
        let practice = !matches!(scoring, Scoring::Rated(_));
        debug_assert!(scoring != Scoring::Practice || lines.iter().all(|l| l.delta == 0));
        debug_assert!(lines.iter().all(|l| !practice || l.delta <= 0));
        // Another node may change the same players' scores at once (PostgreSQL): each row is
        // locked from its read to the transaction's end.
        let read_score = match self.backend {
            Backend::Sqlite => "SELECT score FROM players WHERE id = $1",
            Backend::Postgres => "SELECT score FROM players WHERE id = $1 FOR UPDATE",
        };
        // One write: the writer's savepoint makes it all or nothing, its commit durable; the
        // game's last actions are chunked in the same transaction.
        self.write_sealing(Some(game_id), move |conn| {
            Box::pin(async move {
                let mut scores = Vec::with_capacity(lines.len());
                let mut made = Vec::with_capacity(lines.len());
                for line in &lines {
                    let before: i64 = sqlx::query(read_score)
                        .bind(line.player_id)
                        .fetch_one(&mut *conn)
                        .await?
                        .try_get("score")?;
                    let delta = line.delta.max(-before.max(0));
                    sqlx::query("UPDATE players SET score = score + $1 WHERE id = $2")
                        .bind(delta)
                        .bind(line.player_id)
                        .execute(&mut *conn)
                        .await?;
                    scores.push(before + delta);
                    made.push(delta);
                    sqlx::query(
                        "INSERT INTO game_players (game_id, player_id, seat, delta, rank, practice, won) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    )
                    .bind(game_id)
                    .bind(line.player_id)
                    .bind(line.seat)
                    .bind(delta)
                    .bind(line.rank)
                    .bind(i64::from(practice))
                    .bind(i64::from(line.won))
                    .execute(&mut *conn)
                    .await?;
                }
                sqlx::query(
                    "UPDATE games SET status = 'finished', result = $1, finished_at = $2 WHERE id = $3",
                )
                .bind(with_deltas_made(result, &lines, &made))
                .bind(now_ms())
                .bind(game_id)
                .execute(&mut *conn)
                .await?;
                dice_stats::count_game_dice(conn, game_id).await?;
                let ratings = match scoring {
                    Scoring::Rated(game) => ratings::rate_game(conn, game, game_id, &lines)
                        .await?
                        .into_iter()
                        .map(Some)
                        .collect(),
                    Scoring::Practice | Scoring::Aborted => vec![None; lines.len()],
                };
                Ok(scores
                    .into_iter()
                    .zip(made)
                    .zip(ratings)
                    .map(|((score, delta), rating)| Settled {
                        score,
                        delta,
                        rating,
                    })
                    .collect())
            })
        })
        .await
    }

    /// Every game still running, with its action log, to rebuild rooms at start (P-DURABLE).
    pub async fn running_games(&self) -> Result<Vec<StoredGame>, StoreError> {
        let rows = sqlx::query(&format!(
            "{GAME_COLUMNS} WHERE status = 'running' ORDER BY id"
        ))
        .fetch_all(&self.pool)
        .await?;
        let mut logs = log::read_logs(&self.pool, None, true).await?;
        rows.iter()
            .map(|row| {
                let id: i64 = row.try_get("id")?;
                stored_game(row, logs.remove(&id).unwrap_or_default())
            })
            .collect()
    }

    /// One stored game with its actions.
    pub async fn game(&self, id: i64) -> Result<Option<StoredGame>, StoreError> {
        let Some(row) = sqlx::query(&format!("{GAME_COLUMNS} WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        let running = row.try_get::<String, _>("status")? == "running";
        let actions = log::read_logs(&self.pool, Some(id), running)
            .await?
            .remove(&id)
            .unwrap_or_default();
        stored_game(&row, actions).map(Some)
    }
}

/// A game's result (JSON) with each line's score change as made: a loss the score could not
/// cover is written as what it took. A result without lines is kept as it is.
fn with_deltas_made(result: String, lines: &[ScoreLine], made: &[i64]) -> String {
    if lines
        .iter()
        .zip(made)
        .all(|(line, &made)| line.delta == made)
    {
        return result;
    }
    let Ok(mut value) = serde_json::from_str::<serde_json::Value>(&result) else {
        return result;
    };
    if let Some(players) = value["players"].as_array_mut() {
        for (line, &made) in lines.iter().zip(made) {
            if let Some(player) = players.get_mut(line.seat as usize) {
                player["delta"] = made.into();
            }
        }
    }
    value.to_string()
}

/// The columns of a stored game, for [`stored_game`].
const GAME_COLUMNS: &str = "SELECT id, room, game, private, options, seats, seed, commitment, dice, status, \
     result, started_at, finished_at FROM games";

/// A stored game from its row (of [`GAME_COLUMNS`]) and its action log.
fn stored_game(row: &sqlx::any::AnyRow, actions: Vec<String>) -> Result<StoredGame, StoreError> {
    Ok(StoredGame {
        id: row.try_get("id")?,
        start: NewGame {
            room: row.try_get("room")?,
            game: row.try_get("game")?,
            private: row.try_get::<i64, _>("private")? != 0,
            options: row.try_get("options")?,
            seats: row.try_get("seats")?,
            seed: row.try_get("seed")?,
            commitment: row.try_get("commitment")?,
            // A name this build does not know is no game it can replay: refused, not guessed.
            dice: {
                let name: String = row.try_get("dice")?;
                DiceScheme::from_name(&name).ok_or_else(|| {
                    StoreError::Database(sqlx::Error::Decode(
                        format!("unknown dice scheme {name:?}").into(),
                    ))
                })?
            },
        },
        status: row.try_get("status")?,
        result: row.try_get("result")?,
        started_at: row.try_get("started_at")?,
        finished_at: row.try_get("finished_at")?,
        actions,
    })
}

/// Stores a token's hash for a player.
async fn insert_token(
    conn: &mut sqlx::AnyConnection,
    token_hash: String,
    player_id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO tokens (hash, player_id, created_at) VALUES ($1, $2, $3)")
        .bind(token_hash)
        .bind(player_id)
        .bind(now_ms())
        .execute(conn)
        .await
        .map(drop)
}

fn player_from_row(row: &sqlx::any::AnyRow) -> Result<Player, StoreError> {
    Ok(Player {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        guest: row.try_get::<i64, _>("guest")? != 0,
        bot: row.try_get::<i64, _>("bot")? != 0,
        score: row.try_get("score")?,
    })
}

/// `hangar.db` → `sqlite:hangar.db?mode=rwc`; postgres URLs pass through.
fn normalise_url(url: &str) -> Result<(Backend, String), StoreError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok((Backend::Postgres, url.to_owned()));
    }
    let path = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
        .unwrap_or(url);
    if path.is_empty() || path.contains("://") {
        return Err(StoreError::BadUrl(url.to_owned()));
    }
    let url = if path.contains('?') {
        format!("sqlite:{path}")
    } else {
        format!("sqlite:{path}?mode=rwc")
    };
    Ok((Backend::Sqlite, url))
}

/// Refuses a database that opens but cannot be written (a read-only file or directory, a
/// read-only PostgreSQL database): a hall on it would acknowledge nothing, or worse, seem
/// healthy. The probe writes in a transaction that is rolled back, so it leaves nothing.
async fn check_writable(pool: &AnyPool) -> Result<(), StoreError> {
    let mut conn = pool.acquire().await?;
    conn.execute("BEGIN").await?;
    let probe = conn
        .execute("CREATE TABLE hangar_write_probe (x INTEGER)")
        .await;
    conn.execute("ROLLBACK").await?;
    probe
        .map(drop)
        .map_err(|e| StoreError::NotWritable(e.to_string()))
}

/// Least time between two WAL checkpoints while actions are being committed.
///
/// Measured with `hangar load --clients 10000 --think 500` (docs/benchmarks.md, "Hall load"):
/// the longer the log grows between checkpoints, the longer each checkpoint's write-back and
/// fsync, and the longer the commits that wait behind it on the file system — ack p99 88 ms
/// with a checkpoint every second, 26 ms every 50 ms, 19 ms every 20 ms.
const CHECKPOINT_PACE: std::time::Duration = std::time::Duration::from_millis(20);

/// Copies the SQLite write-ahead log back into the database file soon after each commit, in
/// small steps and on another connection than the action writer's: a PASSIVE checkpoint never
/// blocks the writer, whereas an automatic one runs inside the commit that crosses the
/// threshold (with an fsync), and every acknowledgement waiting on that commit waits for it
/// too. An idle hall checkpoints nothing.
async fn checkpoint_wal(pool: AnyPool, committed: Arc<Notify>) {
    while !pool.is_closed() {
        committed.notified().await;
        if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .fetch_all(&pool)
            .await
        {
            tracing::debug!(error = %e, "WAL checkpoint skipped");
        }
        tokio::time::sleep(CHECKPOINT_PACE).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_normalised() {
        assert_eq!(
            normalise_url("hangar.db").unwrap(),
            (Backend::Sqlite, "sqlite:hangar.db?mode=rwc".to_owned())
        );
        assert_eq!(
            normalise_url("postgres://u@h/db").unwrap().0,
            Backend::Postgres
        );
        assert!(normalise_url("mysql://x").is_err());
    }

    /// The writer's queue is bounded ([`WRITE_QUEUE`]): three times as many writers as it
    /// holds all wait their turn and all are committed, none refused or lost.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn writes_beyond_the_queue_wait_their_turn_and_all_commit() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("h.db").to_str().unwrap())
            .await
            .unwrap();
        assert_eq!(store.writes.max_capacity(), WRITE_QUEUE);
        let writers: Vec<_> = (0..3 * WRITE_QUEUE)
            .map(|n| {
                let store = store.clone();
                tokio::spawn(async move {
                    store
                        .write(move |conn| {
                            Box::pin(async move {
                                sqlx::query("SELECT $1")
                                    .bind(i64::try_from(n).unwrap())
                                    .execute(&mut *conn)
                                    .await
                                    .map(|_| n)
                            })
                        })
                        .await
                })
            })
            .collect();
        let mut committed = 0;
        for (n, writer) in writers.into_iter().enumerate() {
            assert_eq!(writer.await.unwrap().unwrap(), n);
            committed += 1;
        }
        assert_eq!(committed, 3 * WRITE_QUEUE);
    }
}
