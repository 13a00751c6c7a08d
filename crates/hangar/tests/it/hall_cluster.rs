//! Cluster mode: several `hangar serve` nodes on one PostgreSQL database with a real
//! `nats-server` between them. Players on different nodes play one game; a node killed with
//! SIGKILL loses nothing acknowledged and its rooms go on elsewhere. Needs
//! HANGAR_TEST_POSTGRES_URL and `nats-server` (./test.sh provides both; under CI both are
//! required, elsewhere the tests say what is missing and return).
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::hall_common;

use futures_util::{SinkExt, StreamExt};
use hall_common::cluster::{cluster_parts, joiner, node};
use hall_common::{
    Acknowledged, Client, PLAYED, Server, WAIT, closed, decision, guest, http_get, play_logged,
};
use serde_json::{Value, json};

/// Waits for `c`'s game to end; its result.
async fn game_over(c: &mut Client) -> Value {
    let over = c.wait_for(|v| v["event"]["kind"] == "game_over").await;
    over["event"]["result"].clone()
}

/// Each player's score, read from `port`, is 1000 + the delta the result gave them.
async fn check_scores(port: u16, players: &[Client], result: &Value) {
    for p in players {
        let line = &result["players"][p.seat as usize];
        let delta = line["delta"].as_i64().unwrap();
        let mut again = Client::connect(port).await;
        let me = again.ok(json!({"type": "auth", "token": p.token})).await;
        assert_eq!(
            me["player"]["score"].as_i64().unwrap(),
            1000 + delta,
            "the score of seat {} is stored ({result})",
            p.seat
        );
    }
}

/// The stored record of a finished game, read from `port`, replays to its end.
async fn check_record(port: u16, result: &Value) -> Value {
    let game_id = result["game_id"].as_i64().unwrap();
    let (status, record) = http_get(port, &format!("/api/games/{game_id}")).await;
    assert_eq!(status, 200, "the record of game {game_id} is served");
    let verified = hangar_games::record::verify(&record);
    assert!(
        verified.as_ref().is_ok_and(|v| v.over),
        "the record replays to its end: {verified:?}"
    );
    record
}

/// P-ROOM, P-SCORE across nodes: a flight game whose four players sit on three different
/// nodes (the room on the first) is played to its end on auto-play; every player sees it end
/// through its own node, and the scores stored are the result's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_score_a_flight_game_of_four_players_on_three_nodes_ends_with_the_right_scores() {
    let Some((nats, database)) = cluster_parts().await else {
        return;
    };
    let nodes = [
        node(&nats, &database).await,
        node(&nats, &database).await,
        node(&nats, &database).await,
    ];
    let mut host = guest(nodes[0].port, "host").await;
    let created = host
        .ok(json!({"type": "create_room", "game": "flight", "options": {"seats": 4}}))
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    host.room = room.clone();
    let mut players = vec![
        host,
        joiner(nodes[1].port, "bea", &room).await,
        joiner(nodes[2].port, "cao", &room).await,
        joiner(nodes[2].port, "dan", &room).await,
    ];
    for p in &mut players {
        p.ok(json!({"type": "ready", "room": room, "ready": true}))
            .await;
    }
    for p in &mut players {
        p.wait_for(|v| v["event"]["kind"] == "game_started").await;
        p.ok(json!({"type": "autoplay", "room": room, "on": true}))
            .await;
    }
    let mut results = Vec::new();
    for p in &mut players {
        results.push(game_over(p).await);
    }
    assert!(
        results.iter().all(|r| *r == results[0]),
        "every node delivered the same result"
    );
    let result = &results[0];
    assert_eq!(result["reason"], "finished", "{result}");
    check_scores(nodes[1].port, &players, result).await;
    check_record(nodes[2].port, result).await;
}

