//! P-REVIEW, the hall's side: `GET /api/games/{id}/review` refuses a running game, computes a
//! finished game's review with the library's `review_record` (the JSON `hangar review --json`
//! prints; crates/hangar/tests/it/review_hall.rs compares the real binary's), keeps it in the
//! database and serves it again without computing; a flood of requests is queued and refused
//! with `Retry-After`, and the hall's other players are served meanwhile. Its own test
//! binary: it measures other players' latency during a flood of reviews, with no other test's
//! hall working beside it.
#![allow(clippy::unwrap_used)] // tests fail loudly

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{
    Client, TestHall, count_rows, databases, get_as, http_get_text, play_flight, sqlite_url,
    test_config,
};
use hangar_games::record::GameRecord;
use hangar_games::review::{ReviewSettings, review_record};
use hangar_hall::review::{ReviewBudget, ReviewProgress};
use serde_json::{Value, json};

/// The tests of this file run one at a time: each loads a core with its hall's reviews, and
/// one of them measures how another player fares meanwhile (another test's reviews would be
/// load it did not ask for).
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A Jungle game between two guests: `plies` moves (the first listed each time), then the
/// side to move resigns. Its id.
async fn finished_jungle(hall: &TestHall, plies: usize) -> i64 {
    let (first, other, code) = hall.two_players("jungle", json!({})).await;
    let mut players = [first, other];
    for ply in 0..plies {
        let (game, _) = hall.watched(&code).await;
        let m = game["moves"][0].clone();
        players[ply % 2]
            .ok(json!({"type": "move", "room": code, "move": m}))
            .await;
    }
    players[plies % 2]
        .ok(json!({"type": "resign", "room": code}))
        .await;
    let over = players[0].event("game_over").await;
    over["event"]["result"]["game_id"].as_i64().unwrap()
}

/// A flight game of a guest against a random bot, played to the end. Its id.
async fn finished_flight(hall: &TestHall) -> i64 {
    let mut client = hall.guest("pilot").await;
    client.start_flight_against_a_random_bot().await;
    let result = play_flight(&mut client).await;
    result["game_id"].as_i64().unwrap()
}

/// A GET with its status, `Retry-After` header (if any) and JSON body.
async fn get_full(addr: SocketAddr, path: &str) -> (u16, Option<u64>, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8_lossy(&response).to_string();
    let status: u16 = text[9..12].parse().unwrap();
    let split = text.find("\r\n\r\n").unwrap();
    let retry = text[..split].lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("retry-after")
            .then(|| value.trim().parse().ok())?
    });
    let body = serde_json::from_str(&text[split + 4..]).unwrap_or(Value::Null);
    (status, retry, body)
}

