//! A rate limit per IP address on the HTTP API's game records and replays: each request
//! reads a whole game and its log from the database, and a replay walks it through the rule
//! engine, so a client asking in a loop must not take the hall's CPU.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

use tokio::time::Instant;

use crate::token_bucket::Bucket;

/// Addresses whose buckets are kept at most; beyond, the full ones are dropped first.
const MAX_ADDRESSES: usize = 100_000;

/// Requests per second per address (bursts of four times as many), or any other rate.
pub struct ApiLimit {
    /// Requests per second (0: no limit).
    rate: f64,
    /// Requests at once after a pause.
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl ApiLimit {
    /// `per_second` requests per address and second, bursts of four times as many (0: none).
    pub fn new(per_second: u32) -> Self {
        ApiLimit::with_rate(
            f64::from(per_second),
            f64::from(per_second.saturating_mul(4)),
        )
    }

    /// `rate` requests per address and second (a fraction for fewer), bursts of `burst`
    /// (a rate of 0: no limit).
    pub fn with_rate(rate: f64, burst: f64) -> Self {
        ApiLimit {
            rate,
            burst: burst.max(1.0),
            buckets: Mutex::default(),
        }
    }

    /// Whether a request from `address` may be served now (unknown addresses always are).
    pub fn allow(&self, address: Option<IpAddr>) -> bool {
        let Some(ip) = address.filter(|_| self.rate > 0.0) else {
            return true;
        };
        let (rate, burst) = (self.rate, self.burst);
        let now = Instant::now();
        let mut buckets = self.buckets.lock().expect("buckets lock");
        if buckets.len() >= MAX_ADDRESSES && !buckets.contains_key(&ip) {
            // A bucket that would be full again is the same as no bucket.
            buckets.retain(|_, bucket| !bucket.full_at(now));
            if buckets.len() >= MAX_ADDRESSES {
                return false;
            }
        }
        buckets
            .entry(ip)
            .or_insert_with(|| Bucket::new(rate, burst))
            .take(now)
    }
}
