//! P-DURABLE when the disk fills up: the database on a small tmpfs, the rest of it taken by
//! another file while a game runs. The first action that needs space is refused with
//! `internal` and changes nothing; once space is freed the same command runs, and the game
//! goes on. Needs root to mount the tmpfs (the CI machine and ./test.sh run as root).
#![allow(clippy::unwrap_used)] // tests fail loudly

use crate::common;

use std::io::Write;
use std::path::Path;
use std::process::Command;

use common::{TestHall, test_config};
use serde_json::json;

/// A tmpfs of `size` mounted on `dir`, unmounted when dropped.
struct Tmpfs<'a>(&'a Path);

impl<'a> Tmpfs<'a> {
    fn mount(dir: &'a Path, size: &str) -> Option<Tmpfs<'a>> {
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .status()
            .ok()?;
        status.success().then_some(Tmpfs(dir))
    }
}

impl Drop for Tmpfs<'_> {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.0).status();
    }
}

/// Fills the file system of `path` with a file there until no byte is left.
fn fill(path: &Path) {
    let mut file = std::fs::File::create(path).unwrap();
    let block = vec![0u8; 4096];
    while file.write_all(&block).is_ok() {}
    let _ = file.write_all(&block[..1]);
    let _ = file.sync_all();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn p_durable_a_full_disk_refuses_the_action_and_frees_nothing_then_recovers() {
    let dir = tempfile::tempdir().unwrap();
    let Some(_tmpfs) = Tmpfs::mount(dir.path(), "4m") else {
        // Without the right to mount (not root, or a container without it) there is no
        // small disk to fill: said loudly in the test output, and a failure under CI, which
        // runs as root and must run every test.
        assert!(
            !common::under_ci(),
            "under CI the disk-full test must run: a tmpfs could not be mounted"
        );
        eprintln!("cannot mount a tmpfs here: the disk-full test did not run");
        return;
    };
    let db = dir.path().join("hall.db");
    let hall = TestHall::with(
        tempfile::tempdir().unwrap(),
        test_config(db.display().to_string()),
    )
    .await;
    let (red, yellow, code) = hall.two_players("jungle", json!({})).await;
    let mut players = [red, yellow];

    let filler = dir.path().join("filler");
    fill(&filler);
    // Play on until a move needs space the disk no longer has.
    let mut refused = None;
    for id in 1000..1400u64 {
        let (game, _) = hall.watched(&code).await;
        if game.is_null() || !game["outcome"].is_null() {
            break;
        }
        let seat = game["to_move"].as_u64().unwrap() as usize;
        let moves = game["moves"].as_array().unwrap();
        // A fixed walk through the moves, so the game lasts.
        let pick = moves[(id as usize * 7) % moves.len()]
            .as_str()
            .unwrap()
            .to_owned();
        let command = json!({"type": "move", "room": code, "move": pick, "id": id}).to_string();
        players[seat].send_text(&command).await;
        let answer = players[seat].answer(id).await;
        if answer["type"] == "error" {
            assert_eq!(answer["code"], "internal", "{answer}");
            refused = Some((seat, id, command, game));
            break;
        }
    }
    let (seat, id, command, before) = refused.expect("a move was refused once the disk was full");
    assert_eq!(
        hall.watched(&code).await.0,
        before,
        "the refused move changed nothing"
    );

    // Space again: the same command runs, once.
    std::fs::remove_file(&filler).unwrap();
    hall.health_becomes(200).await;
    players[seat].send_text(&command).await;
    let done = players[seat].answer(id).await;
    assert_eq!(done["type"], "ack", "{done}");
    assert_ne!(hall.watched(&code).await.0, before);
    hall.stop().await;
}
