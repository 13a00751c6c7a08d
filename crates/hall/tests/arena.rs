//! P-ARENA over real sockets: people join an arena, are paired into rooms, play, and the
//! table's points change; an escaper is withdrawn; a game running at the end does not count;
//! an arena survives a restart with its standings. Its own test binary: its silent followers
//! read the process's gauge of queued bytes, which another test's hall would move.
#![allow(clippy::unwrap_used)] // tests fail loudly

mod common;

use common::{Client, TestHall, sqlite_url, test_config};
use hangar_hall::arena::{NewArena, create_arena};
use hangar_hall::store::StoredArena;
use hangar_protocol::GameKind;
use serde_json::{Value, json};

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// A Jungle arena running from now for `minutes`.
async fn jungle_arena(hall: &TestHall, minutes: i64) -> i64 {
    let new = NewArena {
        name: "Jungle blitz".into(),
        game: GameKind::Jungle,
        starts_at: now_ms(),
        minutes,
        turn_seconds: 60,
    };
    create_arena(&hall.hall.store, &new).await.unwrap().unwrap()
}

/// Polls `check` every 20 ms until it holds, for at most [`common::WAIT`]; `what` says what
/// did not come in time.
async fn until<F: std::future::Future<Output = bool>>(what: &str, mut check: impl FnMut() -> F) {
    let deadline = tokio::time::Instant::now() + common::WAIT;
    while !check().await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{what}: not in time"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// Waits until the hall runs arena `id` (its loop takes up new arenas once a round).
async fn taken_up(hall: &TestHall, id: i64) {
    until("the arena is taken up", || async {
        hall.hall.arenas.runs(id)
    })
    .await;
}

/// The name of the arenas [`a_round_passed`] makes.
const PROBE: &str = "Round probe";

/// Waits until a whole round of the arenas' loop that began after this call is over, with the
/// pairing and seating of every arena in it: two probe players join an arena of their own;
/// the round that pairs them began after both joined, and the table it sends them (their
/// room in it) leaves at its end, after every table of the round was seated. What a round
/// would have done by now (seat someone, make an arena) it has done.
async fn a_round_passed(hall: &TestHall) {
    static PROBES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = PROBES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let new = NewArena {
        name: PROBE.into(),
        game: GameKind::Jungle,
        starts_at: now_ms(),
        minutes: 30,
        turn_seconds: 60,
    };
    let probe = create_arena(&hall.hall.store, &new).await.unwrap().unwrap();
    taken_up(hall, probe).await;
    let mut p = hall.guest(&format!("probe{n}p")).await;
    let mut q = hall.guest(&format!("probe{n}q")).await;
    for client in [&mut p, &mut q] {
        client
            .ok(json!({"type": "arena_join", "arena": probe}))
            .await;
    }
    p.wait_for(|v| {
        v["type"] == "arena" && v["arena"]["id"] == probe && v["me"]["room"].is_string()
    })
    .await;
    p.close().await;
    q.close().await;
}

/// The client is free in `arena`, and was sent no game of it: its own line shows no room, and
/// no `arena_game` came before the answer (the arena's messages and the answer leave in order).
async fn not_seated(client: &mut Client, arena: i64) {
    let standings = client
        .ok(json!({"type": "arena_standings", "arena": arena}))
        .await;
    assert_eq!(standings["me"]["room"], Value::Null, "{standings}");
    let games: Vec<&Value> = client
        .inbox
        .iter()
        .filter(|v| v["type"] == "arena_game" && v["arena"] == arena)
        .collect();
    assert!(games.is_empty(), "seated: {games:?}");
}

/// Both join the arena; the room the arena seats them in.
async fn paired(a: &mut Client, b: &mut Client, arena: i64) -> String {
    for client in [&mut *a, &mut *b] {
        client
            .ok(json!({"type": "arena_join", "arena": arena}))
            .await;
    }
    let room = next_game(a, arena).await;
    assert_eq!(
        next_game(b, arena).await,
        room,
        "the two are paired together"
    );
    room
}

/// A 30-minute Jungle arena, taken up by the hall, and A and B in their first game of it:
/// the arena, A, B and the game's room.
async fn playing_pair(hall: &TestHall) -> (i64, Client, Client, String) {
    let arena = jungle_arena(hall, 30).await;
    taken_up(hall, arena).await;
    let mut a = hall.guest("a").await;
    let mut b = hall.guest("b").await;
    let room = paired(&mut a, &mut b, arena).await;
    a.event("game_started").await;
    (arena, a, b, room)
}

/// The client's next arena game: its room (the client is seated there and sent the room).
async fn next_game(client: &mut Client, arena: i64) -> String {
    let game = client
        .wait_for(|v| v["type"] == "arena_game" && v["arena"] == arena)
        .await;
    let code = game["room"].as_str().unwrap().to_owned();
    client.room = Some(code.clone());
    code
}

/// Waits for an `arena` table in which the client's own line satisfies `pred`.
async fn my_line(client: &mut Client, pred: impl Fn(&Value) -> bool) -> Value {
    let table = client
        .wait_for(|v| v["type"] == "arena" && pred(&v["me"]))
        .await;
    table["me"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_two_players_join_are_paired_play_and_score() {
    let hall = TestHall::start().await;
    let arena = jungle_arena(&hall, 30).await;
    let mut a = hall.guest("a").await;
    let mut b = hall.guest("b").await;
    // The arena is listed once the hall takes it up.
    taken_up(&hall, arena).await;
    let listed = a.ok(json!({"type": "arenas"})).await;
    assert_eq!(listed["arenas"][0]["status"], "running", "{listed}");
    assert_eq!(listed["arenas"][0]["game"], "jungle");

    let room_a = paired(&mut a, &mut b, arena).await;
    // The first seated sees the game start (the second is sent the room with it started).
    a.event("game_started").await;
    // A private room with no host and only people in it: never the hall's bots.
    let snapshot = b
        .wait_for(|v| v["type"] == "snapshot" && v["state"]["status"] == "playing")
        .await;
    let state = &snapshot["state"];
    assert_eq!(
        (state["private"].as_bool(), state["host"].as_i64()),
        (Some(true), None)
    );
    assert_eq!(state["practice"], false);
    for seat in state["seats"].as_array().unwrap() {
        assert!(
            seat["player"].is_object() && seat["bot"].is_null(),
            "{seat}"
        );
    }
    assert_eq!(b.player_id, state["seats"][1]["player"]["id"].as_i64());
    // A plays the game out by resigning: B wins 2 points, A none.
    a.ok(json!({"type": "resign", "room": room_a})).await;
    let over = b.event("game_over").await;
    assert_eq!(over["event"]["result"]["practice"], false, "a scored game");
    let line_b = my_line(&mut b, |me| me["games"] == 1).await;
    assert_eq!(
        (line_b["points"].as_u64(), line_b["rank"].as_u64()),
        (Some(2), Some(1))
    );
    assert_eq!(line_b["recent"][0]["place"], 1);
    let line_a = my_line(&mut a, |me| me["games"] == 1).await;
    assert_eq!(
        (line_a["points"].as_u64(), line_a["rank"].as_u64()),
        (Some(0), Some(2))
    );

    // Both are free again: paired again (nobody else is free) in a new room.
    let again_a = next_game(&mut a, arena).await;
    let again_b = next_game(&mut b, arena).await;
    assert_eq!(again_a, again_b);
    assert_ne!(again_a, room_a, "a new room for each arena game");
    let standings = a
        .ok(json!({"type": "arena_standings", "arena": arena}))
        .await;
    assert_eq!(standings["total"], 2);
    assert_eq!(standings["standings"][0]["name"], "b");
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_an_escaper_is_withdrawn_until_they_come_back() {
    let hall = TestHall::start().await;
    let (arena, mut a, mut b, room) = playing_pair(&hall).await;
    a.ok(json!({"type": "leave_room", "room": room, "escape": true}))
        .await;
    let line_of_a = |table: &Value| {
        table["standings"]
            .as_array()
            .and_then(|lines| lines.iter().find(|l| l["name"] == "a"))
            .cloned()
            .unwrap_or(Value::Null)
    };
    let table = b
        .wait_for(|v| v["type"] == "arena" && line_of_a(v)["games"] == 1)
        .await;
    assert_eq!(table["me"]["points"], 2, "B won: {table}");
    let line_a = line_of_a(&table);
    assert_eq!(line_a["points"], 0);
    assert_eq!(line_a["active"], false, "withdrawn: {line_a}");
    assert_eq!(line_a["recent"][0]["escaped"], true);
    // Nobody is paired while A stays away: B waits, a whole round after the escape.
    a_round_passed(&hall).await;
    not_seated(&mut b, arena).await;
    // A comes back: both are paired again.
    a.ok(json!({"type": "arena_join", "arena": arena})).await;
    let again = next_game(&mut a, arena).await;
    assert_eq!(next_game(&mut b, arena).await, again);
    hall.stop().await;
}

/// A Jungle arena from `starts_at` for `length_ms`, stored as `hangar admin` makes one.
async fn short_arena(hall: &TestHall, starts_at: i64, length_ms: i64) -> i64 {
    let state =
        hangar_games::arena::Arena::new(GameKind::Jungle, starts_at, starts_at + length_ms, 5_000);
    hall.hall
        .store
        .create_arena(&StoredArena {
            id: 0,
            name: "short".into(),
            game: "jungle".into(),
            starts_at,
            ends_at: starts_at + length_ms,
            turn_seconds: 60,
            state: serde_json::to_string(&state).unwrap(),
            finished: false,
        })
        .await
        .unwrap()
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_a_game_running_at_the_end_does_not_count() {
    let hall = TestHall::start().await;
    let mut a = hall.guest("a").await;
    let mut b = hall.guest("b").await;
    // An arena short enough for its clock to run out while A and B play (60 s a turn): 4 s,
    // or twice as long again while a loaded machine did not seat them before its end.
    let mut length_ms = 4_000;
    let (arena, room) = loop {
        assert!(
            length_ms <= 64_000,
            "A and B were never seated before an arena's end"
        );
        let arena = short_arena(&hall, now_ms(), length_ms).await;
        length_ms *= 2;
        taken_up(&hall, arena).await;
        let join = json!({"type": "arena_join", "arena": arena});
        if a.call(join.clone()).await["type"] != "ack" || b.call(join).await["type"] != "ack" {
            continue;
        }
        let first = a
            .wait_for(|v| {
                (v["type"] == "arena_game" && v["arena"] == arena)
                    || (v["type"] == "arena"
                        && v["arena"]["id"] == arena
                        && v["arena"]["status"] == "finished")
            })
            .await;
        if first["type"] == "arena_game" {
            let room = first["room"].as_str().unwrap().to_owned();
            a.room = Some(room.clone());
            assert_eq!(next_game(&mut b, arena).await, room);
            break (arena, room);
        }
    };
    a.event("game_started").await;
    // The clock runs out while the game runs.
    let table = b
        .wait_for(|v| {
            v["type"] == "arena" && v["arena"]["id"] == arena && v["arena"]["status"] == "finished"
        })
        .await;
    assert_eq!(table["me"]["games"], 0);
    // The game still ends (scored as usual), and the arena does not count it: the room tells
    // the arena the result before its players (the standings read it as the arena took it).
    a.ok(json!({"type": "resign", "room": room})).await;
    b.event("game_over").await;
    let standings = b
        .ok(json!({"type": "arena_standings", "arena": arena}))
        .await;
    assert_eq!(standings["arena"]["status"], "finished");
    for line in standings["standings"].as_array().unwrap() {
        assert_eq!(
            (line["points"].as_u64(), line["games"].as_u64()),
            (Some(0), Some(0)),
            "{line}"
        );
    }
    a.fails(json!({"type": "arena_join", "arena": arena}), "invalid")
        .await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_survives_a_restart_with_its_standings() {
    let hall = TestHall::start().await;
    let (arena, mut a, mut b, room) = playing_pair(&hall).await;
    a.ok(json!({"type": "resign", "room": room})).await;
    my_line(&mut b, |me| me["points"] == 2).await;
    // Stored (by the round after the game's end).
    until("the arena stored B's points", || async {
        stored_line(&hall, arena, "b").await["points"] == 2
    })
    .await;
    a.close().await;
    b.close().await;
    let dir = hall.stop().await;
    let config = test_config(sqlite_url(&dir));
    let hall = TestHall::with(dir, config).await;
    let mut c = hall.guest("c").await;
    c.fails(json!({"type": "arena_standings", "arena": 999}), "no_arena")
        .await;
    let (lines, _) = standings(&mut c, arena).await;
    assert!(
        lines.starts_with(&[("b".to_owned(), 2, 1), ("a".to_owned(), 0, 1)]),
        "{lines:?}"
    );
    hall.stop().await;
}

/// The stored state of arena `id`.
async fn stored_state(hall: &TestHall, id: i64) -> String {
    let stored = hall.hall.store.arenas_after(id - 1, 0).await.unwrap();
    stored[0].state.clone()
}

/// The stored line of player `name` in arena `id` (Null if none).
async fn stored_line(hall: &TestHall, id: i64, name: &str) -> Value {
    let state: Value = serde_json::from_str(&stored_state(hall, id).await).unwrap();
    state["players"]
        .as_array()
        .and_then(|players| players.iter().find(|p| p["name"] == name))
        .cloned()
        .unwrap_or(Value::Null)
}

/// The standings of arena `id` as (name, points, games), and whether a room is shown for
/// anyone (a player seated in a game).
async fn standings(c: &mut Client, arena: i64) -> (Vec<(String, u64, u64)>, bool) {
    let table = c
        .ok(json!({"type": "arena_standings", "arena": arena}))
        .await;
    let lines = table["standings"].as_array().unwrap();
    let seated = lines.iter().any(|l| !l["room"].is_null());
    let lines = lines
        .iter()
        .map(|l| {
            (
                l["name"].as_str().unwrap().to_owned(),
                l["points"].as_u64().unwrap(),
                l["games"].as_u64().unwrap(),
            )
        })
        .collect();
    (lines, seated)
}

/// A hall whose arena game between A and B was played and stored, then stopped with the
/// arena's state as it was stored when the game was seated (`edit` changes it): as if its
/// node died after the room stored the result and before the arena stored what it counted.
async fn arena_that_missed_its_game(edit: impl Fn(String, &str) -> String) -> (TestHall, i64) {
    let hall = TestHall::start().await;
    let (arena, mut a, mut b, room) = playing_pair(&hall).await;
    // Stored before anyone sat down.
    let seated = stored_state(&hall, arena).await;
    assert!(seated.contains(&room), "{seated}");
    a.ok(json!({"type": "resign", "room": room})).await;
    my_line(&mut b, |me| me["points"] == 2).await;
    a.close().await;
    b.close().await;
    // Nobody follows: the arena changes no more, and a whole round later it has stored all
    // it changed, the game's end included.
    a_round_passed(&hall).await;
    assert_eq!(stored_line(&hall, arena, "b").await["points"], 2);
    assert_ne!(stored_state(&hall, arena).await, seated);
    hall.hall
        .store
        .save_arena(arena, edit(seated, &room), false)
        .await
        .unwrap();
    let dir = hall.stop().await;
    let config = test_config(sqlite_url(&dir));
    (TestHall::with(dir, config).await, arena)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_counts_a_game_it_missed_when_taken_up_again() {
    let (hall, arena) = arena_that_missed_its_game(|state, _| state).await;
    let mut c = hall.guest("c").await;
    let (lines, seated) = standings(&mut c, arena).await;
    assert!(
        lines.starts_with(&[("b".to_owned(), 2, 1), ("a".to_owned(), 0, 1)]),
        "the stored result counts: {lines:?}"
    );
    assert!(!seated, "both are free again");
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_frees_the_players_of_a_room_that_never_played() {
    // The arena stored a room whose game never started (its node died in between).
    let (hall, arena) =
        arena_that_missed_its_game(|state, room| state.replace(room, "NEVER1")).await;
    let mut c = hall.guest("c").await;
    let (lines, seated) = standings(&mut c, arena).await;
    assert!(
        lines
            .iter()
            .all(|(_, points, games)| (*points, *games) == (0, 0)),
        "nothing counted: {lines:?}"
    );
    assert!(!seated, "both are free again");
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_a_schedule_makes_the_next_arena_ahead_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.arena_schedule = vec![
        "jungle:60:30:15".parse().unwrap(),
        "flight:120:60".parse().unwrap(),
    ];
    let hall = TestHall::with(dir, config.clone()).await;
    let mut a = hall.guest("a").await;
    // The arenas listed, the probes of [`a_round_passed`] left out.
    let listed = |v: &Value| -> Vec<i64> {
        v["arenas"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["name"] != PROBE)
            .map(|x| x["id"].as_i64().unwrap())
            .collect()
    };
    let deadline = tokio::time::Instant::now() + common::WAIT;
    let mut arenas = a.ok(json!({"type": "arenas"})).await;
    while listed(&arenas).len() < 2 {
        assert!(tokio::time::Instant::now() < deadline, "{arenas}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        arenas = a.ok(json!({"type": "arenas"})).await;
    }
    let hour = 3_600_000;
    let now = now_ms();
    let by_game = |game: &str| {
        arenas["arenas"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["game"] == game)
            .cloned()
            .unwrap()
    };
    let jungle = by_game("jungle");
    assert_eq!(jungle["status"], "upcoming", "{arenas}");
    // The next full hour (made ahead, listed with its countdown).
    let starts_at = jungle["starts_at"].as_i64().unwrap();
    assert_eq!(starts_at % hour, 0);
    assert!(
        starts_at > now - 5_000 && starts_at <= now + hour,
        "{starts_at} at {now}"
    );
    assert_eq!(jungle["turn_seconds"], 15);
    let flight = by_game("flight");
    assert_eq!(flight["starts_at"].as_i64().unwrap() % (2 * hour), 0);
    assert_eq!(
        flight["ends_at"].as_i64().unwrap() - flight["starts_at"].as_i64().unwrap(),
        hour
    );
    // A restart makes no second copy of the arenas made already.
    a.close().await;
    let dir = hall.stop().await;
    let hall = TestHall::with(dir, config).await;
    // The restarted hall takes up the two and runs a whole round, with its schedule.
    for id in listed(&arenas) {
        taken_up(&hall, id).await;
    }
    a_round_passed(&hall).await;
    let mut b = hall.guest("b").await;
    let again = b.ok(json!({"type": "arenas"})).await;
    assert_eq!(listed(&again), listed(&arenas), "{again}");
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_four_flight_players_share_a_table_of_four_and_score_by_place() {
    let hall = TestHall::start().await;
    let new = NewArena {
        name: "Flight arena".into(),
        game: GameKind::Flight,
        starts_at: now_ms(),
        minutes: 30,
        turn_seconds: 60,
    };
    let arena = create_arena(&hall.hall.store, &new).await.unwrap().unwrap();
    taken_up(&hall, arena).await;
    let mut players = Vec::new();
    for name in ["p1", "p2", "p3", "p4"] {
        let mut client = hall.guest(name).await;
        client
            .ok(json!({"type": "arena_join", "arena": arena}))
            .await;
        players.push(client);
    }
    let mut rooms = Vec::new();
    for client in &mut players {
        rooms.push(next_game(client, arena).await);
    }
    assert!(
        rooms.iter().all(|r| *r == rooms[0]),
        "one table of four: {rooms:?}"
    );
    let room = rooms[0].clone();
    players[0].event("game_started").await;
    // Auto-play plays every seat out (the places are the game's own).
    for client in &mut players {
        client
            .ok(json!({"type": "autoplay", "room": room, "on": true}))
            .await;
    }
    let over = players[3].event("game_over").await;
    let result = &over["event"]["result"]["players"];
    let mut expected: Vec<(String, u64)> = result
        .as_array()
        .unwrap()
        .iter()
        .map(|line| {
            let place = line["rank"].as_u64().unwrap();
            (line["name"].as_str().unwrap().to_owned(), 4 - place)
        })
        .collect();
    expected.sort();
    let table = players[3]
        .wait_for(|v| v["type"] == "arena" && v["me"]["games"] == 1)
        .await;
    let mut got: Vec<(String, u64)> = table["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["name"].as_str().unwrap().to_owned(),
                l["points"].as_u64().unwrap(),
            )
        })
        .collect();
    got.sort();
    assert_eq!(got, expected, "3/2/1/0 by place: {table}");
    assert!(
        got.iter().any(|(_, points)| *points == 3),
        "a winner: {table}"
    );
    assert_eq!(table["me"]["recent"][0]["of"], 4);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_an_aborted_game_brings_no_points() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.fair.abort_decisions = 3;
    let hall = TestHall::with(dir, config).await;
    let (arena, mut a, mut b, room) = playing_pair(&hall).await;
    // A resigns before making a decision of their own: the game is aborted (P-ABORT).
    a.ok(json!({"type": "resign", "room": room})).await;
    let over = b.event("game_over").await;
    assert_eq!(over["event"]["result"]["aborted"], true);
    // Both are free again (paired anew), and nobody scored.
    next_game(&mut b, arena).await;
    let standings = b
        .ok(json!({"type": "arena_standings", "arena": arena}))
        .await;
    for line in standings["standings"].as_array().unwrap() {
        assert_eq!(
            (line["points"].as_u64(), line["games"].as_u64()),
            (Some(0), Some(0)),
            "{line}"
        );
    }
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_a_player_holding_too_many_seats_is_withdrawn_not_seated() {
    let hall = TestHall::start().await;
    let arena = jungle_arena(&hall, 30).await;
    taken_up(&hall, arena).await;
    let mut a = hall.guest("a").await;
    let mut b = hall.guest("b").await;
    // A sits in as many rooms as a player may.
    for _ in 0..hangar_hall::hall::MAX_SEATS_PER_PLAYER {
        a.create("jungle", json!({})).await;
    }
    for client in [&mut a, &mut b] {
        client
            .ok(json!({"type": "arena_join", "arena": arena}))
            .await;
    }
    let table = b
        .wait_for(|v| {
            v["type"] == "arena"
                && v["standings"]
                    .as_array()
                    .is_some_and(|l| l.iter().any(|x| x["name"] == "a" && x["active"] == false))
        })
        .await;
    assert_eq!(table["me"]["active"], true, "B stays in: {table}");
    assert_eq!(
        table["me"]["room"],
        Value::Null,
        "and is free, not seated: {table}"
    );
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_no_one_meets_the_same_opponent_twice_in_a_row_when_another_is_free() {
    let hall = TestHall::start().await;
    let arena = jungle_arena(&hall, 30).await;
    taken_up(&hall, arena).await;
    let mut a = hall.guest("a").await;
    let mut b = hall.guest("b").await;
    // A and B join first and are paired; C comes once they play.
    let first = paired(&mut a, &mut b, arena).await;
    let mut c = hall.guest("c").await;
    c.ok(json!({"type": "arena_join", "arena": arena})).await;
    a.event("game_started").await;
    a.ok(json!({"type": "resign", "room": first})).await;
    // Free again: B (2 points) meets C, not A again; A waits for the next free player.
    let b_next = next_game(&mut b, arena).await;
    let c_next = next_game(&mut c, arena).await;
    assert_eq!(b_next, c_next, "B is paired with C");
    assert_ne!(b_next, first);
    // A waits, a whole round after B and C were seated.
    a_round_passed(&hall).await;
    not_seated(&mut a, arena).await;
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_the_fourth_game_of_a_pair_in_one_arena_pays_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    // The hall's 24-hour cap does not apply to arena games; the arena has its own (3).
    config.fair.pair_games_per_day = 1;
    assert_eq!(config.fair.arena_pair_games, 3);
    let hall = TestHall::with(dir, config).await;
    let (arena, mut a, mut b, mut room) = playing_pair(&hall).await;
    for game in 1..=4 {
        if game > 1 {
            room = next_game(&mut a, arena).await;
            assert_eq!(next_game(&mut b, arena).await, room);
            // The first seated sees the game start, the second is sent the room started.
            a.wait_for(|v| {
                v["room"] == room.as_str()
                    && (v["event"]["kind"] == "game_started" || v["state"]["status"] == "playing")
            })
            .await;
        }
        a.ok(json!({"type": "resign", "room": room})).await;
        let over = b
            .wait_for(|v| {
                v["type"] == "event"
                    && v["room"] == room.as_str()
                    && v["event"]["kind"] == "game_over"
            })
            .await;
        let result = &over["event"]["result"];
        assert_eq!(result["practice"], game > 3, "game {game}: {result}");
    }
    // Settled before the two are paired again: the fourth game counted nothing. B's points:
    // 2, 2, then 4 (two wins in a row double), and none for the fourth.
    next_game(&mut b, arena).await;
    let standings = b
        .ok(json!({"type": "arena_standings", "arena": arena}))
        .await;
    let line_b = standings["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["name"] == "b")
        .unwrap()
        .clone();
    assert_eq!(
        (line_b["points"].as_u64(), line_b["games"].as_u64()),
        (Some(8), Some(3)),
        "{standings}"
    );
    hall.stop().await;
}

/// A raw connection with a receive buffer of `buffer` bytes that follows `arena` and then
/// reads nothing (its answer read first).
async fn silent_follower(addr: std::net::SocketAddr, arena: i64, buffer: u32) -> Raw {
    use futures_util::{SinkExt, StreamExt};
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(buffer).unwrap();
    let stream = socket.connect(addr).await.unwrap();
    let (mut ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/ws"), stream)
        .await
        .unwrap();
    let follow = json!({"type": "arena_subscribe", "id": 1, "arena": arena});
    ws.send(Message::text(follow.to_string())).await.unwrap();
    loop {
        let frame = tokio::time::timeout(common::WAIT, ws.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        let Message::Text(text) = frame else { continue };
        let value: Value = serde_json::from_str(&text).unwrap();
        if value["id"] == 1 {
            assert_eq!(value["type"], "ack", "{value}");
            return ws;
        }
    }
}

type Raw = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;
use tokio_tungstenite::tungstenite::Message;

/// Reads a connection until its close frame: the close's code and reason (None: the
/// connection ended without one).
async fn close_of(mut ws: Raw) -> Option<(u16, String)> {
    use futures_util::StreamExt;
    let read = async {
        while let Some(Ok(message)) = ws.next().await {
            if let Message::Close(frame) = message {
                return frame.map(|f| (u16::from(f.code), f.reason.to_string()));
            }
        }
        None
    };
    tokio::time::timeout(common::WAIT, read)
        .await
        .ok()
        .flatten()
}

/// The hall process's resident memory (Linux), bytes.
fn rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// §5 / P-ARENA: 300 connections follow an arena whose table of 100 long-named players
/// changes twice a second (one account joining and withdrawing every 120 ms) and read
/// nothing. The table is serialised once for them all; what the hall holds for each stays
/// under the byte bound (the `hangar_outbox_queued_bytes` gauge never passes the bound times
/// the connections), and each is closed with the reason (1008, too slow) once it fell that
/// far behind, instead of holding up to 4,096 frames each (about 111 MiB per follower of a
/// full table).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_silent_followers_of_a_changing_table_hold_a_bounded_number_of_bytes() {
    const FOLLOWERS: usize = 300;
    const BOUND: usize = 64 * 1024;
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.limits.outbox_bytes = BOUND;
    // The kernel's share of a silent peer kept small as well (Linux doubles it).
    config.limits.socket_send_buffer = 8 * 1024;
    let hall = TestHall::with(dir, config).await;
    // Upcoming: nobody is paired, the table changes only by joining and withdrawing.
    let new = NewArena {
        name: "Followed".into(),
        game: GameKind::Jungle,
        starts_at: now_ms() + 3_600_000,
        minutes: 30,
        turn_seconds: 60,
    };
    let arena = create_arena(&hall.hall.store, &new).await.unwrap().unwrap();
    taken_up(&hall, arena).await;
    // 100 players of 20-character names make a full table (about 16 KiB a message).
    for n in 0..100 {
        let mut player = hall.guest(&format!("Longname{n:012}")).await;
        player
            .ok(json!({"type": "arena_join", "arena": arena}))
            .await;
        player.close().await;
    }
    let mut followers = Vec::with_capacity(FOLLOWERS);
    for _ in 0..FOLLOWERS {
        followers.push(silent_follower(hall.addr, arena, 2048).await);
    }
    let rss_before = rss();
    let mut toggler = hall.guest("toggler").await;
    let deadline = tokio::time::Instant::now() + 2 * common::WAIT;
    let mut joined = false;
    let (mut most_queued, mut most_rss) = (0, 0);
    let mut changes = 0;
    // Until the hall has let every silent follower go (the toggler still follows).
    while hall.hall.arenas.followers(arena) > 1 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{} followers left after {changes} changes; {most_queued} bytes queued at most",
            hall.hall.arenas.followers(arena)
        );
        let order = if joined {
            "arena_withdraw"
        } else {
            "arena_join"
        };
        toggler.ok(json!({"type": order, "arena": arena})).await;
        toggler.inbox.clear();
        joined = !joined;
        changes += 1;
        let queued = hall.hall.queued_bytes();
        assert!(
            queued <= BOUND * (FOLLOWERS + 1),
            "{queued} bytes queued for {FOLLOWERS} followers, beyond {BOUND} each"
        );
        most_queued = most_queued.max(queued);
        most_rss = most_rss.max(rss());
        tokio::time::sleep(std::time::Duration::from_millis(120)).await;
    }
    // Each silent follower is told why (once it reads again).
    let closes = futures_util::future::join_all(followers.into_iter().map(close_of)).await;
    for close in &closes {
        assert_eq!(
            close
                .as_ref()
                .map(|(code, reason)| (*code, reason.as_str())),
            Some((1008, hangar_hall::outbox::TOO_SLOW)),
            "a silent follower's close"
        );
    }
    // What they held is let go: the toggler alone may have a table queued.
    let (_, metrics) = common::http_get_text(hall.addr, "/metrics").await;
    let gauge = metrics
        .lines()
        .find_map(|l| l.strip_prefix("hangar_outbox_queued_bytes "))
        .and_then(|v| v.parse::<f64>().ok())
        .expect("the gauge of bytes queued");
    assert!(gauge <= BOUND as f64, "{gauge} bytes still queued");
    eprintln!(
        "{changes} changes; at most {most_queued} bytes queued for {FOLLOWERS} followers \
         (bound {}); resident memory {} MB before, {} MB at most",
        BOUND * FOLLOWERS,
        rss_before >> 20,
        most_rss >> 20
    );
    toggler.close().await;
    hall.stop().await;
}

/// P-ARENA: an arena game's clock starts when its players see the board — after the
/// countdown the arena announced — not when the room opened.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_the_first_turn_is_timed_from_the_end_of_the_countdown() {
    let hall = TestHall::start().await;
    let arena = jungle_arena(&hall, 30).await;
    taken_up(&hall, arena).await;
    let mut a = hall.guest("a").await;
    let mut b = hall.guest("b").await;
    for client in [&mut a, &mut b] {
        client
            .ok(json!({"type": "arena_join", "arena": arena}))
            .await;
    }
    let game = a
        .wait_for(|v| v["type"] == "arena_game" && v["arena"] == arena)
        .await;
    let starts_at = game["starts_at"].as_i64().unwrap();
    assert!(starts_at > now_ms(), "a countdown lies ahead: {game}");
    let turn = a.event("turn").await;
    let deadline = turn["event"]["deadline"].as_i64().unwrap();
    // The arena's games give 60 s a decision (turn unit 1 s in the test hall).
    assert!(
        deadline >= starts_at + 60_000 - 5,
        "the first turn ends at {deadline}, {} ms after the countdown's end",
        deadline - starts_at
    );
    hall.stop().await;
}

/// P-ARENA: an arena game is its players' — someone else with the room's code watches, and
/// neither takes a seat nor chats there (the players do).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_an_outsider_watches_an_arena_game_without_a_seat_or_a_word() {
    let hall = TestHall::start().await;
    let (_, mut a, _b, room) = playing_pair(&hall).await;
    let mut outsider = hall.guest("nosy").await;
    let joined = outsider
        .ok(json!({"type": "join_room", "room": room}))
        .await;
    assert!(joined["seat"].is_null(), "watching only: {joined}");
    outsider.room = Some(room.clone());
    outsider
        .fails(
            json!({"type": "chat", "room": room, "text": "hi"}),
            "spectator",
        )
        .await;
    outsider
        .fails(
            json!({"type": "take_seat", "room": room, "seat": 0}),
            "already_playing",
        )
        .await;
    a.ok(json!({"type": "chat", "room": room, "text": "good luck"}))
        .await;
    hall.stop().await;
}

/// P-CHALLENGE in an arena: two players one of whom blocked the other are never seated
/// together, even when they are the only two free; a third is seated with one of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_challenge_an_arena_never_seats_a_blocked_pair_together() {
    let hall = TestHall::start().await;
    let arena = jungle_arena(&hall, 30).await;
    taken_up(&hall, arena).await;
    let mut a = hall.guest("a").await;
    let mut b = hall.guest("b").await;
    a.ok(json!({"type": "block", "player": b.player_id})).await;
    for client in [&mut a, &mut b] {
        client
            .ok(json!({"type": "arena_join", "arena": arena}))
            .await;
    }
    // A whole round after both joined (their blocks read before its pairing): nobody is
    // seated.
    a_round_passed(&hall).await;
    not_seated(&mut a, arena).await;
    not_seated(&mut b, arena).await;
    let mut c = hall.guest("c").await;
    c.ok(json!({"type": "arena_join", "arena": arena})).await;
    let room = next_game(&mut c, arena).await;
    // The table names the room of each player in a game: c and one of a and b.
    let at_table = |v: &Value| -> Vec<String> {
        v["standings"]
            .as_array()
            .map(|lines| {
                lines
                    .iter()
                    .filter(|l| l["room"] == json!(room))
                    .filter_map(|l| l["name"].as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    let table = c
        .wait_for(|v| v["type"] == "arena" && at_table(v).len() == 2)
        .await;
    let names = at_table(&table);
    assert!(names.contains(&"c".to_owned()), "{names:?}");
    assert!(
        names.contains(&"a".to_owned()) != names.contains(&"b".to_owned()),
        "{names:?}"
    );
    hall.stop().await;
}

/// P-ARENA: an arena's results stay at an address of their own — the live table while it
/// runs, the final one after, also for an arena that ended long before the hall started (read
/// from the store) — and an unknown arena is a 404.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_results_stay_at_their_own_address() {
    let hall = TestHall::start().await;
    let (arena, mut a, _b, room) = playing_pair(&hall).await;
    a.ok(json!({"type": "resign", "room": room})).await;
    my_line(&mut a, |me| me["games"] == 1).await;
    let (status, live) = hall.get(&format!("/api/arenas/{arena}")).await;
    assert_eq!(status, 200, "{live}");
    assert_eq!(live["arena"]["status"], "running", "{live}");
    let lines = live["standings"].as_array().unwrap();
    assert_eq!(lines.len(), 2, "{live}");
    assert_eq!(lines[0]["name"], "b", "the winner leads: {live}");
    assert_eq!(lines[0]["points"], 2, "{live}");
    assert!(live["me"].is_null(), "{live}");

    // An arena of two days ago, never taken up by this hall: its stored standings.
    let ended = now_ms() - 2 * 24 * 3600 * 1000;
    let mut state = hangar_games::arena::Arena::new(GameKind::Jungle, ended - 60_000, ended, 5_000);
    state
        .join(a.player_id.unwrap(), "a", false, 1500, ended - 30_000)
        .unwrap();
    let old = hall
        .hall
        .store
        .create_arena(&StoredArena {
            id: 0,
            name: "old".into(),
            game: "jungle".into(),
            starts_at: ended - 60_000,
            ends_at: ended,
            turn_seconds: 60,
            state: serde_json::to_string(&state).unwrap(),
            finished: true,
        })
        .await
        .unwrap()
        .unwrap();
    let (status, final_table) = hall.get(&format!("/api/arenas/{old}")).await;
    assert_eq!(status, 200, "{final_table}");
    assert_eq!(final_table["arena"]["status"], "finished", "{final_table}");
    assert_eq!(final_table["standings"][0]["name"], "a", "{final_table}");

    let (status, missing) = hall.get("/api/arenas/999999").await;
    assert_eq!(status, 404, "{missing}");
    hall.stop().await;
}