/// P-ROOM across two nodes: a jungle game whose host is on one node and guest on the other,
/// moved by hand, then resigned; the hall list of each node shows the room of the other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_room_a_jungle_game_across_two_nodes_and_one_hall_list() {
    let Some((nats, database)) = cluster_parts().await else {
        return;
    };
    let nodes = [node(&nats, &database).await, node(&nats, &database).await];
    let mut watcher = guest(nodes[1].port, "eve").await;
    watcher
        .ok(json!({"type": "hall_subscribe", "game": "jungle"}))
        .await;
    let mut a = guest(nodes[0].port, "ana").await;
    let created = a
        .ok(json!({"type": "create_room", "game": "jungle", "options": {}}))
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    a.room = room.clone();
    // The other node lists the room (P-HALL is cluster-wide).
    watcher
        .wait_for(|v| v["type"] == "hall_room" && v["room"]["code"] == room.as_str())
        .await;
    let mut b = joiner(nodes[1].port, "bo", &room).await;
    a.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    b.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    let started = a.wait_for(|v| v["event"]["kind"] == "game_started").await;
    let mut players = vec![a, b];
    let game = started["event"]["game"].clone();
    let mut log = Acknowledged::default();
    assert!(
        play_logged(&mut players, &room, game, 6, &mut log)
            .await
            .is_none()
    );
    players[1]
        .act(json!({"type": "resign", "room": room}), &mut log)
        .await;
    let result = game_over(&mut players[0]).await;
    assert_eq!(game_over(&mut players[1]).await, result);
    assert_eq!(result["reason"], "resigned", "{result}");
    check_scores(nodes[0].port, &players, &result).await;
    log.assert_recorded(&check_record(nodes[1].port, &result).await);
}

/// A jungle game in a room of the node of `owner` whose two players sit on the nodes of
/// `ports`: the host who opened it hands it over and leaves. The first player signs in with
/// `client` as its client string. The players, the room and the game's first view.
async fn handed_over(
    owner: u16,
    ports: [u16; 2],
    client: Option<&str>,
) -> (Vec<Client>, String, Value) {
    let mut host = guest(owner, "host").await;
    let created = host
        .ok(json!({"type": "create_room", "game": "jungle", "options": {}}))
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    let mut a = Client::connect(ports[0]).await;
    let signed = a
        .ok(json!({"type": "guest", "name": "ana", "client": client}))
        .await;
    a.token = signed["token"].as_str().unwrap().to_owned();
    let joined = a.ok(json!({"type": "join_room", "room": room})).await;
    a.room = room.clone();
    a.seat = joined["seat"].as_u64().unwrap();
    host.ok(json!({"type": "leave_room", "room": room})).await;
    drop(host);
    let mut b = joiner(ports[1], "bo", &room).await;
    a.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    b.ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    let started = a.wait_for(|v| v["event"]["kind"] == "game_started").await;
    (vec![a, b], room, started["event"]["game"].clone())
}

/// A flight game that streams actions on its own, owned by the node of `owner_port`, whose one
/// person sits on the node of `person_port` on auto-play beside three bots: the host who opened
/// it hands it over and leaves; the person seats the last bot through the other node.
async fn bot_stream(owner_port: u16, person_port: u16, name: &str) -> Client {
    let mut host = guest(owner_port, &format!("{name}-host")).await;
    let created = host
        .ok(json!({"type": "create_room", "game": "flight", "options": {"seats": 4}}))
        .await;
    let room = created["room"].as_str().unwrap().to_owned();
    for seat in 2..4 {
        host.ok(json!({"type": "add_bot", "room": room, "seat": seat, "bot": "random"}))
            .await;
    }
    let mut person = joiner(person_port, name, &room).await;
    host.ok(json!({"type": "leave_room", "room": room})).await;
    person
        .ok(json!({"type": "add_bot", "room": room, "seat": 0, "bot": "random"}))
        .await;
    person
        .ok(json!({"type": "ready", "room": room, "ready": true}))
        .await;
    person
        .wait_for(|v| v["event"]["kind"] == "game_started")
        .await;
    person
        .ok(json!({"type": "autoplay", "room": room, "on": true}))
        .await;
    person
}

