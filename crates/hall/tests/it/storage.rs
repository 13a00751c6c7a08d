//! The storage layer on SQLite and, when HANGAR_TEST_POSTGRES_URL is set (./test.sh sets it),
//! on a real PostgreSQL server: players and tokens (P-GUEST, P-ACCOUNT), games, action logs
//! (P-DURABLE), results and scores in one transaction (P-SCORE), records (P-RECORD); and a
//! whole hall on each database: a game, then a restart that restores a running game; waiting
//! rooms kept across restarts.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use common::{TestHall, databases, sqlite_url, test_config};
use hangar_games::LoggedAct;
use hangar_hall::Store;
use hangar_hall::store::{NewGame, PairScope, ScoreLine, Scoring, WaitingRoom};
use hangar_protocol::{BoardOrder, GameKind};
use serde_json::json;
use sqlx::Row;

fn unique(prefix: &str) -> String {
    format!("{prefix}{}", &hangar_hall::accounts::new_token()[..8])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_store_round_trips_on_every_database() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        let store = Store::open(&url).await.unwrap();
        // Players and tokens.
        let (guest, token) = store.create_player("guest", None).await.unwrap();
        assert_eq!(guest.score, 1000);
        assert_eq!(
            store.player_by_token(&token).await.unwrap(),
            Some(guest.clone())
        );
        assert_eq!(store.player_by_token(&"0".repeat(32)).await.unwrap(), None);
        let name = unique("acct");
        let (account, _) = store
            .create_player(&name, Some("$argon2id$fake"))
            .await
            .unwrap();
        assert!(store.name_taken(&name.to_uppercase()).await.unwrap());
        let (found, hash) = store.account(&name).await.unwrap().unwrap();
        assert_eq!((found.id, hash.as_str()), (account.id, "$argon2id$fake"));
        assert!(
            store.create_player(&name, Some("x")).await.is_err(),
            "names are unique"
        );
        store
            .upgrade_guest(guest.id, &unique("up"), "$argon2id$h")
            .await
            .unwrap();
        assert!(!store.player(guest.id).await.unwrap().unwrap().guest);

        // A game, its actions appended concurrently in order, then the result.
        let game = NewGame {
            room: "ROOM01".into(),
            game: "flight".into(),
            private: false,
            options: json!({"seats": 2}).to_string(),
            seats: json!([]).to_string(),
            seed: hangar_dice::Seed::from_u64(1).to_string(),
            commitment: hangar_dice::Seed::from_u64(1).commitment(),
            dice: hangar_dice::DiceScheme::PerRoll,
        };
        let id = store.start_game(&game).await.unwrap();
        // Each game's actions in order (as its room sends them), two games at once.
        let other = store.start_game(&game).await.unwrap();
        let mut writes = Vec::new();
        for game_id in [id, other] {
            let store = store.clone();
            writes.push(tokio::spawn(async move {
                for idx in 0..50i64 {
                    let data = format!("{{\"n\":{idx}}}");
                    store.append_action(game_id, idx, data).await.unwrap();
                }
            }));
        }
        for w in writes {
            w.await.unwrap();
        }
        let running = store.running_games().await.unwrap();
        let stored = running.iter().find(|g| g.id == id).unwrap();
        assert_eq!(stored.actions.len(), 50);
        assert_eq!(stored.actions[7], "{\"n\":7}");
        assert_eq!(stored.start.seed, game.seed);
        let lines = [
            ScoreLine {
                player_id: guest.id,
                seat: 0,
                delta: 40,
                rank: 1,
                team: 0,
                won: true,
            },
            ScoreLine {
                player_id: account.id,
                seat: 1,
                delta: -40,
                rank: 2,
                team: 1,
                won: false,
            },
        ];
        let settled = store
            .finish_game(
                id,
                "{\"reason\":\"finished\"}",
                &lines,
                Scoring::Rated(GameKind::Flight),
            )
            .await
            .unwrap();
        let scores: Vec<i64> = settled.iter().map(|s| s.score).collect();
        assert_eq!(scores, vec![1040, 960]);
        // P-RATING: both rated in the same transaction, the winner up, the loser down.
        let (before, after) = settled[0].rating.unwrap();
        assert!(after.rating > before.rating && after.games == 1);
        let (before, after) = settled[1].rating.unwrap();
        assert!(after.rating < before.rating);
        assert!(
            store
                .running_games()
                .await
                .unwrap()
                .iter()
                .all(|g| g.id != id)
        );
        let mine = store.player_games(account.id, 10, true).await.unwrap();
        assert_eq!((mine[0].game_id, mine[0].delta, mine[0].rank), (id, -40, 2));
        // P-SCORE: a failing transaction changes no score (the same game cannot be scored twice).
        assert!(
            store
                .finish_game(id, "{}", &lines, Scoring::Rated(GameKind::Flight))
                .await
                .is_err()
        );
        assert_eq!(store.player(guest.id).await.unwrap().unwrap().score, 1040);
        let board = store
            .leaderboard(Some(GameKind::Flight), BoardOrder::Rating, true, 0, 1000, 1)
            .await
            .unwrap();
        assert_eq!(board.len(), 2, "only the two rated players");
        assert_eq!(board[0].0.id, guest.id);
        let rated = |i: usize| board[i].1.unwrap();
        assert_eq!(
            rated(0),
            settled[0].rating.unwrap().1,
            "rated once, not twice"
        );
        store.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_waiting_rooms_are_kept_on_every_database() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        let store = Store::open(&url).await.unwrap();
        let code = unique("W");
        let mut room = WaitingRoom {
            code: code.clone(),
            game: "flight".into(),
            private: true,
            options: json!({"seats": 2}).to_string(),
            host: Some(7),
            seats: json!([{"player_id": 7, "bot": null, "ready": false}]).to_string(),
        };
        store.save_waiting_room(&room).await.unwrap();
        room.seats = json!([{"player_id": 7, "bot": null, "ready": true}]).to_string();
        store.save_waiting_room(&room).await.unwrap();
        let kept = store.waiting_rooms().await.unwrap();
        let mine: Vec<_> = kept.iter().filter(|r| r.code == code).collect();
        assert_eq!(
            mine,
            vec![&room],
            "one row per room, the latest state ({url})"
        );

        // A game started under that code takes over, even if the row was left behind.
        let game = NewGame {
            room: code.clone(),
            game: "flight".into(),
            private: true,
            options: room.options.clone(),
            seats: json!([]).to_string(),
            seed: hangar_dice::Seed::from_u64(2).to_string(),
            commitment: hangar_dice::Seed::from_u64(2).commitment(),
            dice: hangar_dice::DiceScheme::PerRoll,
        };
        let id = store.start_game(&game).await.unwrap();
        let kept = store.waiting_rooms().await.unwrap();
        assert!(kept.iter().all(|r| r.code != code), "the running game wins");
        store
            .finish_game(
                id,
                &json!({"reason": "finished"}).to_string(),
                &[],
                Scoring::Practice,
            )
            .await
            .unwrap();
        assert!(
            store
                .waiting_rooms()
                .await
                .unwrap()
                .iter()
                .any(|r| r.code == code)
        );

        store.forget_waiting_room(&code).await.unwrap();
        let kept = store.waiting_rooms().await.unwrap();
        assert!(kept.iter().all(|r| r.code != code), "forgotten");
        store.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_a_hall_restores_running_games_on_every_database() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        restores_a_running_game(&url, false).await;
    }
}

