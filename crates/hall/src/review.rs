//! The hall's game reviews (P-REVIEW): `GET /api/games/{id}/review` computes a finished game's
//! review with `hangar_games::review` — the same `review_record` and the same default settings
//! as `hangar review`, so that the page and the command line agree on the same record — within
//! a CPU budget, keeps it with the record (`store/reviews.rs`) and serves it again without
//! computing.
//!
//! The budget ([`ReviewBudget`], docs/review.md "The hall"): a review runs on one of a few
//! blocking workers (default 1: the rooms keep the other cores), after at most `queue` others
//! waiting (beyond, HTTP 503 with `Retry-After`); one review per game at a time (a second
//! request for a game being reviewed follows the same job); each address may start a few
//! reviews in a burst, then one a minute (beyond, HTTP 429 with `Retry-After`). A review being
//! computed answers HTTP 202 with its place in the queue or its progress, for the page to poll.
//! A game still running is refused (409): no help while playing.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;
use tokio::time::Instant;

use crate::api_limit::ApiLimit;
use crate::store::Store;
use hangar_games::record::GameRecord;
use hangar_games::review::{
    DEFAULT_NODES, REVIEW_FORMAT, ReviewError, ReviewSettings, review_record_with_progress,
};

/// How long a failed review's answer is kept for the clients polling it (and so that a record
/// that cannot be reviewed is not computed again on every request).
const FAILED_KEPT: Duration = Duration::from_secs(60);

/// How long a client refused for a full queue is asked to wait.
const FULL_RETRY: Duration = Duration::from_secs(10);

/// What game reviews may cost the hall (part of [`crate::Limits`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewBudget {
    /// Reviews computed at once, each on a blocking thread of its own: 1.
    pub workers: usize,
    /// Reviews that may wait for a worker; beyond, HTTP 503 with `Retry-After`: 32.
    pub queue: usize,
    /// Reviews one IP address may start at once (reviews already stored or being computed
    /// cost nothing): 5 (0: no limit).
    pub per_address_burst: u32,
    /// Reviews one IP address may start per hour after its burst: 60, one a minute.
    pub per_address_per_hour: u32,
    /// Jungle: the search's node budget per position — `hangar review`'s default, so that
    /// the hall and the command line give the same review; the review's JSON says it.
    pub nodes: u64,
}

impl Default for ReviewBudget {
    fn default() -> Self {
        ReviewBudget {
            workers: 1,
            queue: 32,
            per_address_burst: 5,
            per_address_per_hour: 60,
            nodes: DEFAULT_NODES,
        }
    }
}

/// A review being computed, as `GET /api/games/{id}/review` answers it (HTTP 202).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ReviewProgress {
    /// Waiting for a worker: `position` reviews to go before it, this one included (1: next).
    Queued {
        /// Its place in the queue, from 1.
        position: usize,
    },
    /// Being computed: `done` of `of` steps (Jungle positions, flight actions).
    Running {
        /// Steps done.
        done: usize,
        /// Steps in all (0 until the record is read).
        of: usize,
    },
}

/// What a review request comes to.
#[derive(Debug)]
pub enum ReviewAnswer {
    /// The review's JSON (HTTP 200).
    Ready(Bytes),
    /// Being computed (HTTP 202).
    Pending(ReviewProgress),
    /// Refused or failed: the status, `Retry-After` if any, and why in words.
    Refused(StatusCode, Option<Duration>, String),
}

/// One game's review job.
struct Job {
    /// The game's room was private: only `members` may follow the job.
    private: bool,
    /// The players seated in the game.
    members: Vec<i64>,
    state: Mutex<JobState>,
}

#[derive(Clone)]
enum JobState {
    Queued,
    Running {
        done: usize,
        of: usize,
    },
    /// Failed: kept for [`FAILED_KEPT`] from `at`.
    Failed {
        status: StatusCode,
        error: String,
        at: Instant,
    },
    /// Computed and stored: the job is about to go (the store serves it from now on).
    Done(Bytes),
}

impl Job {
    fn set(&self, state: JobState) {
        *self.state.lock().expect("review job lock") = state;
    }

    fn state(&self) -> JobState {
        self.state.lock().expect("review job lock").clone()
    }
}

