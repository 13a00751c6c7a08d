//! Arena tournaments (P-ARENA) in the hall: the arenas this node runs, the connections that
//! follow them, and the commands of `docs/protocol.md` §11. The points, the table and the
//! pairing are `hangar_games::arena`'s; [`run`] seats the tables it forms into rooms and
//! counts the games' results as the rooms report them.

mod create;
mod run;
mod schedule;

use std::collections::HashMap;
use std::sync::Mutex;

use axum::extract::ws::Utf8Bytes;
use hangar_games::arena::{Arena, Finish};
use hangar_protocol::{
    ArenaLine, ArenaMessage, ArenaStatus, ArenaSummary, ArenaTable, ErrorCode, GameKind,
    GameResult, OutReason, ProtoError,
};

use crate::accounts::Player;
use crate::outbox::{ConnId, Outbox};
use crate::store::StoredArena;
use crate::time::now_ms;

pub use create::{MINUTES, NewArena, TURN_SECONDS, create_arena};
pub use run::{COUNTDOWN_MS, load_new, run_arenas};
pub use schedule::ArenaSchedule;

/// Most lines in one table message or page.
pub const TABLE_PAGE: usize = 100;

/// How long free flight players wait for a table of four before a smaller table (ms).
pub const TABLE_WAIT_MS: i64 = 5_000;

/// How long after its end an arena stays listed (its final standings), ms.
pub const LISTED_AFTER_END_MS: i64 = 24 * 3600 * 1000;

/// A connection that follows an arena.
struct Follower {
    outbox: Outbox,
    /// The signed-in player of the connection; the arena seats them through it.
    player: Option<Player>,
}

/// One arena this node runs.
struct Slot {
    id: i64,
    name: String,
    turn_seconds: u64,
    state: Arena,
    finished: bool,
    followers: HashMap<ConnId, Follower>,
    /// The table changed since the followers were last sent it.
    changed: bool,
    /// The state changed since it was last stored.
    unsaved: bool,
}

impl Slot {
    fn from_stored(stored: &StoredArena) -> Result<Slot, String> {
        let mut state: Arena = serde_json::from_str(&stored.state).map_err(|e| e.to_string())?;
        state.reindex();
        Ok(Slot {
            id: stored.id,
            name: stored.name.clone(),
            turn_seconds: u64::try_from(stored.turn_seconds).unwrap_or(0),
            state,
            finished: stored.finished,
            followers: HashMap::new(),
            changed: false,
            unsaved: false,
        })
    }

    fn summary(&self, now: i64) -> ArenaSummary {
        let status = if self.finished || self.state.is_over(now) {
            ArenaStatus::Finished
        } else if now < self.state.starts_at {
            ArenaStatus::Upcoming
        } else {
            ArenaStatus::Running
        };
        ArenaSummary {
            id: self.id,
            name: self.name.clone(),
            game: self.state.game,
            status,
            starts_at: self.state.starts_at,
            ends_at: self.state.ends_at,
            turn_seconds: self.turn_seconds,
            players: self.state.players().len(),
            leader: self.state.leader().map(str::to_owned),
        }
    }

    /// The table from `offset`, with `me`'s own line.
    fn table(&self, offset: usize, limit: usize, me: Option<i64>, now: i64) -> ArenaTable {
        let standings = self.state.standings();
        let standings_page = standings
            .iter()
            .skip(offset)
            .take(limit)
            .map(|s| self.state.line(s))
            .collect();
        let me = me.and_then(|id| standings.iter().find(|s| s.id == id));
        ArenaTable {
            arena: self.summary(now),
            standings: standings_page,
            total: standings.len(),
            me: me.map(|s| self.state.line(s)),
        }
    }

    /// Sends every follower the table (the top lines and their own).
    fn send_table(&mut self, now: i64) {
        let standings = self.state.standings();
        let top: Vec<ArenaLine> = standings
            .iter()
            .take(TABLE_PAGE)
            .map(|s| self.state.line(s))
            .collect();
        let by_id: HashMap<i64, usize> = standings
            .iter()
            .enumerate()
            .map(|(i, s)| (s.id, i))
            .collect();
        let summary = self.summary(now);
        for follower in self.followers.values() {
            let me = follower
                .player
                .as_ref()
                .and_then(|p| by_id.get(&p.id))
                .map(|&i| self.state.line(&standings[i]));
            let message = ArenaMessage::Arena(ArenaTable {
                arena: summary.clone(),
                standings: top.clone(),
                total: standings.len(),
                me,
            });
            follower.outbox.send(frame(&message));
        }
        self.changed = false;
    }
}