/// P-DURABLE across an upgrade: a running game whose actions an older build stored as JSON
/// lines goes on where it was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_a_game_an_older_build_stored_as_json_is_restored_on_every_database() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        restores_a_running_game(&url, true).await;
    }
}

/// Plays a game to a stable point, stops the hall, starts another on the same database and
/// checks that the game goes on where it was; with `as_json`, the stored actions are first
/// rewritten in the JSON form of the builds before compact lines.
async fn restores_a_running_game(url: &str, as_json: bool) {
    let config = test_config(url.to_owned());
    let hall = TestHall::with(tempfile::tempdir().unwrap(), config.clone()).await;
    let mut a = hall.guest("a").await;
    let code = a.start_flight_against_a_random_bot().await;
    a.event("game_started").await;
    // Play until it is the person's turn again after at least one action: then nothing
    // moves until the person acts, and the state to compare is stable.
    let mut acted = false;
    loop {
        let turn = a.event("turn").await;
        if turn["event"]["seat"] == 0 {
            if acted {
                break;
            }
            let command = if turn["event"]["need"] == "roll" {
                json!({"type": "roll", "room": code, "entropy": common::entropy()})
            } else {
                let rolled = a
                    .wait_for(|v| v["event"]["kind"] == "rolled" && v["event"]["seat"] == 0)
                    .await;
                let moves = rolled["event"]["moves"].clone();
                json!({"type": "move", "room": code, "plane": moves[0]["plane"]})
            };
            a.ok(command).await;
            acted = true;
        }
    }
    let mut w = hall.client().await;
    w.ok(json!({"type": "spectate", "room": code})).await;
    let before = w.wait_for(|v| v["type"] == "snapshot").await["state"]["game"].clone();
    let token = a.token.clone().unwrap();
    w.close().await;
    // Stopped while the player is still connected: closing first would make them away and
    // let auto-play act for them (P-DISCONNECT) after the snapshot was taken.
    hall.stop().await;
    a.close().await;
    if as_json {
        store_actions_as_json(url).await;
    }

    let hall = TestHall::with(tempfile::tempdir().unwrap(), config).await;
    let mut a = hall.client().await;
    let me = a.ok(json!({"type": "auth", "token": token})).await;
    assert_eq!(
        me["rooms"],
        json!([code]),
        "the seat is kept across the restart"
    );
    a.ok(json!({"type": "join_room", "room": code})).await;
    let after = a.wait_for(|v| v["type"] == "snapshot").await["state"]["game"].clone();
    assert_eq!(
        after, before,
        "the game goes on where it was ({url}, stored as JSON: {as_json})"
    );
    a.ok(json!({"type": "autoplay", "room": code, "on": true}))
        .await;
    let over = a.event("game_over").await;
    assert_eq!(
        over["event"]["result"]["players"][0]["player_id"],
        me["player"]["id"]
    );
    hall.stop().await;
}

