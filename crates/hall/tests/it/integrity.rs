//! Faults of storage and connections leave every game exactly as stored (P-DURABLE):
//! real server, real database file, real sockets.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use common::{TestHall, WAIT, databases, sqlite_url, test_config};
use serde_json::{Value, json};
use sqlx::{Connection, Executor, PgConnection, SqliteConnection};

/// Another process holding what the hall's next write needs: SQLite's write lock, or on
/// PostgreSQL the action journal's table; held past the hall's busy (lock) timeout.
enum Locker {
    Sqlite(SqliteConnection),
    Postgres(PgConnection),
}

impl Locker {
    async fn take(url: &str) -> Locker {
        if url.starts_with("postgres") {
            let mut conn = PgConnection::connect(url).await.unwrap();
            conn.execute("BEGIN").await.unwrap();
            conn.execute("LOCK TABLE journal IN ACCESS EXCLUSIVE MODE")
                .await
                .unwrap();
            Locker::Postgres(conn)
        } else {
            let mut conn = SqliteConnection::connect(&format!("sqlite:{url}"))
                .await
                .unwrap();
            conn.execute("BEGIN EXCLUSIVE").await.unwrap();
            Locker::Sqlite(conn)
        }
    }

    async fn release(self) {
        match self {
            Locker::Sqlite(mut conn) => {
                conn.execute("ROLLBACK").await.unwrap();
                conn.close().await.unwrap();
            }
            Locker::Postgres(mut conn) => {
                conn.execute("ROLLBACK").await.unwrap();
                conn.close().await.unwrap();
            }
        }
    }
}

/// P-DURABLE: an action whose write fails (another process holds the lock it needs past the
/// busy timeout) changes nothing: the sender gets a retryable `internal` error, a watcher sees
/// the room as before (same turn, same deadline), the same command id sent again once the lock
/// is gone runs once, and a restart shows exactly what the players saw. `act` makes the
/// command from the game view of the player on turn. On SQLite and, under CI, PostgreSQL.
async fn a_refused_write_changes_nothing(game: &str, options: Value, act: fn(&Value) -> Value) {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        a_refused_write_changes_nothing_on(&url, game, options.clone(), act).await;
    }
}

async fn a_refused_write_changes_nothing_on(
    url: &str,
    game: &str,
    options: Value,
    act: fn(&Value) -> Value,
) {
    let config = test_config(url.to_owned());
    let hall = TestHall::with(tempfile::tempdir().unwrap(), config.clone()).await;
    // Two people (no bot): nothing acts but the test's own commands. `a` is on turn.
    let (mut a, b, code) = hall.two_players(game, options).await;
    let seen_before = hall.watched(&code).await;
    let mut command = act(&seen_before.0);
    command["room"] = json!(code);
    command["id"] = json!(700);
    let command = command.to_string();

    // Another process takes the lock and keeps it past the hall's busy timeout.
    let locker = Locker::take(url).await;
    a.clear();
    a.send_text(&command).await;
    let refused = tokio::time::timeout(2 * WAIT, a.answer(700)).await.unwrap();
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["code"], "internal", "{refused}");
    assert_eq!(
        hall.watched(&code).await,
        seen_before,
        "a refused {command} changes nothing a watcher sees"
    );
    locker.release().await;
    // The write failed for as long as the busy timeout: the hall reported its storage failing
    // and refuses actions until its probe sees the database take writes again.
    hall.health_becomes(200).await;

    // The same command once the database takes writes again: run, not answered from memory.
    a.send_text(&command).await;
    let done = a.answer(700).await;
    assert_eq!(done["type"], "ack", "{done}");
    assert_ne!(done["repeat"], true, "the refused id runs now: {done}");
    // Sent a third time, it is answered from memory and does not run again.
    a.send_text(&command).await;
    let again = a.answer(700).await;
    assert_eq!(again["repeat"], true, "{again}");
    assert_eq!(again["result"], done["result"]);

    let seen = hall.watched(&code).await;
    assert_ne!(
        seen.0, seen_before.0,
        "{command} changed the game once stored"
    );
    hall.stop().await;
    a.close().await;
    b.close().await;

    // A restart rebuilds the game from the stored actions: exactly what was seen.
    let hall = TestHall::with(tempfile::tempdir().unwrap(), config).await;
    assert_eq!(
        hall.watched(&code).await.0,
        seen.0,
        "the stored game is the game the players saw"
    );
    let stored = hall.hall.store.running_games().await.unwrap();
    let actions = &stored
        .iter()
        .find(|g| g.start.room == code)
        .expect("the game is stored")
        .actions;
    assert_eq!(actions.len(), 1, "one action stored, once: {actions:?}");
    hall.stop().await;
}

