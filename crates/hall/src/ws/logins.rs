//! The guard of password sign-ins: password hashing (argon2, about 19 MiB and tens of
//! milliseconds each) runs a few at a time with a bounded queue, and failed logins slow down
//! their account and their address with growing delays. A login flood so costs the hall a
//! bounded amount of memory and CPU, and guessing a password takes ever longer.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::Semaphore;
use tokio::time::Instant;

use crate::config::Limits;
use hangar_protocol::{ErrorCode, ProtoError};

/// Failed logins of one account allowed before each further one locks it for a while.
pub const FREE_FAILURES_PER_ACCOUNT: u32 = 3;
/// The longest lock.
pub const MAX_LOCK: Duration = Duration::from_secs(300);
/// Failures are forgotten after this long without another one.
const FORGET_AFTER: Duration = Duration::from_secs(15 * 60);
/// Accounts and addresses whose failures are remembered at most (a few MB).
const MAX_TRACKED: usize = 100_000;

/// Who failed: the account named (lowercase) or the address it was tried from.
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
enum Key {
    Account(String),
    Address(IpAddr),
}

/// The failures of one key.
#[derive(Debug)]
struct Failures {
    count: u32,
    /// Locked until then.
    until: Instant,
    last: Instant,
}

/// The guard of password sign-ins, shared by every connection.
#[derive(Debug)]
pub struct LoginGuard {
    hashing: Semaphore,
    waiting: AtomicUsize,
    max_waiting: usize,
    failures: Mutex<HashMap<Key, Failures>>,
    delay: Duration,
    /// Failed logins from one address before each further one locks it (0: addresses are
    /// not counted, e.g. behind a proxy where every client shares its address).
    per_address: u32,
}

/// Decrements the count of waiting sign-ins when dropped.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl LoginGuard {
    /// A guard with the hashing slots and first lock delay of `limits`.
    pub fn new(limits: &Limits) -> Self {
        LoginGuard {
            hashing: Semaphore::new(limits.password_hashing.max(1)),
            waiting: AtomicUsize::new(0),
            max_waiting: limits.password_queue,
            failures: Mutex::default(),
            delay: limits.login_delay,
            per_address: limits.login_failures_per_address,
        }
    }

    fn keys(&self, name: &str, address: Option<IpAddr>) -> impl Iterator<Item = Key> {
        let address = address.filter(|_| self.per_address > 0);
        std::iter::once(Key::Account(name.to_lowercase())).chain(address.map(Key::Address))
    }

    /// The failures a key may have before each further one locks it.
    fn free(&self, key: &Key) -> u32 {
        match key {
            Key::Account(_) => FREE_FAILURES_PER_ACCOUNT,
            Key::Address(_) => self.per_address,
        }
    }

    /// Refuses (`rate_limited`) a login for an account or from an address that failed too
    /// often lately; nothing is looked up or hashed then.
    pub fn check(&self, name: &str, address: Option<IpAddr>) -> Result<(), ProtoError> {
        let now = Instant::now();
        let failures = self.failures.lock().expect("failures lock");
        for key in self.keys(name, address) {
            if let Some(locked) = failures.get(&key).filter(|f| f.until > now) {
                let wait = locked.until.duration_since(now).as_secs() + 1;
                let whom = match key {
                    Key::Account(_) => "this name",
                    Key::Address(_) => "this address",
                };
                return Err(ProtoError::new(
                    ErrorCode::RateLimited,
                    format!("too many failed sign-ins for {whom}: try again in {wait} s"),
                ));
            }
        }
        Ok(())
    }

    /// Counts a failed login: past the free ones, each locks its account and address for
    /// twice as long as the one before (from the configured delay up to [`MAX_LOCK`]).
    pub fn failed(&self, name: &str, address: Option<IpAddr>) {
        let now = Instant::now();
        let mut failures = self.failures.lock().expect("failures lock");
        if failures.len() >= MAX_TRACKED {
            failures.retain(|_, f| now.duration_since(f.last) < FORGET_AFTER || f.until > now);
        }
        for key in self.keys(name, address) {
            let free = self.free(&key);
            if failures.len() >= MAX_TRACKED && !failures.contains_key(&key) {
                continue;
            }
            let entry = failures.entry(key).or_insert(Failures {
                count: 0,
                until: now,
                last: now,
            });
            if now.duration_since(entry.last) >= FORGET_AFTER {
                entry.count = 0;
            }
            entry.count += 1;
            entry.last = now;
            if entry.count > free {
                let doublings = (entry.count - free - 1).min(16);
                let lock = self.delay.checked_mul(1 << doublings).unwrap_or(MAX_LOCK);
                entry.until = now + lock.min(MAX_LOCK);
            }
        }
    }

    /// Forgets the failures of an account its owner signed in to.
    pub fn succeeded(&self, name: &str) {
        let mut failures = self.failures.lock().expect("failures lock");
        failures.remove(&Key::Account(name.to_lowercase()));
    }

    /// Runs `work` (a password hash or check) on the blocking pool once one of the few
    /// hashing slots is free; `rate_limited` at once when too many sign-ins wait already.
    pub async fn hash<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ProtoError> {
        let busy = || {
            ProtoError::new(
                ErrorCode::RateLimited,
                "the hall is busy checking passwords: try again in a moment",
            )
        };
        if self.waiting.fetch_add(1, Ordering::AcqRel) >= self.max_waiting {
            self.waiting.fetch_sub(1, Ordering::AcqRel);
            return Err(busy());
        }
        let waiting = Waiting(&self.waiting);
        let _permit = self.hashing.acquire().await.map_err(|_| busy())?;
        drop(waiting);
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|_| ProtoError::new(ErrorCode::Internal, "hashing failed"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(delay: Duration) -> LoginGuard {
        LoginGuard::new(&Limits {
            login_delay: delay,
            ..Limits::default()
        })
    }

    #[test]
    fn locks_grow_with_each_failure_past_the_free_ones() {
        let guard = guard(Duration::from_secs(1));
        for _ in 0..FREE_FAILURES_PER_ACCOUNT {
            guard.failed("Ana", None);
            assert!(guard.check("ana", None).is_ok());
        }
        let mut locks = Vec::new();
        for _ in 0..4 {
            guard.failed("ana", None);
            let failures = guard.failures.lock().unwrap();
            let f = &failures[&Key::Account("ana".to_owned())];
            locks.push((f.until - f.last).as_secs());
        }
        assert_eq!(locks, [1, 2, 4, 8]);
        assert_eq!(
            guard.check("ANA", None).unwrap_err().code,
            ErrorCode::RateLimited
        );
        guard.succeeded("ana");
        assert!(guard.check("ana", None).is_ok());
    }

    #[test]
    fn an_address_is_locked_across_names() {
        let guard = guard(Duration::from_secs(60));
        let ip: IpAddr = "10.1.2.3".parse().unwrap();
        for n in 0..=guard.per_address {
            guard.failed(&format!("name{n}"), Some(ip));
        }
        assert!(guard.check("someone-else", Some(ip)).is_err());
        assert!(guard.check("someone-else", None).is_ok());
    }
}
