//! What an operator watches, at `/metrics` in the Prometheus text format: connections, rooms,
//! the bytes queued for connections, storage health (gauges read when scraped), games started and finished, actions stored,
//! refused connections and rate-limited messages (counters), and the acknowledgement and
//! commit latencies (histograms). Recorded through the `metrics` facade, rendered by
//! `metrics-exporter-prometheus` without its own listener: the hall's router serves it.

use std::sync::OnceLock;
use std::time::Duration;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// Open WebSocket connections (gauge).
pub const CONNECTIONS: &str = "hangar_connections";
/// Open rooms (gauge).
pub const ROOMS: &str = "hangar_rooms";
/// Bytes queued for the WebSocket connections and not yet written, summed over connections (a
/// frame shared by many counted in each): at most connections × [`OUTBOX_LIMIT`] (gauge).
pub const OUTBOX_BYTES: &str = "hangar_outbox_queued_bytes";
/// Bytes one connection may have queued before it is closed as too slow (gauge).
pub const OUTBOX_LIMIT: &str = "hangar_outbox_limit_bytes";
/// 1 while the storage takes writes, 0 while it is failing (gauge).
pub const STORAGE_HEALTHY: &str = "hangar_storage_healthy";
/// Games started, by `game` (counter).
pub const GAMES_STARTED: &str = "hangar_games_started_total";
/// Games finished, by `game` and `practice` (counter).
pub const GAMES_FINISHED: &str = "hangar_games_finished_total";
/// Game actions stored (counter).
pub const ACTIONS: &str = "hangar_actions_stored_total";
/// Connections refused, by `reason`: WebSocket upgrades `full` or `address`, or TCP
/// connections closed as accepted past the TCP cap, `tcp`, or past the plain HTTP connections
/// of one address, `tcp_address` (counter).
pub const REFUSED: &str = "hangar_connections_refused_total";
/// Messages refused for the rate limit (counter).
pub const RATE_LIMITED: &str = "hangar_messages_rate_limited_total";
/// Games read and built for the HTTP API, by `served`: `record` or `replay` (counter); a
/// finished game's answer served from the cache is not counted.
pub const GAME_BUILDS: &str = "hangar_api_game_builds_total";
/// From an action's frame read to its acknowledgement written, seconds (histogram).
pub const ACK_SECONDS: &str = "hangar_ack_seconds";
/// One commit of the store's writer, seconds (histogram).
pub const COMMIT_SECONDS: &str = "hangar_commit_seconds";
/// Cluster mode: a command forwarded to the room's node and answered, seconds (histogram).
pub const NATS_ROUND_TRIP: &str = "hangar_nats_round_trip_seconds";
/// Cluster mode: records dropped because the link to another node was full (counter; see
/// `cluster::link`).
pub const CLUSTER_DROPPED: &str = "hangar_cluster_records_dropped_total";
/// Cluster mode: messages from other nodes that could not be read, a different version or
/// broken (counter).
pub const CLUSTER_UNREADABLE: &str = "hangar_cluster_messages_unreadable_total";
/// Cluster mode: nodes whose lease ran out and whose rooms this node took over (counter).
pub const LEASE_TAKEOVERS: &str = "hangar_lease_takeovers_total";

/// Bucket bounds of the latency histograms, seconds: 0.25 ms to 5 s.
const LATENCY_BUCKETS: [f64; 13] = [
    0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0,
];

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// The metrics recorded on every action, registered once: the `metrics!` macros look the
/// name up in the recorder's registry on every call, and an acknowledgement is the hall's
/// hottest path.
struct Hot {
    ack: metrics::Histogram,
    commit: metrics::Histogram,
    actions: metrics::Counter,
    round_trip: metrics::Histogram,
}

/// Set by [`install`] once the recorder is in place (a handle taken before would record
/// nowhere); unset, nothing is recorded, as without a recorder.
static HOT: OnceLock<Hot> = OnceLock::new();

/// Installs the process's recorder, once: a process serves one hall (tests start several,
/// which then share the counters).
pub fn install() -> Option<&'static PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let builder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".to_owned()), &LATENCY_BUCKETS)
                .ok()?;
            match builder.install_recorder() {
                Ok(handle) => {
                    spawn_upkeep(handle.clone());
                    HOT.get_or_init(|| Hot {
                        ack: metrics::histogram!(ACK_SECONDS),
                        commit: metrics::histogram!(COMMIT_SECONDS),
                        actions: metrics::counter!(ACTIONS),
                        round_trip: metrics::histogram!(NATS_ROUND_TRIP),
                    });
                    Some(handle)
                }
                Err(e) => {
                    tracing::warn!(error = %e, "no metrics: the recorder could not be installed");
                    None
                }
            }
        })
        .as_ref()
}

/// How often the histograms' samples are folded into their buckets.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// Folds the histograms' samples into their buckets every [`UPKEEP_EVERY`], on a thread of its
/// own (the recorder may be installed outside a runtime). The recorder keeps every sample
/// recorded (an acknowledgement's latency, a commit's time) in a list that only a render or an
/// upkeep empties: with nobody scraping `/metrics`, a hall kept 24 bytes per action for ever
/// (about 2.6 GB an hour at 30,000 actions a second).
fn spawn_upkeep(handle: PrometheusHandle) {
    let started = std::thread::Builder::new()
        .name("metrics-upkeep".to_owned())
        .spawn(move || {
            loop {
                std::thread::sleep(UPKEEP_EVERY);
                handle.run_upkeep();
            }
        });
    if let Err(e) = started {
        tracing::warn!(error = %e, "no metrics upkeep: histograms grow until /metrics is read");
    }
}

/// The hall's gauges at one moment, pushed by whoever serves `/metrics`.
#[derive(Clone, Copy, Debug)]
pub struct Gauges {
    /// Open WebSocket connections.
    pub connections: usize,
    /// Rooms this node runs.
    pub rooms: usize,
    /// Whether the storage accepts writes.
    pub storage_healthy: bool,
    /// Bytes queued for the connections and not yet written.
    pub outbox_bytes: usize,
    /// Bytes one connection may have queued.
    pub outbox_limit: usize,
}

/// The text of `/metrics`, with `gauges` as they are now.
pub fn render(gauges: Gauges) -> String {
    let Some(handle) = install() else {
        return String::new();
    };
    metrics::gauge!(CONNECTIONS).set(gauges.connections as f64);
    metrics::gauge!(ROOMS).set(gauges.rooms as f64);
    metrics::gauge!(OUTBOX_BYTES).set(gauges.outbox_bytes as f64);
    metrics::gauge!(OUTBOX_LIMIT).set(gauges.outbox_limit as f64);
    metrics::gauge!(STORAGE_HEALTHY).set(if gauges.storage_healthy { 1.0 } else { 0.0 });
    handle.render()
}

/// Records one acknowledged action's latency.
pub fn ack(took: Duration) {
    if let Some(hot) = HOT.get() {
        hot.ack.record(took.as_secs_f64());
    }
}

/// Records one command forwarded to the room's node and answered (cluster mode).
pub fn round_trip(took: Duration) {
    if let Some(hot) = HOT.get() {
        hot.round_trip.record(took.as_secs_f64());
    }
}

/// Records one commit of the writer and the actions it stored.
pub fn commit(actions: usize, took: Duration) {
    if let Some(hot) = HOT.get() {
        hot.commit.record(took.as_secs_f64());
        hot.actions.increment(actions as u64);
    }
}
