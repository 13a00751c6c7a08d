//! The gate every frame a client sends passes before any work is done on it: a rate limit
//! counting every frame (commands, binary frames, WebSocket pings and pongs alike) and a
//! size limit, both decided on the frame's length alone, without parsing. A client over a
//! limit gets a few errors; one that keeps going is closed, so that a flood costs the hall
//! a bounded amount of work.

use tokio::time::Instant;

use crate::token_bucket::Bucket;

/// Refused frames forgiven per second: a client that slipped over a limit once is not
/// closed for it a minute later.
const REFUSALS_FORGIVEN_PER_SECOND: f64 = 0.1;

/// What to do with one frame.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Within the limits: handle it.
    Pass,
    /// Over the rate: answer `rate_limited` (if it is a command) and ignore it.
    RateLimited,
    /// Over the size: answer `too_large` and ignore it.
    TooLarge,
    /// Refused too often: close the connection.
    Close,
}

/// The limits of one connection.
pub struct Gate {
    rate: Bucket,
    /// Refusals left before the connection is closed.
    refusals: Bucket,
    max_bytes: usize,
}

impl Gate {
    /// A gate letting `per_second` frames through (bursts of `burst`), each at most
    /// `max_bytes`, that closes after `refusals` refused frames in a row (one is forgiven
    /// every ten seconds).
    pub fn new(per_second: u32, burst: u32, max_bytes: usize, refusals: u32) -> Self {
        Gate {
            rate: Bucket::new(f64::from(per_second), f64::from(burst)),
            refusals: Bucket::new(REFUSALS_FORGIVEN_PER_SECOND, f64::from(refusals)),
            max_bytes,
        }
    }

    /// The verdict on a frame of `len` bytes read at `now`: every frame counts, whatever it
    /// holds.
    pub fn check(&mut self, len: usize, now: Instant) -> Verdict {
        let verdict = if !self.rate.take(now) {
            Verdict::RateLimited
        } else if len > self.max_bytes {
            Verdict::TooLarge
        } else {
            return Verdict::Pass;
        };
        if self.refusals.take(now) {
            verdict
        } else {
            Verdict::Close
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_gets_a_few_refusals_then_a_close() {
        let mut gate = Gate::new(20, 40, 100, 3);
        for _ in 0..40 {
            assert_eq!(gate.check(10, Instant::now()), Verdict::Pass);
        }
        assert_eq!(gate.check(10, Instant::now()), Verdict::RateLimited);
        assert_eq!(gate.check(10, Instant::now()), Verdict::RateLimited);
        assert_eq!(gate.check(10, Instant::now()), Verdict::RateLimited);
        assert_eq!(gate.check(10, Instant::now()), Verdict::Close);
    }

    #[test]
    fn oversized_frames_are_refused_and_count_towards_the_close() {
        let mut gate = Gate::new(20, 40, 100, 2);
        assert_eq!(gate.check(101, Instant::now()), Verdict::TooLarge);
        assert_eq!(gate.check(100, Instant::now()), Verdict::Pass);
        assert_eq!(gate.check(5000, Instant::now()), Verdict::TooLarge);
        assert_eq!(gate.check(5000, Instant::now()), Verdict::Close);
    }
}
