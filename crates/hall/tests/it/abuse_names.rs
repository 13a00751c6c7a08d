//! Commands and names mean what they show. Only the documented command names are commands
//! (a number is no `type`), and player names are normalised (Unicode NFKC), free of control,
//! format and bidirectional characters, clear of the bots' names, and unique among accounts
//! regardless of case and width.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use common::TestHall;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_numeric_type_is_no_command() {
    let hall = TestHall::start().await;
    let mut c = hall.guest("ana").await;
    let code = c.create("flight", json!({"seats": 2})).await;
    // Indexes of the command enums: room commands and hall commands alike.
    for index in [0, 1, 3, 19] {
        c.send_text(&json!({"type": index, "id": 500 + index, "room": code}).to_string())
            .await;
        let answer = c.answer(500 + index).await;
        assert_eq!(answer["type"], "error", "type {index} answered {answer}");
        assert_eq!(answer["code"], "bad_message", "type {index}: {answer}");
    }
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_account_names_passing_for_a_bot_or_hiding_characters_are_refused() {
    let hall = TestHall::start().await;
    let mut c = hall.client().await;
    for name in [
        "Bot:hard",
        "bot\u{FF1A}hard",
        "bot hard",
        "an\u{200B}a",
        "\u{202E}ana",
        "ana\u{2066}",
    ] {
        let guest = c
            .fails(json!({"type": "guest", "name": name}), "invalid")
            .await;
        assert!(
            guest["message"].as_str().unwrap().contains("name"),
            "{guest}"
        );
        c.fails(
            json!({"type": "register", "name": name, "password": "correct horse"}),
            "invalid",
        )
        .await;
    }
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_account_names_are_unique_regardless_of_case_and_width() {
    let hall = TestHall::start().await;
    let mut c = hall.client().await;
    c.ok(json!({"type": "register", "name": "ana", "password": "correct horse"}))
        .await;
    let mut other = hall.client().await;
    for name in ["ANA", "\u{FF21}\u{FF4E}\u{FF41}", "\u{FF41}na"] {
        other
            .fails(
                json!({"type": "register", "name": name, "password": "another horse"}),
                "name_taken",
            )
            .await;
    }
    // The full-width name signs in to the account it reads as.
    let signed = other
        .ok(json!({"type": "login", "name": "\u{FF41}\u{FF4E}\u{FF41}", "password": "correct horse"}))
        .await;
    assert_eq!(signed["player"]["name"], "ana");
    // A guest's name is kept normalised too, and shows as a guest.
    let guest = hall.client().await.guest("\u{FF22}o").await;
    assert_eq!(guest["player"]["name"], "Bo");
    assert_eq!(guest["player"]["guest"], true);
    hall.stop().await;
}