/// P-DURABLE across nodes, under load: the node that owns running games is killed (SIGKILL)
/// while two bot games stream actions and two players, on the other nodes, act in a third.
/// Another node takes the rooms over once the dead node's lease has run out, the players'
/// connections are told to reconnect, they resume by version on the node they were on, and
/// every game is played to its end: every acknowledged action is in the records, which
/// replay.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_the_owner_node_killed_mid_game_loses_nothing_and_the_game_goes_on() {
    let Some((nats, database)) = cluster_parts().await else {
        return;
    };
    let owner = node(&nats, &database).await;
    let nodes = [node(&nats, &database).await, node(&nats, &database).await];
    let (mut players, room, game) =
        handed_over(owner.port, [nodes[0].port, nodes[1].port], None).await;
    let streams = [
        bot_stream(owner.port, nodes[0].port, "s1").await,
        bot_stream(owner.port, nodes[1].port, "s2").await,
    ];
    let mut log = Acknowledged::default();
    assert!(
        play_logged(&mut players, &room, game, 8, &mut log)
            .await
            .is_none()
    );
    owner.kill();
    // The players' nodes close their connections once the room has a new owner (1012); they
    // come back on the same node and resume.
    let ports = [[nodes[0].port], [nodes[1].port]];
    let result = resume_and_finish(&players, &ports, &room, &mut log).await;
    log.assert_recorded(&check_record(nodes[0].port, &result).await);
    // The bot games go on on their own after the takeover and end; their records replay.
    // (Its person, away since the kill, is not needed: the end is read from their games.)
    for (stream, n) in streams.iter().zip(&nodes) {
        let mut c = Client::connect(n.port).await;
        c.ok(json!({"type": "auth", "token": stream.token})).await;
        let game_id = tokio::time::timeout(WAIT, async {
            loop {
                let mine = c.ok(json!({"type": "my_games", "limit": 5})).await;
                if let Some(id) = mine["games"][0]["game_id"].as_i64() {
                    return id;
                }
                tokio::time::sleep(std::time::Duration::from_millis(200)).await;
            }
        })
        .await
        .expect("the bot game ends after the takeover");
        check_record(n.port, &json!({ "game_id": game_id })).await;
    }
}

/// `p` back in its room on a new connection, trying the nodes of `ports` in turn until the
/// room is found (it moves while a node stops), resuming from the last version `p` read: the
/// client and the game's view. The view the client builds from what it missed is the view a
/// fresh snapshot shows (protocol.md §5: the missed events, or a snapshot, never events of
/// another numbering).
async fn come_back(ports: &[u16], p: &Client) -> (Client, Value) {
    let found = tokio::time::timeout(WAIT, async {
        for port in ports.iter().cycle() {
            if let Some((mut c, until)) = try_join(*port, p).await {
                while c.v < until {
                    c.read().await;
                }
                let fresh = hall_common::snapshot_game(*port, &p.room).await;
                assert_eq!(
                    c.view, fresh,
                    "the view resumed from v {} is the room's at v {until}",
                    p.v
                );
                return (c, fresh);
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        unreachable!("cycle never ends")
    });
    found.await.expect("the room is back in time")
}

/// P-DURABLE, repeated ids across a takeover: a player's move is acknowledged by the room's
/// node, which is then killed; the player, back on a node that never saw that answer (neither
/// the player's old node nor the room's new one: four nodes make one), sends the same command
/// (same client string and id) again — as a client does whose acknowledgement was lost — and
/// the room's new node, which rebuilt the game with the commands that asked for its actions,
/// answers it as a repeat instead of running it twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_a_command_sent_again_after_a_takeover_is_answered_as_a_repeat() {
    use sqlx::Connection;
    let Some((nats, database)) = cluster_parts().await else {
        return;
    };
    let owner = node(&nats, &database).await;
    let nodes = [
        node(&nats, &database).await,
        node(&nats, &database).await,
        node(&nats, &database).await,
    ];
    let (mut players, room, game) =
        handed_over(owner.port, [nodes[0].port, nodes[1].port], Some("tab-1")).await;
    let (command, id, acked) = first_player_moves(&mut players, &room, game).await;
    owner.kill();
    // The player's old connection is closed once the room has moved.
    let mut old = players.remove(0);
    while let Ok(Some(Ok(_))) = tokio::time::timeout(WAIT, old.ws.next()).await {}
    // Back on a node that is neither its old one nor the room's new home.
    let mut admin = sqlx::PgConnection::connect(&database).await.unwrap();
    let adopter: String = sqlx::query_scalar(
        "SELECT n.address FROM room_owners o JOIN cluster_nodes n ON n.node = o.node \
         WHERE o.code = $1",
    )
    .bind(&room)
    .fetch_one(&mut admin)
    .await
    .unwrap();
    let elsewhere = nodes[1..]
        .iter()
        .find(|n| !adopter.ends_with(&format!(":{}", n.port)))
        .unwrap();
    sent_again_is_a_repeat(elsewhere.port, &old, &room, command, id, &acked).await;
}

/// P-DURABLE, repeated ids when the client's node dies and the room's node lives: a player on
/// node A moves in a room of node O; A is killed (the acknowledgement may have died with it);
/// the player comes back through node B with its token and client string and sends the same
/// command (same id) again. O, which ran it, answers it as a repeat with the first answer —
/// not as a new command refused (`not_your_turn`, `illegal`) — and the game holds it once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_a_command_sent_again_after_the_clients_node_died_is_answered_as_a_repeat() {
    let Some((nats, database)) = cluster_parts().await else {
        return;
    };
    let owner = node(&nats, &database).await;
    let clients_node = node(&nats, &database).await;
    let other = node(&nats, &database).await;
    let (mut players, room, game) =
        handed_over(owner.port, [clients_node.port, owner.port], Some("tab-1")).await;
    let (command, id, acked) = first_player_moves(&mut players, &room, game).await;
    let plies_before = snapshot_plies(owner.port, &room).await;
    clients_node.kill();
    let old = players.remove(0);
    sent_again_is_a_repeat(other.port, &old, &room, command, id, &acked).await;
    assert_eq!(
        snapshot_plies(owner.port, &room).await,
        plies_before,
        "the move is in the game once"
    );
}

