//! One game of Jungle as an environment ([`JungleEnv`]).
//!
//! Agent 0 plays red (moves first, J-SETUP), agent 1 yellow. An action is a from-square and
//! a direction, both seen by the mover: the board is turned half a turn for yellow (the
//! board and the start position are symmetric under it), so every agent plays "up".
//! The mask holds the legal moves less those J-REPEAT refuses. A win is +1/−1; the draw
//! after 200 plies without a capture (J-DRAW) ends the episode as truncated, 0 each.

use hangar_bots::jungle::{JungleBot, choose_move};
use hangar_dice::Dice;
use hangar_jungle::{
    Color, DrawReason, Game, MAX_MOVES, Move, MoveList, Outcome, Position, Rules, SQUARES,
};

use crate::env::{Env, StepError};
use crate::jungle_obs::{JUNGLE_OBS, view_square, write_observation};

/// Actions: `4 × from + direction`, the from-square (0..63, a1 = 0, rank by rank) and the
/// direction (0 up, 1 right, 2 down, 3 left) seen by the mover.
pub const JUNGLE_ACTIONS: usize = SQUARES * 4;

/// The action of `m` for the mover `color`.
pub fn action_of_move(m: Move, color: Color) -> usize {
    let df = i16::from(m.to.file()) - i16::from(m.from.file());
    let dr = i16::from(m.to.rank()) - i16::from(m.from.rank());
    let dir = match (df.signum(), dr.signum()) {
        (0, 1) => 0,
        (1, 0) => 1,
        (0, -1) => 2,
        _ => 3,
    };
    let dir = match color {
        Color::Red => dir,
        Color::Yellow => (dir + 2) % 4,
    };
    4 * view_square(m.from, color) + dir
}

/// One game of Jungle from the agents' side.
#[derive(Clone, Debug)]
pub struct JungleEnv {
    /// Where every game of this env starts.
    start: Position,
    seed: u64,
    game: Game,
    /// The moves allowed now: legal and not refused by J-REPEAT.
    moves: MoveList,
    /// The action of each of `moves`, in the same order (every action is below 256): the
    /// mask and the action-to-move lookup of every step read them instead of recomputing.
    actions: [u8; MAX_MOVES],
}

/// Bits of the filter of recent positions in [`JungleEnv::list_moves`]: at most 201
/// positions since the last capture (J-DRAW) set under 5% of 4096 bits.
const RECENT_BITS: usize = 4096;

/// The bit of a position hash in the filter of recent positions.
fn recent_bit(hash: u64) -> (usize, u64) {
    let bit = (hash as usize) % RECENT_BITS;
    (bit / 64, 1 << (bit % 64))
}

impl JungleEnv {
    /// A new game under `rules`. Jungle has no chance: the seed is only remembered.
    pub fn new(rules: Rules, seed: u64) -> JungleEnv {
        JungleEnv::from_position(Position::start(rules), seed)
    }

    /// A game from any position (for tests and endgame training); each reset starts from it
    /// again.
    pub fn from_position(position: Position, seed: u64) -> JungleEnv {
        let mut env = JungleEnv {
            start: position,
            seed,
            game: Game::from_position(position),
            moves: MoveList::new(),
            actions: [0; MAX_MOVES],
        };
        env.list_moves();
        env
    }

    /// The engine's game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The action `bot` plays here, its randomness from `rng` (a fresh player each call: no
    /// memory between moves). `None` once the game is over.
    pub fn bot_action(&self, bot: &JungleBot, rng: &mut Dice) -> Option<usize> {
        if self.moves.is_empty() {
            return None;
        }
        let m = choose_move(&self.game, bot, rng)?;
        Some(action_of_move(m, self.game.turn()))
    }

    /// The moves the mask allows, in the engine's notation order.
    pub fn legal_moves(&self) -> &[Move] {
        &self.moves
    }

    /// Lists the allowed moves and their actions. J-REPEAT refuses a quiet move to a
    /// position seen twice since the last capture; `Game::is_refused` counts that over the
    /// recent positions, move by move, which was the largest cost of a step. A bit filter of
    /// the recent positions' hashes rules out nearly every move at once; only a move whose
    /// hash passes the filter is asked of the game, so the list is exactly the game's.
    fn list_moves(&mut self) {
        self.moves = MoveList::new();
        if self.game.outcome().is_some() {
            return;
        }
        let mut recent = [0u64; RECENT_BITS / 64];
        for &hash in self.game.recent_hashes() {
            let (word, bit) = recent_bit(hash);
            recent[word] |= bit;
        }
        let position = self.game.position();
        let turn = position.turn();
        for &m in &position.legal_moves() {
            let may_repeat = !position.is_capture(m) && {
                let (word, bit) = recent_bit(position.hash_after(m));
                recent[word] & bit != 0
            };
            if !(may_repeat && self.game.is_refused(m)) {
                // Actions are below JUNGLE_ACTIONS = 252: they fit a byte.
                self.actions[self.moves.len()] = action_of_move(m, turn) as u8;
                self.moves.push(m);
            }
        }
    }