/// The text frame of an arena message.
fn frame(message: &ArenaMessage) -> Utf8Bytes {
    Utf8Bytes::from(serde_json::to_string(message).expect("an arena message serialises"))
}

/// Makes the connection of `outbox` follow arena `id` (which must exist) and no other: a
/// connection follows one arena at a time. The arena's slot.
fn follow_only<'a>(
    slots: &'a mut HashMap<i64, Slot>,
    id: i64,
    outbox: &Outbox,
    player: Option<Player>,
) -> &'a mut Slot {
    for slot in slots.values_mut() {
        slot.followers.remove(&outbox.id);
    }
    let slot = slots.get_mut(&id).expect("the arena exists");
    let follower = Follower {
        outbox: outbox.clone(),
        player,
    };
    slot.followers.insert(outbox.id, follower);
    slot
}

fn no_arena(id: i64) -> ProtoError {
    ProtoError::new(ErrorCode::NoArena, format!("no arena {id}"))
}

/// A rating on the scale the arena's performance uses (Elo-like): Jungle's Glicko-2 as it
/// is, flight's Weng-Lin μ (25 at the start) times 60, so that both start at 1500.
pub fn arena_rating(game: GameKind, rating: f64) -> i32 {
    match game {
        GameKind::Jungle => rating.round() as i32,
        GameKind::Flight => (rating * 60.0).round() as i32,
    }
}

/// The arenas of this node.
#[derive(Default)]
pub struct Arenas {
    slots: Mutex<HashMap<i64, Slot>>,
    /// The arena of each room an arena seated.
    rooms: Mutex<HashMap<String, i64>>,
    /// Rooms whose arena game is over: closed by the next round of [`run_arenas`].
    to_close: Mutex<Vec<String>>,
}

impl Arenas {
    /// Takes up stored arenas (at start, and new ones as `hangar admin arena create` adds
    /// them); ones already known are left as they are.
    pub fn load(&self, stored: &[StoredArena]) {
        let mut slots = self.slots.lock().expect("arenas lock");
        let mut rooms = self.rooms.lock().expect("arena rooms lock");
        for row in stored {
            if slots.contains_key(&row.id) {
                continue;
            }
            match Slot::from_stored(row) {
                Ok(slot) => {
                    for code in slot.state.running().keys() {
                        rooms.insert(code.clone(), slot.id);
                    }
                    slots.insert(row.id, slot);
                }
                Err(e) => tracing::error!(arena = row.id, error = %e, "an arena could not be read"),
            }
        }
    }

    /// Whether an arena of this name and game starting then is known.
    pub fn has(&self, name: &str, game: GameKind, starts_at: i64) -> bool {
        let slots = self.slots.lock().expect("arenas lock");
        slots
            .values()
            .any(|s| s.name == name && s.state.game == game && s.state.starts_at == starts_at)
    }

    /// The highest arena id known.
    pub fn last_id(&self) -> i64 {
        let slots = self.slots.lock().expect("arenas lock");
        slots.keys().copied().max().unwrap_or(0)
    }

    /// The arenas listed: running, then upcoming by start, then finished of the last day.
    pub fn list(&self) -> Vec<ArenaSummary> {
        let now = now_ms();
        let slots = self.slots.lock().expect("arenas lock");
        let mut list: Vec<ArenaSummary> = slots
            .values()
            .filter(|s| s.state.ends_at + LISTED_AFTER_END_MS > now)
            .map(|s| s.summary(now))
            .collect();
        let order = |s: &ArenaSummary| match s.status {
            ArenaStatus::Running => 0,
            ArenaStatus::Upcoming => 1,
            ArenaStatus::Finished => 2,
        };
        list.sort_by_key(|s| (order(s), s.starts_at, s.id));
        list
    }

