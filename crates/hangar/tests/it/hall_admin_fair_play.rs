//! The moderator's tools of fair play against a running `hangar serve` (SQLite, and
//! PostgreSQL when HANGAR_TEST_POSTGRES_URL is set): a farmer plays fresh puppets (an account
//! and guests) through the protocol, each puppet resigning after its first decisions;
//! `hangar admin fair-play` names the pair, the early games and the farmer with the game ids,
//! and `hangar admin ban --refund` gives the puppets back exactly the score and rating they
//! lost, once, written in the record.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::hall_common;

use hall_common::{Client, PLAYED, Server, admin, admin_ok, databases, guest, play, snapshot_game};
use serde_json::{Value, json};

/// Registers an account: the client and the player's id.
async fn register(port: u16, name: &str) -> (Client, i64) {
    let mut c = Client::connect(port).await;
    let r = c
        .ok(json!({"type": "register", "name": name, "password": "correct horse"}))
        .await;
    c.token = r["token"].as_str().unwrap().to_owned();
    let id = r["player"]["id"].as_i64().unwrap();
    (c, id)
}

/// A guest: the client and the player's id.
async fn puppet_guest(port: u16, name: &str) -> (Client, i64) {
    let mut c = Client::connect(port).await;
    let r = c.ok(json!({"type": "guest", "name": name})).await;
    c.token = r["token"].as_str().unwrap().to_owned();
    (c, r["player"]["id"].as_i64().unwrap())
}

/// A player's score and rating of `game` (null before any rated game) as their profile shows.
async fn figures(asker: &mut Client, player: i64, game: &str) -> (i64, Value) {
    let profile = asker
        .ok(json!({"type": "profile", "player_id": player}))
        .await;
    let rating = profile["stats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["game"] == game)
        .map_or(Value::Null, |s| s["rating"]["rating"].clone());
    (profile["player"]["score"].as_i64().unwrap(), rating)
}

/// `games` games of `game` in one room that `winner` opens and `loser` joins: in each, both
/// make `steps` decisions between them (3 or more each: the game counts), then the loser
/// resigns as soon as the game allows (flight: after 15 turns). The games' ids; both leave
/// the room after.
async fn farm(
    port: u16,
    winner: Client,
    loser: Client,
    game: &str,
    options: Value,
    steps: usize,
    games: usize,
) -> (Client, Client, Vec<i64>) {
    let mut players = vec![winner, loser];
    let created = players[0]
        .ok(json!({"type": "create_room", "game": game, "options": options}))
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    let joined = players[1]
        .ok(json!({"type": "join_room", "room": room}))
        .await;
    players[0].seat = 0;
    players[1].seat = joined["seat"].as_u64().unwrap();
    let mut ids = Vec::new();
    for _ in 0..games {
        for p in &mut players {
            p.room = room.clone();
            p.ok(json!({"type": "ready", "room": room, "ready": true}))
                .await;
        }
        let started = players[0]
            .wait_for(|v| v["event"]["kind"] == "game_started")
            .await;
        let view = started["event"]["game"].clone();
        assert!(
            play(&mut players, &room, view, steps).await.is_none(),
            "the game goes on until the resignation"
        );
        loop {
            let resign = json!({"type": "resign", "room": room});
            let answer = send(&mut players[1], resign).await;
            if answer["type"] == "ack" {
                break;
            }
            assert_eq!(answer["code"], "too_early", "{answer}");
            let view = snapshot_game(port, &room).await;
            assert!(play(&mut players, &room, view, 1).await.is_none());
        }
        let mut id = 0;
        for p in &mut players {
            let over = p.wait_for(|v| v["event"]["kind"] == "game_over").await;
            let result = &over["event"]["result"];
            assert_eq!(result["reason"], "resigned", "{result}");
            assert_eq!(result["practice"], false, "a scored game: {result}");
            assert_eq!(result["aborted"], false, "a scored game: {result}");
            id = result["game_id"].as_i64().unwrap();
        }
        ids.push(id);
    }
    for p in &mut players {
        p.ok(json!({"type": "leave_room", "room": room})).await;
    }
    let loser = players.pop().unwrap();
    let winner = players.pop().unwrap();
    (winner, loser, ids)
}

/// Runs `hangar admin fair-play --json ARGS…`: the report.
fn report(db: &str, args: &[&str]) -> Value {
    let mut all = vec!["fair-play", "--json"];
    all.extend_from_slice(args);
    let done = admin_ok(db, &all);
    assert_eq!(done["done"], "fair_play", "{done}");
    done["report"].clone()
}

fn ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect()
}

