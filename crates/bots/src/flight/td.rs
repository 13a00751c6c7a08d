//! Play guided by the TD-trained net ([`super::net`]): the greedy 1-ply choice (the `td` bot),
//! an expectimax over the die with the net at the leaves (`td:depth=N`; no clock, so keep N
//! small: depth 2 costs about a millisecond), and the net's judgement of a position for one
//! player (the rollouts' `leaf=net`).

use hangar_flight::{Game, Moves, NoEvents};

use super::eval::Weights;
use super::net::Net;
use super::search::greedy_index;
use super::snapshot::Snapshot;

/// The net's chance that `colour` wins from `game` (a position awaiting a roll or over); a
/// finished game is 1 or 0 (under play-on, 1 only for the first place).
pub fn net_chance(net: &Net, game: &Game, colour: usize) -> f32 {
    if game.is_over() {
        return if game.final_ranks()[colour] == Some(1) {
            1.0
        } else {
            0.0
        };
    }
    net.chance(&Snapshot::of(game), colour)
}

/// The index (into `moves`) of the move after which `net` gives the player on turn the best
/// chance to win (ties to the first).
pub fn td_index(game: &Game, moves: &Moves, net: &Net) -> usize {
    best_after(game, moves, |next, mover| net_chance(net, next, mover))
}

/// The index of the move whose resulting position `value` (seen by the player on turn) rates
/// highest; ties to the first.
fn best_after(game: &Game, moves: &Moves, value: impl Fn(&Game, usize) -> f32) -> usize {
    if moves.len() <= 1 {
        return 0;
    }
    let mover = game.turn().index();
    let mut best = (f32::MIN, 0);
    for (i, m) in moves.iter().enumerate() {
        let mut next = *game;
        next.play_unchecked(m, &mut NoEvents);
        let value = value(&next, mover);
        if value > best.0 {
            best = (value, i);
        }
    }
    best.1
}

/// How the other players are expected to answer in [`td_search_index`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReplyModel {
    /// Greedily on the net, for themselves.
    #[default]
    Net,
    /// As the heuristic (normal level) plays.
    Heuristic,
}

/// Expectimax over the die with the net at the leaves: the expected net chance of `me` in
/// `game` (awaiting a roll) `depth` rolls on. At each roll the player on turn moves: `me`
/// takes the best move for itself, the others answer as `model` says.
fn expected(game: &Game, depth: u32, me: usize, net: &Net, model: ReplyModel) -> f32 {
    if depth == 0 || game.is_over() {
        return net_chance(net, game, me);
    }
    let mut total = 0.0;
    for roll in 1..=6u8 {
        let mut rolled = *game;
        let replies = rolled
            .roll(roll, &mut NoEvents)
            .expect("a position after a move awaits a roll");
        total += if replies.is_empty() {
            expected(&rolled, depth - 1, me, net, model)
        } else if rolled.turn().index() == me {
            replies
                .iter()
                .map(|m| {
                    let mut next = rolled;
                    next.play_unchecked(m, &mut NoEvents);
                    expected(&next, depth - 1, me, net, model)
                })
                .fold(f32::MIN, f32::max)
        } else {
            let reply = match model {
                ReplyModel::Net => td_index(&rolled, &replies, net),
                ReplyModel::Heuristic => greedy_index(&rolled, &replies, &Weights::default()),
            };
            let mut next = rolled;
            next.play_unchecked(&replies[reply], &mut NoEvents);
            expected(&next, depth - 1, me, net, model)
        };
    }
    total / 6.0
}

/// The index of the move with the best expected net chance for the player on turn `depth`
/// rolls later (expectimax over the die; see `expected`). Only for games without chance
/// draws (items, weather), as every net is.
pub fn td_search_index(
    game: &Game,
    moves: &Moves,
    net: &Net,
    depth: u32,
    model: ReplyModel,
) -> usize {
    best_after(game, moves, |next, mover| {
        expected(next, depth, mover, net, model)
    })
}
