//! `review` over the WebSocket (P-REVIEW, `docs/protocol.md` §9): the checks of
//! `GET /api/games/{id}/review` (`review_api.rs`) with the connection's player and address,
//! then the same job of the hall's reviews (`review.rs`), followed by a small task that sends
//! the connection `review_progress` as it changes and `review_ready` (or `review_failed`) at
//! the end.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use axum::http::StatusCode;
use tokio::time::MissedTickBehavior;

use super::{Conn, Reply, internal, invalid};
use crate::hall::Hall;
use crate::http::{members, seated};
use crate::outbox::{ConnId, Outbox};
use crate::review::{ReviewAnswer, ReviewProgress, ReviewWatch};
use crate::room::Answered;
use hangar_games::record::GameRecord;
use hangar_protocol::{Ack, ErrorCode, ProtoError, ReviewMessage, ReviewState, answer_frame};

/// How often a follower reads its job: at most this many progress messages a second, four.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// Connection `conn` has ended: its followers stop at their next look.
pub(super) fn connection_closed(hall: &Hall, conn: ConnId) {
    let mut following = hall.reviews.followers();
    let games: Vec<(ConnId, i64)> = following
        .range((conn, i64::MIN)..=(conn, i64::MAX))
        .copied()
        .collect();
    for key in games {
        following.remove(&key);
    }
}

/// The refusal of a game the player may not see, or of none: the same for both, as the
/// HTTP endpoint's 404.
fn no_game(game: i64) -> ProtoError {
    invalid(format!("no game {game}"))
}

fn still_running() -> ProtoError {
    invalid("the game is still running: only a finished game can be reviewed".to_owned())
}

impl Conn {
    /// `review`: a finished game's review for a signed-in player who may see the game. A
    /// stored review is sent at once after the ack; otherwise the job is started (or joined)
    /// and followed. Refused, with nothing changed, for a game the player may not see, a
    /// running game, a full queue or an address over its limit.
    pub(super) async fn review(&self, id: u64, game: i64) -> Reply {
        match self.review_checked(id, game).await {
            Ok(reply) => reply,
            Err(e) => Err(e).into(),
        }
    }

    async fn review_checked(&self, id: u64, game: i64) -> Result<Reply, ProtoError> {
        let player = self.require_player()?.id;
        let may_see = |private: bool, members: &[i64]| !private || members.contains(&player);
        let reviews = &self.hall.reviews;
        // A job on this node: followed (reading nothing from the store).
        if let Some(watch) = reviews.watch(game) {
            let (private, members) = watch.members();
            if !may_see(private, members) {
                return Err(no_game(game));
            }
            return Ok(self.follow(id, game, watch));
        }
        let store = &self.hall.store;
        if let Some(stored) = store.review(game).await.map_err(internal)? {
            if !may_see(stored.private, &seated(&stored.seats)) {
                return Err(no_game(game));
            }
            let answered = self.ack(id);
            self.outbox
                .send_text(ReviewMessage::ready_frame(game, &stored.body));
            return Ok(Reply::Sent(answered));
        }
        let Some(stored) = store.game(game).await.map_err(internal)? else {
            return Err(no_game(game));
        };
        let members = members(&stored);
        if !may_see(stored.start.private, &members) {
            return Err(no_game(game));
        }
        // The seed is revealed once the game is over (P-FAIR-DICE): before, no review.
        if stored.status == "running" {
            return Err(still_running());
        }
        let record = match GameRecord::from_stored(&stored) {
            Ok(record) if record.seed.is_some() => record,
            Ok(_) => return Err(still_running()),
            Err(e) => {
                tracing::error!(game, error = %e, "a stored game is no record");
                return Err(ProtoError::new(ErrorCode::Internal, e.to_string()));
            }
        };
        let started = reviews.start_watched(
            &self.hall,
            game,
            record,
            (stored.start.private, members),
            self.address,
        );
        match started {
            Ok(watch) => Ok(self.follow(id, game, watch)),
            Err(ReviewAnswer::Refused(status, retry, message))
                if status == StatusCode::TOO_MANY_REQUESTS
                    || status == StatusCode::SERVICE_UNAVAILABLE =>
            {
                let wait = retry.map_or(1, |retry| retry.as_secs().max(1));
                Err(ProtoError::new(
                    ErrorCode::RateLimited,
                    format!("{message} (in {wait} s)"),
                ))
            }
            Err(ReviewAnswer::Refused(_, _, message)) => {
                Err(ProtoError::new(ErrorCode::Internal, message))
            }
            Err(_) => Err(ProtoError::new(
                ErrorCode::Internal,
                "the review could not be started",
            )),
        }
    }

    /// Sends the ack of command `id`.
    fn ack(&self, id: u64) -> Answered {
        let outcome = Ok(Ack::DONE);
        let frame = Utf8Bytes::from(answer_frame(id, &outcome));
        self.outbox.send(frame.clone());
        Answered { outcome, frame }
    }

    /// Acks command `id`, then follows the job of `game` for this connection, unless it
    /// follows it already (that follower sends what comes).
    fn follow(&self, id: u64, game: i64, watch: ReviewWatch) -> Reply {
        let key = (self.outbox.id, game);
        // The ack goes under the lock: a follower ending meanwhile sends its last message
        // after it (and this connection is still told the end), or has stopped following
        // before (and a new follower starts).
        let mut following = self.hall.reviews.followers();
        let answered = self.ack(id);
        if following.insert(key) {
            tokio::spawn(follow_job(
                self.hall.clone(),
                self.outbox.clone(),
                game,
                watch,
            ));
        }
        drop(following);
        Reply::Sent(answered)
    }
}

/// Sends `outbox` the progress of `game`'s review as it changes (at most every
/// [`PROGRESS_EVERY`]), then the review or why there is none. Stops early once the connection
/// has ended or cannot take more, or the hall shuts down.
async fn follow_job(hall: Arc<Hall>, outbox: Outbox, game: i64, watch: ReviewWatch) {
    let key = (outbox.id, game);
    let mut tick = tokio::time::interval(PROGRESS_EVERY);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut sent = None;
    loop {
        tick.tick().await;
        if hall.is_closing() || !hall.reviews.followers().contains(&key) {
            break;
        }
        let last = match watch.answer(&hall.reviews) {
            ReviewAnswer::Pending(progress) => {
                if sent == Some(progress) {
                    continue;
                }
                sent = Some(progress);
                let state = match progress {
                    ReviewProgress::Queued { position } => ReviewState::Queued { position },
                    ReviewProgress::Running { done, of } => ReviewState::Running { done, of },
                };
                let message = ReviewMessage::ReviewProgress { game, state };
                if outbox.send_text(message.to_text()) {
                    continue;
                }
                break;
            }
            ReviewAnswer::Ready(body) => match std::str::from_utf8(&body) {
                Ok(body) => ReviewMessage::ready_frame(game, body),
                Err(e) => failed(game, e.to_string()),
            },
            ReviewAnswer::Refused(_, _, message) => failed(game, message),
        };
        // The end: no longer followed, then told, under one lock (see `Conn::follow`).
        let mut following = hall.reviews.followers();
        if following.remove(&key) {
            outbox.send_text(last);
        }
        return;
    }
    hall.reviews.followers().remove(&key);
}

/// The `review_failed` frame.
fn failed(game: i64, message: String) -> String {
    ReviewMessage::ReviewFailed { game, message }.to_text()
}
