//! The hall's own view of acknowledgement latency: from a game action's frame read off the
//! socket to the write of the batch that holds its ack. A load test measures the same path
//! from the client (plus both kernels' loopback and the client's own scheduling); this one
//! tells the server's share from the swarm's. Recording costs two clock reads and one atomic
//! add per action; the report is a `debug` log line of target `hangar::latency` every few
//! seconds, only when that target is enabled (`HANGAR_LOG=warn,hangar::latency=debug`), with
//! the writer's commits (how many, actions per commit, time per commit) beside it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::time::Instant;

/// Buckets per doubling of the latency: percentiles are exact to within 9 %.
const STEPS_PER_DOUBLING: f64 = 8.0;
/// Buckets: 1 µs up to 2^24 µs (16 s); slower goes in the last one.
const BUCKETS: usize = 24 * STEPS_PER_DOUBLING as usize + 1;

/// How often the report is logged.
pub const REPORT_EVERY: Duration = Duration::from_secs(5);

/// The log target of the report.
pub const TARGET: &str = "hangar::latency";

static COUNTS: [AtomicU64; BUCKETS] = [const { AtomicU64::new(0) }; BUCKETS];
static MAX_MICROS: AtomicU64 = AtomicU64::new(0);
static COMMITS: AtomicU64 = AtomicU64::new(0);
static COMMITTED_ACTIONS: AtomicU64 = AtomicU64::new(0);
static COMMIT_MICROS: AtomicU64 = AtomicU64::new(0);
static COMMIT_MAX_MICROS: AtomicU64 = AtomicU64::new(0);

fn bucket(micros: u64) -> usize {
    if micros <= 1 {
        return 0;
    }
    let index = ((micros as f64).log2() * STEPS_PER_DOUBLING).ceil() as usize;
    index.min(BUCKETS - 1)
}

/// The upper bound of a bucket, in microseconds.
fn bucket_micros(index: usize) -> f64 {
    (index as f64 / STEPS_PER_DOUBLING).exp2()
}

/// Records one action acknowledged `since` its frame was read.
pub fn record(since: Instant) {
    let took = since.elapsed();
    crate::metrics::ack(took);
    let micros = took.as_micros().min(u128::from(u64::MAX)) as u64;
    COUNTS[bucket(micros)].fetch_add(1, Ordering::Relaxed);
    MAX_MICROS.fetch_max(micros, Ordering::Relaxed);
}

/// Records one commit of the writer holding `actions` game actions, which took `took` from
/// its first statement to the end of its `COMMIT`: the report tells the database's share of
/// the latency, and how many actions a commit carries.
pub fn record_commit(actions: usize, took: Duration) {
    crate::metrics::commit(actions, took);
    let micros = took.as_micros().min(u128::from(u64::MAX)) as u64;
    COMMITS.fetch_add(1, Ordering::Relaxed);
    COMMITTED_ACTIONS.fetch_add(actions as u64, Ordering::Relaxed);
    COMMIT_MICROS.fetch_add(micros, Ordering::Relaxed);
    COMMIT_MAX_MICROS.fetch_max(micros, Ordering::Relaxed);
}

/// Commits, actions in them, mean and max commit time (ms) since the last call, and resets.
fn take_commits() -> Option<(u64, u64, f64, f64)> {
    let commits = COMMITS.swap(0, Ordering::Relaxed);
    let actions = COMMITTED_ACTIONS.swap(0, Ordering::Relaxed);
    let micros = COMMIT_MICROS.swap(0, Ordering::Relaxed);
    let max = COMMIT_MAX_MICROS.swap(0, Ordering::Relaxed);
    (commits > 0).then(|| {
        (
            commits,
            actions,
            micros as f64 / commits as f64 / 1000.0,
            max as f64 / 1000.0,
        )
    })
}

/// Counts, p50, p99 and max (ms) since the last call, and resets.
fn take() -> Option<(u64, f64, f64, f64)> {
    let counts: Vec<u64> = COUNTS
        .iter()
        .map(|c| c.swap(0, Ordering::Relaxed))
        .collect();
    let max = MAX_MICROS.swap(0, Ordering::Relaxed);
    let total: u64 = counts.iter().sum();
    if total == 0 {
        return None;
    }
    let percentile = |p: f64| {
        let rank = ((total as f64) * p).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (i, count) in counts.iter().enumerate() {
            seen += count;
            if seen >= rank {
                return bucket_micros(i) / 1000.0;
            }
        }
        max as f64 / 1000.0
    };
    Some((
        total,
        percentile(0.5),
        percentile(0.99),
        max as f64 / 1000.0,
    ))
}

/// Logs the latency of the last [`REPORT_EVERY`] while the hall runs, if the report's
/// target is enabled.
pub async fn report() {
    if !tracing::enabled!(target: TARGET, tracing::Level::DEBUG) {
        return;
    }
    let mut every = tokio::time::interval(REPORT_EVERY);
    every.tick().await;
    loop {
        every.tick().await;
        if let Some((actions, p50, p99, max)) = take() {
            tracing::debug!(
                target: TARGET,
                "server-side ack latency, last {} s: {actions} actions, p50 ≤ {p50:.2} ms, p99 ≤ {p99:.2} ms, max {max:.2} ms",
                REPORT_EVERY.as_secs()
            );
        }
        if let Some((commits, actions, mean, max)) = take_commits() {
            tracing::debug!(
                target: TARGET,
                "database commits, last {} s: {commits} ({:.1} actions each), mean {mean:.2} ms, max {max:.2} ms",
                REPORT_EVERY.as_secs(),
                actions as f64 / commits as f64
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_bound_their_latencies_from_above_within_nine_percent() {
        for micros in [2_u64, 3, 10, 999, 1_000, 12_345, 1_000_000] {
            let upper = bucket_micros(bucket(micros));
            assert!(
                upper >= micros as f64,
                "{micros} µs above its bucket {upper}"
            );
            assert!(
                upper <= micros as f64 * 1.091,
                "{micros} µs: bucket {upper} too wide"
            );
        }
        assert_eq!(bucket(u64::MAX), BUCKETS - 1);
    }
}
