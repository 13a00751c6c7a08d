//! `review` over the WebSocket (P-REVIEW, `docs/protocol.md` §9): the checks of
//! `GET /api/games/{id}/review` (`review_api.rs`) with the connection's player and address,
//! then the same job of the hall's reviews (`review.rs`), followed by a small task that sends
//! the connection `review_progress` as it changes and `review_ready` (or `review_failed`) at
//! the end.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use tokio::time::MissedTickBehavior;

use super::{Conn, Reply, internal, invalid};
use crate::hall::Hall;
use crate::outbox::{ConnId, Outbox};
use crate::review::{ReviewAnswer, ReviewProgress, ReviewWatch};
use crate::review_request::{ReviewFound, ReviewRefused, find_or_start};
use crate::room::Answered;
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
        let may_see = |private: bool, members: Vec<i64>| {
            std::future::ready(!private || members.contains(&player))
        };
        let (reviews, store) = (&self.hall.reviews, &self.hall.store);
        match find_or_start(reviews, store, game, self.address, may_see).await {
            Ok(ReviewFound::Job(watch)) => Ok(self.follow(id, game, watch)),
            Ok(ReviewFound::Stored(body)) => {
                let answered = self.ack(id);
                self.outbox
                    .send_text(ReviewMessage::ready_frame(game, &body));
                Ok(Reply::Sent(answered))
            }
            Err(ReviewRefused::NoGame) => Err(invalid(format!("no game {game}"))),
            Err(ReviewRefused::Running) => Err(invalid(ReviewRefused::RUNNING.to_owned())),
            Err(ReviewRefused::Storage(e)) => Err(internal(e)),
            Err(ReviewRefused::Broken(e)) => Err(ProtoError::new(ErrorCode::Internal, e)),
            Err(ReviewRefused::Busy(_, retry, message)) => {
                let wait = retry.map_or(1, |retry| retry.as_secs().max(1));
                Err(ProtoError::new(
                    ErrorCode::RateLimited,
                    format!("{message} (in {wait} s)"),
                ))
            }
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