/// The jobs and the queue, under one lock.
#[derive(Default)]
struct Queue {
    jobs: HashMap<i64, Arc<Job>>,
    /// Games waiting for a worker, first first.
    waiting: VecDeque<i64>,
}

/// The node's review service: the jobs, the queue, the workers and the limit per address.
pub struct Reviews {
    budget: ReviewBudget,
    per_address: ApiLimit,
    workers: Arc<Semaphore>,
    queue: Mutex<Queue>,
    computed: AtomicU64,
    /// The reviews each WebSocket connection follows (`review` command): one follower task per
    /// connection and game.
    followers: Mutex<std::collections::BTreeSet<(crate::outbox::ConnId, i64)>>,
}

impl Reviews {
    /// The reviews the WebSocket connections follow, by connection and game.
    pub(crate) fn followers(
        &self,
    ) -> std::sync::MutexGuard<'_, std::collections::BTreeSet<(crate::outbox::ConnId, i64)>> {
        self.followers.lock().expect("review followers lock")
    }

    /// A service within `budget`.
    pub fn new(budget: &ReviewBudget) -> Self {
        let per_address = if budget.per_address_burst == 0 {
            ApiLimit::with_rate(0.0, 0.0)
        } else {
            ApiLimit::with_rate(
                f64::from(budget.per_address_per_hour.max(1)) / 3600.0,
                f64::from(budget.per_address_burst),
            )
        };
        Reviews {
            budget: budget.clone(),
            per_address,
            workers: Arc::new(Semaphore::new(budget.workers.max(1))),
            queue: Mutex::default(),
            computed: AtomicU64::new(0),
            followers: Mutex::default(),
        }
    }

    /// Reviews this node has computed since it started (a stored review served again is not
    /// one).
    pub fn computed(&self) -> u64 {
        self.computed.load(Ordering::Relaxed)
    }

    /// Reviews waiting for a worker now.
    pub fn waiting(&self) -> usize {
        self.lock().waiting.len()
    }

    /// Reviews being computed now.
    pub fn running(&self) -> usize {
        self.lock()
            .jobs
            .values()
            .filter(|job| matches!(job.state(), JobState::Running { .. }))
            .count()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().expect("review queue lock")
    }

    fn answer_of(&self, id: i64, job: &Job) -> ReviewAnswer {
        match job.state() {
            JobState::Queued => {
                let position = self
                    .lock()
                    .waiting
                    .iter()
                    .position(|&g| g == id)
                    .map_or(1, |i| i + 1);
                ReviewAnswer::Pending(ReviewProgress::Queued { position })
            }
            JobState::Running { done, of } => {
                ReviewAnswer::Pending(ReviewProgress::Running { done, of })
            }
            JobState::Failed { status, error, .. } => ReviewAnswer::Refused(status, None, error),
            JobState::Done(body) => ReviewAnswer::Ready(body),
        }
    }

    /// Starts reviewing finished game `id` (its `record`) for a client at `address`, or joins
    /// the job already there, to follow it. Refused when the queue is full (503) or the
    /// address has started too many reviews lately (429).
    pub(crate) fn start_watched(
        self: &Arc<Self>,
        store: &Store,
        id: i64,
        record: GameRecord,
        members: (bool, Vec<i64>),
        address: Option<IpAddr>,
    ) -> Result<ReviewWatch, ReviewAnswer> {
        let job = self.begin(store, id, record, members, address)?;
        Ok(ReviewWatch { id, job })
    }

    /// The job of game `id` on this node, if any, to follow.
    pub(crate) fn watch(&self, id: i64) -> Option<ReviewWatch> {
        let job = self.lock().jobs.get(&id).cloned()?;
        Some(ReviewWatch { id, job })
    }

    /// The job of `id` started or joined, or the refusal.
    fn begin(
        self: &Arc<Self>,
        store: &Store,
        id: i64,
        record: GameRecord,
        (private, members): (bool, Vec<i64>),
        address: Option<IpAddr>,
    ) -> Result<Arc<Job>, ReviewAnswer> {
        let job = {
            let mut queue = self.lock();
            // Forget failed reviews after a while: the record may be reviewed again.
            let now = Instant::now();
            queue.jobs.retain(|_, job| match job.state() {
                JobState::Failed { at, .. } => now.duration_since(at) < FAILED_KEPT,
                _ => true,
            });
            if let Some(job) = queue.jobs.get(&id).cloned() {
                return Ok(job);
            }
            if queue.waiting.len() >= self.budget.queue {
                return Err(ReviewAnswer::Refused(
                    StatusCode::SERVICE_UNAVAILABLE,
                    Some(FULL_RETRY),
                    "too many game reviews are waiting: try again in a moment".to_owned(),
                ));
            }
            if !self.per_address.allow(address) {
                let every = 3600 / u64::from(self.budget.per_address_per_hour.max(1));
                return Err(ReviewAnswer::Refused(
                    StatusCode::TOO_MANY_REQUESTS,
                    Some(Duration::from_secs(every.max(1))),
                    "too many game reviews asked from this address: try again later".to_owned(),
                ));
            }
            let job = Arc::new(Job {
                private,
                members,
                state: Mutex::new(JobState::Queued),
            });
            queue.jobs.insert(id, job.clone());
            queue.waiting.push_back(id);
            job
        };
        tokio::spawn(run(self.clone(), store.clone(), id, record, job.clone()));
        Ok(job)
    }

    /// The job of `id` is over: it goes (a stored review is served by the store from now on).
    fn forget(&self, id: i64) {
        self.lock().jobs.remove(&id);
    }
}

