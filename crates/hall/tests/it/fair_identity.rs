//! P-NEW-IDENTITY, P-ACCOUNT's name rules and P-BOT-ACCOUNT's upgrade, at the protocol level:
//! new guests and accounts per network (clients bound to different loopback addresses, or
//! named by a trusted proxy's `X-Forwarded-For`), the bounded memory of networks, a guest
//! made an account, look-alike names, and the bot upgrade of a seated player.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::net::IpAddr;

use common::{Client, TestHall, sqlite_url, test_config};
use hangar_hall::Config;
use serde_json::{Value, json};

/// A hall with these caps of new guests and accounts per network and hour.
async fn hall_with(guests: u32, accounts: u32, change: impl FnOnce(&mut Config)) -> TestHall {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.limits.guests_per_address_per_hour = guests;
    config.limits.accounts_per_network_per_hour = accounts;
    change(&mut config);
    TestHall::with(dir, config).await
}

fn ip(text: &str) -> IpAddr {
    text.parse().unwrap()
}

/// The answer to `guest` named `name` from a new connection at `from`.
async fn guest_from(hall: &TestHall, from: &str, name: &str) -> Value {
    let mut client = Client::connect_from(hall.addr, ip(from), &[]).await;
    let answer = client.call(json!({"type": "guest", "name": name})).await;
    client.close().await;
    answer
}

/// The answer to `register` named `name` from a new connection at `from`.
async fn register_from(hall: &TestHall, from: &str, name: &str) -> Value {
    let mut client = Client::connect_from(hall.addr, ip(from), &[]).await;
    let answer = client
        .call(json!({"type": "register", "name": name, "password": "correct horse"}))
        .await;
    client.close().await;
    answer
}

fn assert_ack(answer: &Value) {
    assert_eq!(answer["type"], "ack", "{answer}");
}