/// Rewrites every action stored in the database at `url` (journal rows and chunk lines) as
/// the JSON that builds before compact lines wrote, as an older hall would have left them.
async fn store_actions_as_json(url: &str) {
    let pool = common::any_pool(url).await;
    let as_json = |lines: &str| -> String {
        let lines: Vec<String> = lines
            .split('\n')
            .map(|line| {
                assert!(!line.starts_with('{'), "stored as a compact line: {line}");
                serde_json::to_string(&LoggedAct::from_line(line).unwrap()).unwrap()
            })
            .collect();
        lines.join("\n")
    };
    let mut rewritten = 0;
    for row in sqlx::query("SELECT seq, data FROM journal")
        .fetch_all(&pool)
        .await
        .unwrap()
    {
        let (seq, data): (i64, String) = (row.get("seq"), row.get("data"));
        sqlx::query("UPDATE journal SET data = $1 WHERE seq = $2")
            .bind(as_json(&data))
            .bind(seq)
            .execute(&pool)
            .await
            .unwrap();
        rewritten += 1;
    }
    for row in sqlx::query("SELECT game_id, first_idx, data FROM action_chunks")
        .fetch_all(&pool)
        .await
        .unwrap()
    {
        let (game, first, data): (i64, i64, String) =
            (row.get("game_id"), row.get("first_idx"), row.get("data"));
        sqlx::query("UPDATE action_chunks SET data = $1 WHERE game_id = $2 AND first_idx = $3")
            .bind(as_json(&data))
            .bind(game)
            .bind(first)
            .execute(&pool)
            .await
            .unwrap();
        rewritten += 1;
    }
    assert!(rewritten > 0, "the game stored actions");
    pool.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_a_command_sent_again_after_a_restart_is_answered_once() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        let config = test_config(url.clone());
        let hall = TestHall::with(tempfile::tempdir().unwrap(), config.clone()).await;
        let mut a = hall.client().await;
        let me = a
            .ok(json!({"type": "guest", "name": "a", "client": "tab-1"}))
            .await;
        let token = me["token"].as_str().unwrap().to_owned();
        let code = a.start_flight_against_a_random_bot().await;
        a.wait_for(|v| v["event"]["kind"] == "turn" && v["event"]["seat"] == 0)
            .await;
        // The roll is stored; suppose its acknowledgement was lost with the server.
        let roll = json!({"type": "roll", "room": code, "id": 500, "entropy": common::entropy()})
            .to_string();
        a.send_text(&roll).await;
        let first = a.answer(500).await;
        assert_eq!(first["type"], "ack", "{first}");
        hall.stop().await;
        a.close().await;

        let hall = TestHall::with(tempfile::tempdir().unwrap(), config).await;
        let mut a = hall.client().await;
        a.ok(json!({"type": "auth", "token": token, "client": "tab-1"}))
            .await;
        a.ok(json!({"type": "join_room", "room": code})).await;
        a.send_text(&roll).await;
        let again = a.answer(500).await;
        assert_eq!(
            again["type"], "ack",
            "not run again, not refused ({url}): {again}"
        );
        assert_eq!(again["repeat"], true, "answered from the log ({url})");
        assert_eq!(again["result"], first["result"], "the same answer ({url})");
        // Another client of the same player has its own ids: 500 is new there.
        let mut other = hall.client().await;
        other
            .ok(json!({"type": "auth", "token": token, "client": "tab-2"}))
            .await;
        other.send_text(&roll).await;
        let fresh = other.answer(500).await;
        assert_ne!(fresh["repeat"], true, "{fresh}");
        hall.stop().await;
    }
}

