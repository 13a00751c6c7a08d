//! The checks of a review request (P-REVIEW), made once for both doors: the HTTP endpoint
//! (`review_api.rs`) and the WebSocket's `review` (`ws/review.rs`). Each door says only who may
//! see a game and how its answer is written.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;

use crate::game_access::{members, seated};
use crate::review::{ReviewAnswer, ReviewWatch, Reviews};
use crate::store::{Store, StoreError};
use hangar_games::record::GameRecord;

/// A review request that passed the checks.
pub(crate) enum ReviewFound {
    /// The review is stored: its JSON.
    Stored(String),
    /// The game's job on this node, joined or started now.
    Job(ReviewWatch),
}

/// Why a review request is refused; nothing was started.
#[derive(Debug)]
pub(crate) enum ReviewRefused {
    /// No such game, or one the asker may not see: the same refusal, so that an outsider
    /// cannot tell a private game from a missing one.
    NoGame,
    /// The game is still running: its seed is revealed only at its end (P-FAIR-DICE), and
    /// there is no help while playing.
    Running,
    /// The store could not answer.
    Storage(StoreError),
    /// The stored game is no record.
    Broken(String),
    /// The queue is full or the address asked too often: the status (503 or 429), how long
    /// to wait, and why in words.
    Busy(StatusCode, Option<Duration>, String),
}

impl ReviewRefused {
    /// The words of a refusal for a running game.
    pub(crate) const RUNNING: &'static str =
        "the game is still running: only a finished game can be reviewed";
}

/// Looks game `id`'s review up for an asker at `address` who may see a game when `may_see`
/// (whether the game's room was private, its members) says so: a job on this node is joined
/// (reading nothing from the store), a stored review is served, a finished game's review is
/// started.
pub(crate) async fn find_or_start<Seen>(
    reviews: &Arc<Reviews>,
    store: &Store,
    id: i64,
    address: Option<IpAddr>,
    may_see: impl Fn(bool, Vec<i64>) -> Seen,
) -> Result<ReviewFound, ReviewRefused>
where
    // Members are passed owned: a future borrowing its argument would not be `Send` for
    // every lifetime, and the connection's future must be.
    Seen: Future<Output = bool>,
{
    if let Some(watch) = reviews.watch(id) {
        let (private, members) = watch.members();
        if !may_see(private, members.to_vec()).await {
            return Err(ReviewRefused::NoGame);
        }
        return Ok(ReviewFound::Job(watch));
    }
    if let Some(stored) = store.review(id).await.map_err(ReviewRefused::Storage)? {
        if !may_see(stored.private, seated(&stored.seats)).await {
            return Err(ReviewRefused::NoGame);
        }
        return Ok(ReviewFound::Stored(stored.body));
    }
    let Some(game) = store.game(id).await.map_err(ReviewRefused::Storage)? else {
        return Err(ReviewRefused::NoGame);
    };
    let members = members(&game);
    if !may_see(game.start.private, members.clone()).await {
        return Err(ReviewRefused::NoGame);
    }
    if game.status == "running" {
        return Err(ReviewRefused::Running);
    }
    let record = match GameRecord::from_stored(&game) {
        Ok(record) if record.seed.is_some() => record,
        Ok(_) => return Err(ReviewRefused::Running),
        Err(e) => {
            tracing::error!(game = id, error = %e, "a stored game is no record");
            return Err(ReviewRefused::Broken(e.to_string()));
        }
    };
    match reviews.start_watched(store, id, record, (game.start.private, members), address) {
        Ok(watch) => Ok(ReviewFound::Job(watch)),
        Err(ReviewAnswer::Refused(status, retry, message)) => {
            Err(ReviewRefused::Busy(status, retry, message))
        }
        Err(_) => Err(ReviewRefused::Broken(
            "the review could not be started".to_owned(),
        )),
    }
}
