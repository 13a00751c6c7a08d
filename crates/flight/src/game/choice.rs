//! One resolved choice for a roll, [`Move`], and the packing of the board items it takes;
//! `walk.rs` computes them, `moves.rs` lists them, `play.rs` applies them.

use crate::board::Progress;
use crate::colour::Colour;
use crate::game::Game;
use crate::items::ItemOnBoard;

/// One legal choice for a roll: moving `plane`, with its result computed in advance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The plane's index within its colour.
    pub plane: u8,
    /// Where it starts.
    pub from: Progress,
    /// Where it ends: `FINISHED`, or `HANGAR` when it landed on an enemy stack under `block`.
    pub to: Progress,
    /// The enemy planes sent back, bit `4 × colour + plane` (see [`Move::captured_planes`]).
    pub captured: u16,
    /// Whether it ends sitting on an enemy stack (F-D-SIT).
    pub sits: bool,
    /// The board items it takes (F-ITEM-PICK), in the order taken: 4 bits each holding the
    /// item's slot + 1, first in the low bits; 0 for none. See [`Move::picked_items`].
    pub picked: u8,
}

impl Move {
    /// Fills the unused slots of a [`Moves`](crate::game::moves::Moves) list.
    pub(crate) const NONE: Move = Move {
        plane: 0,
        from: Progress::HANGAR,
        to: Progress::HANGAR,
        captured: 0,
        sits: false,
        picked: 0,
    };

    /// The items this move takes from the board, in the order taken (F-ITEM-PICK).
    pub fn picked_items(&self, game: &Game) -> Vec<ItemOnBoard> {
        picked_slots(self.picked)
            .filter_map(|slot| game.extras.board_items[slot])
            .collect()
    }

    /// The enemy planes this move sends back, as (colour, plane).
    pub fn captured_planes(&self) -> impl Iterator<Item = (Colour, u8)> + '_ {
        (0..16u8)
            .filter(|bit| self.captured & (1 << bit) != 0)
            .map(|bit| (Colour::from_index(bit as usize / 4), bit % 4))
    }

    /// Number of enemy planes this move sends back.
    pub fn capture_count(&self) -> u32 {
        self.captured.count_ones()
    }
}

/// The board item slots in `picked` (4 bits each: slot + 1), in the order taken.
pub(crate) fn picked_slots(picked: u8) -> impl Iterator<Item = usize> {
    [picked & 0xF, picked >> 4]
        .into_iter()
        .take_while(|&code| code != 0)
        .map(|code| code as usize - 1)
}
