//! The writer's memory of the action log: for each running game, the actions stored in the
//! journal but not yet in a chunk.
//!
//! Why two places. The log used to be one table keyed by (game, index): every commit touched
//! one index page per game that acted in it — scattered pages, 12 of 13 pages written per
//! commit at 25 busy tables, 4 KiB each, and the WAL and its checkpoints grew with them. Now an
//! action is made durable by appending it to the journal (keyed by a sequence number, so a
//! commit writes the journal's last page or two, whatever the games), and the writer gathers
//! each game's actions here until it has [`CHUNK_ACTIONS`] of them, then stores them as one
//! chunk row keyed by (game, first index) — one scattered page per [`CHUNK_ACTIONS`] actions.
//! Journal rows older than every gathered action are then deleted in a range from the front.
//! When a game ends, what is left of it is chunked in the same transaction as its result, so a
//! finished game's log is its chunks alone.
//!
//! Everything here is plain data: the writer applies it to the database and, if a write fails,
//! throws it away and reloads it from the database (the journal and the chunks are the truth).

use std::collections::HashMap;

/// Actions gathered per game before they are stored as one chunk, at least: ~1 KiB of lines,
/// a quarter of a page. Each game adds its own share of up to as many again
/// ([`chunk_actions`]): games that start together would otherwise chunk together, in waves
/// of thousands of scattered pages that hold up the commits queued behind them.
pub(super) const CHUNK_ACTIONS: usize = 24;

/// How many actions game `game_id` gathers before a chunk: from [`CHUNK_ACTIONS`] to twice
/// that, by its id.
fn chunk_actions(game_id: i64) -> usize {
    CHUNK_ACTIONS + game_id.rem_euclid(CHUNK_ACTIONS as i64) as usize
}

/// A game whose oldest gathered action lies this many journal rows back is chunked even with
/// fewer actions, so that one slow game does not keep the whole journal from being trimmed.
const PIN_LIMIT: i64 = 200_000;

/// Most chunks stored at a time. Games that start together reach [`CHUNK_ACTIONS`] together:
/// 2,500 tables would otherwise send one 5 MB statement, and the memory it takes on the way
/// (JSON text, its parse) would show as the hall's peak.
const CHUNKS_PER_PASS: usize = 64;

/// Journal rows deleted at least this many at a time (one range delete from the front).
const TRIM_ROWS: i64 = 2_048;

/// One running game's place in the log: its next action's index, and its actions in the
/// journal but not in a chunk yet.
#[derive(Debug)]
struct Tail {
    /// The index the game's next action must have (appends of a game come in order).
    next_idx: i64,
    /// The journal sequence number of the first gathered action (when `count` is not 0).
    first_seq: i64,
    /// How many actions are gathered; the last has index `next_idx - 1`.
    count: usize,
    /// How many make a chunk ([`chunk_actions`]).
    chunk_actions: usize,
    /// The gathered actions, a stored line each (`LoggedAct::to_line`), in order, joined by
    /// newlines as a chunk holds them (one string per game rather than one per action: ~1 KiB
    /// per running game).
    data: String,
}

/// Room for the actions of a chunk at their usual size (a person's roll is a line of 52 bytes,
/// a move 32, a bot's action 11–15), so that a tail is usually allocated once.
const CHUNK_BYTES: usize = CHUNK_ACTIONS * 64;

impl Tail {
    /// The gathered actions as one chunk, leaving none.
    fn take_chunk(&mut self, game_id: i64) -> Option<Chunk> {
        if self.count == 0 {
            return None;
        }
        let chunk = Chunk {
            game_id,
            first_idx: self.next_idx - self.count as i64,
            length: self.count as i64,
            data: std::mem::take(&mut self.data),
        };
        self.count = 0;
        Some(chunk)
    }
}

/// Actions stored together as one row: `data` is their stored lines joined by newlines (a
/// line, base64 or the compact JSON of older logs, never holds a raw newline).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Chunk {
    pub(super) game_id: i64,
    pub(super) first_idx: i64,
    pub(super) length: i64,
    pub(super) data: String,
}

/// One journal row to insert.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct JournalRow<'a> {
    pub(super) seq: i64,
    pub(super) game_id: i64,
    pub(super) idx: i64,
    pub(super) data: &'a str,
}

/// The gathered actions of every running game, and the journal's bounds.
#[derive(Debug)]
pub(super) struct Tails {
    games: HashMap<i64, Tail>,
    /// The sequence number of the next journal row (the writer numbers rows itself: it is the
    /// only writer).
    next_seq: i64,
    /// No journal row below this sequence number is left.
    oldest_seq: i64,
}

impl Tails {
    /// Empty tails over a journal holding sequence numbers `oldest_seq..next_seq`.
    pub(super) fn new(oldest_seq: i64, next_seq: i64) -> Tails {
        Tails {
            games: HashMap::new(),
            next_seq,
            oldest_seq: oldest_seq.min(next_seq),
        }
    }

