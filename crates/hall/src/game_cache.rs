//! Finished games as the HTTP API serves them (the record and the replay), kept in a small
//! least-recently-used cache: a finished game never changes, and a replay walks the whole
//! game through the rule engine, so a game asked for again (a shared link, a request loop)
//! costs a lookup instead of a read and a replay. Who may see a cached private game is
//! checked on every request, as for one read from the store.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use lru::LruCache;

/// Most bodies kept.
pub const CACHED_BODIES: usize = 64;

/// Most bytes of bodies kept (a long flight game's replay is a few hundred KiB).
pub const CACHED_BYTES: usize = 16 * 1024 * 1024;

/// Which answer of the API a body is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Served {
    /// `/api/games/{id}`.
    Record,
    /// `/api/games/{id}/replay`.
    Replay,
}

impl Served {
    /// The label of the build counter.
    pub fn name(self) -> &'static str {
        match self {
            Served::Record => "record",
            Served::Replay => "replay",
        }
    }
}

/// One finished game's answer, with what deciding who may see it needs.
#[derive(Debug)]
pub struct Finished {
    /// The room was private: only `members` may see the game.
    pub private: bool,
    /// The players seated in the game.
    pub members: Vec<i64>,
    /// The JSON body, as sent.
    pub body: Bytes,
}

/// The cache, bounded by count and by bytes.
#[derive(Debug)]
pub struct GameCache {
    inner: Mutex<Inner>,
}

#[derive(Debug)]
struct Inner {
    bodies: LruCache<(i64, Served), Arc<Finished>>,
    bytes: usize,
    max_bytes: usize,
}

impl GameCache {
    /// A cache of at most `count` bodies and `max_bytes` bytes (a larger body is not kept).
    pub fn new(count: usize, max_bytes: usize) -> Self {
        let count = NonZeroUsize::new(count).unwrap_or(NonZeroUsize::MIN);
        GameCache {
            inner: Mutex::new(Inner {
                bodies: LruCache::new(count),
                bytes: 0,
                max_bytes,
            }),
        }
    }

    /// The cached answer `served` of game `id`, if any (it becomes the most recent).
    pub fn get(&self, id: i64, served: Served) -> Option<Arc<Finished>> {
        self.lock().bodies.get(&(id, served)).cloned()
    }

    /// Keeps an answer, forgetting the least recent ones beyond the bounds.
    pub fn put(&self, id: i64, served: Served, finished: Arc<Finished>) {
        let mut inner = self.lock();
        let size = finished.body.len();
        if size > inner.max_bytes {
            return;
        }
        if let Some((_, old)) = inner.bodies.push((id, served), finished) {
            inner.bytes -= old.body.len();
        }
        inner.bytes += size;
        while inner.bytes > inner.max_bytes {
            match inner.bodies.pop_lru() {
                Some((_, old)) => inner.bytes -= old.body.len(),
                None => break,
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().expect("game cache lock")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(bytes: usize) -> Arc<Finished> {
        Arc::new(Finished {
            private: false,
            members: Vec::new(),
            body: Bytes::from(vec![b' '; bytes]),
        })
    }

    #[test]
    fn the_least_recent_bodies_go_beyond_the_count_and_the_bytes() {
        let cache = GameCache::new(2, 100);
        cache.put(1, Served::Record, finished(10));
        cache.put(2, Served::Record, finished(10));
        assert!(cache.get(1, Served::Record).is_some());
        cache.put(3, Served::Record, finished(10));
        assert!(
            cache.get(2, Served::Record).is_none(),
            "the least recent went"
        );
        assert!(cache.get(1, Served::Record).is_some());
        cache.put(4, Served::Replay, finished(95));
        assert!(cache.get(1, Served::Record).is_none(), "over the bytes");
        assert!(cache.get(3, Served::Record).is_none(), "over the bytes");
        assert!(cache.get(4, Served::Replay).is_some());
        cache.put(5, Served::Replay, finished(101));
        assert!(
            cache.get(5, Served::Replay).is_none(),
            "larger than the cache"
        );
        assert_eq!(cache.lock().bytes, 95);
    }

    #[test]
    fn a_record_and_a_replay_of_one_game_are_kept_apart() {
        let cache = GameCache::new(4, 1000);
        cache.put(1, Served::Record, finished(1));
        assert!(cache.get(1, Served::Replay).is_none());
        cache.put(1, Served::Record, finished(2));
        assert_eq!(cache.lock().bytes, 2, "a body put again replaces its bytes");
    }
}
