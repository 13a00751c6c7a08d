//! Login floods. Failed logins lock their account and their address for growing times
//! (error `rate_limited`, nothing looked up or hashed meanwhile), and password hashing runs a
//! few at a time with a bounded queue, so that a flood of sign-ins keeps memory bounded.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::time::Duration;

use common::{Client, TestHall};
use serde_json::{Value, json};

const PASSWORD: &str = "correct horse";

/// A hall with these limits changed from the test settings.
async fn hall_with(change: impl FnOnce(&mut hangar_hall::Limits)) -> TestHall {
    let dir = tempfile::tempdir().unwrap();
    let mut config = common::test_config(common::sqlite_url(&dir));
    change(&mut config.limits);
    TestHall::with(dir, config).await
}

/// Registers an account.
async fn register(hall: &TestHall, name: &str) {
    let mut c = hall.client().await;
    c.ok(json!({"type": "register", "name": name, "password": PASSWORD}))
        .await;
    c.close().await;
}

async fn login(c: &mut Client, name: &str, password: &str) -> Value {
    c.call(json!({"type": "login", "name": name, "password": password}))
        .await
}

fn code(answer: &Value) -> &str {
    answer["code"].as_str().unwrap_or("ack")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_account_failed_logins_lock_the_account_even_for_the_right_password() {
    let hall = hall_with(|l| l.login_delay = Duration::from_secs(60)).await;
    register(&hall, "ana").await;
    register(&hall, "bo").await;
    let mut c = hall.client().await;
    for _ in 0..4 {
        let answer = login(&mut c, "ana", "wrong password").await;
        assert_eq!(code(&answer), "bad_credentials", "{answer}");
    }
    // Past the three free failures the account is locked: even its password is refused,
    // with a clear error, and the name is matched regardless of case.
    let locked = login(&mut c, "ANA", PASSWORD).await;
    assert_eq!(code(&locked), "rate_limited", "{locked}");
    assert!(
        locked["message"].as_str().unwrap().contains("this name"),
        "{locked}"
    );
    // Another account is not locked by them.
    let other = login(&mut c, "bo", PASSWORD).await;
    assert_eq!(code(&other), "ack", "{other}");
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_account_a_lock_passes_and_a_good_login_clears_the_failures() {
    let delay = Duration::from_millis(300);
    let hall = hall_with(|l| l.login_delay = delay).await;
    register(&hall, "ana").await;
    let mut c = hall.client().await;
    for _ in 0..4 {
        login(&mut c, "ana", "wrong password").await;
    }
    assert_eq!(code(&login(&mut c, "ana", PASSWORD).await), "rate_limited");
    tokio::time::sleep(delay * 2).await;
    assert_eq!(code(&login(&mut c, "ana", PASSWORD).await), "ack");
    // The failures were forgotten: one more is free again.
    assert_eq!(
        code(&login(&mut c, "ana", "wrong password").await),
        "bad_credentials"
    );
    assert_eq!(code(&login(&mut c, "ana", PASSWORD).await), "ack");
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_logins_from_one_address_lock_it_across_names() {
    let hall = hall_with(|l| l.login_delay = Duration::from_secs(60)).await;
    register(&hall, "ana").await;
    let mut c = hall.client().await;
    // Guessing many names from one address (loopback here): eleven failures.
    for n in 0..11 {
        let answer = login(&mut c, &format!("nobody{n}"), "wrong password").await;
        assert_eq!(code(&answer), "bad_credentials", "{answer}");
    }
    let locked = login(&mut c, "ana", PASSWORD).await;
    assert_eq!(code(&locked), "rate_limited", "{locked}");
    assert!(
        locked["message"].as_str().unwrap().contains("this address"),
        "{locked}"
    );
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn password_hashing_runs_a_few_at_a_time_and_the_queue_is_bounded() {
    let hall = hall_with(|l| {
        l.password_hashing = 1;
        l.password_queue = 2;
    })
    .await;
    register(&hall, "ana").await;
    let mut clients = Vec::new();
    for _ in 0..20 {
        clients.push(hall.client().await);
    }
    // Twenty right passwords at once: one hash runs, two wait, the rest are told to retry.
    let logins: Vec<_> = clients
        .into_iter()
        .map(|mut c| {
            tokio::spawn(async move { code(&login(&mut c, "ana", PASSWORD).await).to_owned() })
        })
        .collect();
    let mut answers = Vec::new();
    for login in logins {
        answers.push(login.await.unwrap());
    }
    let ok = answers.iter().filter(|a| *a == "ack").count();
    let busy = answers.iter().filter(|a| *a == "rate_limited").count();
    assert_eq!(ok + busy, 20, "{answers:?}");
    assert!(ok >= 1, "some sign in: {answers:?}");
    assert!(busy >= 1, "the queue is bounded: {answers:?}");
    hall.stop().await;
}