fn assert_refused(answer: &Value, code: &str) {
    assert_eq!(answer["type"], "error", "{answer}");
    assert_eq!(answer["code"], code, "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_new_identity_a_24_network_gets_ten_guests_an_hour() {
    let hall = hall_with(10, 3, |_| {}).await;
    // Ten addresses of one /24, one guest each.
    for n in 1..=10 {
        assert_ack(&guest_from(&hall, &format!("127.0.5.{n}"), &format!("puppet{n}")).await);
    }
    // An eleventh address of that network is the same network.
    let refused = guest_from(&hall, "127.0.5.77", "puppet11").await;
    assert_refused(&refused, "rate_limited");
    let message = refused["message"].as_str().unwrap();
    assert!(
        message.contains("10 new guests") && message.contains("network"),
        "{refused}"
    );
    // Another /24 has its own ten.
    assert_ack(&guest_from(&hall, "127.0.6.1", "elsewhere").await);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_new_identity_a_24_network_gets_three_accounts_an_hour_apart_from_its_guests() {
    let hall = hall_with(10, 3, |_| {}).await;
    // The network's guests take nothing from its accounts.
    for n in 1..=10 {
        assert_ack(&guest_from(&hall, &format!("127.0.7.{n}"), &format!("guest{n}")).await);
    }
    for n in 1..=3 {
        assert_ack(
            &register_from(&hall, &format!("127.0.7.{}", 20 + n), &format!("acct{n}")).await,
        );
    }
    let refused = register_from(&hall, "127.0.7.99", "acct4").await;
    assert_refused(&refused, "rate_limited");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("3 new accounts"),
        "{refused}"
    );
    // Nothing was made: the name is still free elsewhere.
    assert_ack(&register_from(&hall, "127.0.8.1", "acct4").await);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_new_identity_a_full_memory_forgets_the_oldest_network_and_an_unseen_one_gets_a_guest() {
    // The 100,001st network of the hall's default memory, scaled: a memory of 100 networks.
    let hall = hall_with(1, 1, |config| config.limits.identity_networks = 100).await;
    for n in 0..120 {
        assert_ack(&guest_from(&hall, &format!("127.10.{n}.1"), "filler").await);
    }
    assert_eq!(hall.hall.identities.networks(), 100, "bounded");
    // A network the hall has not seen gets its guest…
    assert_ack(&guest_from(&hall, "127.11.0.1", "newcomer").await);
    // …while one it remembers keeps its count, and one it forgot starts afresh.
    assert_refused(
        &guest_from(&hall, "127.10.119.2", "again").await,
        "rate_limited",
    );
    assert_ack(&guest_from(&hall, "127.10.0.2", "forgotten").await);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_new_identity_a_guest_that_registers_keeps_its_player_and_history_and_is_no_new_account()
{
    let hall = hall_with(10, 3, |_| {}).await;
    for n in 1..=3 {
        assert_ack(&register_from(&hall, &format!("127.0.12.{n}"), &format!("acct{n}")).await);
    }
    // A guest of that network plays a game and loses it.
    let mut gus = Client::connect_from(hall.addr, ip("127.0.12.9"), &[]).await;
    gus.guest("gus").await;
    let id = gus.player_id.unwrap();
    let code = gus.create("jungle", json!({})).await;
    let mut bo = hall.guest("bo").await;
    bo.join(&code).await;
    gus.ready().await;
    bo.ready().await;
    gus.event("turn").await;
    gus.ok(json!({"type": "resign", "room": code})).await;
    gus.event("game_over").await;
    let before = gus.ok(json!({"type": "profile", "player_id": id})).await;
    assert_ne!(
        before["player"]["score"], 1000,
        "the game counted: {before}"
    );

    // The network has made its three accounts: the guest's upgrade is not a fourth.
    let upgraded = gus
        .ok(json!({"type": "register", "name": "Gustav", "password": "correct horse"}))
        .await;
    assert_eq!(upgraded["player"]["id"], id, "{upgraded}");
    assert_eq!(upgraded["player"]["guest"], false, "{upgraded}");
    assert_eq!(upgraded["player"]["score"], before["player"]["score"]);
    let after = bo.ok(json!({"type": "profile", "player_id": id})).await;
    assert_eq!(after["player"]["name"], "Gustav");
    assert_eq!(after["stats"], before["stats"], "the same games");
    assert_eq!(after["recent"].as_array().unwrap().len(), 1, "{after}");
    // The account signs in by password to the same player.
    let mut again = hall.client().await;
    let login = again
        .ok(json!({"type": "login", "name": "gustav", "password": "correct horse"}))
        .await;
    assert_eq!(login["player"]["id"], id);
    // A new account of that network is still refused.
    assert_refused(
        &register_from(&hall, "127.0.12.10", "acct4").await,
        "rate_limited",
    );
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_new_identity_behind_a_trusted_proxy_the_forwarded_address_counts() {
    let hall = hall_with(2, 3, |config| {
        config.limits.trusted_proxies = vec![ip("127.0.0.1")];
    })
    .await;
    let via_proxy = |forwarded: &'static str| {
        let addr = hall.addr;
        async move {
            let headers = [("X-Forwarded-For", forwarded)];
            let mut client = Client::connect_from(addr, ip("127.0.0.1"), &headers).await;
            let answer = client.call(json!({"type": "guest", "name": "fwd"})).await;
            client.close().await;
            answer
        }
    };
    // Two clients of 203.0.113.0/24 through the proxy; a third of that network is refused,
    // also when it puts another address first (only the proxy's last entry is believed).
    assert_ack(&via_proxy("203.0.113.5").await);
    assert_ack(&via_proxy("10.9.9.9, 203.0.113.6").await);
    assert_refused(&via_proxy("203.0.113.7").await, "rate_limited");
    assert_refused(
        &via_proxy("198.51.100.1, 203.0.113.8").await,
        "rate_limited",
    );
    assert_refused(&via_proxy("::ffff:203.0.113.9").await, "rate_limited");
    // Other networks behind the same proxy are not held back by it.
    assert_ack(&via_proxy("198.51.100.1").await);
    // IPv6: one /64 is one network.
    assert_ack(&via_proxy("2001:db8:1:2::1").await);
    assert_ack(&via_proxy("2001:db8:1:2:ffff::9").await);
    assert_refused(&via_proxy("2001:db8:1:2::3").await, "rate_limited");
    assert_ack(&via_proxy("2001:db8:1:3::1").await);

    // A peer that is not the trusted proxy is its own address, whatever it forwards.
    for forwarded in ["192.0.2.1", "192.0.2.2"] {
        let mut client = Client::connect_from(
            hall.addr,
            ip("127.0.20.1"),
            &[("X-Forwarded-For", forwarded)],
        )
        .await;
        client.ok(json!({"type": "guest", "name": "spoof"})).await;
    }
    let mut client = Client::connect_from(
        hall.addr,
        ip("127.0.20.2"),
        &[("X-Forwarded-For", "192.0.2.3")],
    )
    .await;
    client
        .fails(json!({"type": "guest", "name": "spoof"}), "rate_limited")
        .await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_account_combining_marks_of_another_script_are_refused() {
    let hall = TestHall::start().await;
    let mut ana = hall.client().await;
    ana.ok(json!({"type": "register", "name": "ana", "password": "correct horse"}))
        .await;
    // Tifinagh consonant joiner, Khitan small script filler, Duployan thick letter selector.
    for name in ["ana\u{2D7F}", "ana\u{16FE4}", "ana\u{1BC9D}"] {
        let mut client = hall.client().await;
        let refused = client
            .fails(
                json!({"type": "register", "name": name, "password": "correct horse"}),
                "invalid",
            )
            .await;
        assert!(
            refused["message"].as_str().unwrap().contains("script"),
            "{name:?}: {refused}"
        );
        client
            .fails(json!({"type": "guest", "name": name}), "invalid")
            .await;
    }
    // Latin with Cyrillic letters is mixed beyond the moderately restrictive level.
    let mut client = hall.client().await;
    client
        .fails(
            json!({"type": "register", "name": "p\u{430}ul", "password": "correct horse"}),
            "invalid",
        )
        .await;
    // A mark the letters' script uses is a name.
    client
        .ok(json!({"type": "register", "name": "José", "password": "correct horse"}))
        .await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_account_a_cyrillic_bot_name_is_refused() {
    let hall = TestHall::start().await;
    // "bоt:hard" with a Cyrillic о, "b0t:easy" with a zero, "电脑高手": the bots' names.
    for name in ["b\u{43E}t:hard", "b0t:easy", "电脑高手"] {
        let mut client = hall.client().await;
        let refused = client
            .fails(json!({"type": "guest", "name": name}), "invalid")
            .await;
        assert!(
            refused["message"].as_str().unwrap().contains("bots"),
            "{name:?}: {refused}"
        );
        client
            .fails(
                json!({"type": "register", "name": name, "password": "correct horse"}),
                "invalid",
            )
            .await;
    }
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_account_a_guest_never_takes_an_accounts_name() {
    let hall = TestHall::start().await;
    let mut ana = hall.client().await;
    ana.ok(json!({"type": "register", "name": "Ana", "password": "correct horse"}))
        .await;
    let mut cop = hall.client().await;
    cop.ok(json!({"type": "register", "name": "cop", "password": "correct horse"}))
        .await;
    // The exact name, another case, a full-width spelling, a look-alike in Cyrillic letters.
    for name in ["Ana", "ana", "Ａｎａ", "\u{441}\u{43E}\u{440}"] {
        let mut client = hall.client().await;
        let refused = client
            .fails(json!({"type": "guest", "name": name}), "name_taken")
            .await;
        assert!(
            refused["message"].as_str().unwrap().contains("account"),
            "{name:?}: {refused}"
        );
    }
    // Guests may share a name among themselves.
    hall.guest("gus").await;
    hall.guest("gus").await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_bot_account_an_upgrade_while_seated_or_in_a_room_is_refused() {
    let hall = TestHall::start().await;
    let mut deep = hall.client().await;
    let me = deep
        .ok(json!({"type": "register", "name": "deep", "password": "correct horse"}))
        .await;
    let id = me["player"]["id"].as_i64().unwrap();
    // Seated in a waiting room.
    let code = deep.create("jungle", json!({})).await;
    let refused = deep
        .fails(json!({"type": "upgrade_to_bot"}), "forbidden")
        .await;
    let message = refused["message"].as_str().unwrap();
    assert!(
        message.contains("room") && message.contains(&code),
        "{refused}"
    );
    // Seated, with a stranger at the table and the game under way.
    let mut bo = hall.guest("bo").await;
    bo.join(&code).await;
    deep.ready().await;
    bo.ready().await;
    deep.event("turn").await;
    deep.fails(json!({"type": "upgrade_to_bot"}), "forbidden")
        .await;
    let profile = bo.ok(json!({"type": "profile", "player_id": id})).await;
    assert_eq!(
        profile["player"]["bot"], false,
        "nothing changed: {profile}"
    );

    // Watching a room is being in one too.
    let mut watcher = hall.client().await;
    watcher
        .ok(json!({"type": "register", "name": "watcher", "password": "correct horse"}))
        .await;
    watcher.ok(json!({"type": "spectate", "room": code})).await;
    watcher
        .fails(json!({"type": "upgrade_to_bot"}), "forbidden")
        .await;
    // Out of every room, an account without a finished game may.
    watcher
        .ok(json!({"type": "leave_room", "room": code}))
        .await;
    let upgraded = watcher.ok(json!({"type": "upgrade_to_bot"})).await;
    assert_eq!(upgraded["player"]["bot"], true, "{upgraded}");
    hall.stop().await;
}
