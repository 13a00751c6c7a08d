//! The action log (P-DURABLE, P-RECORD) on SQLite and, when HANGAR_TEST_POSTGRES_URL is set,
//! on PostgreSQL: logs longer than a chunk read back whole while running, after the store is
//! reopened and once finished; an append out of order is refused and changes nothing; the
//! journal is trimmed behind the chunks; a database made before the journal (one `actions`
//! table) is migrated with its logs intact.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::time::Duration;

use common::{any_pool, count_rows, databases};
use hangar_hall::Store;
use hangar_hall::store::{NewGame, Scoring};
use serde_json::json;
use sqlx::Row;

fn new_game(seed: u64) -> NewGame {
    NewGame {
        room: "LOG001".into(),
        game: "flight".into(),
        private: true,
        options: json!({"seats": 2}).to_string(),
        seats: json!([]).to_string(),
        seed: hangar_dice::Seed::from_u64(seed).to_string(),
        commitment: hangar_dice::Seed::from_u64(seed).commitment(),
        dice: hangar_dice::DiceScheme::PerRoll,
    }
}

fn action(game: i64, idx: i64) -> String {
    format!("{{\"g\":{game},\"i\":{idx}}}")
}

/// Appends actions `from..to` of `game`, in order.
async fn append(store: &Store, game: i64, from: i64, to: i64) {
    for idx in from..to {
        store
            .append_action(game, idx, action(game, idx))
            .await
            .unwrap();
    }
}

fn assert_log(actions: &[String], game: i64, length: i64, context: &str) {
    assert_eq!(actions.len() as i64, length, "{context}: length");
    for (idx, data) in actions.iter().enumerate() {
        assert_eq!(*data, action(game, idx as i64), "{context}: action {idx}");
    }
}

async fn running_log(store: &Store, game: i64) -> Vec<String> {
    let running = store.running_games().await.unwrap();
    running.into_iter().find(|g| g.id == game).unwrap().actions
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_long_logs_survive_chunking_and_reopening_on_every_database() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        let store = Store::open(&url).await.unwrap();
        let (long, short, ended) = (
            store.start_game(&new_game(1)).await.unwrap(),
            store.start_game(&new_game(2)).await.unwrap(),
            store.start_game(&new_game(3)).await.unwrap(),
        );
        // Three games acting at once, long enough for many chunks and journal trims.
        let tasks = [(long, 1_500), (short, 70), (ended, 900)].map(|(game, length)| {
            let store = store.clone();
            tokio::spawn(async move {
                for idx in 0..length {
                    store
                        .append_action(game, idx, action(game, idx))
                        .await
                        .unwrap();
                    if idx % 300 == 0 {
                        // Give the writer's chunking (every 50 ms) its turns.
                        tokio::time::sleep(Duration::from_millis(120)).await;
                    }
                }
            })
        });
        for task in tasks {
            task.await.unwrap();
        }
        assert_log(&running_log(&store, long).await, long, 1_500, &url);
        assert_log(&running_log(&store, short).await, short, 70, &url);
        store
            .finish_game(
                ended,
                &json!({"reason": "finished"}).to_string(),
                &[],
                Scoring::Practice,
            )
            .await
            .unwrap();
        let finished = store.game(ended).await.unwrap().unwrap();
        assert_eq!(finished.status, "finished");
        assert_log(&finished.actions, ended, 900, &url);
        store.close().await;

        // Reopened, every log is whole and the running games go on from where they were.
        let store = Store::open(&url).await.unwrap();
        assert_log(&running_log(&store, long).await, long, 1_500, &url);
        assert_log(&running_log(&store, short).await, short, 70, &url);
        assert_log(
            &store.game(ended).await.unwrap().unwrap().actions,
            ended,
            900,
            &url,
        );
        append(&store, long, 1_500, 1_540).await;
        append(&store, short, 70, 75).await;
        store
            .finish_game(
                long,
                &json!({"reason": "finished"}).to_string(),
                &[],
                Scoring::Practice,
            )
            .await
            .unwrap();
        store.close().await;

        let store = Store::open(&url).await.unwrap();
        assert_log(
            &store.game(long).await.unwrap().unwrap().actions,
            long,
            1_540,
            &url,
        );
        assert_log(&running_log(&store, short).await, short, 75, &url);
        store
            .finish_game(
                short,
                &json!({"reason": "finished"}).to_string(),
                &[],
                Scoring::Practice,
            )
            .await
            .unwrap();
        assert_log(
            &store.game(short).await.unwrap().unwrap().actions,
            short,
            75,
            &url,
        );
        // Every game so far is finished, its log in chunks. One more game plays on: the
        // journal keeps a bounded window of the latest actions, not the whole history (7,515
        // actions written in all).
        let fresh = store.start_game(&new_game(5)).await.unwrap();
        for from in (0..5_000).step_by(500) {
            append(&store, fresh, from, from + 500).await;
            // The writer chunks after a commit once 50 ms have passed since its last chunking:
            // a pause of at least that lets the next group's first commit chunk and trim. A
            // sleep never ends early, so a loaded machine can only make this surer.
            tokio::time::sleep(Duration::from_millis(120)).await;
        }
        store.close().await;
        let rows = count_rows(&url, "journal").await;
        assert!(rows < 3_000, "{rows} journal rows left ({url})");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_an_append_out_of_order_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        let store = Store::open(&url).await.unwrap();
        let game = store.start_game(&new_game(4)).await.unwrap();
        append(&store, game, 0, 3).await;
        for wrong in [5, 1, 2] {
            let refused = store.append_action(game, wrong, "{\"bad\":1}".into()).await;
            assert!(refused.is_err(), "action {wrong} after 0..3 ({url})");
        }
        append(&store, game, 3, 4).await;
        assert_log(&running_log(&store, game).await, game, 4, &url);
        store.close().await;
    }
}