/// One game's review job, held by a follower (the WebSocket's `review`): its answer read
/// whenever the follower wants it, the computed review included once the job has left the
/// service (a follower holding the job never misses its end).
pub(crate) struct ReviewWatch {
    id: i64,
    job: Arc<Job>,
}

impl ReviewWatch {
    /// Whether the game's room was private, and its members: who may follow the job.
    pub(crate) fn members(&self) -> (bool, &[i64]) {
        (self.job.private, &self.job.members)
    }

    /// The job's answer now: [`ReviewAnswer::Pending`] while it waits or runs, then
    /// [`ReviewAnswer::Ready`] or [`ReviewAnswer::Refused`] for good.
    pub(crate) fn answer(&self, reviews: &Reviews) -> ReviewAnswer {
        reviews.answer_of(self.id, &self.job)
    }
}

/// Waits for a worker, computes the review on a blocking thread, stores it.
async fn run(reviews: Arc<Reviews>, store: Store, id: i64, record: GameRecord, job: Arc<Job>) {
    // The semaphore is fair: the jobs get workers in the queue's order.
    let Ok(permit) = reviews.workers.clone().acquire_owned().await else {
        return;
    };
    {
        let mut queue = reviews.lock();
        queue.waiting.retain(|&g| g != id);
        job.set(JobState::Running { done: 0, of: 0 });
    }
    let settings = ReviewSettings {
        nodes: reviews.budget.nodes,
    };
    let progress = job.clone();
    let computed = tokio::task::spawn_blocking(move || {
        review_record_with_progress(&record, &settings, &mut |done, of| {
            progress.set(JobState::Running { done, of });
        })
    })
    .await;
    drop(permit);
    reviews.computed.fetch_add(1, Ordering::Relaxed);
    let failed = |status: StatusCode, error: String| JobState::Failed {
        status,
        error,
        at: Instant::now(),
    };
    match computed {
        Ok(Ok(review)) => {
            let body = match serde_json::to_string(&review) {
                Ok(body) => body,
                Err(e) => {
                    job.set(failed(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()));
                    return;
                }
            };
            let stored = store
                .put_review(id, REVIEW_FORMAT, settings.nodes, body.clone())
                .await;
            if let Err(e) = stored {
                // Served from memory to those polling now; computed again when asked later.
                tracing::warn!(game = id, error = %e, "a game review could not be stored");
            }
            job.set(JobState::Done(Bytes::from(body)));
            reviews.forget(id);
        }
        Ok(Err(ReviewError::NotOver)) => job.set(failed(
            StatusCode::CONFLICT,
            "the game did not end on the board: it cannot be reviewed".to_owned(),
        )),
        Ok(Err(e)) => job.set(failed(StatusCode::UNPROCESSABLE_ENTITY, e.to_string())),
        Err(e) => job.set(failed(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())),
    }
}