    /// A page of an arena's table, with the asker's line.
    pub fn table(
        &self,
        id: i64,
        offset: usize,
        limit: usize,
        me: Option<i64>,
    ) -> Result<ArenaTable, ProtoError> {
        let slots = self.slots.lock().expect("arenas lock");
        let slot = slots.get(&id).ok_or_else(|| no_arena(id))?;
        Ok(slot.table(offset, limit.clamp(1, TABLE_PAGE), me, now_ms()))
    }

    /// A connection follows arena `id` (and no other): it is sent the table as it changes,
    /// and its player's games. The table now.
    pub fn follow(
        &self,
        id: i64,
        outbox: &Outbox,
        player: Option<&Player>,
    ) -> Result<ArenaTable, ProtoError> {
        let mut slots = self.slots.lock().expect("arenas lock");
        if !slots.contains_key(&id) {
            return Err(no_arena(id));
        }
        let slot = follow_only(&mut slots, id, outbox, player.cloned());
        Ok(slot.table(0, TABLE_PAGE, player.map(|p| p.id), now_ms()))
    }

    /// A connection stops following (it closed, or asked).
    pub fn unfollow(&self, conn: ConnId) {
        let mut slots = self.slots.lock().expect("arenas lock");
        for slot in slots.values_mut() {
            slot.followers.remove(&conn);
        }
    }

    /// A player joins arena `id` from this connection, which then follows the arena: the
    /// arena seats the player through it. `rating` is the player's rating of the game.
    pub fn join(
        &self,
        id: i64,
        outbox: &Outbox,
        player: &Player,
        rating: f64,
    ) -> Result<(), ProtoError> {
        let now = now_ms();
        let mut slots = self.slots.lock().expect("arenas lock");
        let slot = slots.get_mut(&id).ok_or_else(|| no_arena(id))?;
        if slot.finished {
            return Err(ProtoError::new(ErrorCode::Invalid, "the arena is over"));
        }
        let rating = arena_rating(slot.state.game, rating);
        slot.state
            .join(player.id, &player.name, player.bot, rating, now)
            .map_err(|e| ProtoError::new(ErrorCode::Invalid, e.to_string()))?;
        let slot = follow_only(&mut slots, id, outbox, Some(player.clone()));
        slot.changed = true;
        slot.unsaved = true;
        Ok(())
    }

    /// A player withdraws from arena `id`.
    pub fn withdraw(&self, id: i64, player: i64) -> Result<(), ProtoError> {
        let mut slots = self.slots.lock().expect("arenas lock");
        let slot = slots.get_mut(&id).ok_or_else(|| no_arena(id))?;
        slot.state
            .withdraw(player)
            .map_err(|e| ProtoError::new(ErrorCode::Invalid, e.to_string()))?;
        slot.changed = true;
        slot.unsaved = true;
        Ok(())
    }

    /// A room's game ended: if an arena seated it, the result counts there (when it ended in
    /// time) and the room is closed next round.
    pub fn game_over(&self, code: &str, result: &GameResult) {
        let Some(id) = self.rooms.lock().expect("arena rooms lock").remove(code) else {
            return;
        };
        let mut slots = self.slots.lock().expect("arenas lock");
        let Some(slot) = slots.get_mut(&id) else {
            return;
        };
        // An aborted game (P-ABORT: too few decisions of their own) brings nobody points.
        let counted_lines = if result.aborted {
            &[][..]
        } else {
            &result.players[..]
        };
        let table: Vec<Finish> = counted_lines
            .iter()
            .filter_map(|line| {
                Some(Finish {
                    player: line.player_id?,
                    place: u8::try_from(line.rank).unwrap_or(u8::MAX),
                    escaped: line.out == Some(OutReason::Escaped),
                })
            })
            .collect();
        for line in &result.players {
            if let (Some(player), Some(change)) = (line.player_id, line.rating) {
                let rating = arena_rating(slot.state.game, change.after.rating);
                slot.state.set_rating(player, rating);
            }
        }
        let counted = slot.state.finished(code, &table, now_ms());
        tracing::info!(arena = id, room = code, counted, "arena game over");
        slot.changed = true;
        slot.unsaved = true;
        drop(slots);
        self.to_close
            .lock()
            .expect("arena closing lock")
            .push(code.to_owned());
    }
}
