//! `hangar review` (P-REVIEW), the command-line half: the real binary run on record files of
//! a finished Jungle game and a finished flight game prints the same review as the library
//! computes from the same record, as text and as JSON; a running game is refused.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::cli_common;

use cli_common::hangar;
use hangar_dice::{DiceScheme, Seed};
use hangar_games::record::{GameRecord, RECORD_FORMAT};
use hangar_games::review::{ReviewSettings, review_record};
use hangar_games::{Act, DEFAULT_TURN_SECONDS, GameSession, LoggedAct, RoomOptions};
use hangar_protocol::{BotLevel, GameKind};
use serde_json::json;

/// A finished game of `game` between the hall's `level` bots from `seed`, as the hall records
/// it (seat 1 on auto-play).
fn finished_record(game: GameKind, seats: usize, level: BotLevel, seed: u64) -> GameRecord {
    let seed = Seed::from_u64(seed);
    let options = RoomOptions::stored(game, &json!({}), DEFAULT_TURN_SECONDS).unwrap();
    let mut session = GameSession::start(&options, seats, seed, DiceScheme::SeedStream).unwrap();
    let mut actions = Vec::new();
    while let Some((seat, _)) = session.turn() {
        let action = session.bot_act(seat, level).unwrap();
        let played = session.play(seat, &action, None).unwrap();
        actions.push(LoggedAct {
            seat,
            action,
            roll: played.roll,
            entropy: None,
            auto: seat == 1,
            cmd: None,
        });
        if game == GameKind::Jungle && actions.len() >= 80 && session.turn().is_some() {
            // A long game: red resigns, as people do.
            session.remove(0);
            actions.push(LoggedAct {
                seat: 0,
                action: Act::Resign,
                roll: None,
                entropy: None,
                auto: false,
                cmd: None,
            });
            break;
        }
    }
    GameRecord {
        format: RECORD_FORMAT.to_owned(),
        game_id: 7,
        game,
        room: "ROOM07".into(),
        options: json!({}),
        seats: (0..seats)
            .map(|s| json!({"name": format!("p{s}")}))
            .collect(),
        commitment: seed.commitment(),
        seed: Some(seed),
        actions,
        result: None,
        started_at: 0,
        finished_at: Some(1),
        flight_record: session.flight_record().cloned(),
        dice: DiceScheme::SeedStream,
    }
}

/// Runs `hangar review FILE ARGS…`; its stdout, after checking it succeeded.
fn review_cli(record: &GameRecord, args: &[&str]) -> String {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), serde_json::to_string(record).unwrap()).unwrap();
    let path = file.path().to_str().unwrap();
    let mut all = vec!["review", path];
    all.extend_from_slice(args);
    let output = hangar(&all, "");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(output.status.success(), "{stderr}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn p_review_the_cli_gives_the_library_s_review_of_a_jungle_record() {
    let record = finished_record(GameKind::Jungle, 2, BotLevel::Greedy, 3);
    let library = review_record(&record, &ReviewSettings { nodes: 3_000 }).unwrap();
    let text = review_cli(&record, &["--nodes", "3000"]);
    assert_eq!(text, library.to_text());
    assert!(
        text.contains("red (p0): ") && text.contains("yellow (p1): "),
        "{text}"
    );
    let json = review_cli(&record, &["--nodes", "3000", "--json"]);
    assert_eq!(
        json.trim_end(),
        serde_json::to_string_pretty(&library).unwrap()
    );
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["game"], "jungle");
    assert_eq!(value["nodes"], 3000);
}

#[test]
fn p_review_the_cli_gives_the_library_s_review_of_a_flight_record() {
    let record = finished_record(GameKind::Flight, 3, BotLevel::Heuristic, 4);
    let library = review_record(&record, &ReviewSettings::default()).unwrap();
    let text = review_cli(&record, &[]);
    assert_eq!(text, library.to_text());
    assert!(text.contains("luck ") && text.contains("skill "), "{text}");
    let json = review_cli(&record, &["--json"]);
    assert_eq!(
        json.trim_end(),
        serde_json::to_string_pretty(&library).unwrap()
    );

    // A game still running: no review (no help while playing).
    let mut running = record.clone();
    running.seed = None;
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), serde_json::to_string(&running).unwrap()).unwrap();
    let output = hangar(&["review", file.path().to_str().unwrap()], "");
    assert!(!output.status.success());
    assert!(
        String::from_utf8(output.stderr)
            .unwrap()
            .contains("the seed is not revealed")
    );
}
