//! Rooms that run on another node of a cluster, as a room handle reaches them: the rooms
//! define what they need, and the cluster (`crate::cluster`) provides it.

use futures_util::future::BoxFuture;

use super::{Answered, RoomClosed, RoomRequest};
use crate::outbox::ConnId;

/// The way to the rooms of other nodes.
pub trait RemoteRooms: Send + Sync + 'static {
    /// Runs `request` in the room `code` of node `node` and brings its answer back.
    fn forward<'a>(
        &'a self,
        node: &'a str,
        code: &'a str,
        request: RoomRequest,
    ) -> BoxFuture<'a, Result<Answered, RoomClosed>>;

    /// Connection `conn` of this node stops watching the room `code` of node `node` (every
    /// room of that node when `code` is `None`).
    fn detach(&self, node: &str, code: Option<&str>, conn: ConnId);
}