    /// Notes a running game found at start whose first `covered` actions are in chunks.
    pub(super) fn resume(&mut self, game_id: i64, covered: i64) {
        self.games.insert(
            game_id,
            Tail {
                next_idx: covered,
                first_seq: 0,
                count: 0,
                chunk_actions: chunk_actions(game_id),
                data: String::new(),
            },
        );
    }

    /// Takes back a journal row found at start (rows in sequence order, after the game's
    /// chunks); false if it does not follow the game's log.
    pub(super) fn restore(&mut self, seq: i64, game_id: i64, idx: i64, data: &str) -> bool {
        self.next_seq = self.next_seq.max(seq + 1);
        self.gather(seq, game_id, idx, data)
    }

    /// Numbers a batch of appended actions and gathers them: for each, its journal row, or
    /// `None` if it is not its game's next action (it is refused).
    pub(super) fn append<'a>(
        &mut self,
        actions: impl IntoIterator<Item = (i64, i64, &'a str)>,
    ) -> Vec<Option<JournalRow<'a>>> {
        actions
            .into_iter()
            .map(|(game_id, idx, data)| {
                let seq = self.next_seq;
                self.gather(seq, game_id, idx, data).then(|| {
                    self.next_seq += 1;
                    JournalRow {
                        seq,
                        game_id,
                        idx,
                        data,
                    }
                })
            })
            .collect()
    }

    /// Gathers a game's next action; false (and nothing changes) if `idx` is not the next.
    /// A game seen for the first time starts at `idx`.
    fn gather(&mut self, seq: i64, game_id: i64, idx: i64, data: &str) -> bool {
        let tail = self.games.entry(game_id).or_insert_with(|| Tail {
            next_idx: idx,
            first_seq: seq,
            count: 0,
            chunk_actions: chunk_actions(game_id),
            data: String::new(),
        });
        if idx != tail.next_idx {
            return false;
        }
        if tail.count == 0 {
            tail.first_seq = seq;
            tail.data.reserve(CHUNK_BYTES);
        } else {
            tail.data.push('\n');
        }
        tail.data.push_str(data);
        tail.count += 1;
        tail.next_idx += 1;
        true
    }

    /// The chunks due — games with [`CHUNK_ACTIONS`] gathered, or gathered long ago — at most
    /// [`CHUNKS_PER_PASS`], oldest first. Their actions leave the tails.
    pub(super) fn take_due(&mut self) -> Vec<Chunk> {
        let pinned_below = self.next_seq - PIN_LIMIT;
        let mut due: Vec<(i64, i64)> = self
            .games
            .iter()
            .filter(|(_, tail)| {
                tail.count >= tail.chunk_actions
                    || (tail.count > 0 && tail.first_seq < pinned_below)
            })
            .map(|(&game_id, tail)| (tail.first_seq, game_id))
            .collect();
        if due.len() > CHUNKS_PER_PASS {
            due.select_nth_unstable(CHUNKS_PER_PASS);
            due.truncate(CHUNKS_PER_PASS);
        }
        due.into_iter()
            .filter_map(|(_, game_id)| self.games.get_mut(&game_id)?.take_chunk(game_id))
            .collect()
    }

    /// What is left of a game that ends, as its last chunk (none if nothing is gathered);
    /// the game is forgotten.
    pub(super) fn seal(&mut self, game_id: i64) -> Option<Chunk> {
        self.games.remove(&game_id)?.take_chunk(game_id)
    }

    /// The sequence number below which journal rows are no longer needed, when enough of
    /// them have piled up to be worth a delete; the caller deletes them.
    pub(super) fn take_trim(&mut self) -> Option<i64> {
        let needed_from = self
            .games
            .values()
            .filter(|tail| tail.count > 0)
            .map(|tail| tail.first_seq)
            .min()
            .unwrap_or(self.next_seq);
        (needed_from - self.oldest_seq >= TRIM_ROWS).then(|| {
            self.oldest_seq = needed_from;
            needed_from
        })
    }

    /// How many games have gathered actions.
    #[cfg(test)]
    fn gathering(&self) -> usize {
        self.games.values().filter(|t| t.count > 0).count()
    }
}