/// P-DURABLE, P-FAIR-DICE: a roll that cannot be stored draws no die (see
/// [`a_refused_write_changes_nothing`]).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_a_roll_that_cannot_be_stored_changes_nothing_and_runs_once_retried() {
    a_refused_write_changes_nothing(
        "flight",
        json!({"seats": 2, "planes": 2}),
        |_| json!({"type": "roll", "entropy": common::entropy()}),
    )
    .await;
}

/// P-DURABLE: a jungle move that cannot be stored moves nothing (see
/// [`a_refused_write_changes_nothing`]).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_a_move_that_cannot_be_stored_changes_nothing_and_runs_once_retried() {
    a_refused_write_changes_nothing(
        "jungle",
        json!({}),
        |game| json!({"type": "move", "move": game["moves"][0]}),
    )
    .await;
}

/// P-DURABLE: a database that opens but cannot be written is a start-up error that says so,
/// not a hall that reports healthy and then fails every write.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_a_read_only_database_stops_the_hall_at_start() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        // A database made and migrated by an earlier run...
        let hall = TestHall::with(tempfile::tempdir().unwrap(), test_config(url.clone())).await;
        hall.stop().await;
        // ...opened read-only now (SQLite: the file read-only; PostgreSQL: the database).
        let read_only = if url.starts_with("postgres") {
            postgres_read_only(&url, true).await;
            url.clone()
        } else {
            format!("sqlite:{url}?mode=ro")
        };
        let Err(error) = hangar_hall::start(test_config(read_only)).await else {
            panic!("a hall started on a read-only database ({url})");
        };
        let message = format!("{error:#}");
        assert!(message.contains("cannot be written"), "{message}");
    }
}

/// P-DURABLE: the database file deleted while the hall runs (SQLite would write on into the
/// unlinked file, lost at the next start): the hall acknowledges nothing more and `/health`
/// says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_a_deleted_database_file_is_noticed_and_nothing_more_is_acknowledged() {
    let dir = tempfile::tempdir().unwrap();
    let path = sqlite_url(&dir);
    let hall = TestHall::with(tempfile::tempdir().unwrap(), test_config(path.clone())).await;
    let (status, health) = hall.get("/health").await;
    assert_eq!((status, &health["status"]), (200, &json!("ok")), "{health}");
    let (mut on_turn, _b, code) = hall
        .two_players("flight", json!({"seats": 2, "planes": 2}))
        .await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{path}{suffix}"));
    }
    let refused = on_turn
        .call(json!({"type": "roll", "room": code, "entropy": common::entropy()}))
        .await;
    assert_eq!(refused["type"], "error", "not acknowledged: {refused}");
    assert_eq!(refused["code"], "internal", "{refused}");
    let (status, health) = hall.get("/health").await;
    assert_eq!(status, 503, "{health}");
    assert_eq!(health["status"], "unhealthy", "{health}");
    assert!(
        health["reason"].as_str().unwrap().contains("is gone"),
        "{health}"
    );
    hall.stop().await;
}

