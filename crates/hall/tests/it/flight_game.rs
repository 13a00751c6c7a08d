//! A full four-player flight game played by test clients over real sockets (P-SEATS,
//! P-AUTH, P-SCORE, F-SCORE, P-CAPTURE-BONUS, P-FAIR-DICE, P-RECORD).
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use common::{TestHall, databases, play_flight};
use serde_json::{Value, json};

/// Expected F-SCORE deltas from the result's finished planes, ranks and captures.
fn expected_deltas(players: &[Value], stake: i64, planes: i64) -> Vec<i64> {
    let v = stake / planes;
    let mut pool = 0;
    let mut deltas: Vec<i64> = players
        .iter()
        .map(|p| {
            let loss = if p["rank"] == 1 {
                0
            } else {
                v * (planes - p["finished"].as_i64().unwrap())
            };
            pool += loss;
            -loss
        })
        .collect();
    for (d, p) in deltas.iter_mut().zip(players) {
        if p["rank"] == 1 {
            *d += pool;
        }
        *d += 5 * p["captures"].as_i64().unwrap();
    }
    deltas
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_players_play_a_flight_game_to_the_end_with_the_right_scores_on_every_database() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        four_players_play_a_flight_game(&url).await;
    }
}

async fn four_players_play_a_flight_game(url: &str) {
    let hall = TestHall::on(url).await;
    let mut clients = Vec::new();
    let mut host = hall.guest("ana").await;
    let code = host
        .create("flight", json!({"seats": 4, "stake": 100}))
        .await;
    assert_eq!(host.seat, Some(0));
    clients.push(host);
    for name in ["bo", "cy", "di"] {
        let mut c = hall.guest(name).await;
        c.join(&code).await;
        clients.push(c);
    }
    let seats: Vec<usize> = clients.iter().map(|c| c.seat.unwrap()).collect();
    assert_eq!(seats, vec![0, 1, 2, 3]);
    for c in &mut clients {
        c.ready().await;
    }
    let started = clients[0].event("game_started").await;
    let commitment = started["event"]["commitment"].as_str().unwrap().to_owned();
    assert_eq!(commitment.len(), 64);

    let mut tasks = Vec::new();
    for mut c in clients {
        tasks.push(tokio::spawn(async move {
            let result = play_flight(&mut c).await;
            (c, result)
        }));
    }
    let mut results = Vec::new();
    let mut clients = Vec::new();
    for t in tasks {
        let (c, r) = t.await.unwrap();
        clients.push(c);
        results.push(r);
    }
    let result = &results[0];
    assert!(
        results.iter().all(|r| r == result),
        "everyone sees the same result"
    );
    assert_eq!(result["reason"], "finished");
    let players = result["players"].as_array().unwrap();
    let winner = players.iter().find(|p| p["rank"] == 1).unwrap();
    assert_eq!(
        winner["finished"], 4,
        "the winner finished every plane (F-WIN)"
    );
    let deltas: Vec<i64> = players
        .iter()
        .map(|p| p["delta"].as_i64().unwrap())
        .collect();
    assert_eq!(
        deltas,
        expected_deltas(players, 100, 4),
        "F-SCORE and F-CAPTURE-BONUS"
    );
    // P-SCORE: the stored scores moved by the deltas.
    for p in players {
        assert_eq!(
            p["score"].as_i64().unwrap(),
            1000 + p["delta"].as_i64().unwrap()
        );
    }
    let (status, board) = hall.get("/api/leaderboard?limit=10").await;
    assert_eq!(status, 200);
    for p in players {
        let entry = board["entries"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["player"]["id"] == p["player_id"])
            .unwrap();
        assert_eq!(entry["player"]["score"], p["score"]);
    }
    // P-FAIR-DICE: the seed is revealed and matches; the record verifies.
    let seed: hangar_dice::Seed = result["seed"].as_str().unwrap().parse().unwrap();
    assert!(seed.matches(&commitment));
    let game_id = result["game_id"].as_i64().unwrap();
    let (status, record) = hall.get(&format!("/api/games/{game_id}")).await;
    assert_eq!(status, 200);
    let verified = hangar_games::record::verify(&record).unwrap();
    assert!(verified.over);
    assert!(verified.rolls > 20);
    // P-RECORD: the export carries the engine's own record, which replays the rules alone
    // to the same end.
    let engine: hangar_flight::Record =
        serde_json::from_value(record["flight_record"].clone()).unwrap();
    let table = engine.replay(&mut hangar_flight::NoEvents).unwrap();
    assert!(table.game().is_over());
    assert_eq!(table.record().seed, seed);
    // P-RECORD: the game is in each player's list.
    let mut c0 = clients.remove(0);
    let mine = c0.ok(json!({"type": "my_games"})).await;
    assert_eq!(mine["games"][0]["game_id"], game_id);
    hall.stop().await;
}
