//! The search bot's core: expectimax over the die.
//!
//! The tree alternates chance nodes (the next roll, 1–6, each 1/6) and decision nodes. The
//! searching side takes the best child at its own decisions (its bonus rolls and its partner's
//! turns included); opponents are modelled by the greedy policy of the heuristic bot with its
//! default weights (the normal level) — each picks the move best for itself — which in a
//! four-player game is far closer to real play than a paranoid minimum, and exact against the
//! normal level. The searching side's own leaves use its weights (so a weight sweep does not
//! also change the opponent model) or the learned win chance. Depth counts rolls after the
//! root move.
//!
//! Pruning (*-minimax style, Ballard's Star1 at chance nodes): the leaves are bounded by the
//! evaluation's range around the root's value, so a root move whose chance node can no longer
//! beat the best move found, even if every remaining roll gave the bound, is cut.
//!
//! Time-limited searches deepen one roll at a time and keep the deepest finished answer; a
//! search limited by depth only is fully deterministic.

use std::time::Duration;

use hangar_flight::{Game, Move, Moves, NoEvents};

use super::clock::{Clock, Deadline};
use super::eval::{Weights, evaluate};
use super::learned::LearnedEval;
use super::snapshot::Snapshot;

/// Limits of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest search, in rolls after the root move.
    pub max_depth: u32,
    /// Time budget; `None` searches exactly `max_depth` (deterministic).
    pub time: Option<Duration>,
    /// The clock the budget is measured by.
    pub clock: Clock,
    /// How the searching side judges the leaves.
    pub leaf: Leaf,
}

/// How the searching side judges a position at the leaves of its tree (opponents are always
/// modelled by the heuristic's greedy policy).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Leaf {
    /// The heuristic evaluation, in pips.
    #[default]
    Heuristic,
    /// The learned chance of winning ([`LearnedEval::shipped`]).
    Learned,
}

/// Raised inside the tree when the clock runs out.
struct OutOfTime;

/// The value of `game` for `colour` by the evaluation.
pub fn value_for(game: &Game, colour: usize, weights: &Weights) -> f32 {
    evaluate(&Snapshot::of(game), colour, weights)
}

/// The index (into `moves`) of the move whose result evaluates best for the player on turn:
/// the greedy policy, which is the heuristic bot's decision and the search's opponent model.
pub fn greedy_index(game: &Game, moves: &Moves, weights: &Weights) -> usize {
    let mover = game.turn().index();
    let mut best = (f32::MIN, 0);
    for (i, m) in moves.iter().enumerate() {
        let value = value_for(&after(game, m), mover, weights);
        if value > best.0 {
            best = (value, i);
        }
    }
    best.1
}

/// The game after the pending roll's move `m`.
fn after(game: &Game, m: &Move) -> Game {
    let mut next = *game;
    next.play_unchecked(m, &mut NoEvents);
    next
}

struct Searcher<'a> {
    me: usize,
    leaf: Leaf,
    my_side: usize,
    weights: &'a Weights,
    /// The opponents' model: the default heuristic.
    model: Weights,
    deadline: Option<Deadline>,
    nodes: u64,
}