/// P-DURABLE, P-AUTOPLAY: bots and auto-play whose writes fail (the write lock held past the
/// busy timeout mid-game) try again once the database takes writes: the game goes on to its
/// end, and its record replays with fair dice (`hangar verify`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_automatic_actions_refused_by_storage_are_retried_and_the_game_ends() {
    let dir = tempfile::tempdir().unwrap();
    let url = sqlite_url(&dir);
    let mut config = test_config(url.clone());
    config.bot_delay = std::time::Duration::from_millis(20);
    let hall = TestHall::with(tempfile::tempdir().unwrap(), config).await;
    let mut a = hall.guest("a").await;
    let code = a.create("flight", json!({"seats": 2, "planes": 2})).await;
    a.ok(json!({"type": "add_bot", "room": code, "seat": 1, "bot": "random"}))
        .await;
    a.ready().await;
    a.wait_for(|v| v["event"]["kind"] == "turn").await;
    a.ok(json!({"type": "autoplay", "room": code, "on": true}))
        .await;
    a.wait_for(|v| v["event"]["kind"] == "rolled").await;

    let locker = Locker::take(&url).await;
    // Past the busy timeout: the automatic actions' writes are refused meanwhile, and the
    // hall says so (its failure bound is the default 10 s, shorter than the lock).
    let health = hall.health_becomes(503).await;
    assert!(
        health["reason"]
            .as_str()
            .unwrap()
            .contains("writes have failed"),
        "{health}"
    );
    locker.release().await;

    let over = tokio::time::timeout(3 * WAIT, a.wait_for(|v| v["event"]["kind"] == "game_over"))
        .await
        .unwrap();
    let game_id = over["event"]["result"]["game_id"].as_i64().unwrap();
    let stored = hall.hall.store.game(game_id).await.unwrap().unwrap();
    assert_eq!(stored.status, "finished");
    let record =
        hangar_games::record::record_json(&stored).expect("the stored game forms a record");
    let verified = hangar_games::record::verify(&record).unwrap();
    assert!(verified.over, "the stored actions end the game");
    hall.stop().await;
}

/// P-DURABLE: writes that keep failing (SQLite's write lock held by another process past the
/// busy timeout, longer than the bound) make the hall unhealthy with the reason; new games
/// and actions are refused at once with `unavailable` and change nothing; once the database
/// takes writes again the hall recovers by itself and the refused command runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_storage_failing_longer_than_the_bound_is_reported_refused_and_recovered() {
    let dir = tempfile::tempdir().unwrap();
    let url = sqlite_url(&dir);
    let mut config = test_config(url.clone());
    config.storage_failure_bound = std::time::Duration::from_secs(1);
    let hall = TestHall::with(tempfile::tempdir().unwrap(), config).await;
    let (mut on_turn, _other, code) = hall
        .two_players("flight", json!({"seats": 2, "planes": 2}))
        .await;
    let seen_before = hall.watched(&code).await;
    // Signed in before the fault (a guest is a write too).
    let mut c = hall.guest("c").await;

    let locker = Locker::take(&url).await;
    let roll = json!({"type": "roll", "room": code, "id": 900, "entropy": common::entropy()});
    on_turn.send_text(&roll.to_string()).await;
    let first = tokio::time::timeout(2 * WAIT, on_turn.answer(900))
        .await
        .unwrap();
    assert_eq!(first["code"], "internal", "{first}");
    // The write waited past the busy timeout, longer than the bound: the storage is failing.
    let health = hall.health_becomes(503).await;
    assert_eq!(health["status"], "unhealthy");
    assert!(
        health["reason"]
            .as_str()
            .unwrap()
            .contains("writes have failed"),
        "{health}"
    );
    // Refused at once, changing nothing: the action, a new room, a quick match.
    on_turn.send_text(&roll.to_string()).await;
    let refused = on_turn.answer(900).await;
    assert_eq!(refused["code"], "unavailable", "{refused}");
    c.fails(
        json!({"type": "create_room", "game": "jungle"}),
        "unavailable",
    )
    .await;
    c.fails(
        json!({"type": "quick_match", "game": "jungle"}),
        "unavailable",
    )
    .await;
    assert_eq!(hall.watched(&code).await, seen_before);

    // The lock goes: the hall notices by itself, and the same command runs once.
    locker.release().await;
    let health = hall.health_becomes(200).await;
    assert_eq!(health["status"], "ok");
    on_turn.send_text(&roll.to_string()).await;
    let done = on_turn.answer(900).await;
    assert_eq!(done["type"], "ack", "{done}");
    assert_ne!(done["repeat"], true);
    hall.stop().await;
}

