//! The memory of answers already given, so that a repeated command id runs once
//! (protocol.md §2), bounded so that no client can make the hall keep memory it chose.
//!
//! Each (player, client string) has one [`AnswerCache`]: at most [`REMEMBERED_IDS`] answers
//! and at most a byte budget. A cache lives while a connection uses it, and after the last
//! one let it go only for a resume window (long enough to reconnect and send a command
//! again); then [`AnswerMemory::sweep`] drops it. A player keeps at most
//! [`CLIENTS_PER_PLAYER`] caches that no connection uses.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hangar_protocol::{Ack, ErrorCode, Outcome, Rolled};
use tokio::time::Instant;

/// How many answered command ids are remembered per player and client.
pub const REMEMBERED_IDS: usize = 32;

/// Default byte budget of one cache: 32 game answers fit many times over, while twenty
/// large lists do not.
pub const DEFAULT_ANSWER_BYTES: usize = 64 * 1024;

/// Default resume window: a cache no connection uses is kept this long.
pub const DEFAULT_ANSWER_WINDOW: Duration = Duration::from_secs(60);

/// Longest `client` string accepted at sign-in, in bytes.
pub const MAX_CLIENT_BYTES: usize = 64;

/// Caches a player keeps that no connection uses (fresh client strings beyond push out the
/// oldest of them).
pub const CLIENTS_PER_PLAYER: usize = 8;

/// Whether an answer is kept for its command id: a command refused because nothing could be
/// stored or reached (`internal`, `unavailable`) changed nothing and runs again when sent again.
pub fn worth_remembering(outcome: &Outcome) -> bool {
    !matches!(outcome, Err(e) if matches!(e.code, ErrorCode::Internal | ErrorCode::Unavailable))
}

/// One remembered answer, typed (a repeat is written from it with `"repeat": true`).
#[derive(Debug)]
enum Kept {
    /// An ack with an empty result (most game actions): nothing to hold.
    Done,
    /// A roll's ack (the other half of a flight game's actions): its die.
    Rolled(Rolled),
    /// Any other outcome, and the bytes its frame took (what the budget counts).
    Outcome(Box<Outcome>, usize),
}

impl Kept {
    fn of(outcome: &Outcome, frame_len: usize) -> Kept {
        match outcome {
            Ok(Ack::Done(_)) => Kept::Done,
            Ok(Ack::Rolled(rolled)) => Kept::Rolled(rolled.clone()),
            other => Kept::Outcome(Box::new(other.clone()), frame_len),
        }
    }

    fn outcome(&self) -> Outcome {
        match self {
            Kept::Done => Ok(Ack::DONE),
            Kept::Rolled(rolled) => Ok(Ack::Rolled(rolled.clone())),
            Kept::Outcome(outcome, _) => (**outcome).clone(),
        }
    }

    /// Bytes counted for it.
    fn bytes(&self) -> usize {
        match self {
            Kept::Done | Kept::Rolled(_) => 0,
            Kept::Outcome(_, bytes) => *bytes,
        }
    }
}

/// Answers already given, by command id, to send again for a repeated id.
#[derive(Debug)]
pub struct AnswerCache {
    /// The answers, oldest first (at most [`REMEMBERED_IDS`]: room for them is made once).
    answers: VecDeque<(u64, Kept)>,
    /// Sum of the kept answers' frame lengths.
    bytes: usize,
    /// Most bytes kept; the oldest answers are forgotten beyond it.
    budget: usize,
    /// When a connection last let go of this cache (or when it was made).
    released: Instant,
}

impl AnswerCache {
    /// An empty cache of at most `budget` bytes.
    pub fn new(budget: usize) -> Self {
        AnswerCache {
            answers: VecDeque::new(),
            bytes: 0,
            budget,
            released: Instant::now(),
        }
    }

    /// The outcome already answered for `id`, if any.
    pub fn get(&self, id: u64) -> Option<Outcome> {
        self.answers
            .iter()
            .find(|(known, _)| *known == id)
            .map(|(_, kept)| kept.outcome())
    }

