//! Fair play (issue 34): games that cannot be farmed — P-ABORT (too few decisions of one's
//! own, pairs capped per day), P-ESCAPE in jungle.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use common::{TestHall, play_jungle, sqlite_url, test_config};
use serde_json::{Value, json};

/// A hall with the real fair-play rules (the common test hall switches P-ABORT off for the
/// scoring tests).
async fn fair_hall() -> TestHall {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.fair = hangar_hall::FairPlay::default();
    TestHall::with(dir, config).await
}

/// A player's score as the hall now has it (signing in again with its token).
async fn score(hall: &TestHall, client: &common::Client) -> i64 {
    let mut again = hall.client().await;
    let me = again
        .ok(json!({"type": "auth", "token": client.token.clone().unwrap()}))
        .await;
    me["player"]["score"].as_i64().unwrap()
}

fn no_rating(result: &Value) {
    for line in result["players"].as_array().unwrap() {
        assert!(line["rating"].is_null(), "no rating changed: {line}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_and_p_escape_a_puppet_escaping_a_jungle_game_at_once_gains_nobody_anything() {
    let hall = fair_hall().await;
    let (mut ana, mut bo, code) = hall.jungle_started(false).await;
    bo.ok(json!({"type": "leave_room", "room": code, "escape": true}))
        .await;
    let over = ana.event("game_over").await;
    let result = &over["event"]["result"];
    assert_eq!(result["aborted"], true, "{result}");
    assert_eq!(result["players"][0]["delta"], 0, "the farmer gains nothing");
    assert_eq!(
        result["players"][1]["delta"], -200,
        "P-ESCAPE: a jungle escape costs 200"
    );
    no_rating(result);
    assert_eq!(score(&hall, &ana).await, 1000);
    assert_eq!(score(&hall, &bo).await, 800);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_a_resignation_before_any_move_changes_no_score() {
    let hall = fair_hall().await;
    let (mut ana, mut bo, code) = hall.jungle_started(false).await;
    bo.ok(json!({"type": "resign", "room": code})).await;
    let over = ana.event("game_over").await;
    let result = &over["event"]["result"];
    assert_eq!(result["aborted"], true, "{result}");
    assert_eq!(result["players"][0]["delta"], 0);
    assert_eq!(result["players"][1]["delta"], 0);
    no_rating(result);
    assert_eq!(score(&hall, &ana).await, 1000);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_two_seats_on_auto_play_change_no_score() {
    let hall = fair_hall().await;
    let (mut a, mut b, code) = hall
        .two_players("flight", json!({"seats": 2, "planes": 2, "stake": 1000}))
        .await;
    a.ok(json!({"type": "autoplay", "room": code, "on": true}))
        .await;
    b.ok(json!({"type": "autoplay", "room": code, "on": true}))
        .await;
    let over = a.event("game_over").await;
    let result = &over["event"]["result"];
    assert_eq!(
        result["aborted"], true,
        "auto-play's decisions are not a person's"
    );
    for line in result["players"].as_array().unwrap() {
        assert_eq!(line["delta"], 0, "{line}");
    }
    no_rating(result);
    assert_eq!(score(&hall, &a).await, 1000);
    assert_eq!(score(&hall, &b).await, 1000);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_a_game_both_people_play_is_scored() {
    let hall = fair_hall().await;
    let mut ana = hall.guest("ana").await;
    let code = ana.create("jungle", json!({})).await;
    let mut bo = hall.guest("bo").await;
    bo.join(&code).await;
    ana.ready().await;
    bo.ready().await;
    for client in [&mut ana, &mut bo] {
        let started = client.event("game_started").await;
        client.inbox.push_front(started);
    }
    // Both play (the first listed move): a real game, scored and rated.
    let first = tokio::spawn(async move { play_jungle(&mut ana, |_| 0).await });
    let second = tokio::spawn(async move { play_jungle(&mut bo, |m| m.len() - 1).await });
    let (result, _) = (first.await.unwrap(), second.await.unwrap());
    assert_eq!(result["aborted"], false, "{result}");
    if result["reason"] != "draw" {
        assert!(result["players"][0]["rating"].is_object(), "{result}");
    }
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_the_eleventh_guest_from_one_address_in_an_hour_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.limits.guests_per_address_per_hour = 10;
    let hall = TestHall::with(dir, config).await;
    let mut client = hall.client().await;
    for n in 0..10 {
        client
            .ok(json!({"type": "guest", "name": format!("puppet{n}")}))
            .await;
    }
    client
        .fails(json!({"type": "guest", "name": "puppet10"}), "rate_limited")
        .await;
    hall.stop().await;
}

/// A jungle game of `ana` and `bo` in room `code` that `bo` resigns at once (both ready it
/// first when `again`, after an earlier one): its result.
async fn resigned_game(
    ana: &mut common::Client,
    bo: &mut common::Client,
    code: &str,
    again: bool,
) -> Value {
    if again {
        ana.ready().await;
        bo.ready().await;
        ana.event("game_started").await;
    }
    bo.ok(json!({"type": "resign", "room": code})).await;
    let over = ana.event("game_over").await;
    over["event"]["result"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_the_fourth_game_of_a_pair_in_a_day_is_practice_and_said_before_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    // Quick games (a resignation at once) count here: this test is about the pair's cap, at
    // the hall's default (P-ABORT: 3).
    config.fair.pair_games_per_day = hangar_hall::FairPlay::default().pair_games_per_day;
    assert_eq!(config.fair.pair_games_per_day, 3);
    let hall = TestHall::with(dir, config).await;
    let (mut ana, mut bo, code) = hall.jungle_started(false).await;
    for game in 1..=4 {
        let result = &resigned_game(&mut ana, &mut bo, &code, game > 1).await;
        if game <= 3 {
            assert_eq!(result["practice"], false, "game {game}: {result}");
            assert_eq!(result["players"][1]["delta"], -2, "game {game} is scored");
        } else {
            assert_eq!(result["practice"], true, "the fourth game is practice");
            assert_eq!(result["players"][1]["delta"], 0);
            assert!(result["players"][1]["rating"].is_null());
        }
        if game == 3 {
            // Said before the next game starts: an event, and the room's snapshot.
            let said = ana.event("pair_practice").await;
            assert_eq!(said["event"]["on"], true);
            let mut watcher = hall.client().await;
            watcher.ok(json!({"type": "spectate", "room": code})).await;
            let snapshot = watcher.wait_for(|v| v["type"] == "snapshot").await;
            assert_eq!(snapshot["state"]["practice"], true);
        }
    }
    hall.stop().await;
}

/// P-ABORT's window: the pair cap (the hall's default, 3) counts the games a pair started in
/// the last 24 hours. Three scored games are moved back in the database (their `pair_games`
/// rows, as the store decided them at their start) to 23 h 50 min ago: a fourth game is
/// practice; moved to 24 h 10 min ago, they are out of the window and the next game counts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_the_pair_cap_counts_the_games_started_in_the_last_24_hours() {
    const HOUR_MS: i64 = 3_600_000;
    let dir = tempfile::tempdir().unwrap();
    let url = sqlite_url(&dir);
    let mut config = test_config(url.clone());
    config.fair.pair_games_per_day = hangar_hall::FairPlay::default().pair_games_per_day;
    assert_eq!(config.fair.pair_games_per_day, 3);
    let hall = TestHall::with(dir, config).await;
    let pool = common::any_pool(&url).await;
    let started_ago = |ms: i64| {
        let pool = pool.clone();
        async move {
            let at = hangar_hall::time::now_ms() - ms;
            let moved = sqlx::query("UPDATE pair_games SET started_at = $1 WHERE counted = 1")
                .bind(at)
                .execute(&pool)
                .await
                .unwrap()
                .rows_affected();
            assert_eq!(moved, 3, "the three scored games' pair rows");
        }
    };
    let (mut ana, mut bo, code) = hall.jungle_started(false).await;
    for game in 1..=3 {
        let result = resigned_game(&mut ana, &mut bo, &code, game > 1).await;
        assert_eq!(result["practice"], false, "game {game}: {result}");
    }
    // Within the window: the cap holds.
    started_ago(24 * HOUR_MS - HOUR_MS / 6).await;
    let fourth = resigned_game(&mut ana, &mut bo, &code, true).await;
    assert_eq!(
        fourth["practice"], true,
        "23 h 50 min ago is today: {fourth}"
    );
    assert_eq!(fourth["players"][1]["delta"], 0, "{fourth}");
    // Out of the window: the pair starts afresh.
    started_ago(24 * HOUR_MS + HOUR_MS / 6).await;
    let fifth = resigned_game(&mut ana, &mut bo, &code, true).await;
    assert_eq!(fifth["practice"], false, "24 h 10 min ago is past: {fifth}");
    assert_eq!(fifth["players"][1]["delta"], -2, "scored: {fifth}");
    pool.close().await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_quick_never_joins_a_room_whose_host_chose_the_stake() {
    let hall = TestHall::start().await;
    // Three colluders sit ready in a 4-seat flight room at a stake of their choosing.
    let mut host = hall.guest("host").await;
    let trap = host
        .create("flight", json!({"seats": 4, "stake": 500}))
        .await;
    host.ready().await;
    let mut friends = Vec::new();
    for name in ["f1", "f2"] {
        let mut friend = hall.guest(name).await;
        friend.join(&trap).await;
        friend.ready().await;
        friends.push(friend);
    }
    let mut stranger = hall.guest("stranger").await;
    let matched = stranger
        .ok(json!({"type": "quick_match", "game": "flight"}))
        .await;
    assert_ne!(matched["room"], trap.as_str(), "{matched}");
    // A quick-match room takes the next quick match.
    let mut other = hall.guest("other").await;
    let second = other
        .ok(json!({"type": "quick_match", "game": "flight"}))
        .await;
    assert_eq!(second["room"], matched["room"]);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_quick_the_bot_timer_ends_with_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    // Long enough for b to come by quick match first on a loaded machine: the check below
    // reads the room's timer itself, not the clock.
    config.quick_fill_after = std::time::Duration::from_secs(60);
    let hall = TestHall::with(dir, config).await;
    let mut a = hall.guest("a").await;
    let opened = a.ok(json!({"type": "quick_match", "game": "jungle"})).await;
    let code = opened["room"].as_str().unwrap().to_owned();
    let mut b = hall.guest("b").await;
    let matched = b.ok(json!({"type": "quick_match", "game": "jungle"})).await;
    assert_eq!(matched["room"], code.as_str(), "{matched}");
    // Each quick seat set the bots' time, and the room said when.
    let bots = a
        .wait_for(|v| v["event"]["kind"] == "quick_bots" && v["event"]["at"].is_i64())
        .await;
    assert!(bots["event"]["at"].as_i64().unwrap() > 0, "{bots}");
    a.event("game_started").await;
    // A short game: b escapes at once, its seat is freed, a waits alone.
    b.ok(json!({"type": "leave_room", "room": code, "escape": true}))
        .await;
    a.event("game_over").await;
    // The wait for people ended with the start: no bot is due in the room a waits in (the
    // room shows a pending fill's time in `quick_bots_at` until it fires), and none sits there.
    let mut watcher = hall.client().await;
    watcher.ok(json!({"type": "spectate", "room": code})).await;
    let snapshot = watcher.wait_for(|v| v["type"] == "snapshot").await;
    let state = &snapshot["state"];
    assert_eq!(state["status"], "waiting", "{state}");
    assert!(
        state["quick_bots_at"].is_null(),
        "a fill is still due: {state}"
    );
    let seats = state["seats"].as_array().unwrap();
    assert!(
        seats.iter().all(|s| s["bot"].is_null()),
        "no bot seated into the rematch: {seats:?}"
    );
    hall.stop().await;
}

/// A flight game of two people, 4 planes at stake 1000 (each starts with 1000, P-SCORE):
/// `troll` switches auto-play on before anyone acts, `player` plays its own seat until the
/// game has passed 15 turns (P-RESIGN), and `resigner` resigns. The result.
async fn resigned_after_15_turns(troll_is_resigner: bool) -> (Value, usize, usize) {
    let hall = fair_hall().await;
    let (mut troll, mut player, code) = hall
        .two_players("flight", json!({"seats": 2, "planes": 4, "stake": 1000}))
        .await;
    troll
        .ok(json!({"type": "autoplay", "room": code, "on": true}))
        .await;
    common::play_flight_until(&mut player, |view| {
        view["turns"].as_u64().is_some_and(|t| t >= 15)
    })
    .await;
    let (resigner, watcher) = if troll_is_resigner {
        (&mut troll, &mut player)
    } else {
        (&mut player, &mut troll)
    };
    resigner.ok(json!({"type": "resign", "room": code})).await;
    let over = watcher.event("game_over").await;
    let seats = (troll.seat.unwrap(), player.seat.unwrap());
    hall.stop().await;
    (over["event"]["result"].clone(), seats.0, seats.1)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_a_loser_on_auto_play_from_the_start_cannot_void_the_game_and_a_late_resignation_costs_the_stake()
 {
    // The troll left every decision to auto-play and resigns once behind: the winner played,
    // so the game counts, and the resignation costs v per unfinished plane.
    let (result, troll, player) = resigned_after_15_turns(true).await;
    assert_eq!(result["aborted"], false, "{result}");
    assert_eq!(result["practice"], false, "{result}");
    let loser = &result["players"][troll];
    let unfinished = 4 - loser["finished"].as_i64().unwrap();
    let captures = loser["captures"].as_i64().unwrap();
    assert_eq!(
        loser["delta"].as_i64().unwrap(),
        -250 * unfinished + 5 * captures,
        "v = 1000 / 4 per unfinished plane: {result}"
    );
    assert!(loser["delta"].as_i64().unwrap() < 0, "{result}");
    assert_eq!(result["players"][player]["rank"], 1, "{result}");
    assert!(
        result["players"][player]["rating"].is_object(),
        "rated: {result}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_a_game_won_on_auto_play_without_three_own_decisions_is_aborted() {
    // The winner made no decision of their own: the game is aborted, though the loser made
    // many (a rule that counted the loser's decisions would score it).
    let (result, troll, _) = resigned_after_15_turns(false).await;
    assert_eq!(result["aborted"], true, "{result}");
    assert_eq!(result["players"][troll]["rank"], 1, "{result}");
    for line in result["players"].as_array().unwrap() {
        assert_eq!(line["delta"], 0, "{line}");
    }
    no_rating(&result);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_abort_two_games_of_a_pair_starting_at_once_cannot_both_be_the_third() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.fair.pair_games_per_day = 3;
    let hall = TestHall::with(dir, config).await;
    let (mut ana, mut bo, first) = hall.jungle_started(false).await;
    // Two scored games behind them.
    for game in 1..=2 {
        let result = resigned_game(&mut ana, &mut bo, &first, game > 1).await;
        assert_eq!(result["practice"], false);
    }
    // A second room of the same two, both rooms ready at once.
    let second = ana.create("jungle", json!({})).await;
    bo.join(&second).await;
    let ready = |room: &str| json!({"type": "ready", "room": room, "ready": true});
    let (a1, b1, a2, b2) = (
        ana.send(ready(&first)).await,
        bo.send(ready(&first)).await,
        ana.send(ready(&second)).await,
        bo.send(ready(&second)).await,
    );
    for id in [a1, a2] {
        assert_eq!(ana.answer(id).await["type"], "ack");
    }
    for id in [b1, b2] {
        assert_eq!(bo.answer(id).await["type"], "ack");
    }
    let mut practice = Vec::new();
    for room in [&first, &second] {
        let started = ana
            .wait_for(|v| {
                v["type"] == "event"
                    && v["room"] == room.as_str()
                    && v["event"]["kind"] == "game_started"
            })
            .await;
        let _ = started;
        bo.ok(json!({"type": "resign", "room": room})).await;
        let over = ana
            .wait_for(|v| {
                v["type"] == "event"
                    && v["room"] == room.as_str()
                    && v["event"]["kind"] == "game_over"
            })
            .await;
        practice.push(over["event"]["result"]["practice"].as_bool().unwrap());
    }
    practice.sort_unstable();
    assert_eq!(
        practice,
        vec![false, true],
        "exactly one of the two is the third scored game"
    );
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_score_never_goes_below_zero() {
    let hall = TestHall::start().await;
    let (mut a, mut b, code) = hall
        .two_players("flight", json!({"seats": 2, "planes": 4, "stake": 100}))
        .await;
    // b covers the stake with 150, then escapes (P-ESCAPE: 200).
    hall.set_score(&b, 150).await;
    let seat_b = b.seat.unwrap();
    b.ok(json!({"type": "leave_room", "room": code, "escape": true}))
        .await;
    let over = a.event("game_over").await;
    let line = &over["event"]["result"]["players"][seat_b];
    assert_eq!(
        line["delta"], -150,
        "the change made, not the penalty: {line}"
    );
    assert_eq!(line["score"], 0, "{line}");
    assert_eq!(
        line["guest"], true,
        "P-ACCOUNT: a guest is marked as one: {line}"
    );
    assert_eq!(score(&hall, &b).await, 0);
    // The game's record says the same.
    let game_id = over["event"]["result"]["game_id"].as_i64().unwrap();
    let (status, record) = hall.get(&format!("/api/games/{game_id}")).await;
    assert_eq!(status, 200, "{record}");
    assert_eq!(
        record["result"]["players"][seat_b]["delta"], -150,
        "{record}"
    );
    hall.stop().await;
}

/// The refusal of a seat at a table whose stake the score does not cover: the code, and both
/// figures in the message.
fn uncovered(answer: &Value, stake: i64, score: i64) {
    assert_eq!(answer["code"], "stake_uncovered", "{answer}");
    let message = answer["message"].as_str().unwrap();
    assert!(message.contains(&format!("stake is {stake}")), "{message}");
    assert!(message.contains(&format!("score is {score}")), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_score_a_player_who_cannot_cover_the_stake_is_refused_a_seat_everywhere() {
    let hall = TestHall::start().await;
    let mut host = hall.guest("host").await;
    let code = host
        .create("flight", json!({"seats": 3, "stake": 300}))
        .await;
    let mut puppet = hall.guest("puppet").await;
    hall.set_score(&puppet, 120).await;
    let answer = puppet
        .fails(
            json!({"type": "join_room", "room": code}),
            "stake_uncovered",
        )
        .await;
    uncovered(&answer, 300, 120);
    puppet.ok(json!({"type": "spectate", "room": code})).await;
    let answer = puppet
        .fails(
            json!({"type": "take_seat", "room": code, "seat": 2}),
            "stake_uncovered",
        )
        .await;
    uncovered(&answer, 300, 120);
    let answer = puppet
        .fails(
            json!({"type": "create_room", "game": "flight", "options": {"stake": 500}}),
            "stake_uncovered",
        )
        .await;
    uncovered(&answer, 500, 120);
    // Quick match plays for the default stake, 100: covered by 120, not by 60.
    hall.set_score(&puppet, 60).await;
    let answer = puppet
        .fails(
            json!({"type": "quick_match", "game": "flight"}),
            "stake_uncovered",
        )
        .await;
    uncovered(&answer, 100, 60);
    // Jungle has no stake.
    puppet
        .ok(json!({"type": "quick_match", "game": "jungle"}))
        .await;
    // Nothing changed: the room still has its two free seats.
    let mut watcher = hall.client().await;
    watcher.ok(json!({"type": "spectate", "room": code})).await;
    let snapshot = watcher.wait_for(|v| v["type"] == "snapshot").await;
    let seats = snapshot["state"]["seats"].as_array().unwrap();
    assert_eq!(
        seats.iter().filter(|s| s["player"].is_null()).count(),
        2,
        "{seats:?}"
    );
    hall.stop().await;
}

/// Registers an account on a fresh connection.
async fn account(hall: &TestHall, name: &str) -> common::Client {
    let mut client = hall.client().await;
    let me = client
        .ok(json!({"type": "register", "name": name, "password": "correct horse battery"}))
        .await;
    client.token = me["token"].as_str().map(str::to_owned);
    client.player_id = me["player"]["id"].as_i64();
    client
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_score_a_challenge_at_a_stake_someone_cannot_cover_is_refused() {
    let hall = TestHall::start().await;
    let mut rich = account(&hall, "rich").await;
    let mut poor = account(&hall, "poor").await;
    hall.set_score(&poor, 200).await;
    let challenge = |player: i64| json!({"type": "challenge", "player": player, "game": "flight", "options": {"stake": 500}});
    let answer = rich
        .fails(challenge(poor.player_id.unwrap()), "stake_uncovered")
        .await;
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("poor's score is 200"),
        "{answer}"
    );
    let answer = poor
        .fails(challenge(rich.player_id.unwrap()), "stake_uncovered")
        .await;
    uncovered(&answer, 500, 200);
    // Covered when asked, not when answered: the one who accepts is checked again.
    let open = rich
        .ok(json!({"type": "challenge", "player": poor.player_id.unwrap(), "game": "flight", "options": {"stake": 100}}))
        .await;
    let id = open["challenge"]["id"].as_str().unwrap().to_owned();
    hall.set_score(&poor, 40).await;
    let answer = poor
        .fails(
            json!({"type": "accept_challenge", "challenge": id}),
            "stake_uncovered",
        )
        .await;
    uncovered(&answer, 100, 40);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_rating_a_player_is_listed_after_scored_games_against_five_different_people() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    // Quick games (a resignation at once) count here: this test is about the listing.
    config.fair.listed_after_opponents = hangar_hall::FairPlay::default().listed_after_opponents;
    assert_eq!(
        config.fair.listed_after_opponents, 5,
        "P-RATING: 5 different people"
    );
    let hall = TestHall::with(dir, config).await;
    let mut star = hall.guest("star").await;
    let star_id = star.player_id.unwrap();
    let listed = |board: &Value| {
        board["entries"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["player"]["id"] == star_id)
    };
    for n in 1..=5 {
        let code = star.create("jungle", json!({})).await;
        let mut puppet = hall.guest(&format!("puppet{n}")).await;
        puppet.join(&code).await;
        star.ready().await;
        puppet.ready().await;
        star.event("game_started").await;
        puppet.ok(json!({"type": "resign", "room": code})).await;
        let over = star.event("game_over").await;
        assert_eq!(over["event"]["result"]["practice"], false);
        star.ok(json!({"type": "leave_room", "room": code})).await;
        let board = star
            .ok(json!({"type": "leaderboard", "game": "jungle", "by": "rating"}))
            .await;
        let by_score = star.ok(json!({"type": "leaderboard", "limit": 100})).await;
        let profile = star
            .ok(json!({"type": "profile", "player_id": star_id}))
            .await;
        let stats = &profile["stats"][0];
        assert_eq!(stats["opponents"], n, "{profile}");
        assert_eq!(stats["listed"], n >= 5, "after {n} opponents: {profile}");
        assert_eq!(listed(&board), n >= 5, "after {n} opponents: {board}");
        assert_eq!(listed(&by_score), n >= 5, "after {n} opponents: {by_score}");
    }
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_score_a_flight_arena_is_joined_only_with_a_score_that_covers_its_stake() {
    let hall = TestHall::start().await;
    let new = hangar_hall::arena::NewArena {
        name: "Flight blitz".into(),
        game: hangar_protocol::GameKind::Flight,
        starts_at: hangar_hall::time::now_ms(),
        minutes: 30,
        turn_seconds: 60,
    };
    let arena = hangar_hall::arena::create_arena(&hall.hall.store, &new)
        .await
        .unwrap()
        .unwrap();
    let mut poor = hall.guest("poor").await;
    hall.set_score(&poor, 60).await;
    // The hall takes the new arena up within a round: until then it is no arena yet.
    let join = json!({"type": "arena_join", "arena": arena});
    let answer = loop {
        let answer = poor.call(join.clone()).await;
        if answer["code"] != "no_arena" {
            break answer;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    };
    uncovered(&answer, 100, 60);
    hall.set_score(&poor, 100).await;
    poor.ok(join).await;
    hall.stop().await;
}