/// Sets the PostgreSQL database of `url` read-only (or writable again) for new sessions and
/// ends the hall's sessions, so that its next ones start under the setting.
async fn postgres_read_only(url: &str, on: bool) {
    use sqlx::PgConnection;
    let (base, name) = url.rsplit_once('/').unwrap();
    let mut admin = PgConnection::connect(&format!("{base}/postgres"))
        .await
        .unwrap();
    let value = if on { "on" } else { "off" };
    admin
        .execute(
            format!("ALTER DATABASE {name} SET default_transaction_read_only = {value}").as_str(),
        )
        .await
        .unwrap();
    admin
        .execute(
            format!(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                 WHERE datname = '{name}' AND pid <> pg_backend_pid()"
            )
            .as_str(),
        )
        .await
        .unwrap();
    admin.close().await.unwrap();
}

/// P-DURABLE on PostgreSQL: the database turned read-only while the hall runs (its sessions
/// ended, the new ones read-only) is a fault like any lasting write failure: the action is
/// refused and changes nothing, `/health` says the storage is failing, new games are refused,
/// and once the database is writable again the hall recovers and the command runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_a_postgres_database_turned_read_only_while_running_is_refused_then_recovered() {
    let Some(url) = common::fresh_postgres().await else {
        assert!(
            !common::under_ci(),
            "CI=true needs HANGAR_TEST_POSTGRES_URL"
        );
        eprintln!("HANGAR_TEST_POSTGRES_URL is not set: this PostgreSQL test did not run");
        return;
    };
    let mut config = test_config(url.clone());
    config.storage_failure_bound = std::time::Duration::from_secs(1);
    let hall = TestHall::with(tempfile::tempdir().unwrap(), config).await;
    // Red (seat 0) moves first.
    let (mut red, _yellow, code) = hall.two_players("jungle", json!({})).await;
    let first = hall.watched(&code).await.0["moves"][0]
        .as_str()
        .unwrap()
        .to_owned();
    let seen_before = hall.watched(&code).await;

    postgres_read_only(&url, true).await;
    let command = json!({"type": "move", "room": code, "move": first, "id": 901}).to_string();
    red.send_text(&command).await;
    let refused = red.answer(901).await;
    assert_eq!(refused["type"], "error", "{refused}");
    assert!(
        ["internal", "unavailable"].contains(&refused["code"].as_str().unwrap()),
        "{refused}"
    );
    let health = hall.health_becomes(503).await;
    assert!(
        health["reason"]
            .as_str()
            .unwrap()
            .contains("writes have failed"),
        "{health}"
    );
    red.send_text(&command).await;
    assert_eq!(red.answer(901).await["code"], "unavailable");
    red.fails(
        json!({"type": "create_room", "game": "flight"}),
        "unavailable",
    )
    .await;
    assert_eq!(hall.watched(&code).await, seen_before);

    postgres_read_only(&url, false).await;
    hall.health_becomes(200).await;
    red.send_text(&command).await;
    let done = red.answer(901).await;
    assert_eq!(done["type"], "ack", "{done}");
    assert_ne!(hall.watched(&code).await.0, seen_before.0);
    hall.stop().await;
}