/// A burst of game starts and waiting-room writes from many rooms at once (the writer stores
/// each kind with one statement per batch): every game gets its own id and its own settings
/// back, and each room's row ends as its last write left it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_a_burst_of_starts_and_waiting_rooms_is_stored_whole_on_every_database() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        let store = Store::open(&url).await.unwrap();
        let mut tasks = Vec::new();
        for n in 0..60u64 {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                let code = format!("B{n:05}");
                let mut room = WaitingRoom {
                    code: code.clone(),
                    game: "flight".into(),
                    private: n % 2 == 0,
                    options: json!({"seats": 4}).to_string(),
                    host: (n % 3 != 0).then_some(n as i64),
                    seats: json!([{"ready": false}]).to_string(),
                };
                store.save_waiting_room(&room).await.unwrap();
                room.seats = json!([{"ready": true}]).to_string();
                store.save_waiting_room(&room).await.unwrap();
                if n % 4 == 0 {
                    // Some rooms start their game; the others keep waiting.
                    let seed = hangar_dice::Seed::from_u64(1_000 + n);
                    let game = NewGame {
                        room: code.clone(),
                        game: "flight".into(),
                        private: room.private,
                        options: room.options.clone(),
                        seats: json!([n]).to_string(),
                        seed: seed.to_string(),
                        commitment: seed.commitment(),
                        dice: hangar_dice::DiceScheme::PerRoll,
                    };
                    let id = store.start_game(&game).await.unwrap();
                    store.forget_waiting_room(&code).await.unwrap();
                    (room, Some((id, game)))
                } else {
                    (room, None)
                }
            }));
        }
        let mut results = Vec::new();
        for task in tasks {
            results.push(task.await.unwrap());
        }
        let waiting = store.waiting_rooms().await.unwrap();
        let mut ids = std::collections::HashSet::new();
        for (room, started) in results {
            let kept = waiting.iter().find(|w| w.code == room.code);
            match started {
                Some((id, game)) => {
                    assert!(ids.insert(id), "game ids are distinct ({url})");
                    assert!(kept.is_none(), "{} forgotten ({url})", room.code);
                    let stored = store.game(id).await.unwrap().unwrap();
                    assert_eq!(stored.start.room, game.room, "{url}");
                    assert_eq!(stored.start.seed, game.seed, "{url}");
                    assert_eq!(stored.start.seats, game.seats, "{url}");
                    assert_eq!(stored.status, "running");
                }
                None => assert_eq!(kept, Some(&room), "the last write counts ({url})"),
            }
        }
        assert_eq!(ids.len(), 15);
        store.close().await;
    }
}

