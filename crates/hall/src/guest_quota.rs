//! At most so many new guest identities per IP address per hour (P-ABORT): a farmer who makes
//! a fresh guest puppet for every game (each starting at the first rating, so every win over
//! it pays the most) is held to a few an hour. A sliding window, not a bucket: the cap is
//! exact over any hour.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// The window the cap counts over.
const WINDOW: Duration = Duration::from_secs(3600);
/// Addresses remembered at most; beyond, those with nothing inside the window are dropped,
/// and if all are recent a new address is refused (a flood of addresses costs bounded memory).
const MAX_ADDRESSES: usize = 100_000;

/// New guests per address in the last hour.
pub struct GuestQuota {
    per_hour: u32,
    made: Mutex<HashMap<IpAddr, VecDeque<Instant>>>,
}

impl GuestQuota {
    /// `per_hour` new guests per address and hour (0: no cap).
    pub fn new(per_hour: u32) -> Self {
        GuestQuota {
            per_hour,
            made: Mutex::default(),
        }
    }

    /// Takes one new guest for `address` if its hour allows it (an unknown address always
    /// may: behind a proxy set 0 anyway).
    pub fn take(&self, address: Option<IpAddr>) -> bool {
        let Some(ip) = address.filter(|_| self.per_hour > 0) else {
            return true;
        };
        let now = Instant::now();
        let recent = |at: &Instant| now.duration_since(*at) < WINDOW;
        let mut made = self.made.lock().expect("guest quota lock");
        if made.len() >= MAX_ADDRESSES && !made.contains_key(&ip) {
            made.retain(|_, times| times.back().is_some_and(recent));
            if made.len() >= MAX_ADDRESSES {
                return false;
            }
        }
        let times = made.entry(ip).or_default();
        while times.front().is_some_and(|at| !recent(at)) {
            times.pop_front();
        }
        if times.len() >= self.per_hour as usize {
            return false;
        }
        times.push_back(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eleventh_guest_of_an_address_in_an_hour_is_refused() {
        let quota = GuestQuota::new(10);
        let ip: IpAddr = [10, 0, 0, 1].into();
        assert!((0..10).all(|_| quota.take(Some(ip))));
        assert!(!quota.take(Some(ip)));
        assert!(quota.take(Some([10, 0, 0, 2].into())), "per address");
        assert!(GuestQuota::new(0).take(Some(ip)), "0: no cap");
    }
}
