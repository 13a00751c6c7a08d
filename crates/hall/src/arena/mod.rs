//! Arena tournaments (P-ARENA) in the hall: the arenas this node runs, the connections that
//! follow them, and the commands of `docs/protocol.md` §11. The points, the table and the
//! pairing are `hangar_games::arena`'s; [`run`] seats the tables it forms into rooms and
//! counts the games' results as the rooms report them.

mod create;
mod orders;
mod results;
mod route;
mod run;
mod schedule;
mod take_up;

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};

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
pub use orders::{ArenaOrder, ArenaRequest};
pub use results::{NoResults, arena_results};
pub(crate) use route::arena_unavailable;
pub use route::{arena_command, arena_unfollow};
pub use run::{COUNTDOWN_MS, run_arenas};
pub use schedule::ArenaSchedule;
pub use take_up::{load_new, settle_missed, take_up_owned};

/// Most lines in one table message or page.
pub const TABLE_PAGE: usize = 100;

/// How long free flight players wait for a table of four before a smaller table (ms).
pub const TABLE_WAIT_MS: i64 = 5_000;

/// How long after its end an arena stays listed (its final standings), ms.
pub const LISTED_AFTER_END_MS: i64 = 24 * 3600 * 1000;

/// How often a cluster node reads the other nodes' arenas for its list (ms).
pub const ELSEWHERE_EVERY_MS: i64 = 2_000;

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
    /// The players whose blocks were last read, and when (Unix ms; see `run::read_blocks`).
    blocks_read: (Vec<i64>, i64),
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
            blocks_read: (Vec::new(), i64::MIN),
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

    /// Sends every follower the table (the top lines and their own), serialised once: the
    /// followers with no line of their own (watchers, anonymous connections) share one frame;
    /// a player's frame is that text with their line in place of `null` (§5).
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
        let shared = SharedTable::new(&ArenaMessage::Arena(ArenaTable {
            arena: self.summary(now),
            standings: top,
            total: standings.len(),
            me: None,
        }));
        for follower in self.followers.values() {
            let me = follower
                .player
                .as_ref()
                .and_then(|p| by_id.get(&p.id))
                .map(|&i| self.state.line(&standings[i]));
            follower.outbox.send(shared.with_me(me.as_ref()));
        }
        self.changed = false;
    }
}

/// A table message serialised once for all the followers of an arena.
struct SharedTable {
    /// The frame with `"me":null`, shared by every follower with no line of their own.
    frame: Utf8Bytes,
    /// The length of its text up to `null}` (`"me":` last: [`ArenaTable`]'s field order).
    head: usize,
}

impl SharedTable {
    fn new(message: &ArenaMessage) -> SharedTable {
        let text = serde_json::to_string(message).expect("an arena message serialises");
        debug_assert!(
            text.ends_with(",\"me\":null}"),
            "`me` is the table's last field"
        );
        let head = text.len() - "null}".len();
        SharedTable {
            frame: Utf8Bytes::from(text),
            head,
        }
    }

