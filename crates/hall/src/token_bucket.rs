//! A token bucket, the rate limit of the hall's connections (`ws/gate.rs`) and of its HTTP
//! API (`api_limit.rs`).

use tokio::time::Instant;

/// A token bucket: `rate` per second, at most `burst` at once.
pub(crate) struct Bucket {
    tokens: f64,
    last: Instant,
    rate: f64,
    burst: f64,
}

impl Bucket {
    pub(crate) fn new(rate: f64, burst: f64) -> Self {
        Bucket {
            tokens: burst,
            last: Instant::now(),
            rate,
            burst,
        }
    }

    /// Whether the bucket would be full at `now` (nothing taken lately).
    pub(crate) fn full_at(&self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens + elapsed * self.rate >= self.burst
    }

    /// Takes one token if there is one.
    pub(crate) fn take(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}