    /// Remembers the outcome of `id`, whose frame took `frame_len` bytes, forgetting the
    /// oldest beyond the limits. An answer larger than the whole budget is not remembered
    /// (the id would run again).
    pub fn put(&mut self, id: u64, outcome: &Outcome, frame_len: usize) {
        if frame_len > self.budget {
            return;
        }
        if self.answers.capacity() == 0 {
            self.answers.reserve_exact(REMEMBERED_IDS);
        }
        let kept = Kept::of(outcome, frame_len);
        // The oldest go before the new one comes, so that the ring never grows past its room.
        while self.answers.len() >= REMEMBERED_IDS
            || (!self.answers.is_empty() && self.bytes + kept.bytes() > self.budget)
        {
            if let Some((_, old)) = self.answers.pop_front() {
                self.bytes -= old.bytes();
            }
        }
        self.bytes += kept.bytes();
        self.answers.push_back((id, kept));
    }

    /// Bytes of the answers kept (their frames' lengths).
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

/// A shared cache and the key it is filed under.
type Shared = Arc<Mutex<AnswerCache>>;

/// Every (player, client) cache of the hall.
#[derive(Debug)]
pub struct AnswerMemory {
    caches: Mutex<HashMap<(i64, String), Shared>>,
    budget: usize,
    window: Duration,
}

impl AnswerMemory {
    /// An empty memory: caches of `budget` bytes, kept `window` after their last use.
    pub fn new(budget: usize, window: Duration) -> Self {
        AnswerMemory {
            caches: Mutex::default(),
            budget,
            window,
        }
    }

    /// A cache kept only by one connection (no client string: ids scoped to it).
    pub fn local(&self) -> AnswerCache {
        AnswerCache::new(self.budget)
    }

    /// The cache of a player's client, created on first use.
    pub fn cache(&self, player: i64, client: &str) -> Shared {
        let mut caches = self.caches.lock().expect("caches lock");
        if let Some(cache) = caches.get(&(player, client.to_owned())) {
            return cache.clone();
        }
        self.sweep_locked(&mut caches);
        let mut idle: Vec<(Instant, String)> = caches
            .iter()
            .filter(|((p, _), cache)| *p == player && Arc::strong_count(cache) == 1)
            .map(|((_, c), cache)| (cache.lock().expect("cache lock").released, c.clone()))
            .collect();
        if idle.len() >= CLIENTS_PER_PLAYER {
            idle.sort();
            for (_, client) in &idle[..idle.len() + 1 - CLIENTS_PER_PLAYER] {
                caches.remove(&(player, client.clone()));
            }
        }
        let cache = Arc::new(Mutex::new(AnswerCache::new(self.budget)));
        caches.insert((player, client.to_owned()), cache.clone());
        cache
    }

    /// The answer remembered for id `id` of a player's client, if that client has a memory
    /// here (none is made).
    pub fn peek(&self, player: i64, client: &str, id: u64) -> Option<Outcome> {
        let caches = self.caches.lock().expect("caches lock");
        let cache = caches.get(&(player, client.to_owned()))?;
        cache.lock().expect("cache lock").get(id)
    }

    /// A connection lets go of a cache: its resume window starts now.
    pub fn release(&self, cache: Shared) {
        cache.lock().expect("cache lock").released = Instant::now();
        drop(cache);
        self.sweep();
    }

    /// Drops the caches no connection uses whose resume window has passed.
    pub fn sweep(&self) {
        let mut caches = self.caches.lock().expect("caches lock");
        self.sweep_locked(&mut caches);
    }

    fn sweep_locked(&self, caches: &mut HashMap<(i64, String), Shared>) {
        let window = self.window;
        caches.retain(|_, cache| {
            Arc::strong_count(cache) > 1
                || cache.lock().expect("cache lock").released.elapsed() < window
        });
    }

