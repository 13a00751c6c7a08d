//! Names that cannot impersonate (issue 34, P-ACCOUNT): look-alike accounts, invisible and
//! blank-looking characters, names without a letter or digit, and chat lines with hidden
//! or direction characters are refused; a banned guest is told it is banned.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use common::TestHall;
use serde_json::json;

/// Every look-alike of "ana" the issue found accepted as an account.
const LOOK_ALIKES: &[&str] = &[
    "ana\u{34F}",
    "an\u{34F}a",
    "ana\u{2800}",
    "ana\u{115F}",
    "ana\u{1160}",
    "ana\u{3164}",
    "ana\u{17B4}",
    "\u{430}na",
    "\u{430}n\u{430}",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_account_look_alike_names_are_refused() {
    let hall = TestHall::start().await;
    let mut ana = hall.client().await;
    ana.ok(json!({"type": "register", "name": "ana", "password": "correct horse"}))
        .await;
    let mut other = hall.client().await;
    for name in LOOK_ALIKES {
        let answer = other
            .call(json!({"type": "register", "name": name, "password": "another horse"}))
            .await;
        assert_eq!(answer["type"], "error", "{name:?} was accepted: {answer}");
        assert!(
            answer["code"] == "name_taken" || answer["code"] == "invalid",
            "{name:?}: {answer}"
        );
    }
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_account_invisible_blank_or_letterless_names_are_refused_for_guests_too() {
    let hall = TestHall::start().await;
    let mut c = hall.client().await;
    for name in [
        "\u{34F}",
        "\u{2800}",
        "\u{3164}",
        "\u{115F}\u{1160}",
        "\u{17B4}",
        "\u{301}\u{301}",
        "ana\u{2800}",
        "...",
    ] {
        c.fails(json!({"type": "guest", "name": name}), "invalid")
            .await;
    }
    c.ok(json!({"type": "guest", "name": "飞行员 7"})).await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_account_chat_with_bidi_or_zero_width_characters_is_refused() {
    let hall = TestHall::start().await;
    let mut a = hall.guest("a").await;
    let code = a.create("jungle", json!({})).await;
    for text in [
        "gg\u{202E}olleh",
        "hi\u{200B}there",
        "line\u{2028}break",
        "x\u{2066}y",
        "\u{3164}",
    ] {
        a.fails(
            json!({"type": "chat", "room": code, "text": text}),
            "chat_limit",
        )
        .await;
    }
    a.ok(json!({"type": "chat", "room": code, "text": "good game ❤️"}))
        .await;
    hall.stop().await;
}
