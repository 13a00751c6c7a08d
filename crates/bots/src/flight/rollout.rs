//! Rollout search (Tesauro and Galperin's policy improvement): each candidate move is played
//! on, many times, for a few turns by the greedy policy for every player with sampled dice,
//! and judged by the evaluation where the rollouts stop. Every candidate sees the same dice
//! streams (common random numbers), so the comparison between moves is far less noisy than
//! each estimate alone.

use hangar_dice::{Dice, Seed};
use hangar_flight::{Game, Moves, NoEvents};

use super::eval::Weights;
use super::search::{greedy_index, value_for};

/// Settings of a rollout search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RolloutLimits {
    /// Rollouts per candidate move.
    pub rollouts: u32,
    /// Rolls per rollout before the evaluation judges the position.
    pub horizon: u32,
}

/// Plays `game` (awaiting a roll) on for `horizon` rolls with the greedy policy for everyone.
fn roll_out(mut game: Game, horizon: u32, dice: &mut Dice, weights: &Weights) -> Game {
    for _ in 0..horizon {
        if game.is_over() {
            break;
        }
        game.draw_chances(dice, &mut NoEvents);
        let moves = game
            .roll(dice.roll(), &mut NoEvents)
            .expect("a rollout position awaits a roll");
        if !moves.is_empty() {
            let index = if moves.len() == 1 {
                0
            } else {
                greedy_index(&game, &moves, weights)
            };
            game.play_unchecked(&moves[index], &mut NoEvents);
        }
    }
    game
}

/// The index (into `moves`) of the move with the best mean rollout value for the player on
/// turn. `seed` fixes the dice of the rollouts.
pub fn rollout_index(
    game: &Game,
    moves: &Moves,
    weights: &Weights,
    limits: RolloutLimits,
    seed: Seed,
) -> usize {
    if moves.len() <= 1 {
        return 0;
    }
    let me = game.turn().index();
    let mut best = (f32::MIN, 0);
    for (i, m) in moves.iter().enumerate() {
        let mut start = *game;
        start.play_unchecked(m, &mut NoEvents);
        let mut total = 0.0;
        for k in 0..limits.rollouts {
            let mut dice = Dice::new(seed.derive(u64::from(k)));
            let end = roll_out(start, limits.horizon, &mut dice, weights);
            total += value_for(&end, me, weights);
        }
        let mean = total / limits.rollouts.max(1) as f32;
        if mean > best.0 {
            best = (mean, i);
        }
    }
    best.1
}
