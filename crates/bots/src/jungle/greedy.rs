//! The `greedy` jungle bot, an instant player below the searchers (`easy`, `normal`, `hard`):
//! wins at once when it can, captures when it can, otherwise a random move.

use hangar_dice::Dice;
use hangar_jungle::{Game, Move};

/// Picks a move: one that ends the game in our favour, else a capture, else any.
pub(crate) fn choose(game: &Game, rng: &mut Dice) -> Option<Move> {
    let moves = game.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let me = game.turn();
    let winning = moves.iter().copied().find(|&m| {
        let mut next = game.clone();
        matches!(next.play(m), Ok(Some(outcome)) if outcome.winner() == Some(me))
    });
    if winning.is_some() {
        return winning;
    }
    let captures: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| game.position().piece_at(m.to).is_some())
        .collect();
    let pool = if captures.is_empty() {
        &moves
    } else {
        &captures
    };
    Some(pool[rng.roll_below(pool.len() as u32) as usize])
}