/// The first of `players` makes a move of the jungle game `game` in `room` (the other player
/// moves first when it is on turn): the command, its id and its ack's result.
async fn first_player_moves(
    players: &mut [Client],
    room: &str,
    mut game: Value,
) -> (Value, u64, Value) {
    if game["to_move"].as_u64() != Some(players[0].seat) {
        // The other player moves first; the view after it comes with its `moved` event.
        let (seat, command) = decision(room, &game).unwrap();
        let p = players.iter_mut().find(|p| p.seat == seat).unwrap();
        p.ok(command).await;
        let mine = json!(players[0].seat);
        let moved = players[0]
            .wait_for(|v| v["type"] == "event" && v["event"]["game"]["to_move"] == mine)
            .await;
        game = moved["event"]["game"].clone();
    }
    let (seat, command) = decision(room, &game).unwrap();
    assert_eq!(seat, players[0].seat);
    let acked = players[0].ok(command.clone()).await;
    (command, players[0].id, acked)
}

/// `p` back on `port` (its token, client string `tab-1`), in `room`, sends `command` again
/// under its first id `id`: the answer is the first one, `acked`, marked as a repeat.
async fn sent_again_is_a_repeat(
    port: u16,
    p: &Client,
    room: &str,
    mut command: Value,
    id: u64,
    acked: &Value,
) {
    let mut again = Client::connect(port).await;
    again
        .ok(json!({"type": "auth", "token": p.token, "client": "tab-1"}))
        .await;
    again.ok(json!({"type": "join_room", "room": room})).await;
    command["id"] = json!(id);
    again
        .ws
        .send(tokio_tungstenite::tungstenite::Message::text(
            command.to_string(),
        ))
        .await
        .unwrap();
    let answer = again.wait_for(|v| v["id"] == json!(id)).await;
    assert_eq!(
        answer["type"], "ack",
        "the repeat is acknowledged: {answer}"
    );
    assert_eq!(answer["repeat"], true, "{answer}");
    assert_eq!(&answer["result"], acked);
}

/// The plies played in `room`'s game, as a spectator on `port` sees it.
async fn snapshot_plies(port: u16, room: &str) -> u64 {
    let game = hall_common::snapshot_game(port, room).await;
    game["plies"]
        .as_u64()
        .expect("a jungle view counts its plies")
}

