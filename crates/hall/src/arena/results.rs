//! An arena's results at an address of their own (P-ARENA): the arena and the first page of
//! its table — live while it runs, final once it ended — from this node's copy, or from the
//! store for an arena this node does not hold (one another node of a cluster runs, or one that
//! ended before the hall last started). Served by `GET /api/arenas/{id}` (`arena_api.rs`).

use hangar_protocol::ArenaTable;

use super::{Slot, TABLE_PAGE};
use crate::hall::Hall;
use crate::store::StoreError;
use crate::time::now_ms;

/// Why an arena's results are not there.
#[derive(Debug)]
pub enum NoResults {
    /// No arena has that id.
    NoArena,
    /// The store failed, or the stored arena does not read.
    Failed(String),
}

impl From<StoreError> for NoResults {
    fn from(e: StoreError) -> Self {
        NoResults::Failed(e.to_string())
    }
}

/// The table of arena `id` as anyone may see it (no asker's line).
pub async fn arena_results(hall: &Hall, id: i64) -> Result<ArenaTable, NoResults> {
    if let Ok(table) = hall.arenas.table(id, 0, TABLE_PAGE, None) {
        return Ok(table);
    }
    let stored = hall.store.arena(id).await?.ok_or(NoResults::NoArena)?;
    let slot = Slot::from_stored(&stored).map_err(NoResults::Failed)?;
    Ok(slot.table(0, TABLE_PAGE, None, now_ms()))
}
