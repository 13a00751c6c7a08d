//! The alpha-beta searcher: iterative deepening, transposition table, PVS with late-move
//! reductions, quiescence on captures, limited by depth, time or nodes.

use std::time::{Duration, Instant};

use hangar_jungle::{Bitboard, Color, DRAW_PLIES, Game, Move, Position};

use crate::jungle::eval::{Evaluator, den_neighbours};
use crate::jungle::ordering::{MAX_PLY, Ordering};
use crate::jungle::tt::{Bound, Entry, TranspositionTable};

/// Score of a win now; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 30_000;
const INF: i32 = 32_000;
/// Scores beyond this are wins or losses at a known distance (`WIN - score` plies away).
pub const WIN_BOUND: i32 = WIN - MAX_PLY as i32;
/// How often (in nodes) the clock is read.
const CHECK_EVERY: u64 = 1024;
/// Plies without capture after which the evaluation starts shrinking towards the J-DRAW
/// draw, so a side that is ahead makes progress instead of shuffling.
const QUIET_GRACE: u32 = 40;
/// Size (in bits of the hash) of the repetition filter.
const REPETITION_BITS: u32 = 14;
const REPETITION_MASK: usize = (1 << REPETITION_BITS) - 1;
const DRAW: u32 = DRAW_PLIES as u32;

/// The evaluation scaled down as the J-DRAW limit nears.
#[inline]
fn fade(score: i32, quiet: u32) -> i32 {
    if quiet <= QUIET_GRACE {
        score
    } else {
        let left = DRAW.saturating_sub(quiet) as i32;
        score * left / (DRAW - QUIET_GRACE) as i32
    }
}

/// The quiet-ply count after a move.
#[inline]
fn next_quiet(quiet: u32, capture: bool) -> u32 {
    if capture { 0 } else { quiet + 1 }
}

/// What ends a search: the first limit reached. With none, the depth defaults to 6.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Wall-clock budget for the move.
    pub time: Option<Duration>,
    /// Node budget (deterministic, unlike time).
    pub nodes: Option<u64>,
}

/// The result of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchReport {
    /// The chosen move.
    pub best: Move,
    /// Its score for the side to move (±[`WIN`] minus plies for forced results).
    pub score: i32,
    /// The last fully searched depth (0 when the move was forced).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
}

/// A search's result with its principal variation (see [`Searcher::analyse`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The search's result: best move, score for the side to move, depth, nodes.
    pub report: SearchReport,
    /// The score of the iteration one ply shallower (`None` after a single iteration). The
    /// evaluation favours the side to move (its mobility), so scores of odd and even depths
    /// differ by a tempo; the mean of the two last is free of it.
    pub previous: Option<i32>,
    /// The expected line, starting with the best move.
    pub pv: Vec<Move>,
}

/// An alpha-beta searcher. Keep one per player across a game: its tables carry over.
pub struct Searcher {
    tt: TranspositionTable,
    eval: Evaluator,
    ordering: Ordering,
    /// Hashes of the game's positions since the last capture, then of the search path.
    path: Vec<u64>,
    /// How many entries of `path` fall in each bucket of the hash's low bits: a cheap
    /// filter before counting repetitions exactly.
    buckets: Vec<u8>,
    den_neighbours: [Bitboard; 2],
    nodes: u64,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    can_stop: bool,
    stopped: bool,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(18)
    }
}