/// P-ACCOUNT across nodes: a player signed in on two nodes signs out everywhere on one; the
/// connection on the other node is closed (1008) and its token no longer signs in anywhere.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_account_signing_out_everywhere_closes_the_players_sockets_on_every_node() {
    let Some((nats, database)) = cluster_parts().await else {
        return;
    };
    let nodes = [node(&nats, &database).await, node(&nats, &database).await];
    let mut phone = guest(nodes[0].port, "mei").await;
    let mut laptop = Client::connect(nodes[1].port).await;
    laptop
        .ok(json!({"type": "auth", "token": phone.token}))
        .await;
    phone.ok(json!({"type": "sign_out_everywhere"})).await;
    let (code, _) = closed(&mut laptop).await;
    assert_eq!(code, 1008, "the other node closes the laptop's socket");
    let mut again = Client::connect(nodes[1].port).await;
    again.id += 1;
    let auth = json!({"type": "auth", "token": phone.token, "id": again.id});
    again
        .ws
        .send(tokio_tungstenite::tungstenite::Message::text(
            auth.to_string(),
        ))
        .await
        .unwrap();
    let id = json!(again.id);
    let answer = again.wait_for(|v| v["id"] == id).await;
    assert_eq!(
        answer["type"], "error",
        "a revoked token signs in: {answer}"
    );
}

/// The two players of a jungle game come back (each on its node of `ports`), play it on, and
/// the first resigns if it has not ended by then: its result. The acknowledged actions go to
/// `log`.
async fn resume_and_finish(
    players: &[Client],
    ports: &[[u16; 1]; 2],
    room: &str,
    log: &mut Acknowledged,
) -> Value {
    let mut back = Vec::new();
    let mut game = Value::Null;
    for (p, port) in players.iter().zip(ports) {
        let (c, view) = come_back(port, p).await;
        game = view;
        back.push(c);
    }
    match play_logged(&mut back, room, game, 400, log).await {
        Some(result) => result,
        None => {
            back[0]
                .act(json!({"type": "resign", "room": room}), log)
                .await;
            game_over(&mut back[1]).await
        }
    }
}

/// P-DURABLE through a rolling restart: three jungle games, each with its players on two
/// nodes, go on while each of the three nodes in turn is stopped (SIGTERM: a drain) and
/// replaced by a new one; the players come back after each restart, and every game ends with
/// every acknowledged move in its record.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_a_rolling_restart_of_every_node_loses_nothing() {
    let Some((nats, database)) = cluster_parts().await else {
        return;
    };
    let mut nodes = vec![
        node(&nats, &database).await,
        node(&nats, &database).await,
        node(&nats, &database).await,
    ];
    let mut games = Vec::new();
    for k in 0..3 {
        let mut host = guest(nodes[k].port, &format!("h{k}")).await;
        let created = host
            .ok(json!({"type": "create_room", "game": "jungle", "options": {}}))
            .await;
        let room = created["room"].as_str().unwrap().to_owned();
        host.room = room.clone();
        let other = joiner(nodes[(k + 1) % 3].port, &format!("o{k}"), &room).await;
        let mut players = vec![host, other];
        for p in &mut players {
            p.ok(json!({"type": "ready", "room": room, "ready": true}))
                .await;
        }
        let started = players[0]
            .wait_for(|v| v["event"]["kind"] == "game_started")
            .await;
        let game = started["event"]["game"].clone();
        games.push((players, room, game, Acknowledged::default()));
    }
    for round in 0..3 {
        for (players, room, game, log) in &mut games {
            assert!(
                play_logged(players, room, game.clone(), 2, log)
                    .await
                    .is_none()
            );
        }
        let status = nodes.remove(round).terminate();
        assert!(status.success(), "a drained node exits cleanly: {status}");
        nodes.insert(round, node(&nats, &database).await);
        let ports: Vec<u16> = nodes.iter().map(|n| n.port).collect();
        for (players, _, game, _) in &mut games {
            let mut back = Vec::new();
            for p in players.iter() {
                let (c, view) = come_back(&ports, p).await;
                *game = view;
                back.push(c);
            }
            *players = back;
        }
    }
    for (players, room, _, log) in &mut games {
        players[0]
            .act(json!({"type": "resign", "room": room}), log)
            .await;
        let result = game_over(&mut players[1]).await;
        assert_eq!(result["reason"], "resigned");
        log.assert_recorded(&check_record(nodes[2].port, &result).await);
    }
}

