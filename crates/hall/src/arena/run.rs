//! The arenas' loop (P-ARENA): twice a second it makes the next arena of each schedule,
//! takes up new arenas from the store, ends
//! the arenas whose clock ran out, pairs the free players of the running ones into rooms,
//! closes the rooms whose arena game is over, sends the followers the tables that changed
//! and stores the arenas that changed.

use std::sync::Arc;
use std::time::Duration;

use hangar_protocol::{ArenaMessage, GameKind};
use serde_json::json;

use super::take_up::{load_new, settle_missed, take_up_owned};
use super::{NewArena, create_arena, frame};
use crate::accounts::Player;
use crate::hall::Hall;
use crate::outbox::Outbox;
use crate::room::{Order, RoomRequest, RoomSettings, open_room};
use crate::time::now_ms;

/// How often the loop runs.
const ROUND: Duration = Duration::from_millis(500);

/// How long the player's countdown to an arena game lasts (ms): the room is ready at once,
/// the page counts down this long before it shows it.
pub const COUNTDOWN_MS: i64 = 3_000;

/// A table to seat: the arena, its game, the room options, the players with their
/// connections.
struct ToSeat {
    arena: i64,
    game: GameKind,
    options: serde_json::Value,
    players: Vec<(Player, Outbox)>,
}

/// Runs the arenas of this hall until the task is aborted.
pub async fn run_arenas(hall: Arc<Hall>) {
    let mut tick = tokio::time::interval(ROUND);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if hall.is_closing() {
            continue;
        }
        round(&hall).await;
    }
}

/// Makes the next arena of each schedule of the hall's config, if it is not made yet.
async fn schedule(hall: &Hall, now: i64) {
    for schedule in &hall.config.arena_schedule {
        let starts_at = schedule.next_start(now);
        let name = schedule.name();
        if hall.arenas.has(&name, schedule.game, starts_at) {
            continue;
        }
        let new = NewArena {
            name,
            game: schedule.game,
            starts_at,
            minutes: schedule.minutes,
            turn_seconds: schedule.turn_seconds,
        };
        match create_arena(&hall.store, &new).await {
            Ok(Some(id)) => {
                tracing::info!(arena = id, name = %new.name, starts_at, "scheduled arena made")
            }
            // Another node of the cluster made it a moment before.
            Ok(None) => {}
            Err(e) => tracing::warn!(error = %e, "a scheduled arena could not be made"),
        }
    }
}

async fn round(hall: &Arc<Hall>) {
    // A cluster's arenas each run on one node, which claims them (P-ARENA).
    let take_up = async || {
        let new = match hall.peers() {
            Some(_) => take_up_owned(hall).await,
            None => load_new(hall).await,
        };
        settle_missed(hall, &new).await;
    };
    take_up().await;
    if !hall.config.arena_schedule.is_empty() {
        schedule(hall, now_ms()).await;
        take_up().await;
    }
    read_blocks(hall, now_ms()).await;
    let now = now_ms();
    let tables = pair(hall, now);
    for table in tables {
        seat(hall, table, now).await;
    }
    let closing: Vec<String> = std::mem::take(&mut *hall.arenas.to_close.lock().expect("lock"));
    for code in closing {
        if let Some(room) = hall.local_room(&code) {
            room.close_after_arena_game().await;
        }
    }
    let saves = changes(hall, now);
    for (id, state, finished) in saves {
        if let Err(e) = hall.store.save_arena(id, state, finished).await {
            tracing::warn!(arena = id, error = %e, "an arena could not be stored");
        }
    }
}

/// How often an arena reads the blocks between its players again when nobody joined or left
/// (a block made meanwhile keeps two apart from then on).
const BLOCKS_READ_EVERY_MS: i64 = 5_000;

/// Reads the blocks between the active players of each running arena (P-CHALLENGE: never
/// seated together) when its players changed or [`BLOCKS_READ_EVERY_MS`] passed.
async fn read_blocks(hall: &Hall, now: i64) {
    let due: Vec<(i64, Vec<i64>)> = {
        let slots = hall.arenas.slots.lock().expect("arenas lock");
        slots
            .values()
            .filter(|slot| !slot.finished)
            .filter_map(|slot| {
                let players = slot.state.active_players();
                let (read, at) = &slot.blocks_read;
                (*read != players || now.saturating_sub(*at) >= BLOCKS_READ_EVERY_MS)
                    .then_some((slot.id, players))
            })
            .collect()
    };
    for (arena, players) in due {
        let blocks = match hall.store.blocks_among(&players).await {
            Ok(blocks) => blocks,
            Err(e) => {
                tracing::warn!(arena, error = %e, "an arena's blocks could not be read");
                continue;
            }
        };
        let mut slots = hall.arenas.slots.lock().expect("arenas lock");
        if let Some(slot) = slots.get_mut(&arena) {
            slot.state.set_blocks(blocks);
            slot.blocks_read = (players, now);
        }
    }
}

