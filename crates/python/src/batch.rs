//! Many games stepped per call ([`Batch`]): the vector env's core. Games are stepped in
//! parallel (rayon) and write straight into caller buffers; a finished game starts again.
//!
//! Seeds: game `i` starts from `seeds[i]`; each time it ends it starts again from its
//! seed plus the number of games, so episode `k` of game `i` is the single env's game
//! from seed `seeds[i] + k × n` (wrapping).

use rayon::ThreadPool;
use rayon::prelude::*;

use crate::env::{Env, StepError};

/// Games per rayon task: enough to amortise the scheduling.
const MIN_GAMES_PER_TASK: usize = 32;

/// Why a batch step was refused (no game was stepped).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BatchError {
    /// A buffer has the wrong length.
    #[error("buffer {name} holds {got} elements, {expected} expected")]
    Shape {
        /// Which buffer.
        name: &'static str,
        /// Its length.
        got: usize,
        /// The length needed.
        expected: usize,
    },
    /// A game refused its action.
    #[error("game {index}: {error}")]
    Action {
        /// Which game.
        index: usize,
        /// Why.
        error: StepError,
    },
}

/// The caller's output buffers, flat, game-major.
pub struct Buffers<'a, O> {
    /// Observations from the view of each game's agent to move (`n × OBS_LEN`).
    pub obs: &'a mut [O],
    /// Action masks of the agent to move (`n × ACTIONS`).
    pub masks: &'a mut [u8],
    /// Each agent's reward from this step (`n × agents`).
    pub rewards: &'a mut [f32],
    /// Whether the game ended by its rules on this step (then it started again).
    pub terminated: &'a mut [bool],
    /// Whether the game was cut short on this step (then it started again).
    pub truncated: &'a mut [bool],
    /// The agent to move in each game.
    pub to_move: &'a mut [i32],
}

/// `n` games of one kind, stepped together.
pub struct Batch<E: Env> {
    games: Vec<E>,
    pool: Option<ThreadPool>,
}

impl<E: Env + Clone> Batch<E> {
    /// `n` copies of `template`, reset from `seeds`, stepped on `threads` threads (1: the
    /// calling thread only; 0: one per core).
    pub fn new(template: E, seeds: &[u64], threads: usize) -> Result<Batch<E>, String> {
        let pool = if threads == 1 {
            None
        } else {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| e.to_string())?,
            )
        };
        let games = seeds
            .iter()
            .map(|&seed| {
                let mut game = template.clone();
                game.reset(seed);
                game
            })
            .collect();
        Ok(Batch { games, pool })
    }
}

impl<E: Env> Batch<E> {
    /// Number of games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether there are no games.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The games.
    pub fn games(&self) -> &[E] {
        &self.games
    }

    fn check(&self, out: &Buffers<'_, E::Obs>) -> Result<(), BatchError> {
        let n = self.games.len();
        let agents = self.games.first().map_or(0, |g| g.agents());
        let shapes = [
            ("obs", out.obs.len(), n * E::OBS_LEN),
            ("masks", out.masks.len(), n * E::ACTIONS),
            ("rewards", out.rewards.len(), n * agents),
            ("terminated", out.terminated.len(), n),
            ("truncated", out.truncated.len(), n),
            ("to_move", out.to_move.len(), n),
        ];
        for (name, got, expected) in shapes {
            if got != expected {
                return Err(BatchError::Shape {
                    name,
                    got,
                    expected,
                });
            }
        }
        Ok(())
    }

    /// Resets every game from `seeds` and writes the first observations (rewards 0).
    pub fn reset(&mut self, seeds: &[u64], out: Buffers<'_, E::Obs>) -> Result<(), BatchError> {
        self.check(&out)?;
        if seeds.len() != self.games.len() {
            return Err(BatchError::Shape {
                name: "seeds",
                got: seeds.len(),
                expected: self.games.len(),
            });
        }
        for (game, &seed) in self.games.iter_mut().zip(seeds) {
            game.reset(seed);
        }
        let Batch { games, pool } = self;
        let parallel = pool.is_some();
        in_pool(pool.as_ref(), || write_all(games, None, out, parallel));
        Ok(())
    }