/// Many games appending at once make batches of every size (SQLite's rows are bound in
/// statements padded to a power of two): every action is stored once, in order, and its text
/// exactly as given, quotes, backslashes, line breaks and non-ASCII characters included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_batches_of_any_size_store_every_text_exactly() {
    fn text(game: i64, idx: i64) -> String {
        json!({"g": game, "i": idx, "s": "a \"quote\", a \\ backslash,\na line, é ✈ 🎲"})
            .to_string()
    }
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        let store = Store::open(&url).await.unwrap();
        let mut games = Vec::new();
        for seed in 0..37 {
            games.push(store.start_game(&new_game(100 + seed)).await.unwrap());
        }
        let tasks = games.iter().map(|&game| {
            let store = store.clone();
            tokio::spawn(async move {
                for idx in 0..(game % 7 + 20) {
                    store
                        .append_action(game, idx, text(game, idx))
                        .await
                        .unwrap();
                }
            })
        });
        for task in tasks.collect::<Vec<_>>() {
            task.await.unwrap();
        }
        for reopened in [false, true] {
            let store = if reopened {
                Store::open(&url).await.unwrap()
            } else {
                store.clone()
            };
            for &game in &games {
                let log = running_log(&store, game).await;
                let expected: Vec<String> = (0..(game % 7 + 20)).map(|i| text(game, i)).collect();
                assert_eq!(log, expected, "game {game}, reopened {reopened} ({url})");
            }
            store.close().await;
        }
    }
}

/// P-DURABLE across an upgrade: a database written before the journal existed (migrations 1
/// and 2 only, actions in one `actions` table) is migrated by `Store::open` and loses nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_a_database_from_before_the_journal_keeps_its_logs() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        let dialect = if url.starts_with("postgres") {
            "postgres"
        } else {
            "sqlite"
        };
        // The migrations as they were: the first two only.
        let old = dir.path().join(format!("old-{dialect}"));
        std::fs::create_dir_all(&old).unwrap();
        let current = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("migrations")
            .join(dialect);
        for file in ["0001_init.sql", "0002_waiting_rooms.sql"] {
            std::fs::copy(current.join(file), old.join(file)).unwrap();
        }
        let pool = any_pool(&url).await;
        sqlx::migrate::Migrator::new(old.as_path())
            .await
            .unwrap()
            .run(&pool)
            .await
            .unwrap();
        let mut games = Vec::new();
        for (status, length) in [("finished", 40), ("running", 25), ("running", 0)] {
            let row = sqlx::query(
                "INSERT INTO games (room, game, private, options, seats, seed, commitment, status, started_at) \
                 VALUES ('OLD001', 'flight', 1, '{}', '[]', 'seed', 'commitment', $1, 0) RETURNING id",
            )
            .bind(status)
            .fetch_one(&pool)
            .await
            .unwrap();
            let id: i64 = row.try_get("id").unwrap();
            // Stored newest first: the migration must order by index, not by insertion.
            for idx in (0..length).rev() {
                sqlx::query("INSERT INTO actions (game_id, idx, data) VALUES ($1, $2, $3)")
                    .bind(id)
                    .bind(idx)
                    .bind(action(id, idx))
                    .execute(&pool)
                    .await
                    .unwrap();
            }
            games.push((id, length));
        }
        pool.close().await;

        let store = Store::open(&url).await.unwrap();
        let [(finished, _), (running, _), (empty, _)] = games[..] else {
            unreachable!()
        };
        assert_log(
            &store.game(finished).await.unwrap().unwrap().actions,
            finished,
            40,
            &url,
        );
        assert_log(&running_log(&store, running).await, running, 25, &url);
        assert_log(&running_log(&store, empty).await, empty, 0, &url);
        // The running game goes on from its old log.
        assert!(
            store
                .append_action(running, 24, action(running, 24))
                .await
                .is_err()
        );
        append(&store, running, 25, 30).await;
        assert_log(&running_log(&store, running).await, running, 30, &url);
        store.close().await;
    }
}
