//! Seating: which colours play, who gets which, and who starts (F-PLAYERS, F-TEAM, F-ORDER,
//! F-D-SEATS). The draws are inputs, like the die: `draw(n)` must give a uniform `0..n`.

use serde::{Deserialize, Serialize};

use crate::colour::Colour;
use crate::game::setup::SetupError;

/// The result of the seat draw: player `i` (in joining order) plays `colours[i]`, and
/// `first` rolls first.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Seating {
    /// The colour of each player, in joining order.
    pub colours: Vec<Colour>,
    /// The colour that rolls first.
    pub first: Colour,
}

impl Seating {
    /// Draws the seating of `players` players (2–4). The draws, in this order:
    /// 1. which colours play: 2 players `draw(2)` (0 red–blue, 1 yellow–green); 3 players
    ///    `draw(4)` (the empty seat); 4 players none;
    /// 2. who gets which colour: a Fisher–Yates shuffle, `draw(i + 1)` for `i = n−1 … 1`,
    ///    swapping positions `i` and the draw. In a team game (players 0 and 2 against 1 and
    ///    3) instead `draw(2)` for the colour pair of players 0 and 2 (0 red–blue, 1
    ///    yellow–green), then `draw(2)` and `draw(2)` for the order within each pair;
    /// 3. the first player: `draw(n)` indexes the playing colours in clockwise order from red.
    pub fn draw(
        players: usize,
        teams: bool,
        mut draw: impl FnMut(u32) -> u32,
    ) -> Result<Seating, SetupError> {
        if !(2..=4).contains(&players) {
            return Err(SetupError::PlayerCount(players));
        }
        if teams && players != 4 {
            return Err(SetupError::TeamsNeedFour);
        }
        let mut colours: Vec<Colour> = match players {
            2 => {
                let start = draw(2) as usize;
                vec![Colour::from_index(start), Colour::from_index(start + 2)]
            }
            3 => {
                let empty = draw(4) as usize;
                Colour::ALL
                    .into_iter()
                    .filter(|c| c.index() != empty)
                    .collect()
            }
            _ => Colour::ALL.to_vec(),
        };
        if teams {
            let pair = draw(2) as usize;
            let a = draw(2) as usize;
            let b = draw(2) as usize;
            colours = vec![
                Colour::from_index(pair + 2 * a),
                Colour::from_index(pair + 1 + 2 * b),
                Colour::from_index(pair + 2 * (1 - a)),
                Colour::from_index(pair + 1 + 2 * (1 - b)),
            ];
        } else {
            for i in (1..colours.len()).rev() {
                let j = draw(i as u32 + 1) as usize;
                colours.swap(i, j);
            }
        }
        let mut clockwise = colours.clone();
        clockwise.sort();
        let first = clockwise[draw(players as u32) as usize % players];
        Ok(Seating { colours, first })
    }

    /// The playing colours in clockwise order.
    pub fn seated(&self) -> Vec<Colour> {
        let mut seated = self.colours.clone();
        seated.sort();
        seated
    }

    /// The colour of player `index` (joining order).
    pub fn colour_of(&self, index: usize) -> Option<Colour> {
        self.colours.get(index).copied()
    }
}
