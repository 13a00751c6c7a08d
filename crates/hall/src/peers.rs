//! The other nodes of a cluster as the hall sees them: the hall defines what it needs of
//! them here, and `crate::cluster` provides it. A hall of one node has none.

use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};

use crate::arena::ArenaRequest;
use crate::challenges::ChallengeEvent;
use crate::outbox::ConnId;
use crate::room::RemoteRooms;
use hangar_protocol::{GameKind, Outcome, RoomSummary};

/// This node's way to the others.
pub trait Peers: RemoteRooms {
    /// This node's name in the cluster.
    fn node(&self) -> &str;
    /// A room of this node changed in the hall list: every node's list learns it.
    fn publish_listing(&self, change: ListingChange);
    /// A connection of this node closed: the nodes it reached let its stand-ins go.
    fn connection_closed(&self, conn: ConnId);
    /// A player signed out everywhere: their connections on the other nodes close too.
    fn signed_out_everywhere(&self, player: i64);
    /// An open challenge changed on this node: every node's copy follows (P-CHALLENGE).
    fn publish_challenge(&self, event: ChallengeEvent);
    /// Runs an arena command of a connection of this node in the arena that node `node`
    /// runs (P-ARENA); the arena reaches the connection through its stand-in there.
    fn forward_arena<'a>(&'a self, node: &'a str, request: ArenaRequest) -> BoxFuture<'a, Outcome>;
    /// An arena of this node seated the connection `conn` in room `code` of this node: if the
    /// connection is another node's (a stand-in here), its leaving leaves the room too.
    fn seated_by_arena(&self, conn: ConnId, code: &str);
}

/// A change of one room in the hall list.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ListingChange {
    /// The node that owns the room.
    pub node: String,
    /// The room's code.
    pub code: String,
    /// The game.
    pub game: GameKind,
    /// The room as listed; `None`: it left the list.
    pub summary: Option<RoomSummary>,
    /// Free seats.
    pub free_seats: usize,
    /// Taken seats (people and bots).
    pub taken_seats: usize,
    /// The people seated.
    pub players: Vec<i64>,
}