    /// The allowed move of an action, if any.
    fn move_of(&self, action: usize) -> Option<Move> {
        let actions = &self.actions[..self.moves.len()];
        let index = actions.iter().position(|&a| usize::from(a) == action)?;
        Some(self.moves[index])
    }
}

impl Env for JungleEnv {
    type Obs = u8;
    const OBS_LEN: usize = JUNGLE_OBS;
    const ACTIONS: usize = JUNGLE_ACTIONS;

    fn agents(&self) -> usize {
        2
    }

    fn reset(&mut self, seed: u64) {
        self.seed = seed;
        self.game = Game::from_position(self.start);
        self.list_moves();
    }

    fn seed(&self) -> u64 {
        self.seed
    }

    fn to_move(&self) -> usize {
        self.game.turn().index()
    }

    fn terminated(&self) -> bool {
        matches!(self.game.outcome(), Some(Outcome::Win { .. }))
    }

    fn truncated(&self) -> bool {
        matches!(
            self.game.outcome(),
            Some(Outcome::Draw {
                reason: DrawReason::NoCapture
            })
        )
    }

    fn is_legal(&self, action: usize) -> bool {
        self.move_of(action).is_some()
    }

    fn step(&mut self, action: usize) -> Result<(), StepError> {
        if self.game.outcome().is_some() {
            return Err(StepError::Over);
        }
        let m = self.move_of(action).ok_or(StepError::Illegal(action))?;
        self.game.play(m).map_err(|_| StepError::Illegal(action))?;
        self.list_moves();
        Ok(())
    }

    fn observe(&self, agent: usize, out: &mut [u8]) {
        let color = if agent == 0 {
            Color::Red
        } else {
            Color::Yellow
        };
        write_observation(self.game.position(), color, out);
    }

    fn mask(&self, out: &mut [u8]) {
        out.fill(0);
        for &a in &self.actions[..self.moves.len()] {
            out[usize::from(a)] = 1;
        }
    }

    fn rewards(&self, out: &mut [f32]) {
        out.fill(0.0);
        if let Some(Outcome::Win { winner, .. }) = self.game.outcome() {
            out[winner.index()] = 1.0;
            out[winner.other().index()] = -1.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use hangar_dice::Seed;
    use hangar_jungle::START_TEXT;

    use super::*;

    #[test]
    fn actions_are_seen_by_the_mover() {
        let up: Move = "a3a4".parse().expect("a move");
        assert_eq!(action_of_move(up, Color::Red), 4 * 14);
        // Yellow's rat a7 stepping down to a6 is "up" from g3 in yellow's view.
        let down: Move = "a7a6".parse().expect("a move");
        assert_eq!(action_of_move(down, Color::Yellow), 4 * (62 - 42));
    }

    /// The env's filtered list of allowed moves is the game's `legal_moves` (which asks
    /// J-REPEAT of every move), and the mask marks exactly their actions, ply by ply over
    /// random games; endgames with few pieces repeat positions often, so refusals occur.
    #[test]
    fn allowed_moves_are_the_games_through_repetitions() {
        let starts = [
            "l5t/7/r5e/7/7/7/E5R/7/T5L r",
            "7/3l3/7/7/7/7/7/3L3/7 r",
            START_TEXT,
        ];
        let mut refusals = 0;
        for (index, text) in starts.into_iter().enumerate() {
            let position: Position = text.parse().expect("a position");
            let mut env = JungleEnv::from_position(position, 0);
            let mut dice = Dice::new(Seed::from_u64(index as u64));
            for _ in 0..20 {
                env.reset(0);
                while env.game().outcome().is_none() {
                    let game = env.game();
                    let expected = game.legal_moves();
                    assert_eq!(env.legal_moves(), expected.as_slice());
                    let all = game.position().legal_moves().len();
                    refusals += all - expected.len();
                    let mut mask = [0u8; JUNGLE_ACTIONS];
                    env.mask(&mut mask);
                    let mut actions: Vec<usize> =
                        (0..JUNGLE_ACTIONS).filter(|&a| mask[a] == 1).collect();
                    let mut wanted: Vec<usize> = expected
                        .iter()
                        .map(|&m| action_of_move(m, game.turn()))
                        .collect();
                    wanted.sort_unstable();
                    assert_eq!(actions, wanted);
                    let pick = dice.roll_below(actions.len() as u32) as usize;
                    let action = actions.swap_remove(pick);
                    env.step(action).expect("an allowed action");
                }
            }
        }
        assert!(refusals > 0, "no J-REPEAT refusal came up");
    }

    #[test]
    fn masks_list_every_legal_move_once() {
        let env = JungleEnv::new(Rules::default(), 0);
        let mut mask = [0u8; JUNGLE_ACTIONS];
        env.mask(&mut mask);
        let count = mask.iter().map(|&b| usize::from(b)).sum::<usize>();
        assert_eq!(count, env.game().position().legal_moves().len());
        assert_eq!(count, 24);
    }
}