/// P-DURABLE, protocol §5: a room rebuilt after a restart never numbers its events below a
/// version it had before: a client that comes back with its last version gets a snapshot at
/// a higher version, not events of another numbering read as the continuation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_a_rebuilt_room_never_numbers_its_events_below_what_clients_saw() {
    let dir = tempfile::tempdir().unwrap();
    let config = test_config(sqlite_url(&dir));
    let hall = TestHall::with(tempfile::tempdir().unwrap(), config.clone()).await;
    let (mut red, yellow, code) = hall.two_players("jungle", json!({})).await;
    for _ in 0..3 {
        red.ok(json!({"type": "chat", "room": code, "text": "hello"}))
            .await;
    }
    red.event("chat").await;
    let seen = red.version;
    assert!(seen > 0);
    let token = red.token.clone().unwrap();
    hall.stop().await;
    drop((red, yellow));

    let hall = TestHall::with(tempfile::tempdir().unwrap(), config).await;
    let mut red = hall.client().await;
    red.ok(json!({"type": "auth", "token": token})).await;
    let joined = red
        .ok(json!({"type": "join_room", "room": code, "since": seen}))
        .await;
    assert_eq!(joined["resumed"], false, "{joined}");
    // The join's own version, too, is at least the client's since (as across a cluster's
    // takeover, hangar's hall_cluster.rs, which needs PostgreSQL).
    assert!(
        joined["v"].as_u64().unwrap() >= seen,
        "the join's version {} is at least the client's since {seen}",
        joined["v"]
    );
    let snapshot = red.wait_for(|v| v["type"] == "snapshot").await;
    assert!(
        snapshot["v"].as_u64().unwrap() > seen,
        "the rebuilt room's version {} is above the {seen} the client saw",
        snapshot["v"]
    );
}

/// New guests named after `names` (made unique), their ids in order.
async fn new_players<const N: usize>(store: &Store, names: [&str; N]) -> [i64; N] {
    let mut ids = [0; N];
    for (id, name) in ids.iter_mut().zip(names) {
        *id = store.create_player(&unique(name), None).await.unwrap().0.id;
    }
    ids
}

/// A jungle game started now (stored as running); its id.
async fn started_game(store: &Store) -> i64 {
    let game = NewGame {
        room: "BOARD1".into(),
        game: "jungle".into(),
        private: false,
        options: json!({}).to_string(),
        seats: json!([]).to_string(),
        seed: hangar_dice::Seed::from_u64(2).to_string(),
        commitment: hangar_dice::Seed::from_u64(2).commitment(),
        dice: hangar_dice::DiceScheme::PerRoll,
    };
    store.start_game(&game).await.unwrap()
}

/// A two-player jungle game between `winner` and `loser`, started, finished and rated.
async fn rated_jungle_game(store: &Store, winner: i64, loser: i64) {
    let id = started_game(store).await;
    let line = |player_id, seat: usize, won: bool| ScoreLine {
        player_id,
        seat: seat as i64,
        delta: if won { 4 } else { -4 },
        rank: if won { 1 } else { 2 },
        team: seat,
        won,
    };
    let lines = [line(winner, 0, true), line(loser, 1, false)];
    store
        .finish_game(
            id,
            "{\"reason\":\"den\"}",
            &lines,
            Scoring::Rated(GameKind::Jungle),
        )
        .await
        .unwrap();
}

/// P-RATING: by rating, the players whose rating is provisional come after all the others,
/// however high their one lucky game put them; by score nothing changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_rating_provisional_players_come_after_established_ones_on_every_database() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        let store = Store::open(&url).await.unwrap();
        let ids = new_players(&store, ["steady", "stayer", "lucky", "newbie"]).await;
        let [steady, stayer, lucky, newbie] = ids;
        // Steady beats stayer two games in three until both ratings are established; stayer
        // ends below 1500.
        for i in 0..30 {
            if i % 3 == 2 {
                rated_jungle_game(&store, stayer, steady).await;
            } else {
                rated_jungle_game(&store, steady, stayer).await;
            }
        }
        // Lucky wins one game against a newcomer: a provisional rating above stayer's.
        rated_jungle_game(&store, lucky, newbie).await;
        let board = store
            .leaderboard(Some(GameKind::Jungle), BoardOrder::Rating, true, 0, 100, 1)
            .await
            .unwrap();
        let rating = |id: i64| board.iter().find(|(p, _)| p.id == id).unwrap().1.unwrap();
        assert!(
            !rating(stayer).provisional(GameKind::Jungle),
            "{:?}",
            rating(stayer)
        );
        assert!(rating(lucky).provisional(GameKind::Jungle));
        assert!(rating(lucky).rating > rating(stayer).rating);
        let order: Vec<i64> = board
            .iter()
            .map(|(p, _)| p.id)
            .filter(|id| ids.contains(id))
            .collect();
        assert_eq!(order, vec![steady, stayer, lucky, newbie]);
        store.close().await;
    }
}

