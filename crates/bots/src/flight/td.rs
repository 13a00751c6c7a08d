//! Play guided by the TD-trained net ([`super::net`]): the greedy 1-ply choice (the `td` bot)
//! and the net's judgement of a position for the player who moved.

use hangar_flight::{Game, Moves, NoEvents};

use super::net::Net;
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
    net.win_chances(&Snapshot::of(game))[colour]
}

/// The index (into `moves`) of the move after which `net` gives the player on turn the best
/// chance to win (ties to the first).
pub fn td_index(game: &Game, moves: &Moves, net: &Net) -> usize {
    if moves.len() <= 1 {
        return 0;
    }
    let mover = game.turn().index();
    let mut best = (f32::MIN, 0);
    for (i, m) in moves.iter().enumerate() {
        let mut next = *game;
        next.play_unchecked(m, &mut NoEvents);
        let value = net_chance(net, &next, mover);
        if value > best.0 {
            best = (value, i);
        }
    }
    best.1
}

/// The index of the move with the best expected net chance for the player on turn one roll
/// later: after each candidate, every value of the next roll is tried, the player who rolls it
/// answers with the net's greedy move, and the results are averaged (expectimax of depth 1
/// with the net at the leaves).
pub fn td_expectimax_index(game: &Game, moves: &Moves, net: &Net) -> usize {
    if moves.len() <= 1 {
        return 0;
    }
    let mover = game.turn().index();
    let mut best = (f32::MIN, 0);
    for (i, m) in moves.iter().enumerate() {
        let mut next = *game;
        next.play_unchecked(m, &mut NoEvents);
        let value = if next.is_over() {
            net_chance(net, &next, mover)
        } else {
            let mut total = 0.0;
            for roll in 1..=6u8 {
                let mut rolled = next;
                let replies = rolled
                    .roll(roll, &mut NoEvents)
                    .expect("a position after a move awaits a roll");
                if !replies.is_empty() {
                    let reply = td_index(&rolled, &replies, net);
                    rolled.play_unchecked(&replies[reply], &mut NoEvents);
                }
                total += net_chance(net, &rolled, mover);
            }
            total / 6.0
        };
        if value > best.0 {
            best = (value, i);
        }
    }
    best.1
}
