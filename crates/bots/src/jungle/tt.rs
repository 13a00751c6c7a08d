//! The transposition table: search results keyed by Zobrist hash, always-replace.

use hangar_jungle::Move;

/// What the stored score means relative to the window it was searched with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact score.
    Exact,
    /// At least this (the search failed high).
    Lower,
    /// At most this (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The full hash, to tell collisions apart.
    pub key: u64,
    /// The best move found, if any.
    pub best: Option<Move>,
    /// The score, with win scores made relative to this node.
    pub score: i32,
    /// The remaining depth it was searched to.
    pub depth: i32,
    /// How the score bounds the true value.
    pub bound: Bound,
}

/// A fixed-size table of `2^bits` entries.
pub struct TranspositionTable {
    entries: Vec<Option<Entry>>,
    mask: usize,
}

impl TranspositionTable {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> TranspositionTable {
        let size = 1usize << bits;
        TranspositionTable {
            entries: vec![None; size],
            mask: size - 1,
        }
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[key as usize & self.mask].filter(|e| e.key == key)
    }

    /// Stores an entry, replacing whatever shared its slot unless that was a deeper result
    /// for the same position.
    #[inline]
    pub fn store(&mut self, entry: Entry) {
        let slot = &mut self.entries[entry.key as usize & self.mask];
        if let Some(old) = slot
            && old.key == entry.key
            && old.depth > entry.depth
            && entry.bound != Bound::Exact
        {
            return;
        }
        *slot = Some(entry);
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.entries.fill(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_by_full_key() {
        let mut tt = TranspositionTable::new(4);
        let entry = Entry {
            key: 0x1234_5678_9abc_def0,
            best: None,
            score: 7,
            depth: 3,
            bound: Bound::Exact,
        };
        tt.store(entry);
        assert_eq!(tt.probe(entry.key).map(|e| e.score), Some(7));
        assert!(
            tt.probe(entry.key ^ 1 << 40).is_none(),
            "same slot, other key"
        );
        tt.clear();
        assert!(tt.probe(entry.key).is_none());
    }
}