    /// Plays `actions[i]` in game `i`, then writes what follows. Refuses the whole batch,
    /// stepping nothing, if any action is not legal.
    pub fn step(&mut self, actions: &[i64], out: Buffers<'_, E::Obs>) -> Result<(), BatchError> {
        self.check(&out)?;
        if actions.len() != self.games.len() {
            return Err(BatchError::Shape {
                name: "actions",
                got: actions.len(),
                expected: self.games.len(),
            });
        }
        let Batch { games, pool } = self;
        let parallel = pool.is_some();
        // One entry into the pool for the check and the step: every entry wakes the workers,
        // which for small batches cost more than the stepping.
        in_pool(pool.as_ref(), || {
            if let Some(index) = first_illegal(games, actions, parallel) {
                let error = match usize::try_from(actions[index]) {
                    _ if games[index].terminated() => StepError::Over,
                    Ok(a) => StepError::Illegal(a),
                    Err(_) => StepError::Illegal(usize::MAX),
                };
                return Err(BatchError::Action { index, error });
            }
            write_all(games, Some(actions), out, parallel);
            Ok(())
        })
    }
}

/// Runs `body` on `pool` if there is one (where rayon's parallel iterators use it), else on
/// the calling thread.
fn in_pool<R: Send>(pool: Option<&ThreadPool>, body: impl FnOnce() -> R + Send) -> R {
    match pool {
        Some(pool) => pool.install(body),
        None => body(),
    }
}

/// The first game (in parallel: any game) whose action is not legal.
fn first_illegal<E: Env>(games: &[E], actions: &[i64], parallel: bool) -> Option<usize> {
    let illegal = |(game, &a): (&E, &i64)| usize::try_from(a).map_or(true, |a| !game.is_legal(a));
    if parallel {
        games
            .par_iter()
            .zip(actions.par_iter())
            .with_min_len(MIN_GAMES_PER_TASK)
            .position_any(illegal)
    } else {
        games.iter().zip(actions).position(illegal)
    }
}

/// Steps every game by its action (all checked legal), or with no actions only writes what
/// each game's agent to move sees.
fn write_all<E: Env>(
    games: &mut [E],
    actions: Option<&[i64]>,
    out: Buffers<'_, E::Obs>,
    parallel: bool,
) {
    let n = games.len() as u64;
    let agents = games.first().map_or(1, |g| g.agents()).max(1);
    let Buffers {
        obs,
        masks,
        rewards,
        terminated,
        truncated,
        to_move,
    } = out;
    let one = |(i, (game, obs, mask, reward, term, trunc, mover)): (usize, Slot<'_, E>)| {
        let action = actions.map(|a| a[i]);
        step_one(
            game,
            action,
            n,
            Out {
                obs,
                mask,
                reward,
                term,
                trunc,
                mover,
            },
        );
    };
    if parallel {
        (
            games.par_iter_mut(),
            obs.par_chunks_mut(E::OBS_LEN),
            masks.par_chunks_mut(E::ACTIONS),
            rewards.par_chunks_mut(agents),
            terminated.par_iter_mut(),
            truncated.par_iter_mut(),
            to_move.par_iter_mut(),
        )
            .into_par_iter()
            .enumerate()
            .with_min_len(MIN_GAMES_PER_TASK)
            .for_each(one);
    } else {
        games
            .iter_mut()
            .zip(obs.chunks_mut(E::OBS_LEN))
            .zip(masks.chunks_mut(E::ACTIONS))
            .zip(rewards.chunks_mut(agents))
            .zip(terminated.iter_mut())
            .zip(truncated.iter_mut())
            .zip(to_move.iter_mut())
            .map(|((((((g, o), m), r), te), tr), mv)| (g, o, m, r, te, tr, mv))
            .enumerate()
            .for_each(one);
    }
}

/// One game with its slices of the buffers.
type Slot<'a, E> = (
    &'a mut E,
    &'a mut [<E as Env>::Obs],
    &'a mut [u8],
    &'a mut [f32],
    &'a mut bool,
    &'a mut bool,
    &'a mut i32,
);

/// One game's slices of the buffers.
struct Out<'a, O> {
    obs: &'a mut [O],
    mask: &'a mut [u8],
    reward: &'a mut [f32],
    term: &'a mut bool,
    trunc: &'a mut bool,
    mover: &'a mut i32,
}

/// Plays `action` (checked legal) in `game`, starts it again if it ended, and writes what
/// the agent to move sees.
fn step_one<E: Env>(game: &mut E, action: Option<i64>, games: u64, out: Out<'_, E::Obs>) {
    let ended = match action {
        Some(a) => {
            // `Batch::step` checked every action legal, so the game accepts it.
            let _ = game.step(a as usize);
            game.terminated() || game.truncated()
        }
        None => false,
    };
    if ended {
        game.rewards(out.reward);
        *out.term = game.terminated();
        *out.trunc = game.truncated();
        let next = game.seed().wrapping_add(games);
        game.reset(next);
    } else {
        out.reward.fill(0.0);
        *out.term = false;
        *out.trunc = false;
    }
    let agent = game.to_move();
    *out.mover = agent as i32;
    game.observe(agent, out.obs);
    game.mask(out.mask);
}