/// Ends what ran out and forms this round's tables of every running arena.
fn pair(hall: &Hall, now: i64) -> Vec<ToSeat> {
    let mut slots = hall.arenas.slots.lock().expect("arenas lock");
    let mut out = Vec::new();
    for slot in slots.values_mut() {
        if slot.finished {
            continue;
        }
        if slot.state.is_over(now) {
            // Games still running do not count (P-ARENA).
            slot.state.close();
            slot.finished = true;
            slot.changed = true;
            slot.unsaved = true;
            tracing::info!(arena = slot.id, "arena over");
            continue;
        }
        // Only players who follow the arena on an open connection are seated (a closed
        // connection stops following).
        let reachable: std::collections::HashMap<i64, (Player, Outbox)> = slot
            .followers
            .values()
            .filter_map(|f| {
                let player = f.player.clone()?;
                Some((player.id, (player, f.outbox.clone())))
            })
            .collect();
        // A pair that played the arena's cap of games sits together only when no one else
        // is free (P-ARENA).
        slot.state.set_pair_cap(hall.config.fair.arena_pair_games);
        let tables = slot.state.pair_round(now, |id| reachable.contains_key(&id));
        for table in tables {
            let options = match slot.state.game {
                GameKind::Jungle => json!({ "turn_seconds": slot.turn_seconds }),
                GameKind::Flight => {
                    json!({ "seats": table.len(), "turn_seconds": slot.turn_seconds })
                }
            };
            out.push(ToSeat {
                arena: slot.id,
                game: slot.state.game,
                options,
                players: table.iter().map(|id| reachable[id].clone()).collect(),
            });
        }
    }
    out
}

/// Opens a private room for a table and seats its players; their arena tells them first.
async fn seat(hall: &Arc<Hall>, table: ToSeat, now: i64) {
    let ids: Vec<i64> = table.players.iter().map(|(p, _)| p.id).collect();
    // One who holds seats in too many rooms cannot sit down: withdrawn (they join again once
    // they have left a room), and the table's others are free again.
    let over: Vec<i64> = ids
        .iter()
        .copied()
        .filter(|&id| hall.check_seat_limit(id).is_err())
        .collect();
    if !over.is_empty() {
        let mut slots = hall.arenas.slots.lock().expect("arenas lock");
        if let Some(slot) = slots.get_mut(&table.arena) {
            for &id in &over {
                let _ = slot.state.withdraw(id);
            }
            slot.state.unseat(&ids, now);
            slot.changed = true;
            slot.unsaved = true;
        }
        return;
    }
    let opened = open_room(
        hall.clone(),
        RoomSettings {
            game: table.game,
            private: true,
            options: table.options,
        },
    );
    let handle = match opened {
        Ok(handle) => handle,
        Err(e) => {
            tracing::warn!(arena = table.arena, error = %e.message, "an arena room could not open");
            let mut slots = hall.arenas.slots.lock().expect("arenas lock");
            if let Some(slot) = slots.get_mut(&table.arena) {
                slot.state.unseat(&ids, now);
            }
            return;
        }
    };
    let code = handle.code().to_owned();
    if let Some(peers) = hall.peers() {
        for (_, outbox) in &table.players {
            peers.seated_by_arena(outbox.id, &code);
        }
    }
    let seated = {
        let mut slots = hall.arenas.slots.lock().expect("arenas lock");
        hall.arenas
            .rooms
            .lock()
            .expect("arena rooms lock")
            .insert(code.clone(), table.arena);
        slots.get_mut(&table.arena).map(|slot| {
            slot.state.seated(&code, &ids);
            slot.changed = true;
            (
                serde_json::to_string(&slot.state).expect("an arena serialises"),
                slot.finished,
            )
        })
    };
    // Stored before anyone sits down: a node that dies from here on leaves an arena that
    // knows the room, and settles its game when taken up again (`settle_missed`).
    if let Some((state, finished)) = seated
        && let Err(e) = hall.store.save_arena(table.arena, state, finished).await
    {
        tracing::warn!(arena = table.arena, error = %e, "an arena could not be stored");
        if let Some(slot) = hall
            .arenas
            .slots
            .lock()
            .expect("arenas lock")
            .get_mut(&table.arena)
        {
            slot.unsaved = true;
        }
    }
    for (seat, (player, outbox)) in table.players.into_iter().enumerate() {
        outbox.send(frame(&ArenaMessage::ArenaGame {
            arena: table.arena,
            room: code.clone(),
            seat,
            starts_at: now + COUNTDOWN_MS,
        }));
        let request = RoomRequest {
            outbox,
            player: Some(player),
            client: None,
            id: 0,
            order: Order::ArenaSeat {
                starts_at: now + COUNTDOWN_MS,
            },
        };
        if handle.command(request).await.is_err() {
            tracing::warn!(arena = table.arena, room = %code, "an arena room closed early");
        }
    }
}

/// Sends the tables that changed and gives back the states to store.
fn changes(hall: &Hall, now: i64) -> Vec<(i64, String, bool)> {
    let mut slots = hall.arenas.slots.lock().expect("arenas lock");
    let mut saves = Vec::new();
    for slot in slots.values_mut() {
        if slot.changed {
            slot.send_table(now);
        }
        if slot.unsaved {
            slot.unsaved = false;
            let state = serde_json::to_string(&slot.state).expect("an arena serialises");
            saves.push((slot.id, state, slot.finished));
        }
    }
    saves
}
