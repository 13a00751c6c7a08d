//! P-FAIR-DICE through the hall: a person's roll carries the person's own bytes (refused as
//! `invalid`, changing nothing, without them or with bytes that are not 16–64 of hex), the
//! `rolled` event shows them, a repeated id runs once with the first bytes, and the finished
//! game's record re-derives every roll from the seed and the recorded bytes.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use common::{
    Client, TestHall, any_pool, count_rows, databases, entropy, play_flight, test_config,
};
use hangar_dice::{DiceScheme, Entropy, RollKey, Seed};
use serde_json::{Value, json};

/// The room as a new watcher sees it: its game, seats and turn.
async fn room_state(hall: &TestHall, code: &str) -> Value {
    let mut watcher = hall.client().await;
    watcher.ok(json!({"type": "spectate", "room": code})).await;
    let snapshot = watcher.wait_for(|v| v["type"] == "snapshot").await;
    watcher.close().await;
    let state = &snapshot["state"];
    json!([state["game"], state["seats"], state["turn"]])
}

/// The next `rolled` event a client gets.
async fn rolled(client: &mut Client) -> Value {
    client
        .wait_for(|v| v["type"] == "event" && v["event"]["kind"] == "rolled")
        .await["event"]
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_fair_dice_a_person_roll_without_good_entropy_is_invalid_and_changes_nothing() {
    let hall = TestHall::start().await;
    let (mut on_turn, mut other, code) = hall
        .two_players("flight", json!({"seats": 2, "planes": 2}))
        .await;
    // A watcher that stays: the room's version when the refusals begin.
    let mut watcher = hall.guest("w").await;
    watcher.ok(json!({"type": "spectate", "room": code})).await;
    let version = watcher.wait_for(|v| v["type"] == "snapshot").await["v"]
        .as_u64()
        .unwrap();
    let bad = [
        None,
        Some(format!("{}zz", "00".repeat(16))),
        Some("ab".repeat(15)),
        Some("ab".repeat(65)),
        Some("abc".into()),
    ];
    for entropy in bad {
        let mut roll = json!({"type": "roll", "room": code});
        if let Some(text) = &entropy {
            roll["entropy"] = json!(text);
        }
        on_turn.fails(roll, "invalid").await;
        on_turn
            .fails(
                json!({"type": "use_item", "room": code, "item": "booster", "entropy": entropy}),
                "invalid",
            )
            .await;
    }

    // Good bytes (either case) roll, and the `rolled` event shows them, lower-case.
    let mine = "F0E1D2C3B4A5968778695A4B3C2D1E0F";
    on_turn.clear();
    other.clear();
    let roll = json!({"type": "roll", "room": code, "entropy": mine, "id": 321});
    on_turn.send_text(&roll.to_string()).await;
    let first = on_turn.answer(321).await;
    assert_eq!(first["type"], "ack", "{first}");
    let ack = &first["result"];
    let event = rolled(&mut other).await;
    assert_eq!(event["entropy"], mine.to_lowercase());
    // The watcher's next room event is the roll's, one version on: the refusals changed
    // nothing and moved no version.
    let seen = watcher
        .wait_for(|v| v["type"] == "event" && v["event"]["kind"] == "rolled")
        .await;
    assert_eq!(
        seen["v"],
        json!(version + 1),
        "the version did not move: {seen}"
    );
    assert_eq!(event["value"], ack["value"]);
    let after = room_state(&hall, &code).await;

    // The same id again, with other bytes: answered from memory, the first bytes count.
    let other_bytes = json!({"type": "roll", "room": code, "entropy": entropy(), "id": 321});
    on_turn.send_text(&other_bytes.to_string()).await;
    let again = on_turn.answer(321).await;
    assert_eq!(again["repeat"], true, "{again}");
    assert_eq!(again["result"]["value"], ack["value"]);
    assert_eq!(room_state(&hall, &code).await, after, "run once");
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_fair_dice_a_finished_game_record_re_derives_every_roll_from_the_players_bytes() {
    let hall = TestHall::start().await;
    let mut a = hall.guest("a").await;
    a.start_flight_against_a_random_bot().await;
    play_flight(&mut a).await;
    let (status, record) = hall.get("/api/games/1").await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(record["dice"], "per_roll");
    let seed: Seed = record["seed"].as_str().unwrap().parse().unwrap();
    let verified = hangar_games::record::verify(&record).expect("the record verifies");
    assert_eq!(verified.dice, DiceScheme::PerRoll);
    let rolls: Vec<&Value> = record["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["roll"].is_u64())
        .collect();
    assert_eq!(rolls.len(), verified.dice_rolls.len());
    for (k, (roll, checked)) in rolls.iter().zip(&verified.dice_rolls).enumerate() {
        // The person's rolls carry the person's bytes; the bot's none.
        let person = roll["seat"] == json!(a.seat.unwrap());
        assert_eq!(roll["entropy"].is_string(), person, "roll {k}: {roll}");
        assert_eq!(checked.own, person);
        let bytes: Option<Entropy> = roll["entropy"].as_str().map(|t| t.parse().unwrap());
        let die = RollKey::derive(&seed, k as u64, bytes.as_ref())
            .dice()
            .roll();
        assert_eq!(roll["roll"], json!(die), "roll {k}");
    }
    assert!(verified.dice_rolls.iter().any(|r| r.own));

    // P-DICE-STATS: the hall's dice and the person's own, counted from the same logs.
    let faces = |filter: &dyn Fn(&Value) -> bool| {
        let mut counts = [0u64; 6];
        for roll in rolls.iter().filter(|r| filter(r)) {
            counts[roll["roll"].as_u64().unwrap() as usize - 1] += 1;
        }
        json!(counts)
    };
    let (status, all) = hall.get("/api/dice").await;
    assert_eq!(status, 200, "{all}");
    assert_eq!(all["counts"], faces(&|_| true));
    assert_eq!(all["chi_square"]["rolls"], json!(rolls.len()));
    // The test of the counts shown, computed here again from them: χ² = Σ (o − e)² / e over
    // the six faces, e = rolls / 6, 5 degrees of freedom, and its p-value.
    let observed: Vec<f64> = faces(&|_| true)
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_f64().unwrap())
        .collect();
    let expected = rolls.len() as f64 / 6.0;
    let statistic: f64 = observed
        .iter()
        .map(|o| (o - expected).powi(2) / expected)
        .sum();
    let shown = &all["chi_square"];
    assert!(
        (shown["expected"].as_f64().unwrap() - expected).abs() < 1e-9,
        "{shown}"
    );
    assert!(
        (shown["statistic"].as_f64().unwrap() - statistic).abs() < 1e-9,
        "{shown}"
    );
    assert_eq!(shown["degrees_of_freedom"], 5, "{shown}");
    let p = hangar_dice::chi_square_p_value(statistic, 5);
    assert!(
        (shown["p_value"].as_f64().unwrap() - p).abs() < 1e-12,
        "{shown}"
    );
    let me = record["seats"][a.seat.unwrap()]["player_id"]
        .as_i64()
        .unwrap();
    let (status, mine) = hall.get(&format!("/api/players/{me}/dice")).await;
    assert_eq!(status, 200, "{mine}");
    let seat = json!(a.seat.unwrap());
    assert_eq!(
        mine["counts"],
        faces(&|r| r["seat"] == seat && r["auto"] != true)
    );
    let (_, nobody) = hall.get("/api/players/999/dice").await;
    assert_eq!(nobody["counts"], json!([0, 0, 0, 0, 0, 0]));
    assert_eq!(nobody["chi_square"], Value::Null);
    hall.stop().await;
}

/// P-DICE-STATS: a game's dice are counted, by seat, when it finishes; on a database whose
/// games finished before those counts were stored (as an older hall left it), a hall counts
/// them when it opens the database, and the figures are the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_dice_stats_games_finished_before_the_counts_were_stored_are_counted_on_opening() {
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        let config = test_config(url.clone());
        let hall = TestHall::with(tempfile::tempdir().unwrap(), config.clone()).await;
        let mut a = hall.guest("a").await;
        a.start_flight_against_a_random_bot().await;
        play_flight(&mut a).await;
        let (_, record) = hall.get("/api/games/1").await;
        let me = record["seats"][a.seat.unwrap()]["player_id"]
            .as_i64()
            .unwrap();
        let mine_url = format!("/api/players/{me}/dice");
        let (_, all) = hall.get("/api/dice").await;
        let (_, mine) = hall.get(&mine_url).await;
        assert!(all["chi_square"]["rolls"].as_u64().unwrap() > 0, "{all}");
        hall.stop().await;
        let seats = count_rows(&url, "dice_faces").await;
        assert_eq!(seats, 2, "both seats rolled ({url})");

        let pool = any_pool(&url).await;
        sqlx::query("DELETE FROM dice_faces")
            .execute(&pool)
            .await
            .unwrap();
        pool.close().await;
        let hall = TestHall::with(tempfile::tempdir().unwrap(), config).await;
        assert_eq!(
            count_rows(&url, "dice_faces").await,
            seats,
            "counted again ({url})"
        );
        assert_eq!(hall.get("/api/dice").await.1["counts"], all["counts"]);
        assert_eq!(hall.get(&mine_url).await.1["counts"], mine["counts"]);
        hall.stop().await;
    }
}