/// P-ABORT: the pair cap counts the games of the busiest pair of a table that were decided to
/// count when they started (running ones included), per scope, in one query.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_the_busiest_pair_of_a_table_is_counted_on_every_database() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        let store = Store::open(&url).await.unwrap();
        let [a, b, c, d] = new_players(&store, ["pa", "pb", "pc", "pd"]).await;
        let now = hangar_hall::time::now_ms();
        let decide = |people: Vec<i64>, scope: PairScope, at: i64| {
            let store = &store;
            async move {
                let game = started_game(store).await;
                store
                    .decide_pair_cap(game, &people, scope, 3, at)
                    .await
                    .unwrap()
            }
        };
        for _ in 0..2 {
            assert!(decide(vec![a, b], PairScope::Day, now).await, "{url}");
        }
        for _ in 0..3 {
            assert!(decide(vec![d, c], PairScope::Day, now).await, "{url}");
        }
        assert!(decide(vec![c, a], PairScope::Day, now).await, "{url}");
        // A fourth game of c and d is decided practice, and counts no further.
        assert!(!decide(vec![c, d], PairScope::Day, now).await, "{url}");
        // An arena counts its own games.
        assert!(decide(vec![c, d], PairScope::Arena(7), now).await, "{url}");
        let most = |people: Vec<i64>, scope: PairScope, at: i64| {
            let store = &store;
            async move {
                store
                    .most_counted_games_of_a_pair(&people, scope, at)
                    .await
                    .unwrap()
            }
        };
        assert_eq!(
            most(vec![a, b, c, d], PairScope::Day, now).await,
            3,
            "{url}"
        );
        assert_eq!(most(vec![b, a], PairScope::Day, now).await, 2, "{url}");
        assert_eq!(most(vec![a, c, b], PairScope::Day, now).await, 2, "{url}");
        assert_eq!(most(vec![a, c], PairScope::Day, now).await, 1, "{url}");
        assert_eq!(most(vec![b, d], PairScope::Day, now).await, 0, "{url}");
        assert_eq!(most(vec![a], PairScope::Day, now).await, 0, "{url}");
        assert_eq!(most(vec![c, d], PairScope::Arena(7), now).await, 1, "{url}");
        assert_eq!(most(vec![c, d], PairScope::Arena(8), now).await, 0, "{url}");
        // The hall's window is 24 hours from the game's start.
        let tomorrow = now + PairScope::DAY_MS + 1;
        assert_eq!(
            most(vec![a, b, c, d], PairScope::Day, tomorrow).await,
            0,
            "{url}"
        );
        assert_eq!(
            most(vec![c, d], PairScope::Arena(7), tomorrow).await,
            1,
            "{url}"
        );
        assert!(decide(vec![c, d], PairScope::Day, tomorrow).await, "{url}");
    }
}

/// P-ABORT: games of one pair that start at once are decided one after the other: with two
/// counted games behind them, of eight starting together exactly one is the third.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_games_of_a_pair_starting_at_once_count_at_most_the_cap_on_every_database() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        let store = std::sync::Arc::new(Store::open(&url).await.unwrap());
        let [a, b] = new_players(&store, ["ra", "rb"]).await;
        let now = hangar_hall::time::now_ms();
        for _ in 0..2 {
            let game = started_game(&store).await;
            assert!(
                store
                    .decide_pair_cap(game, &[a, b], PairScope::Day, 3, now)
                    .await
                    .unwrap()
            );
        }
        let mut games = Vec::new();
        for _ in 0..8 {
            games.push(started_game(&store).await);
        }
        let racers: Vec<_> = games
            .iter()
            .map(|&game| {
                let store = store.clone();
                tokio::spawn(async move {
                    store
                        .decide_pair_cap(game, &[b, a], PairScope::Day, 3, now)
                        .await
                        .unwrap()
                })
            })
            .collect();
        let mut counted = 0;
        for racer in racers {
            counted += usize::from(racer.await.unwrap());
        }
        assert_eq!(counted, 1, "{url}: exactly one more game counts");
        for game in games {
            assert!(store.pair_decision(game).await.unwrap().is_some(), "{url}");
        }
    }
}