    /// The frame of a follower whose own line is `me`: the shared one when there is none.
    fn with_me(&self, me: Option<&ArenaLine>) -> Utf8Bytes {
        let Some(me) = me else {
            return self.frame.clone();
        };
        let line = serde_json::to_string(me).expect("an arena line serialises");
        let mut text = String::with_capacity(self.head + line.len() + 1);
        text.push_str(&self.frame.as_str()[..self.head]);
        text.push_str(&line);
        text.push('}');
        Utf8Bytes::from(text)
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

/// The error of a command for an arena that is not known.
pub(crate) fn no_arena(id: i64) -> ProtoError {
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

/// The arenas of this node, and (cluster mode) those the other nodes run.
#[derive(Default)]
pub struct Arenas {
    /// The arenas this node runs.
    slots: Mutex<HashMap<i64, Slot>>,
    /// The arenas other nodes of a cluster run, as last stored (for the hall's list).
    elsewhere: Mutex<HashMap<i64, ArenaSummary>>,
    /// When `elsewhere` was last read (Unix ms).
    elsewhere_read: AtomicI64,
    /// Connections of this node that follow an arena of another node: that node.
    followed_elsewhere: Mutex<HashMap<ConnId, String>>,
    /// The arena of each room an arena seated.
    rooms: Mutex<HashMap<String, i64>>,
    /// Rooms whose arena game is over: closed by the next round of [`run_arenas`].
    to_close: Mutex<Vec<String>>,
}

impl Arenas {
    /// Takes up stored arenas to run them here (at start, new ones as `hangar admin arena
    /// create` adds them, and a cluster's arenas this node claims or takes over); ones
    /// already run here are left as they are.
    /// The ids taken up.
    pub fn load(&self, stored: &[StoredArena]) -> Vec<i64> {
        let mut loaded = Vec::new();
        let mut slots = self.slots.lock().expect("arenas lock");
        let mut rooms = self.rooms.lock().expect("arena rooms lock");
        let mut elsewhere = self.elsewhere.lock().expect("arenas elsewhere lock");
        for row in stored {
            if slots.contains_key(&row.id) {
                continue;
            }
            elsewhere.remove(&row.id);
            match Slot::from_stored(row) {
                Ok(slot) => {
                    for code in slot.state.running().keys() {
                        rooms.insert(code.clone(), slot.id);
                    }
                    slots.insert(row.id, slot);
                    loaded.push(row.id);
                }
                Err(e) => tracing::error!(arena = row.id, error = %e, "an arena could not be read"),
            }
        }
        loaded
    }

    /// Replaces what is known of the arenas other nodes run (cluster mode): their stored
    /// rows, those this node runs left out.
    pub fn set_elsewhere(&self, stored: &[StoredArena]) {
        let now = now_ms();
        let slots = self.slots.lock().expect("arenas lock");
        let listed = stored
            .iter()
            .filter(|row| !slots.contains_key(&row.id))
            .filter_map(|row| match Slot::from_stored(row) {
                Ok(slot) => Some((row.id, slot.summary(now))),
                Err(e) => {
                    tracing::error!(arena = row.id, error = %e, "an arena could not be read");
                    None
                }
            })
            .collect();
        *self.elsewhere.lock().expect("arenas elsewhere lock") = listed;
    }

    /// Whether the other nodes' arenas are due to be read again; if so, they count as read now.
    pub fn elsewhere_due(&self, now: i64) -> bool {
        let last = self.elsewhere_read.load(Ordering::Relaxed);
        now - last >= ELSEWHERE_EVERY_MS
            && self
                .elsewhere_read
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }

    /// Whether this node runs arena `id`.
    pub fn runs(&self, id: i64) -> bool {
        self.slots.lock().expect("arenas lock").contains_key(&id)
    }

    /// The game of arena `id`, wherever it runs.
    pub fn game_of(&self, id: i64) -> Option<GameKind> {
        if let Some(slot) = self.slots.lock().expect("arenas lock").get(&id) {
            return Some(slot.state.game);
        }
        let elsewhere = self.elsewhere.lock().expect("arenas elsewhere lock");
        elsewhere.get(&id).map(|summary| summary.game)
    }

    /// Whether an arena of this name and game starting then is known, wherever it runs.
    pub fn has(&self, name: &str, game: GameKind, starts_at: i64) -> bool {
        let slots = self.slots.lock().expect("arenas lock");
        let elsewhere = self.elsewhere.lock().expect("arenas elsewhere lock");
        slots
            .values()
            .any(|s| s.name == name && s.state.game == game && s.state.starts_at == starts_at)
            || elsewhere
                .values()
                .any(|s| s.name == name && s.game == game && s.starts_at == starts_at)
    }

    /// The highest arena id known.
    pub fn last_id(&self) -> i64 {
        let slots = self.slots.lock().expect("arenas lock");
        slots.keys().copied().max().unwrap_or(0)
    }

    /// The arenas listed, wherever they run: running, then upcoming by start, then finished
    /// of the last day.
    pub fn list(&self) -> Vec<ArenaSummary> {
        let now = now_ms();
        let slots = self.slots.lock().expect("arenas lock");
        let elsewhere = self.elsewhere.lock().expect("arenas elsewhere lock");
        let mut list: Vec<ArenaSummary> = slots
            .values()
            .map(|s| s.summary(now))
            .chain(elsewhere.values().cloned().map(|mut summary| {
                // Stored up to a round ago: the clock says whether it is over now.
                if now >= summary.ends_at {
                    summary.status = ArenaStatus::Finished;
                } else if now >= summary.starts_at {
                    summary.status = ArenaStatus::Running;
                }
                summary
            }))
            .filter(|s| s.ends_at + LISTED_AFTER_END_MS > now)
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

    /// How many connections of this node follow arena `id` here.
    pub fn followers(&self, id: i64) -> usize {
        let slots = self.slots.lock().expect("arenas lock");
        slots.get(&id).map_or(0, |slot| slot.followers.len())
    }

    /// A connection stops following the arena it follows here (it closed, or asked); the
    /// node of the arena it followed elsewhere, which has yet to be told.
    pub fn unfollow(&self, conn: ConnId) -> Option<String> {
        let mut slots = self.slots.lock().expect("arenas lock");
        for slot in slots.values_mut() {
            slot.followers.remove(&conn);
        }
        drop(slots);
        let mut elsewhere = self
            .followed_elsewhere
            .lock()
            .expect("arenas followed lock");
        elsewhere.remove(&conn)
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

    /// The arena that seated room `code`, if one did.
    pub fn arena_of_room(&self, code: &str) -> Option<i64> {
        self.rooms
            .lock()
            .expect("arena rooms lock")
            .get(code)
            .copied()
    }

    /// A room's game ended: if an arena seated it, the result counts there (when it ended in
    /// time) and the room is closed next round.
    pub fn game_over(&self, code: &str, result: &GameResult) {
        self.game_over_at(code, result, now_ms());
    }

    /// A room's game ended at `at` (Unix ms), as [`Arenas::game_over`].
    pub fn game_over_at(&self, code: &str, result: &GameResult, at: i64) {
        // An aborted game (P-ABORT: too few decisions of their own) brings nobody points, nor
        // does a game the arena's pair cap made practice (P-ARENA).
        let counted_lines = if result.aborted || result.practice {
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
        let ratings: Vec<(i64, f64)> = result
            .players
            .iter()
            .filter_map(|line| Some((line.player_id?, line.rating.as_ref()?.after.rating)))
            .collect();
        self.settle(code, &table, &ratings, at);
    }

    /// A room an arena seated never started its game (its node died first): its players are
    /// free again, with nothing counted, and the room is closed next round.
    pub fn never_played(&self, code: &str) {
        self.settle(code, &[], &[], now_ms());
    }

    /// The game of room `code` is settled with `table` at `at`; `ratings` are the players'
    /// ratings after it.
    fn settle(&self, code: &str, table: &[Finish], ratings: &[(i64, f64)], at: i64) {
        let Some(id) = self.rooms.lock().expect("arena rooms lock").remove(code) else {
            return;
        };
        let mut slots = self.slots.lock().expect("arenas lock");
        let Some(slot) = slots.get_mut(&id) else {
            return;
        };
        for &(player, rating) in ratings {
            let rating = arena_rating(slot.state.game, rating);
            slot.state.set_rating(player, rating);
        }
        let counted = slot.state.finished(code, table, at);
        tracing::info!(arena = id, room = code, counted, "arena game over");
        slot.changed = true;
        slot.unsaved = true;
        drop(slots);
        self.to_close
            .lock()
            .expect("arena closing lock")
            .push(code.to_owned());
    }

    /// The rooms of the games arenas `ids` seated and have not seen end.
    pub fn running_rooms(&self, ids: &[i64]) -> Vec<String> {
        let slots = self.slots.lock().expect("arenas lock");
        ids.iter()
            .filter_map(|id| slots.get(id))
            .flat_map(|slot| slot.state.running().keys().cloned())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hangar_protocol::ArenaStatus;

    fn line(rank: u32, id: i64) -> ArenaLine {
        ArenaLine {
            rank,
            player_id: id,
            name: format!("player {id}"),
            bot: false,
            points: 10 - rank,
            fire: false,
            performance: 1500,
            games: 1,
            recent: Vec::new(),
            active: true,
            room: None,
        }
    }

    /// §5: the table is serialised once; followers with no line share one buffer, and a
    /// player's frame reads exactly as the table with their own line.
    #[test]
    fn a_table_is_encoded_once_for_its_followers() {
        let table = ArenaTable {
            arena: ArenaSummary {
                id: 3,
                name: "Blitz".into(),
                game: GameKind::Jungle,
                status: ArenaStatus::Running,
                starts_at: 1,
                ends_at: 2,
                turn_seconds: 20,
                players: 2,
                leader: Some("player 1".into()),
            },
            standings: vec![line(1, 1), line(2, 2)],
            total: 2,
            me: None,
        };
        let shared = SharedTable::new(&ArenaMessage::Arena(table.clone()));
        let (a, b) = (shared.with_me(None), shared.with_me(None));
        assert_eq!(
            a.as_str().as_ptr(),
            b.as_str().as_ptr(),
            "one buffer for both"
        );
        assert_eq!(
            a.as_str(),
            serde_json::to_string(&ArenaMessage::Arena(table.clone())).unwrap()
        );
        let mine = shared.with_me(Some(&line(2, 2)));
        let expected = ArenaMessage::Arena(ArenaTable {
            me: Some(line(2, 2)),
            ..table
        });
        assert_eq!(mine.as_str(), serde_json::to_string(&expected).unwrap());
    }
}
