//! P-RECORD: the replay frames of a finished flight game come from the engine and end on the
//! state the players saw live.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use common::{Client, TestHall};
use serde_json::{Value, json};

/// Plays this client's flight seat to the end like `common::play_flight`, also keeping the
/// last game view the live game sent (in `moved` events).
async fn play_watching(client: &mut Client) -> (Value, Value) {
    let room = client.room.clone().unwrap();
    let me = client.seat.unwrap();
    let mut moves: Vec<Value> = Vec::new();
    let mut last_view = Value::Null;
    loop {
        let v = client.next().await;
        if v["type"] != "event" {
            continue;
        }
        let event = &v["event"];
        match event["kind"].as_str().unwrap_or_default() {
            "game_over" => return (event["result"].clone(), last_view),
            "rolled" => moves = event["moves"].as_array().cloned().unwrap_or_default(),
            "moved" => last_view = event["game"].clone(),
            "turn" if event["seat"] == json!(me) => {
                let command = if event["need"] == "roll" {
                    json!({"type": "roll", "room": room, "entropy": common::entropy()})
                } else {
                    json!({"type": "move", "room": room, "plane": moves[0]["plane"].clone()})
                };
                let answer = client.call(command.clone()).await;
                assert_eq!(answer["type"], "ack", "{command} → {answer}");
            }
            _ => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_frames_of_a_finished_flight_game_end_on_the_live_final_state() {
    let hall = TestHall::start().await;
    let mut host = hall.guest("ana").await;
    let code = host.create("flight", json!({"seats": 2})).await;
    let mut guest = hall.guest("bo").await;
    guest.join(&code).await;
    host.ready().await;
    guest.ready().await;
    host.event("game_started").await;

    let other = tokio::spawn(async move { play_watching(&mut guest).await });
    let (result, live_view) = play_watching(&mut host).await;
    let _ = other.await.unwrap();
    assert_eq!(result["reason"], "finished");
    let game_id = result["game_id"].as_i64().unwrap();

    let (status, record) = hall.get(&format!("/api/games/{game_id}")).await;
    assert_eq!(status, 200);
    let actions = record["actions"].as_array().unwrap();
    let (status, replay) = hall.get(&format!("/api/games/{game_id}/replay")).await;
    assert_eq!(status, 200, "{replay}");
    assert_eq!(replay["game"], "flight");
    let frames = replay["frames"].as_array().unwrap();
    assert_eq!(
        frames.len(),
        actions.len() + 1,
        "the start, then one per action"
    );
    assert!(frames[0]["action"].is_null());
    assert_eq!(frames[0]["view"]["kind"], "flight");
    assert_eq!(frames[0]["view"]["need"], "roll");
    for (i, frame) in frames.iter().skip(1).enumerate() {
        assert_eq!(
            frame["action"],
            actions[i],
            "frame {} carries action {i}",
            i + 1
        );
    }
    // Every roll frame carries the engine's `rolled` event with the recorded value.
    let roll_frame = frames
        .iter()
        .find(|f| f["action"]["action"]["kind"] == "roll")
        .unwrap();
    assert_eq!(roll_frame["events"][0]["kind"], "rolled");
    assert_eq!(
        roll_frame["events"][0]["value"],
        roll_frame["action"]["roll"]
    );
    assert!(
        frames
            .iter()
            .any(|f| f["events"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["kind"] == "moved"
                    && e["effects"].as_array().is_some_and(|x| !x.is_empty()))),
        "move frames carry the engine's effects"
    );
    let last = &frames[frames.len() - 1]["view"];
    assert_eq!(last["need"], "over");
    assert_eq!(*last, live_view, "the replay ends on the state shown live");

    // Unknown games have no replay.
    let (status, _) = hall.get("/api/games/999999/replay").await;
    assert_eq!(status, 404);
    hall.stop().await;
}