/// Polls a game's review until it is ready (each answer on the way a queue place or a
/// progress); the review.
async fn review_when_ready(hall: &TestHall, id: i64) -> Value {
    let path = format!("/api/games/{id}/review");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let (status, body) = hall.get(&path).await;
        match status {
            200 => return body,
            202 => {
                let progress: ReviewProgress = serde_json::from_value(body.clone()).unwrap();
                if let ReviewProgress::Running { done, of } = progress {
                    assert!(done <= of || of == 0, "{body}");
                }
            }
            _ => panic!("{path}: {status} {body}"),
        }
        assert!(
            Instant::now() < deadline,
            "the review of game {id} takes too long"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The library's review of the record the hall serves, as the JSON text the hall sends.
async fn library_review(hall: &TestHall, id: i64) -> String {
    let (status, record) = hall.get(&format!("/api/games/{id}")).await;
    assert_eq!(status, 200);
    let record: GameRecord = serde_json::from_value(record).unwrap();
    serde_json::to_string(&review_record(&record, &ReviewSettings::default()).unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_review_a_running_game_is_refused() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let hall = TestHall::start().await;
    let (status, body) = hall.get("/api/games/1/review").await;
    assert_eq!(status, 404, "no game yet: {body}");
    let (first, _other, code) = hall.two_players("jungle", json!({})).await;
    let (status, body) = hall.get("/api/games/1/review").await;
    assert_eq!(status, 409, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("running"),
        "{body}"
    );
    assert_eq!(hall.hall.reviews.computed(), 0, "nothing was computed");
    assert_eq!(count_rows(&hall.hall.config.database, "reviews").await, 0);
    drop((first, code));

    // A private game's review is its players' alone, as its record is.
    let (mut a, b, code) = hall.jungle_started(true).await;
    a.ok(json!({"type": "resign", "room": code})).await;
    let stranger = hall.guest("eve").await.token.clone().unwrap();
    for token in [None, Some(stranger.as_str())] {
        let (status, body) = get_as(hall.addr, "/api/games/2/review", token).await;
        assert_eq!(status, 404, "{token:?}: {body}");
    }
    let member = b.token.clone().unwrap();
    let (status, body) = get_as(hall.addr, "/api/games/2/review", Some(&member)).await;
    assert!(status == 200 || status == 202, "{status} {body}");
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_review_a_finished_game_is_reviewed_once_then_served_from_the_store() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let dir = tempfile::tempdir().unwrap();
    for url in databases(&dir).await {
        let hall = TestHall::on(&url).await;
        let jungle = finished_jungle(&hall, 4).await;
        let flight = finished_flight(&hall).await;
        for (n, id) in [jungle, flight].into_iter().enumerate() {
            let review = review_when_ready(&hall, id).await;
            // The library's review of the same record, with the same settings as the CLI,
            // byte for byte.
            let (_, text) = http_get_text(hall.addr, &format!("/api/games/{id}/review")).await;
            assert_eq!(text, library_review(&hall, id).await, "game {id}");
            assert_eq!(hall.hall.reviews.computed(), n as u64 + 1);
            // Again: from the store, at once, not computed.
            let (status, again) = hall.get(&format!("/api/games/{id}/review")).await;
            assert_eq!((status, &again), (200, &review));
            assert_eq!(hall.hall.reviews.computed(), n as u64 + 1);
        }
        let (status, jungle_review) = hall.get(&format!("/api/games/{jungle}/review")).await;
        assert_eq!(status, 200);
        assert_eq!(jungle_review["game"], "jungle");
        assert_eq!(jungle_review["moves"].as_array().unwrap().len(), 4);
        assert_eq!(count_rows(&url, "reviews").await, 2);

        // Kept with the record: a hall started again on the database serves it, computing
        // nothing.
        let database = hall.hall.config.database.clone();
        let dir = hall.stop().await;
        let hall = TestHall::with(dir, test_config(database)).await;
        let (status, stored) = hall.get(&format!("/api/games/{jungle}/review")).await;
        assert_eq!((status, &stored), (200, &jungle_review));
        assert_eq!(hall.hall.reviews.computed(), 0);
        hall.stop().await;
    }
}

/// A hall whose reviews take a while (`nodes` per Jungle position, far over the default), with
/// one worker, a queue of `queue`, `burst` reviews per address and the API's rate limit.
async fn slow_review_hall(queue: usize, burst: u32, api_per_second: u32, nodes: u64) -> TestHall {
    let dir = tempfile::tempdir().unwrap();
    let mut config = test_config(sqlite_url(&dir));
    config.limits.review = ReviewBudget {
        workers: 1,
        queue,
        per_address_burst: burst,
        per_address_per_hour: 60,
        nodes,
    };
    config.limits.api_requests_per_second = api_per_second;
    TestHall::with(dir, config).await
}

/// Waits until `check` holds for the hall's reviews.
async fn until(hall: &TestHall, check: impl Fn(&hangar_hall::review::Reviews) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while !check(&hall.hall.reviews) {
        assert!(Instant::now() < deadline, "the reviews never got there");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_review_a_flood_is_queued_then_refused_with_retry_after() {
    let _alone = ONE_AT_A_TIME.lock().await;
    // No API rate limit here: the refusals seen are the review budget's.
    let hall = slow_review_hall(3, 6, 0, 3_000_000).await;
    let mut games = Vec::new();
    for _ in 0..8 {
        games.push(finished_jungle(&hall, 1).await);
    }
    let addr = hall.addr;
    let review = |id: i64| async move { get_full(addr, &format!("/api/games/{id}/review")).await };

    // The first takes the one worker; the next three wait in the queue, in order.
    let (status, _, body) = review(games[0]).await;
    assert_eq!(status, 202, "{body}");
    until(&hall, |r| r.running() == 1).await;
    for (place, &id) in games[1..4].iter().enumerate() {
        let (status, _, body) = review(id).await;
        assert_eq!(status, 202, "{body}");
        assert_eq!(
            serde_json::from_value::<ReviewProgress>(body).unwrap(),
            ReviewProgress::Queued {
                position: place + 1
            }
        );
    }
    // The queue is full: refused, with when to come back.
    let (status, retry, body) = review(games[4]).await;
    assert_eq!(status, 503, "{body}");
    assert!(retry.is_some_and(|s| s > 0), "Retry-After: {retry:?}");
    assert!(
        body["error"].as_str().unwrap().contains("waiting"),
        "{body}"
    );
    // A game being reviewed is followed, not started again (and costs no review).
    let (status, _, body) = review(games[1]).await;
    assert_eq!(
        (status, body),
        (202, json!({"state": "queued", "position": 1}))
    );
    let (status, _, body) = review(games[0]).await;
    assert_eq!(status, 202);
    assert_eq!(body["state"], "running", "{body}");

    // Once the queue has room, this address has two reviews left of its six.
    until(&hall, |r| r.waiting() == 0).await;
    for &id in &games[4..6] {
        let (status, _, body) = review(id).await;
        assert_eq!(status, 202, "{body}");
    }
    let (status, retry, body) = review(games[6]).await;
    assert_eq!(status, 429, "{body}");
    assert!(retry.is_some_and(|s| s > 0), "Retry-After: {retry:?}");
    // Every review accepted is computed, one at a time, and kept.
    until(&hall, |r| r.computed() == 6).await;
    for &id in &games[..6] {
        let (status, _, body) = review(id).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["game_id"], json!(id));
    }
    assert_eq!(count_rows(&hall.hall.config.database, "reviews").await, 6);
    hall.stop().await;
}

/// How long each of `n` actions of `client` took, from the command to its answer: rolls and
/// moves in flight games against a random bot, a new game whenever one ends.
async fn timed_actions(client: &mut Client, n: usize) -> Vec<Duration> {
    let mut times = Vec::with_capacity(n);
    let mut moves: Vec<Value> = Vec::new();
    while times.len() < n {
        let room = client.room.clone().unwrap();
        let v = client.next().await;
        if v["type"] != "event" {
            continue;
        }
        let event = &v["event"];
        match event["kind"].as_str().unwrap_or_default() {
            "game_over" => {
                // A new game in a new room (a player holds seats in a few rooms at most).
                client.ok(json!({"type": "leave_room", "room": room})).await;
                client.start_flight_against_a_random_bot().await;
            }
            "rolled" => moves = event["moves"].as_array().cloned().unwrap_or_default(),
            "turn" if event["seat"] == json!(client.seat.unwrap()) => {
                let command = if event["need"] == "roll" {
                    json!({"type": "roll", "room": room, "entropy": common::entropy()})
                } else {
                    json!({"type": "move", "room": room, "plane": moves[0]["plane"].clone()})
                };
                let sent = Instant::now();
                let answer = client.call(command.clone()).await;
                times.push(sent.elapsed());
                assert_eq!(answer["type"], "ack", "{command} → {answer}");
            }
            _ => {}
        }
    }
    times
}

/// The 99th percentile.
fn p99(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[(times.len() * 99 / 100).min(times.len() - 1)]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_review_a_flood_of_reviews_leaves_the_other_players_served() {
    let _alone = ONE_AT_A_TIME.lock().await;
    // The hall's own limits: the API's rate per address, the review budget's queue and burst.
    let hall = slow_review_hall(32, 5, 5, 10_000_000).await;
    let mut games = Vec::new();
    for _ in 0..6 {
        games.push(finished_jungle(&hall, 1).await);
    }
    let mut player = hall.guest("steady").await;
    player.start_flight_against_a_random_bot().await;
    // Warm up (the first game's start), then the baseline: no review anywhere.
    timed_actions(&mut player, 20).await;
    let baseline = p99(timed_actions(&mut player, 400).await);

    // The flood: four clients asking for every game's review again and again, a request every
    // two milliseconds each (thousands a second in all, far over the API's rate).
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut flooders = Vec::new();
    for _ in 0..4 {
        let (stop, games, addr) = (stop.clone(), games.clone(), hall.addr);
        flooders.push(tokio::spawn(async move {
            let mut statuses = Vec::new();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                for &id in &games {
                    let (status, _, _) = get_full(addr, &format!("/api/games/{id}/review")).await;
                    statuses.push(status);
                    tokio::time::sleep(Duration::from_millis(2)).await;
                }
            }
            statuses
        }));
    }
    until(&hall, |r| r.running() == 1).await;
    let computed_before = hall.hall.reviews.computed();
    let during = timed_actions(&mut player, 400).await;
    let busy = hall.hall.reviews.running() == 1 || hall.hall.reviews.computed() > computed_before;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut statuses = Vec::new();
    for flooder in flooders {
        statuses.extend(flooder.await.unwrap());
    }
    let during = p99(during);
    assert!(busy, "the reviews ran while the player played");
    let count = |s: u16| statuses.iter().filter(|&&x| x == s).count();
    assert!(count(429) > 0, "the flood was limited: {statuses:?}");
    assert!(count(202) > 0, "the flood's reviews were queued");
    assert!(
        statuses.iter().all(|s| [200, 202, 429, 503].contains(s)),
        "{statuses:?}"
    );
    // Five reviews at most for this address, whatever the flood asked.
    let reviews = &hall.hall.reviews;
    assert!(reviews.computed() as usize + reviews.running() + reviews.waiting() <= 5);
    eprintln!(
        "action p99: {baseline:?} without reviews, {during:?} during the flood ({} requests)",
        statuses.len()
    );
    assert!(
        during <= baseline * 10,
        "the other player's actions slowed: p99 {during:?} during the flood, {baseline:?} before"
    );
    hall.stop().await;
}

/// Sends `review` for `game` over `client`'s connection: checks its ack (`{}`, before any
/// review message), then reads the `review_progress` messages up to the end (other frames,
/// such as a room's events, are let by); those, and the last message (`review_ready` or
/// `review_failed`).
async fn review_over_the_websocket(client: &mut Client, game: i64) -> (Vec<Value>, Value) {
    let is_review = |v: &Value| v["type"].as_str().is_some_and(|t| t.starts_with("review_"));
    client.inbox.retain(|v| !is_review(v));
    let id = client.send(json!({"type": "review", "game": game})).await;
    let ack = client.answer(id).await;
    assert_eq!(ack, json!({"type": "ack", "id": id, "result": {}}));
    assert!(
        !client.inbox.iter().any(is_review),
        "the ack comes first: {:?}",
        client.inbox
    );
    let mut progress: Vec<Value> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let message = client.wait_for(is_review).await;
        assert_eq!(message["game"], json!(game), "{message}");
        match message["type"].as_str().unwrap() {
            "review_progress" => {
                let state: ReviewProgress = serde_json::from_value(json!({
                    "state": message["state"], "position": message["position"],
                    "done": message["done"], "of": message["of"],
                }))
                .unwrap();
                match state {
                    ReviewProgress::Queued { position } => assert!(position >= 1, "{message}"),
                    ReviewProgress::Running { done, of } => {
                        assert!(done <= of || of == 0, "{message}");
                    }
                }
                // Sent when it changes only.
                assert_ne!(progress.last(), Some(&message), "sent twice");
                progress.push(message);
            }
            "review_ready" | "review_failed" => return (progress, message),
            _ => panic!("review of game {game}: {message}"),
        }
        assert!(
            Instant::now() < deadline,
            "the review of game {game} takes too long"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_review_over_the_websocket_sends_progress_then_the_review_equal_to_the_http_one() {
    let _alone = ONE_AT_A_TIME.lock().await;
    let hall = TestHall::start().await;
    let game = finished_jungle(&hall, 12).await;
    let mut reader = hall.guest("reader").await;
    let (progress, last) = review_over_the_websocket(&mut reader, game).await;
    assert_eq!(last["type"], "review_ready", "{last}");
    assert!(
        !progress.is_empty(),
        "a review computed is preceded by its progress"
    );
    assert!(
        progress.len() <= 4 * 60,
        "at most about 4 progress messages a second"
    );
    assert_eq!(hall.hall.reviews.computed(), 1);
    // The review is the one the HTTP endpoint serves (from the store now), and the library's.
    let (status, served) = hall.get(&format!("/api/games/{game}/review")).await;
    assert_eq!(status, 200, "{served}");
    assert_eq!(last["review"], served);
    let library: Value = serde_json::from_str(&library_review(&hall, game).await).unwrap();
    assert_eq!(last["review"], library);

    // Asked again, over another connection too: from the store, right after the ack, not
    // computed again.
    let mut other = hall.guest("other").await;
    for client in [&mut reader, &mut other] {
        let (progress, again) = review_over_the_websocket(client, game).await;
        assert_eq!(progress, Vec::<Value>::new());
        assert_eq!(again, last);
    }
    assert_eq!(hall.hall.reviews.computed(), 1);

    // Two connections asking while it is computed follow the one job, each told once.
    let second = finished_jungle(&hall, 12).await;
    let id = reader.send(json!({"type": "review", "game": second})).await;
    let (_, by_other) = review_over_the_websocket(&mut other, second).await;
    assert_eq!(reader.answer(id).await["type"], "ack");
    let by_reader = reader.wait_for(|v| v["type"] == "review_ready").await;
    assert_eq!(by_other["type"], "review_ready", "{by_other}");
    assert_eq!(by_reader, by_other);
    assert_eq!(hall.hall.reviews.computed(), 2);
    hall.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_review_over_the_websocket_refuses_a_running_game_a_stranger_and_a_guest_without_sign_in()
{
    let _alone = ONE_AT_A_TIME.lock().await;
    let hall = TestHall::start().await;
    // Not signed in: refused before anything is looked up.
    let mut anonymous = hall.client().await;
    let answer = anonymous
        .fails(json!({"type": "review", "game": 1}), "unauthenticated")
        .await;
    assert!(answer["message"].as_str().unwrap().contains("sign in"));
    let mut eve = hall.guest("eve").await;
    let none = eve
        .fails(json!({"type": "review", "game": 1}), "invalid")
        .await;
    assert_eq!(none["message"], "no game 1");

    // A running game: refused, even to its players (no help while playing).
    let (mut first, other, code) = hall.two_players("jungle", json!({})).await;
    let running = first
        .fails(json!({"type": "review", "game": 1}), "invalid")
        .await;
    assert!(
        running["message"].as_str().unwrap().contains("running"),
        "{running}"
    );
    drop((other, code));

    // A private game's review is its players' alone: a stranger is told what a game that
    // does not exist tells.
    let (mut a, mut b, code) = hall.jungle_started(true).await;
    a.ok(json!({"type": "resign", "room": code})).await;
    a.event("game_over").await;
    let stranger = eve
        .fails(json!({"type": "review", "game": 2}), "invalid")
        .await;
    assert_eq!(stranger["message"], "no game 2");
    assert_eq!(hall.hall.reviews.computed(), 0, "nothing was computed");
    assert_eq!(hall.hall.reviews.waiting() + hall.hall.reviews.running(), 0);
    assert_eq!(count_rows(&hall.hall.config.database, "reviews").await, 0);
    let (_, last) = review_over_the_websocket(&mut b, 2).await;
    assert_eq!(last["type"], "review_ready", "{last}");
    hall.stop().await;

    // Over the address's limit (one review here): `rate_limited`, with the wait; a review
    // being computed is still followed, at no cost.
    let hall = slow_review_hall(32, 1, 0, 3_000_000).await;
    let games = [
        finished_jungle(&hall, 2).await,
        finished_jungle(&hall, 2).await,
    ];
    let mut reader = hall.guest("reader").await;
    let id = reader
        .send(json!({"type": "review", "game": games[0]}))
        .await;
    assert_eq!(reader.answer(id).await["result"], json!({}));
    let limited = reader
        .fails(json!({"type": "review", "game": games[1]}), "rate_limited")
        .await;
    assert!(
        limited["message"].as_str().unwrap().contains("60 s"),
        "{limited}"
    );
    let id = reader
        .send(json!({"type": "review", "game": games[0]}))
        .await;
    assert_eq!(reader.answer(id).await["result"], json!({}));
    hall.stop().await;
}
