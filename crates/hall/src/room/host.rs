//! What a room needs of the hall around it, and nothing more: the room's task sees the hall
//! only through [`RoomHost`], so the rooms know nothing of connections, the cluster or the
//! hall's other parts (`crate::hall::Hall` implements it; tests may give a room another host).

use std::sync::{Arc, Mutex};

use hangar_protocol::{GameKind, GameResult, ProtoError, RoomSummary};

use super::RoomHandle;
use crate::answers::AnswerCache;
use crate::config::Config;
use crate::store::Store;

/// The hall as a room sees it.
pub trait RoomHost: Send + Sync + 'static {
    /// The settings the hall was started with (timers, delays, limits).
    fn config(&self) -> &Config;
    /// Where games, waiting rooms and players are kept.
    fn store(&self) -> &Store;
    /// Whether the hall shuts down (rooms stop acting and keep their state for the restart).
    fn is_closing(&self) -> bool;
    /// This node's name when it is one node of a cluster: its rooms then hold ownership
    /// leases in the store.
    fn cluster_node(&self) -> Option<&str>;
    /// A fresh room code, unused on this node.
    fn new_code(&self) -> String;
    /// The room's task started: the hall can find it by its code.
    fn add_room(&self, handle: RoomHandle);
    /// The room's task ended.
    fn remove_room(&self, code: &str);
    /// The room's entry in the live list changed (`summary` `None`: it left the list).
    fn list(
        &self,
        code: &str,
        game: GameKind,
        summary: Option<RoomSummary>,
        free_seats: usize,
        taken_seats: usize,
        players: Vec<i64>,
    );
    /// Refuses a seat to a player who holds too many already.
    fn check_seat_limit(&self, player: i64) -> Result<(), ProtoError>;
    /// Records that a player holds (or no longer holds) a seat in the room `code`.
    fn set_seated(&self, player: i64, code: &str, seated: bool);
    /// The answers remembered for a player's client string (repeated ids run once).
    fn answer_cache(&self, player: i64, client: &str) -> Arc<Mutex<AnswerCache>>;
    /// The arena whose room `code` is, if it is one (its games have the arena's pair cap,
    /// P-ARENA).
    fn arena_of(&self, code: &str) -> Option<i64> {
        let _ = code;
        None
    }
    /// A game of room `code` ended and its result is stored (an arena counts it, P-ARENA).
    fn game_over(&self, code: &str, result: &GameResult) {
        let _ = (code, result);
    }
}