/// A TCP relay between a node and NATS that the test can cut (a network partition).
struct Relay {
    port: u16,
    task: tokio::task::JoinHandle<()>,
    links: std::sync::Arc<std::sync::Mutex<Vec<tokio::task::JoinHandle<()>>>>,
}

impl Relay {
    async fn start(target: &str) -> Relay {
        let target = target.trim_start_matches("nats://").to_owned();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let links = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let kept = links.clone();
        let task = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let target = target.clone();
                let link = tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(&target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                kept.lock().unwrap().push(link);
            }
        });
        Relay { port, task, links }
    }

    /// Cuts every link and refuses new ones.
    fn cut(&self) {
        self.task.abort();
        for link in self.links.lock().unwrap().drain(..) {
            link.abort();
        }
    }
}

/// "A partitioned node stops acting on rooms whose lease it lost": the node that owns a
/// running game loses its NATS connection (its relay is cut) while PostgreSQL still answers;
/// it cannot renew its lease, stops (exit status: failure) before anyone takes its rooms, the
/// other node adopts the game, and the players, on that node, play it to its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_partitioned_node_stops_and_its_game_goes_on_elsewhere() {
    let Some((nats, database)) = cluster_parts().await else {
        return;
    };
    let relay = Relay::start(&nats.url).await;
    let cut_off = Server::start(
        &database,
        &[
            PLAYED,
            &["--cluster", &format!("nats://127.0.0.1:{}", relay.port)],
        ]
        .concat(),
    )
    .await;
    let other = node(&nats, &database).await;
    let (mut players, room, game) = handed_over(cut_off.port, [other.port, other.port], None).await;
    let mut log = Acknowledged::default();
    assert!(
        play_logged(&mut players, &room, game, 4, &mut log)
            .await
            .is_none()
    );
    relay.cut();
    let status = tokio::task::spawn_blocking(move || cut_off.wait())
        .await
        .unwrap();
    assert!(
        !status.success(),
        "the cut-off node stops with a failure: {status}"
    );
    let ports = [[other.port], [other.port]];
    let result = resume_and_finish(&players, &ports, &room, &mut log).await;
    log.assert_recorded(&check_record(other.port, &result).await);
}

/// Signs in again as `p` on a new connection to `port` and joins `p`'s room with `since` (the
/// last version `p` read): the client, holding `p`'s view, and the version of the join's
/// answer, up to which the missed events (or a snapshot) follow; `None` when the room is not
/// found yet or the connection is closed meanwhile (it had reached the dead node, whose rooms
/// moved).
async fn try_join(port: u16, p: &Client) -> Option<(Client, u64)> {
    use tokio_tungstenite::tungstenite::Message;
    let mut c = Client::connect(port).await;
    c.token = p.token.clone();
    c.room = p.room.clone();
    c.seat = p.seat;
    c.v = p.v;
    c.view = p.view.clone();
    let commands = [
        json!({"type": "auth", "token": p.token, "id": 1}),
        json!({"type": "join_room", "room": p.room, "id": 2, "since": p.v}),
    ];
    let mut until = 0;
    for command in commands {
        c.ws.send(Message::text(command.to_string())).await.ok()?;
        let answer = loop {
            let Ok(Some(Ok(message))) = tokio::time::timeout(WAIT, c.ws.next()).await else {
                return None;
            };
            if let Message::Text(text) = message {
                let v: Value = serde_json::from_str(&text).unwrap();
                if v["id"] == command["id"] {
                    break v;
                }
                c.kept.push(v);
            }
        };
        if answer["type"] != "ack" {
            return None;
        }
        if command["type"] == "join_room" {
            assert_eq!(
                answer["result"]["seat"].as_u64(),
                Some(p.seat),
                "the seat is kept"
            );
            until = answer["result"]["v"]
                .as_u64()
                .expect("the join names its version");
            // A room taken over goes on with its numbering: a room renumbered from 0 would
            // answer below what the client already read.
            assert!(
                until >= p.v,
                "the join's version {until} is at least the client's since {}",
                p.v
            );
        }
    }
    c.id = 2;
    Some((c, until))
}