    /// How many caches are kept and their bytes in all.
    pub fn size(&self) -> (usize, usize) {
        let caches = self.caches.lock().expect("caches lock");
        let bytes = caches
            .values()
            .map(|cache| cache.lock().expect("cache lock").bytes())
            .sum();
        (caches.len(), bytes)
    }

    /// How often [`AnswerMemory::sweep`] should run: often enough that a cache outlives its
    /// window by at most about half of it.
    pub fn sweep_interval(&self) -> Duration {
        (self.window / 2).clamp(Duration::from_millis(50), Duration::from_secs(30))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hangar_protocol::ProtoError;

    /// An answer whose frame took `len` bytes.
    fn answer(len: usize) -> Outcome {
        Err(ProtoError::new(ErrorCode::Illegal, "x".repeat(len)))
    }

    #[test]
    fn the_oldest_answers_go_beyond_the_byte_budget() {
        let mut cache = AnswerCache::new(1000);
        for id in 0..10 {
            cache.put(id, &answer(300), 300);
        }
        assert!(cache.bytes() <= 1000);
        assert!(cache.get(9).is_some() && cache.get(7).is_some());
        assert!(cache.get(6).is_none());
    }

    #[test]
    fn an_answer_larger_than_the_budget_is_not_kept() {
        let mut cache = AnswerCache::new(100);
        cache.put(1, &answer(50), 50);
        cache.put(2, &answer(101), 101);
        assert!(cache.get(1).is_some());
        assert!(cache.get(2).is_none());
    }

    #[test]
    fn at_most_the_last_ids_are_kept() {
        let mut cache = AnswerCache::new(usize::MAX);
        for id in 0..(REMEMBERED_IDS as u64 + 5) {
            cache.put(id, &answer(1), 1);
        }
        assert!(cache.get(4).is_none());
        assert!(cache.get(5).is_some());
    }

    #[test]
    fn an_empty_ack_and_a_die_are_kept_small_and_given_back_whole() {
        let mut cache = AnswerCache::new(usize::MAX);
        cache.put(7, &Ok(Ack::DONE), 33);
        let room = Ok(Ack::Matched(hangar_protocol::Matched {
            room: "K7QX2M".to_owned(),
            seat: 1,
            created: false,
        }));
        cache.put(8, &room, 48);
        let rolled = Ok(Ack::Rolled(Rolled { value: 5 }));
        cache.put(9, &rolled, 40);
        assert_eq!(cache.get(7), Some(Ok(Ack::DONE)));
        assert_eq!(cache.get(8), Some(room));
        assert_eq!(cache.get(9), Some(rolled));
        // Only the answer that is neither an empty ack nor a die costs bytes.
        assert_eq!(cache.bytes(), 48);
    }

    #[test]
    fn answers_to_try_again_are_not_worth_remembering() {
        for code in [ErrorCode::Internal, ErrorCode::Unavailable] {
            assert!(!worth_remembering(&Err(ProtoError::new(code, "later"))));
        }
        assert!(worth_remembering(&answer(3)));
        assert!(worth_remembering(&Ok(Ack::DONE)));
    }

    #[test]
    fn the_ring_of_answers_never_grows_past_its_room() {
        let mut cache = AnswerCache::new(usize::MAX);
        for id in 0..200 {
            cache.put(id, &answer(10), 10);
        }
        assert_eq!(cache.answers.len(), REMEMBERED_IDS);
        assert!(cache.answers.capacity() < 2 * REMEMBERED_IDS);
    }

    #[test]
    fn a_player_keeps_few_unused_client_caches() {
        let memory = AnswerMemory::new(1000, Duration::from_secs(3600));
        for n in 0..50 {
            let cache = memory.cache(7, &format!("c{n}"));
            memory.release(cache);
        }
        assert_eq!(memory.size().0, CLIENTS_PER_PLAYER);
        let held = memory.cache(8, "kept");
        for n in 0..50 {
            memory.release(memory.cache(8, &format!("d{n}")));
        }
        assert!(
            memory
                .caches
                .lock()
                .unwrap()
                .contains_key(&(8, "kept".to_owned()))
        );
        drop(held);
    }
}
