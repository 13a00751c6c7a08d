//! `hangar admin` against a running `hangar serve` (SQLite, and PostgreSQL when
//! HANGAR_TEST_POSTGRES_URL is set): a ban closes the player's socket and refuses every
//! sign-in until it is lifted; revoking tokens closes the socket and refuses the old token;
//! closing a room tells its members, ends a running game without a score change (its record
//! still verifies) and takes the room off the hall.
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::hall_common;

use futures_util::SinkExt;
use hall_common::{
    Client, PLAYED, Server, admin, admin_ok, closed, databases, guest, http_get, play, start_game,
};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// Runs an admin command that must fail: its message.
fn admin_refused(database: &str, args: &[&str]) -> String {
    let out = admin(database, args);
    assert!(!out.status.success(), "hangar admin {args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Sends a command and returns its answer, ack or error.
async fn answer(c: &mut Client, mut command: Value) -> Value {
    c.id += 1;
    command["id"] = json!(c.id);
    c.ws.send(Message::text(command.to_string())).await.unwrap();
    let id = json!(c.id);
    c.wait_for(|v| v["id"] == id).await
}

async fn register(port: u16, name: &str) -> Client {
    let mut c = Client::connect(port).await;
    let r = c
        .ok(json!({"type": "register", "name": name, "password": "correct horse"}))
        .await;
    c.token = r["token"].as_str().unwrap().to_owned();
    c
}

async fn login(port: u16, name: &str) -> Value {
    let mut c = Client::connect(port).await;
    answer(
        &mut c,
        json!({"type": "login", "name": name, "password": "correct horse"}),
    )
    .await
}

async fn auth(port: u16, token: &str) -> Value {
    let mut c = Client::connect(port).await;
    answer(&mut c, json!({"type": "auth", "token": token})).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_account_a_ban_closes_the_socket_and_refuses_every_sign_in_until_lifted() {
    let dir = tempfile::tempdir().unwrap();
    for db in databases(&dir).await {
        let server = Server::start(&db, &[]).await;
        let mut ana = register(server.port, "Ana").await;
        // Matched as the hall matches names: any case, any width.
        let done = admin_ok(&db, &["ban", "ＡＮＡ", "--reason", "cheating"]);
        assert_eq!(done["done"], "ban", "{done}");
        assert_eq!(done["player"]["name"], "Ana");
        let (code, reason) = closed(&mut ana).await;
        assert_eq!(code, 1008);
        assert!(reason.contains("banned"), "{reason}");

        let refused = login(server.port, "ana").await;
        assert_eq!(refused["code"], "banned", "{refused}");
        assert!(refused["message"].as_str().unwrap().contains("cheating"));
        let refused = auth(server.port, &ana.token).await;
        assert_eq!(
            refused["type"], "error",
            "the old token is refused: {refused}"
        );

        // A token issued after the ban (a sign-in that raced it) is refused as well.
        let store = hangar_hall::Store::open(&db).await.unwrap();
        let late = store
            .issue_token(done["player"]["id"].as_i64().unwrap())
            .await
            .unwrap();
        store.close().await;
        let refused = auth(server.port, &late).await;
        assert_eq!(refused["code"], "banned", "{refused}");

        admin_ok(&db, &["unban", "ana"]);
        let back = login(server.port, "ana").await;
        assert_eq!(back["type"], "ack", "{back}");
        // The tokens the ban revoked stay revoked.
        let refused = auth(server.port, &ana.token).await;
        assert_eq!(refused["code"], "bad_token", "{refused}");
        // A second unban, and names no one has, change nothing and say so.
        assert!(admin_refused(&db, &["unban", "ana"]).contains("not banned"));
        assert!(admin_refused(&db, &["ban", "nobody"]).contains("no player"));
        server.kill();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_guest_revoked_tokens_close_the_socket_and_the_old_token_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for db in databases(&dir).await {
        let server = Server::start(&db, &[]).await;
        let mut gus = guest(server.port, "gus").await;
        let bystander = guest(server.port, "bea").await;
        let done = admin_ok(&db, &["revoke-tokens", "gus"]);
        assert_eq!(done["done"], "revoke_tokens", "{done}");
        let (code, reason) = closed(&mut gus).await;
        assert_eq!(code, 1008);
        assert!(reason.contains("signed out"), "{reason}");
        let refused = auth(server.port, &gus.token).await;
        assert_eq!(refused["code"], "bad_token", "{refused}");
        // Nobody else is signed out.
        let kept = auth(server.port, &bystander.token).await;
        assert_eq!(kept["type"], "ack", "{kept}");
        // Guest names are not unique: a name two guests share is refused, an id is not.
        let mut twins = Vec::new();
        for _ in 0..2 {
            let mut twin = Client::connect(server.port).await;
            let r = twin.ok(json!({"type": "guest", "name": "twin"})).await;
            twins.push(r["player"]["id"].as_i64().unwrap());
        }
        let refused = admin_refused(&db, &["revoke-tokens", "twin"]);
        assert!(refused.contains("--id"), "{refused}");
        let id = twins[1].to_string();
        let done = admin_ok(&db, &["revoke-tokens", "--id", &id]);
        assert_eq!(done["player"]["id"], twins[1], "{done}");
        server.kill();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_score_a_closed_game_ends_without_score_change_and_its_record_verifies() {
    let dir = tempfile::tempdir().unwrap();
    for db in databases(&dir).await {
        let server = Server::start(&db, PLAYED).await;
        let (mut players, room, game) = start_game(server.port, "jungle", json!({})).await;
        assert!(play(&mut players, &room, game, 6).await.is_none());

        let done = admin_ok(&db, &["close-room", &room.to_lowercase()]);
        assert_eq!(done["done"], "close_room", "{done}");
        assert_eq!(done["room"], room.as_str());
        let mut game_id = 0;
        for p in &mut players {
            let over = p.wait_for(|v| v["event"]["kind"] == "game_over").await;
            let result = &over["event"]["result"];
            assert_eq!(result["reason"], "closed");
            for line in result["players"].as_array().unwrap() {
                assert_eq!(line["delta"], 0, "{line}");
                assert_eq!(line["score"], 1000, "{line}");
            }
            game_id = result["game_id"].as_i64().unwrap();
            let told = p.wait_for(|v| v["event"]["kind"] == "closed").await;
            assert!(
                told["event"]["reason"]
                    .as_str()
                    .unwrap()
                    .contains("administrators")
            );
        }
        let (status, record) = http_get(server.port, &format!("/api/games/{game_id}")).await;
        assert_eq!(status, 200);
        let verified = hangar_games::record::verify(&record).unwrap();
        assert_eq!(verified.actions, 6);
        // Stored as no change: the players' scores and ratings are as before the game.
        let (_, board) = http_get(server.port, "/api/leaderboard").await;
        assert_eq!(board["entries"], json!([]), "nobody is rated: {board}");
        // The room is gone: a command for it finds nothing.
        let gone = answer(
            &mut players[0],
            json!({"type": "ready", "room": room, "ready": true}),
        )
        .await;
        assert_eq!(gone["code"], "no_room", "{gone}");
        server.kill();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_hall_a_closed_waiting_room_tells_its_members_and_leaves_the_list() {
    let dir = tempfile::tempdir().unwrap();
    for db in databases(&dir).await {
        let server = Server::start(&db, &[]).await;
        let mut host = guest(server.port, "hana").await;
        let created = host
            .ok(json!({"type": "create_room", "game": "flight", "options": {"seats": 4}}))
            .await;
        let room = created["room"].as_str().unwrap().to_owned();
        let mut other = guest(server.port, "otto").await;
        other.ok(json!({"type": "join_room", "room": room})).await;
        let listed = host
            .ok(json!({"type": "hall_page", "game": "flight"}))
            .await;
        assert_eq!(listed["total"], 1, "{listed}");

        admin_ok(&db, &["close-room", &room]);
        for c in [&mut host, &mut other] {
            c.wait_for(|v| v["event"]["kind"] == "closed").await;
        }
        let listed = host
            .ok(json!({"type": "hall_page", "game": "flight"}))
            .await;
        assert_eq!(listed["total"], 0, "{listed}");
        // The seats are given back: the host can open another room at once.
        host.ok(json!({"type": "create_room", "game": "flight", "options": {}}))
            .await;
        assert!(admin_refused(&db, &["close-room", "ZZZZZZ"]).contains("no open room"));
        // A mistyped database path is refused, not created empty.
        let typo = dir.path().join("typo.db").display().to_string();
        assert!(admin_refused(&typo, &["ban", "hana"]).contains("no database"));
        assert!(!std::path::Path::new(&typo).exists());
        server.kill();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_arena_an_arena_made_by_the_operator_is_listed_by_the_running_hall() {
    let dir = tempfile::tempdir().unwrap();
    for db in databases(&dir).await {
        let server = Server::start(&db, &[]).await;
        let mut ana = guest(server.port, "ana").await;
        // Bad settings are refused and make nothing.
        assert!(admin_refused(&db, &["arena", "create", "--game", "chess"]).contains("no game"));
        let refused = admin_refused(
            &db,
            &["arena", "create", "--game", "jungle", "--minutes", "0"],
        );
        assert!(refused.contains("1–1440 minutes"), "{refused}");
        let refused = admin_refused(
            &db,
            &["arena", "create", "--game", "flight", "--start", "soon"],
        );
        assert!(refused.contains("--start"), "{refused}");
        let listed = ana.ok(json!({"type": "arenas"})).await;
        assert_eq!(listed["arenas"], json!([]), "{listed}");

        let done = admin_ok(
            &db,
            &[
                "arena",
                "create",
                "--game",
                "flight",
                "--start",
                "+10",
                "--minutes",
                "45",
            ],
        );
        assert_eq!(done["done"], "arena_create", "{done}");
        let id = done["arena"].clone();
        let mut arenas = json!([]);
        for _ in 0..50 {
            arenas = ana.ok(json!({"type": "arenas"})).await["arenas"].clone();
            if arenas.as_array().unwrap().len() == 1 {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        let arena = &arenas[0];
        assert_eq!(arena["id"], id, "{arenas}");
        assert_eq!(
            (
                arena["game"].as_str(),
                arena["status"].as_str(),
                arena["name"].as_str()
            ),
            (
                Some("flight"),
                Some("upcoming"),
                Some("Flight arena, 45 min")
            )
        );
        assert_eq!(
            arena["ends_at"].as_i64().unwrap() - arena["starts_at"].as_i64().unwrap(),
            45 * 60_000
        );
        // Players may join an upcoming arena; pairing waits for its start.
        ana.ok(json!({"type": "arena_join", "arena": id})).await;
        server.kill();
    }
}