#[inline]
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl Searcher {
    /// A searcher with a transposition table of `2^tt_bits` entries.
    pub fn new(tt_bits: u32) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(tt_bits),
            eval: Evaluator::default(),
            ordering: Ordering::default(),
            path: Vec::with_capacity(512),
            buckets: vec![0; 1 << REPETITION_BITS],
            den_neighbours: [den_neighbours(Color::Red), den_neighbours(Color::Yellow)],
            nodes: 0,
            deadline: None,
            node_limit: None,
            can_stop: false,
            stopped: false,
        }
    }

    /// Forgets what earlier searches learnt (call between games).
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.ordering = Ordering::default();
    }

    /// Searches the game's position and returns the best move it may play (never one refused
    /// by J-REPEAT), or `None` when it has none.
    pub fn search(&mut self, game: &Game, limits: Limits) -> Option<SearchReport> {
        self.run(game, limits, true).map(|(report, _)| report)
    }

    /// Analyses the game's position for a review (P-REVIEW): searches it as
    /// [`Searcher::search`] does, but also when only one move is allowed (so that the score
    /// is always a real one), and returns the principal variation read back from the
    /// transposition table. Call [`Searcher::new_game`] first for an analysis that depends on
    /// the game and the limits alone; with a node limit and no time limit it is then the same
    /// on any machine.
    pub fn analyse(&mut self, game: &Game, limits: Limits) -> Option<Analysis> {
        let (report, previous) = self.run(game, limits, false)?;
        let pv = self.principal_variation(game, report.best, report.depth.max(1) as usize + 4);
        Some(Analysis {
            report,
            previous,
            pv,
        })
    }

    /// The line the table expects: `first`, then the stored best move of each position
    /// reached while it is allowed, at most `max` moves, stopping at the game's end or a
    /// position met before on the line.
    fn principal_variation(&self, game: &Game, first: Move, max: usize) -> Vec<Move> {
        let mut line = vec![first];
        let mut pos = *game.position();
        let mut seen = vec![pos.hash()];
        pos.play_unchecked(first);
        while line.len() < max && pos.outcome().is_none() {
            let hash = pos.hash();
            if seen.contains(&hash) {
                break;
            }
            seen.push(hash);
            let Some(next) = self.tt.probe(hash).and_then(|e| e.best) else {
                break;
            };
            if !pos.legal_moves().contains(&next) {
                break;
            }
            line.push(next);
            pos.play_unchecked(next);
        }
        line
    }

    /// The search, and the score of the iteration before the last one completed.
    fn run(
        &mut self,
        game: &Game,
        limits: Limits,
        shortcut: bool,
    ) -> Option<(SearchReport, Option<i32>)> {
        let mut root_moves = game.legal_moves();
        let first = *root_moves.first()?;
        if shortcut && root_moves.len() == 1 {
            let report = SearchReport {
                best: first,
                score: 0,
                depth: 0,
                nodes: 0,
            };
            return Some((report, None));
        }
        let started = Instant::now();
        self.deadline = limits.time.map(|t| started + t);
        self.node_limit = limits.nodes;
        let max_depth = match limits {
            Limits { depth: Some(d), .. } => d.max(1),
            Limits {
                time: None,
                nodes: None,
                ..
            } => 6,
            _ => MAX_PLY as u32 - 8,
        };
        self.nodes = 0;
        self.stopped = false;
        self.can_stop = false;
        self.ordering.new_search();
        self.path.clear();
        self.buckets.fill(0);
        for &hash in game.recent_hashes() {
            self.push(hash);
        }
        let pos = *game.position();
        let quiet = game.quiet_plies() as u32;
        let tt_move = self.tt.probe(pos.hash()).and_then(|e| e.best);
        self.ordering.sort(&pos, &mut root_moves, tt_move, 0);

        let mut report = SearchReport {
            best: first,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        let mut previous = None;
        for depth in 1..=max_depth {
            let (score, best) = self.root(&pos, &mut root_moves, depth as i32, quiet);
            if self.stopped {
                break;
            }
            if report.depth > 0 {
                previous = Some(report.score);
            }
            report = SearchReport {
                best,
                score,
                depth,
                nodes: self.nodes,
            };
            self.can_stop = true;
            if score.abs() > WIN_BOUND {
                break; // a forced result: deeper search cannot change it
            }
            if let Some(t) = limits.time {
                // The next iteration would take several times longer: do not start it.
                if started.elapsed() * 3 > t {
                    break;
                }
            }
        }
        report.nodes = self.nodes;
        Some((report, previous))
    }

    fn root(&mut self, pos: &Position, moves: &mut [Move], depth: i32, quiet: u32) -> (i32, Move) {
        let mut alpha = -INF;
        let beta = INF;
        let mut best = moves[0];
        let mut best_index = 0;
        for (i, &m) in moves.iter().enumerate() {
            let q = next_quiet(quiet, pos.is_capture(m));
            let mut child = *pos;
            child.play_unchecked(m);
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, 1, q, -beta, -alpha)
            } else {
                let s = -self.negamax(&child, depth - 1, 1, q, -alpha - 1, -alpha);
                if s > alpha && !self.stopped {
                    -self.negamax(&child, depth - 1, 1, q, -beta, -alpha)
                } else {
                    s
                }
            };
            if self.stopped {
                break;
            }
            if score > alpha {
                alpha = score;
                best = m;
                best_index = i;
            }
        }
        // The best move goes first in the next iteration.
        moves[..=best_index].rotate_right(1);
        (alpha, best)
    }

    #[inline]
    fn push(&mut self, hash: u64) {
        self.path.push(hash);
        let b = &mut self.buckets[hash as usize & REPETITION_MASK];
        *b = b.saturating_add(1);
    }

    #[inline]
    fn pop(&mut self) {
        if let Some(hash) = self.path.pop() {
            let b = &mut self.buckets[hash as usize & REPETITION_MASK];
            *b = b.saturating_sub(1);
        }
    }

    /// Whether a position with `hash` has already occurred (game and search path).
    #[inline]
    fn occurred(&self, hash: u64) -> bool {
        self.buckets[hash as usize & REPETITION_MASK] >= 1 && self.path.contains(&hash)
    }

    /// Whether the side to move has no move that J-REPEAT allows (or no move at all).
    fn only_refused_moves(&self, pos: &Position) -> bool {
        pos.legal_moves()
            .iter()
            .all(|&m| !pos.is_capture(m) && self.is_refused(pos.hash_after(m)))
    }

    /// Whether a position with `hash` has already occurred twice (game and search path).
    #[inline]
    fn is_refused(&self, hash: u64) -> bool {
        self.buckets[hash as usize & REPETITION_MASK] >= 2
            && self.path.iter().filter(|&&h| h == hash).count() >= 2
    }

    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.can_stop && self.nodes.is_multiple_of(CHECK_EVERY) {
            let out_of_time = self.deadline.is_some_and(|d| Instant::now() >= d);
            let out_of_nodes = self.node_limit.is_some_and(|n| self.nodes >= n);
            self.stopped = out_of_time || out_of_nodes;
        }
    }

    /// The opening of every node: counts it against the limits, and gives its score at once
    /// when the search is stopped (0, discarded by the caller) or the node is settled.
    #[inline]
    fn enter(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        self.tick();
        if self.stopped {
            return Some(0);
        }
        self.settled(pos, ply)
    }

    /// Scores that need no search: a lost position, or a den entry available now.
    #[inline]
    fn settled(&self, pos: &Position, ply: usize) -> Option<i32> {
        let us = pos.turn();
        if pos.den_winner().is_some() || pos.pieces(us).is_empty() {
            return Some(-WIN + ply as i32);
        }
        if (pos.pieces(us) & self.den_neighbours[us.other().index()]).has_any() {
            return Some(WIN - ply as i32 - 1);
        }
        None
    }

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        quiet: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if let Some(score) = self.enter(pos, ply) {
            return score;
        }
        let key = pos.hash();
        if quiet >= DRAW {
            return 0; // J-DRAW
        }
        if self.occurred(key) {
            // A position seen before: scored as a draw so that a side ahead makes progress
            // instead of cycling; but if J-REPEAT refuses every move here, it is lost.
            return if self.only_refused_moves(pos) {
                -WIN + ply as i32
            } else {
                0
            };
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(pos, ply, quiet, alpha, beta);
        }
        let mut tt_move = None;
        if let Some(entry) = self.tt.probe(key) {
            tt_move = entry.best;
            if entry.depth >= depth {
                let score = from_tt(entry.score, ply);
                match entry.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return -WIN + ply as i32; // J-WIN-WIPE: no legal move loses
        }
        self.ordering.sort(pos, moves.as_mut_slice(), tt_move, ply);
        self.push(key);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut searched = 0;
        for &m in &moves {
            let capture = pos.is_capture(m);
            // J-REPEAT: a move bringing about a position for the third time is refused.
            if !capture && self.is_refused(pos.hash_after(m)) {
                continue;
            }
            let i = searched;
            searched += 1;
            let q = next_quiet(quiet, capture);
            let mut child = *pos;
            child.play_unchecked(m);
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, ply + 1, q, -beta, -alpha)
            } else {
                // Late quiet moves are searched one ply shallower first (LMR).
                let reduction = i32::from(depth >= 3 && i >= 4 && !capture);
                let mut s = -self.negamax(
                    &child,
                    depth - 1 - reduction,
                    ply + 1,
                    q,
                    -alpha - 1,
                    -alpha,
                );
                if reduction > 0 && s > alpha {
                    s = -self.negamax(&child, depth - 1, ply + 1, q, -alpha - 1, -alpha);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child, depth - 1, ply + 1, q, -beta, -alpha);
                }
                s
            };
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(m);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if !capture {
                    self.ordering.record_cutoff(pos, m, depth, ply);
                }
                break;
            }
        }
        self.pop();
        if self.stopped {
            return 0;
        }
        if searched == 0 {
            return -WIN + ply as i32; // every move refused: the player loses (J-REPEAT)
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt.store(Entry {
            key,
            best: best_move,
            score: to_tt(best, ply),
            depth,
            bound,
        });
        best
    }

    fn quiescence(
        &mut self,
        pos: &Position,
        ply: usize,
        quiet: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if let Some(score) = self.enter(pos, ply) {
            return score;
        }
        let us = pos.turn();
        // An enemy beside our den wins next move unless captured: no standing pat then.
        let threatened = (pos.pieces(us.other()) & self.den_neighbours[us.index()]).has_any();
        let stand = if threatened {
            -WIN + ply as i32 + 2
        } else {
            fade(self.eval.evaluate(pos), quiet)
        };
        if stand >= beta || ply >= MAX_PLY - 1 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut captures = pos.capture_moves();
        self.ordering
            .sort(pos, captures.as_mut_slice(), None, MAX_PLY);
        for &m in &captures {
            let mut child = *pos;
            child.play_unchecked(m);
            let score = -self.quiescence(&child, ply + 1, 0, -beta, -alpha);
            if self.stopped {
                return 0;
            }
            if score >= beta {
                return score;
            }
            alpha = alpha.max(score);
        }
        alpha
    }
}