/// Splits a chunk's data back into its actions; `None` if it does not hold `length` of them.
pub(super) fn split_chunk(data: &str, length: i64) -> Option<Vec<String>> {
    let actions: Vec<String> = data.split('\n').map(str::to_owned).collect();
    (actions.len() as i64 == length).then_some(actions)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn append(tails: &mut Tails, game_id: i64, idx: i64) -> i64 {
        let data = format!("{{\"a\":{idx}}}");
        tails.append([(game_id, idx, data.as_str())])[0]
            .as_ref()
            .expect("in order")
            .seq
    }

    #[test]
    fn rows_are_numbered_in_order_across_games() {
        let mut tails = Tails::new(1, 1);
        let rows = tails.append([(7, 0, "a"), (8, 0, "b"), (7, 1, "c")]);
        let rows: Vec<JournalRow> = rows.into_iter().map(Option::unwrap).collect();
        let seqs: Vec<i64> = rows.iter().map(|r| r.seq).collect();
        assert_eq!(seqs, [1, 2, 3]);
        assert_eq!(rows[2].game_id, 7);
        assert_eq!(rows[2].data, "c");
    }

    #[test]
    fn an_action_out_of_order_is_refused_and_changes_nothing() {
        let mut tails = Tails::new(1, 1);
        let rows = tails.append([
            (7, 0, "a"),
            (7, 2, "skipped one"),
            (7, 0, "again"),
            (7, 1, "b"),
        ]);
        let taken: Vec<Option<i64>> = rows.iter().map(|r| r.as_ref().map(|r| r.seq)).collect();
        assert_eq!(taken, [Some(1), None, None, Some(2)]);
        let chunk = tails.seal(7).unwrap();
        assert_eq!(split_chunk(&chunk.data, chunk.length).unwrap(), ["a", "b"]);
    }

    #[test]
    fn a_resumed_game_goes_on_after_its_chunks() {
        let mut tails = Tails::new(1, 1);
        tails.resume(4, 64);
        assert!(tails.append([(4, 3, "old")])[0].is_none());
        assert!(tails.append([(4, 64, "next")])[0].is_some());
    }

    #[test]
    fn a_game_is_chunked_once_it_has_gathered_enough() {
        let mut tails = Tails::new(1, 1);
        let size = chunk_actions(5) as i64;
        for idx in 0..size - 1 {
            append(&mut tails, 5, idx);
        }
        assert!(tails.take_due().is_empty());
        append(&mut tails, 5, size - 1);
        let chunks = tails.take_due();
        assert_eq!(chunks.len(), 1);
        assert_eq!(chunks[0].first_idx, 0);
        assert_eq!(chunks[0].length, size);
        let actions = split_chunk(&chunks[0].data, chunks[0].length).unwrap();
        assert_eq!(actions[3], "{\"a\":3}");
        assert_eq!(tails.gathering(), 0);
        // The next action starts a new chunk at its own index.
        append(&mut tails, 5, size);
        let last = tails.seal(5).unwrap();
        assert_eq!((last.first_idx, last.length), (size, 1));
        assert!(tails.seal(5).is_none());
    }

    #[test]
    fn the_journal_is_trimmed_below_the_oldest_gathered_action() {
        let mut tails = Tails::new(1, 1);
        let first_of_slow_game = append(&mut tails, 1, 0);
        for idx in 0..TRIM_ROWS * 2 {
            append(&mut tails, 2, idx);
            tails.take_due();
        }
        // The slow game's action is still only in the journal: nothing may go.
        assert_eq!(tails.take_trim(), None);
        assert_eq!(first_of_slow_game, 1);
        tails.seal(1);
        let trim = tails.take_trim().expect("rows to trim");
        // Everything below game 2's gathered actions (it chunks every `chunk_actions(2)`).
        assert!(trim > TRIM_ROWS * 2 - chunk_actions(2) as i64);
        assert_eq!(tails.take_trim(), None, "trimmed once");
    }

    #[test]
    fn a_wave_of_due_games_is_chunked_in_passes_oldest_first() {
        let mut tails = Tails::new(1, 1);
        let games = CHUNKS_PER_PASS as i64 + 10;
        for idx in 0..2 * CHUNK_ACTIONS as i64 {
            for game in 0..games {
                append(&mut tails, game, idx);
            }
        }
        let first = tails.take_due();
        assert_eq!(first.len(), CHUNKS_PER_PASS);
        // The games that started first (lowest sequence numbers) go first.
        assert!(first.iter().all(|c| c.game_id < CHUNKS_PER_PASS as i64));
        let second = tails.take_due();
        assert_eq!(second.len(), 10);
        assert!(tails.take_due().is_empty());
    }

    #[test]
    fn a_game_gathered_long_ago_is_chunked_early() {
        let mut tails = Tails::new(1, 1);
        append(&mut tails, 1, 0);
        for idx in 0..PIN_LIMIT {
            append(&mut tails, 2, idx);
            if idx % 1024 == 0 {
                let due = tails.take_due();
                assert!(
                    due.iter().all(|c| c.game_id == 2),
                    "game 1 is not pinned yet"
                );
            }
        }
        append(&mut tails, 2, PIN_LIMIT);
        let due = tails.take_due();
        assert!(due.iter().any(|c| c.game_id == 1 && c.length == 1));
    }

    #[test]
    fn restored_rows_continue_the_numbering() {
        let mut tails = Tails::new(40, 41);
        assert!(tails.restore(40, 3, 10, "x"));
        assert!(tails.restore(45, 3, 11, "y"));
        let rows = tails.append([(3, 12, "z")]);
        assert_eq!(rows[0].as_ref().unwrap().seq, 46);
        let chunk = tails.seal(3).unwrap();
        assert_eq!(chunk.first_idx, 10);
        assert_eq!(split_chunk(&chunk.data, 3).unwrap(), ["x", "y", "z"]);
    }

    #[test]
    fn a_chunk_with_the_wrong_length_is_refused() {
        assert_eq!(split_chunk("a\nb", 3), None);
        assert_eq!(split_chunk("a\nb", 2).unwrap(), ["a", "b"]);
    }
}