/// What the farming scenario leaves: the hall, its database, the players' ids and figures,
/// and the games.
struct Farmed {
    server: Server,
    db: String,
    watcher: Client,
    farmer_id: i64,
    /// vic (an account with a game of its own before), pup1 and pup2 (guests).
    puppets: [i64; 3],
    /// Each puppet's (score, jungle rating) and (score, flight rating) before the farmer's
    /// games (a rating is null before any rated game of that kind).
    before: Vec<((i64, Value), (i64, Value))>,
    /// Each puppet's (score, jungle rating) after them.
    lost: Vec<(i64, Value)>,
    /// The honest game vic won before.
    honest_game: i64,
    /// The farmer's 3 games against vic.
    vic_games: Vec<i64>,
    /// Every game the farmer won, in id order.
    farmed: Vec<i64>,
}

/// A farmer and its puppets, played through the protocol: vic (an account that won an honest
/// game first) loses 3 jungle games to the farmer (the pair's cap), pup2 (a fresh guest) one,
/// pup1 (a fresh guest) a flight game at stake 300 — each puppet resigning as early as the
/// game allows, once the farmer made 3 or more decisions of its own (so that every game is
/// scored).
async fn farmed(db: String) -> Farmed {
    let server = Server::start(&db, PLAYED).await;
    let port = server.port;
    let (farmer, farmer_id) = register(port, "farmer").await;
    let (vic, vic_id) = register(port, "vic").await;
    let (honest, _) = register(port, "honest").await;
    let (vic, _, honest_game) = farm(port, vic, honest, "jungle", json!({}), 6, 1).await;
    let (p1, p1_id) = puppet_guest(port, "pup1").await;
    let (p2, p2_id) = puppet_guest(port, "pup2").await;
    let puppets = [vic_id, p1_id, p2_id];
    let mut watcher = guest(port, "watcher").await;
    let mut before = Vec::new();
    for id in puppets {
        before.push((
            figures(&mut watcher, id, "jungle").await,
            figures(&mut watcher, id, "flight").await,
        ));
    }
    assert!(before[0].0.1.is_number(), "vic is rated: {:?}", before[0]);
    assert_eq!(before[1].0, (1000, Value::Null), "a fresh guest");

    let (farmer, _, vic_games) = farm(port, farmer, vic, "jungle", json!({}), 6, 3).await;
    let (farmer, _, p2_games) = farm(port, farmer, p2, "jungle", json!({}), 6, 1).await;
    let flight = json!({"seats": 2, "stake": 300});
    let (_farmer, _, p1_games) = farm(port, farmer, p1, "flight", flight, 20, 1).await;
    let mut farmed: Vec<i64> = [&vic_games[..], &p2_games, &p1_games].concat();
    farmed.sort_unstable();
    let mut lost = Vec::new();
    for id in puppets {
        lost.push(figures(&mut watcher, id, "jungle").await);
    }
    assert!(lost[0].0 < before[0].0.0, "vic lost score: {lost:?}");
    assert!(lost[2].0 < 1000, "pup2 lost score: {lost:?}");
    let flight_lost = figures(&mut watcher, p1_id, "flight").await;
    assert!(flight_lost.0 < 1000, "pup1 lost score: {flight_lost:?}");
    Farmed {
        server,
        db,
        watcher,
        farmer_id,
        puppets,
        before,
        lost,
        honest_game: honest_game[0],
        vic_games,
        farmed,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_admin_fair_play_report_lists_the_pair_the_early_games_and_the_farmer_with_their_ids()
 {
    let dir = tempfile::tempdir().unwrap();
    for db in databases(&dir).await {
        let f = farmed(db).await;
        let (db, [vic_id, p1_id, _], farmer_id) = (&f.db, f.puppets, f.farmer_id);
        let found = report(db, &[]);
        eprintln!(
            "DEBUG {}",
            report(db, &["--early-flight-decisions", "100000"])["early"]
        );
        // The pair with its 3 games (vic played the honest account once only).
        let pairs = found["pairs"].as_array().unwrap();
        assert_eq!(
            pairs.len(),
            1,
            "only farmer and vic played 3 games: {found}"
        );
        let pair = &pairs[0];
        assert_eq!(pair["players"][0]["id"], farmer_id, "{pair}");
        assert_eq!(pair["players"][1]["id"], vic_id, "{pair}");
        assert_eq!(pair["wins"], json!([3, 0]), "{pair}");
        assert_eq!(ids(&pair["games"]), f.vic_games);
        // Every game a puppet resigned within its first decisions, the honest one too.
        let early: Vec<i64> = found["early"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["game_id"].as_i64().unwrap())
            .collect();
        let mut expected = vec![f.honest_game];
        expected.extend(&f.farmed);
        assert_eq!(early, expected, "{found}");
        for game in found["early"].as_array().unwrap() {
            assert_eq!(game["reason"], "resigned", "{game}");
            let seats = game["seats"].as_array().unwrap();
            let fewest = seats.iter().map(|s| s["decisions"].as_u64().unwrap()).min();
            let early = if game["game"] == "flight" { 25 } else { 5 };
            assert!(fewest.unwrap() <= early, "{game}");
            let winner = seats.iter().find(|s| s["won"] == true).unwrap();
            assert!(winner["decisions"].as_u64().unwrap() >= 3, "{game}");
        }
        // The farmer: all 5 wins over new identities, the 3 puppets named.
        let farmers = found["new_identity_wins"].as_array().unwrap();
        assert_eq!(farmers.len(), 1, "{found}");
        assert_eq!(farmers[0]["player"]["id"], farmer_id);
        assert_eq!(
            (&farmers[0]["wins"], &farmers[0]["from_new"]),
            (&json!(5), &json!(5))
        );
        assert_eq!(ids(&farmers[0]["games"]), f.farmed);
        let mut beaten: Vec<i64> = farmers[0]["opponents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["id"].as_i64().unwrap())
            .collect();
        beaten.sort_unstable();
        let mut puppets = f.puppets.to_vec();
        puppets.sort_unstable();
        assert_eq!(beaten, puppets);

        // The thresholds are flags: a pair needs 4 games; more wins; a window in the future.
        assert_eq!(report(db, &["--pair-games", "4"])["pairs"], json!([]));
        assert_eq!(
            report(db, &["--min-wins", "6"])["new_identity_wins"],
            json!([])
        );
        let early = report(
            db,
            &["--early-decisions", "2", "--early-flight-decisions", "2"],
        );
        assert_eq!(
            early["early"],
            json!([]),
            "every person made 3 or more: {early}"
        );
        let later = (std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis()
            + 3_600_000)
            .to_string();
        let empty = report(db, &["--since", &later]);
        assert_eq!(
            (
                &empty["pairs"],
                &empty["early"],
                &empty["new_identity_wins"]
            ),
            (&json!([]), &json!([]), &json!([]))
        );
        // The table a moderator reads names the same players and games.
        let table = admin(db, &["fair-play"]);
        assert!(table.status.success());
        let table = String::from_utf8(table.stdout).unwrap();
        assert!(
            table.contains(&format!("farmer (id {farmer_id})")),
            "{table}"
        );
        assert!(
            table.contains(&format!("pup1 (id {p1_id}, guest)")),
            "{table}"
        );
        assert!(table.contains(&ids_text(&f.vic_games)), "{table}");
        assert!(table.contains(&ids_text(&f.farmed)), "{table}");
        // Bad thresholds are refused.
        let out = admin(db, &["fair-play", "--new-share", "2"]);
        assert!(!out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains("--new-share"));
        f.server.kill();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_score_ban_refund_restores_the_victims_scores_and_ratings_exactly_once_in_the_record() {
    let dir = tempfile::tempdir().unwrap();
    for db in databases(&dir).await {
        let mut f = farmed(db).await;
        let (db, [vic_id, p1_id, _], farmer_id) = (f.db.clone(), f.puppets, f.farmer_id);
        let db = db.as_str();
        // A name nobody has: refused, and nothing changes.
        let out = admin(db, &["ban", "nobody", "--refund"]);
        assert!(!out.status.success());
        let message = String::from_utf8_lossy(&out.stderr);
        assert!(message.contains("no player is named"), "{message}");
        assert_eq!(figures(&mut f.watcher, vic_id, "jungle").await, f.lost[0]);
        assert!(refund_rows(db).await.is_empty());

        let (farmer_score, _) = figures(&mut f.watcher, farmer_id, "jungle").await;
        let done = admin_ok(db, &["ban", "farmer", "--refund", "--reason", "farming"]);
        assert_eq!(done["done"], "ban", "{done}");
        let mut refunded: Vec<i64> = done["refunds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["game_id"].as_i64().unwrap())
            .collect();
        refunded.sort_unstable();
        assert_eq!(refunded, f.farmed, "one refund per farmed game: {done}");
        // Each puppet's score and rating are exactly as before the farmer's games (a puppet
        // first rated by the farmer is back at the starting rating: Glicko-2 1500, μ 25).
        for (i, id) in f.puppets.into_iter().enumerate() {
            let (jungle_before, flight_before) = &f.before[i];
            let jungle = figures(&mut f.watcher, id, "jungle").await;
            assert_eq!(jungle.0, jungle_before.0, "the score of {id}");
            let start = |before: &Value, start: f64| {
                if before.is_null() {
                    json!(start)
                } else {
                    before.clone()
                }
            };
            if id == p1_id {
                let flight = figures(&mut f.watcher, id, "flight").await;
                assert_eq!(flight.1, start(&flight_before.1, 25.0), "the μ of {id}");
            } else {
                assert_eq!(
                    jungle.1,
                    start(&jungle_before.1, 1500.0),
                    "the rating of {id}"
                );
            }
        }
        // The farmer keeps its gains, and is banned.
        assert_eq!(
            figures(&mut f.watcher, farmer_id, "jungle").await.0,
            farmer_score
        );
        let mut login = Client::connect(f.server.port).await;
        let refused = login_answer(&mut login, "farmer").await;
        assert_eq!(refused["code"], "banned", "{refused}");
        assert!(refused["message"].as_str().unwrap().contains("farming"));

        // Written in the record: one row per game and victim, naming the banned player.
        let rows = refund_rows(db).await;
        let games: Vec<i64> = rows.iter().map(|r| r.0).collect();
        assert_eq!(games, f.farmed, "{rows:?}");
        assert!(rows.iter().all(|r| r.2 == farmer_id), "{rows:?}");
        let total: i64 = rows.iter().map(|r| r.3).sum();
        assert_eq!(done["refunded_score"], total);
        let vic_rows: i64 = rows.iter().filter(|r| r.1 == vic_id).map(|r| r.3).sum();
        assert_eq!(
            vic_rows,
            f.before[0].0.0 - f.lost[0].0,
            "vic's loss, exactly"
        );

        // A second run refunds nothing new and changes no figure.
        let again = admin_ok(db, &["ban", "farmer", "--refund", "--reason", "farming"]);
        assert_eq!(again["refunds"], json!([]), "{again}");
        assert_eq!(again["refunded_score"], 0);
        assert_eq!(refund_rows(db).await.len(), rows.len());
        let vic = figures(&mut f.watcher, vic_id, "jungle").await;
        assert_eq!(vic, f.before[0].0, "vic once refunded");
        f.server.kill();
    }
}

/// Sends a command: its answer, ack or error.
async fn send(c: &mut Client, mut command: Value) -> Value {
    use futures_util::SinkExt;
    c.id += 1;
    command["id"] = json!(c.id);
    c.ws.send(tokio_tungstenite::tungstenite::Message::text(
        command.to_string(),
    ))
    .await
    .unwrap();
    let id = json!(c.id);
    c.wait_for(|v| v["id"] == id).await
}

/// A password login's answer (ack or error).
async fn login_answer(c: &mut Client, name: &str) -> Value {
    send(
        c,
        json!({"type": "login", "name": name, "password": "correct horse"}),
    )
    .await
}

/// Game ids as the table lists them.
fn ids_text(games: &[i64]) -> String {
    let ids: Vec<String> = games.iter().map(i64::to_string).collect();
    ids.join(", ")
}

/// The `refunds` rows: (game, victim, banned, score).
async fn refund_rows(db: &str) -> Vec<(i64, i64, i64, i64)> {
    use sqlx::Row;
    sqlx::any::install_default_drivers();
    let url = if db.contains("://") {
        db.to_owned()
    } else {
        format!("sqlite:{db}")
    };
    let pool = sqlx::AnyPool::connect(&url).await.unwrap();
    let rows = sqlx::query(
        "SELECT game_id, player_id, banned_id, score FROM refunds ORDER BY game_id, player_id",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    pool.close().await;
    rows.iter()
        .map(|r| {
            (
                r.try_get("game_id").unwrap(),
                r.try_get("player_id").unwrap(),
                r.try_get("banned_id").unwrap(),
                r.try_get("score").unwrap(),
            )
        })
        .collect()
}