impl Searcher<'_> {
    fn side_of(&self, game: &Game, colour: usize) -> usize {
        if game.options().teams {
            colour & 1
        } else {
            colour
        }
    }

    /// The value of a leaf for the searching side.
    fn leaf_value(&self, game: &Game) -> f32 {
        match self.leaf {
            Leaf::Heuristic => value_for(game, self.me, self.weights),
            Leaf::Learned => LearnedEval::shipped().win_chance(&Snapshot::of(game), self.me),
        }
    }

    fn tick(&mut self) -> Result<(), OutOfTime> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(128) && self.deadline.is_some_and(|d| d.passed()) {
            return Err(OutOfTime);
        }
        Ok(())
    }

    /// Expected value of `game`, where someone is about to roll, searched `depth` rolls.
    fn chance(&mut self, game: &Game, depth: u32) -> Result<f32, OutOfTime> {
        self.tick()?;
        if depth == 0 || game.is_over() {
            return Ok(self.leaf_value(game));
        }
        let mut total = 0.0;
        for roll in 1..=6u8 {
            total += self.after_roll(game, roll, depth)?;
        }
        Ok(total / 6.0)
    }

    /// Value of `game` once the player on turn rolls `roll`.
    fn after_roll(&mut self, game: &Game, roll: u8, depth: u32) -> Result<f32, OutOfTime> {
        let mover = game.turn().index();
        let mut rolled = *game;
        // Items and weather: a draw at a round's start is looked past with its first outcome.
        rolled.settle_draws(|_| 0, &mut NoEvents);
        let moves = rolled
            .roll(roll, &mut NoEvents)
            .expect("chance nodes are positions awaiting a roll");
        if moves.is_empty() {
            return self.chance(&rolled, depth - 1);
        }
        if moves.len() == 1 {
            return self.chance(&after(&rolled, &moves[0]), depth - 1);
        }
        if self.side_of(game, mover) == self.my_side {
            let mut best = f32::MIN;
            for m in &moves {
                best = best.max(self.chance(&after(&rolled, m), depth - 1)?);
            }
            Ok(best)
        } else {
            // Opponents play the normal level: the heuristic with the default weights.
            let pick = greedy_index(&rolled, &moves, &self.model);
            self.chance(&after(&rolled, &moves[pick]), depth - 1)
        }
    }

    /// The best root move searched `depth` rolls deep, with Star1 cuts against `bound`: a
    /// leaf is assumed never to exceed the root's static value by more than `bound`.
    fn root(
        &mut self,
        game: &Game,
        moves: &Moves,
        depth: u32,
        bound: f32,
    ) -> Result<usize, OutOfTime> {
        let ceiling = match self.leaf {
            Leaf::Heuristic => value_for(game, self.me, self.weights) + bound,
            // A chance of winning is at most 1.
            Leaf::Learned => 1.0,
        };
        let mut best = (f32::MIN, 0);
        for (i, m) in moves.iter().enumerate() {
            let next = after(game, m);
            let value = if depth == 0 || next.is_over() {
                self.leaf_value(&next)
            } else {
                let mut total = 0.0;
                let mut cut = false;
                for roll in 1..=6u8 {
                    total += self.after_roll(&next, roll, depth)?;
                    let optimistic = (total + f32::from(6 - roll) * ceiling) / 6.0;
                    if optimistic <= best.0 {
                        cut = true;
                        break;
                    }
                }
                if cut { f32::MIN } else { total / 6.0 }
            };
            if value > best.0 {
                best = (value, i);
            }
        }
        Ok(best.1)
    }
}

/// How far above the root's static value a leaf may be for Star1 cuts. Between ordinary
/// positions a few rolls change the evaluation by far less than this; the bound grows with
/// depth. A won game is worth far more, so when some player could finish all its planes
/// within the searched rolls (each roll reaches at most 6 + 4 + 12 + 4 pips with a jump, a
/// flight and a jump) there is no bound and nothing is cut.
fn leaf_bound(game: &Game, depth: u32) -> f32 {
    let reach = 26 * (depth + 2);
    let near_end = game.players().any(|colour| {
        let left: u32 = game
            .planes(colour)
            .iter()
            .map(|p| u32::from(p.remaining()))
            .sum();
        left <= reach
    });
    if near_end {
        f32::INFINITY
    } else {
        120.0 + 60.0 * depth as f32
    }
}

/// The index (into `moves`, the legal moves of `game`'s pending roll) of the best move for the
/// player on turn, by expectimax within `limits`.
pub fn search_index(game: &Game, moves: &Moves, weights: &Weights, limits: SearchLimits) -> usize {
    if moves.len() <= 1 {
        return 0;
    }
    let me = game.turn().index();
    let mut searcher = Searcher {
        me,
        leaf: limits.leaf,
        my_side: if game.options().teams { me & 1 } else { me },
        weights,
        model: Weights::default(),
        deadline: limits.time.map(|t| limits.clock.deadline(t)),
        nodes: 0,
    };
    // Depth 0 is the greedy answer: always there, whatever the clock says.
    let mut best = greedy_index(game, moves, weights);
    let first = if limits.time.is_some() {
        1.min(limits.max_depth)
    } else {
        limits.max_depth
    };
    for depth in first..=limits.max_depth {
        match searcher.root(game, moves, depth, leaf_bound(game, depth)) {
            Ok(index) => best = index,
            Err(OutOfTime) => break,
        }
    }
    best
}