/// A figure of `hangar load`'s report: the number after `label` on the line starting with it.
fn figure(report: &str, line_start: &str, label: &str) -> u64 {
    let line = report
        .lines()
        .find(|l| l.starts_with(line_start))
        .unwrap_or_else(|| panic!("no line {line_start:?} in the report:\n{report}"));
    let after = &line[line.find(label).expect("the label") + label.len()..];
    let digits: String = after
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().unwrap()
}

/// P-DURABLE across nodes under `hangar load` (issue: "kill -9 of the node that owns rooms
/// mid-game under load"): the swarm's tables spread over three nodes (each room on its first
/// player's node) and one node is killed with SIGKILL while they play. The clients whose
/// connections broke come back on the other nodes and resume by version, sending their
/// unanswered commands again (none is refused unless auto-play had moved the seat on); every
/// game is played to its end with no error; no game is left running in the store, and every
/// record replays (`hangar verify`'s check) and holds at least the actions the swarm saw
/// acknowledged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_hangar_load_over_three_nodes_survives_the_kill_of_one() {
    use std::io::BufRead;
    let Some((nats, database)) = cluster_parts().await else {
        return;
    };
    let victim = node(&nats, &database).await;
    let nodes = [node(&nats, &database).await, node(&nats, &database).await];
    let addrs = [victim.port, nodes[0].port, nodes[1].port]
        .map(|port| format!("127.0.0.1:{port}"))
        .join(",");
    let mut load = std::process::Command::new(env!("CARGO_BIN_EXE_hangar"))
        .args(["load", "--clients", "24", "--think", "20", "--seconds", "8"])
        .args(["--finish", "--addr", &addrs])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (lines_tx, lines) = std::sync::mpsc::channel::<String>();
    let stdout = load.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            let _ = lines_tx.send(line);
        }
    });
    let mut report = String::new();
    let started = std::time::Instant::now();
    while !report.contains("playing") {
        assert!(started.elapsed() < WAIT, "the swarm sat down:\n{report}");
        if let Ok(line) = lines.recv_timeout(std::time::Duration::from_millis(100)) {
            report.push_str(&line);
            report.push('\n');
        }
    }
    // Mid-game: every table has played for a while.
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    victim.kill();
    let status = tokio::task::spawn_blocking(move || load.wait().unwrap())
        .await
        .unwrap();
    report.extend(lines.iter().map(|line| line + "\n"));
    // The report, for whoever reads the test's output (`--nocapture`).
    eprintln!("{report}");
    assert!(status.success(), "hangar load: {status}\n{report}");
    assert_eq!(figure(&report, "errors", "errors"), 0, "{report}");
    assert!(
        figure(&report, "reconnections", "reconnections") > 0,
        "the kill broke connections, which came back:\n{report}"
    );
    // A command sent again is answered as a repeat wherever it arrives, or refused only
    // because auto-play had moved the seat on before it ran: no other refusal.
    assert_eq!(
        figure(&report, "sent again", "refused as errors:"),
        0,
        "{report}"
    );
    let games = figure(&report, "games started", "started");
    assert!(games >= 6, "{report}");
    assert_eq!(
        games,
        figure(&report, "games finished", "finished"),
        "{report}"
    );
    let acknowledged = figure(&report, "start phase", "; ")
        + figure(&report, "actions", "actions")
        + figure(&report, "finishing", "finishing");

    let store = hangar_hall::Store::open(&database).await.unwrap();
    assert!(
        store.running_games().await.unwrap().is_empty(),
        "every game was played to its end"
    );
    let (mut finished, mut recorded) = (0, 0);
    for id in 1.. {
        let Some(game) = store.game(id).await.unwrap() else {
            break;
        };
        let record = hangar_games::record::record_json(&game).unwrap();
        let verified = hangar_games::record::verify(&record);
        assert!(
            verified.as_ref().is_ok_and(|v| v.over),
            "game {id} replays to its end: {verified:?}"
        );
        finished += 1;
        recorded += record["actions"].as_array().unwrap().len() as u64;
    }
    assert!(finished >= games, "{finished} records for {games} games");
    assert!(
        recorded >= acknowledged,
        "the records hold {recorded} actions, the swarm saw {acknowledged} acknowledged"
    );
}
