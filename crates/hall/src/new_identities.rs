//! At most so many new identities per network and hour (P-NEW-IDENTITY): a farmer who makes
//! a fresh puppet for every few games (each starting at the first score and rating, so every
//! win over it pays the most) is held to a few an hour. Guests and accounts are counted
//! apart, by network — an IPv4 /24, an IPv6 /64 — so that the addresses of one network share
//! one allowance. A sliding window, not a bucket: the cap is exact over any hour.
//!
//! The memory of networks is bounded: when it is full, the network used least recently is
//! forgotten (an LRU cache), so a flood of networks costs bounded memory and a network the
//! hall has not seen is never refused.

use std::collections::VecDeque;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::num::NonZeroUsize;
use std::sync::Mutex;
use std::time::Duration;

use lru::LruCache;
use tokio::time::Instant;

/// The window the caps count over.
const WINDOW: Duration = Duration::from_secs(3600);

/// What kind of new identity is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Identity {
    /// A new guest (`guest`).
    Guest,
    /// A new account (`register` on a connection that holds no guest).
    Account,
}

/// The network an address belongs to: its IPv4 /24 or IPv6 /64 (an IPv4-mapped IPv6 address
/// is the IPv4 address it carries), as the first address of that network.
pub fn network(address: IpAddr) -> IpAddr {
    let v4 = |ip: Ipv4Addr| {
        let [a, b, c, _] = ip.octets();
        IpAddr::V4(Ipv4Addr::new(a, b, c, 0))
    };
    match address {
        IpAddr::V4(ip) => v4(ip),
        IpAddr::V6(ip) => match ip.to_ipv4_mapped() {
            Some(mapped) => v4(mapped),
            None => {
                let bits = u128::from(ip) & !u128::from(u64::MAX);
                IpAddr::V6(Ipv6Addr::from(bits))
            }
        },
    }
}

/// The identities one network made within the window, oldest first.
#[derive(Default)]
struct Made {
    guests: VecDeque<Instant>,
    accounts: VecDeque<Instant>,
}

/// New guests and new accounts per network in the last hour.
pub struct NewIdentities {
    guests_per_hour: u32,
    accounts_per_hour: u32,
    networks: Mutex<LruCache<IpAddr, Made>>,
}

impl NewIdentities {
    /// `guests_per_hour` new guests and `accounts_per_hour` new accounts per network and
    /// hour (0: no cap of that kind), remembering at most `networks` networks.
    pub fn new(guests_per_hour: u32, accounts_per_hour: u32, networks: usize) -> Self {
        NewIdentities {
            guests_per_hour,
            accounts_per_hour,
            networks: Mutex::new(LruCache::new(
                NonZeroUsize::new(networks).unwrap_or(NonZeroUsize::MIN),
            )),
        }
    }

    /// The cap of this kind per network and hour (0: none).
    pub fn per_hour(&self, kind: Identity) -> u32 {
        match kind {
            Identity::Guest => self.guests_per_hour,
            Identity::Account => self.accounts_per_hour,
        }
    }

    /// Takes one new identity of `kind` for the network of `address` if its hour allows it.
    /// An unknown address always may (the connection's address is always known when served
    /// by the hall's listener).
    pub fn take(&self, kind: Identity, address: Option<IpAddr>) -> bool {
        let cap = self.per_hour(kind);
        let Some(address) = address.filter(|_| cap > 0) else {
            return true;
        };
        let now = Instant::now();
        let mut networks = self.networks.lock().expect("new identities lock");
        // A network not remembered starts afresh; when the memory is full, the network used
        // least recently makes room.
        let made = networks.get_or_insert_mut(network(address), Made::default);
        let times = match kind {
            Identity::Guest => &mut made.guests,
            Identity::Account => &mut made.accounts,
        };
        while times
            .front()
            .is_some_and(|at| now.duration_since(*at) >= WINDOW)
        {
            times.pop_front();
        }
        if times.len() >= cap as usize {
            return false;
        }
        times.push_back(now);
        true
    }

    /// Networks remembered.
    pub fn networks(&self) -> usize {
        self.networks.lock().expect("new identities lock").len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> Option<IpAddr> {
        Some(text.parse().expect("an address"))
    }

    #[test]
    fn p_new_identity_networks_are_slash_24_and_slash_64() {
        assert_eq!(
            network("10.1.2.3".parse().unwrap()),
            ip("10.1.2.0").unwrap()
        );
        assert_eq!(
            network("::ffff:10.1.2.3".parse().unwrap()),
            ip("10.1.2.0").unwrap()
        );
        assert_eq!(
            network("2001:db8:1:2:3:4:5:6".parse().unwrap()),
            ip("2001:db8:1:2::").unwrap()
        );
    }

    #[test]
    fn p_new_identity_a_network_gets_its_caps_of_guests_and_accounts_apart() {
        let quota = NewIdentities::new(10, 3, 100);
        assert!((1..=10).all(|n| quota.take(Identity::Guest, ip(&format!("10.0.0.{n}")))));
        assert!(!quota.take(Identity::Guest, ip("10.0.0.200")), "same /24");
        assert!(quota.take(Identity::Guest, ip("10.0.1.1")), "another /24");
        assert!((1..=3).all(|n| quota.take(Identity::Account, ip(&format!("10.0.0.{n}")))));
        assert!(!quota.take(Identity::Account, ip("10.0.0.9")));
        let none = NewIdentities::new(0, 0, 100);
        assert!(
            (0..50).all(|_| none.take(Identity::Guest, ip("10.0.0.1"))),
            "0: no cap"
        );
    }

    #[test]
    fn p_new_identity_a_full_memory_forgets_the_oldest_network_and_refuses_no_new_one() {
        let quota = NewIdentities::new(1, 1, 100);
        for n in 0..100 {
            assert!(quota.take(Identity::Guest, ip(&format!("10.0.{n}.1"))));
        }
        assert!(!quota.take(Identity::Guest, ip("10.0.99.2")), "remembered");
        assert!(
            quota.take(Identity::Guest, ip("10.1.0.1")),
            "an unseen network"
        );
        assert_eq!(quota.networks(), 100);
        // The least recently used (10.0.0.0/24) was forgotten.
        assert!(quota.take(Identity::Guest, ip("10.0.0.1")));
    }
}
