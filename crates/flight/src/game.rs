//! The game state: a small `Copy` value that knows whose turn it is and what it awaits.

use serde::{Deserialize, Serialize};

use crate::board::{Progress, Square, square};
use crate::colour::Colour;
use crate::options::Options;

/// What the game awaits next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Phase {
    /// The player on turn must roll.
    Roll,
    /// The player on turn must choose a plane to move by `roll` (at least one can).
    Move {
        /// The pending roll.
        roll: u8,
    },
    /// The game is over.
    Over,
}

/// A position with everything needed to go on playing: options, seats, planes, turn, the
/// pending roll, the run of sixes, the plane sitting on a stack, ranks taken and captures.
///
/// Built only by [`Game::new`] or from a [`crate::Setup`] through [`Game::from_setup`], which
/// refuse impossible positions; serialises as its `Setup`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "crate::setup::Setup", into = "crate::setup::Setup")]
pub struct Game {
    pub(crate) options: Options,
    /// Bit `c` set: colour `c` is seated.
    pub(crate) seated: u8,
    /// Bit `c` set: colour `c` resigned; its planes no longer count.
    pub(crate) resigned: u8,
    /// Progress of each plane by colour; unused plane slots hold `FINISHED`, empty seats `HANGAR`.
    pub(crate) planes: [[Progress; 4]; 4],
    pub(crate) turn: Colour,
    pub(crate) phase: Phase,
    /// Sixes rolled in a row in the current turn (only counted under a three-sixes rule).
    pub(crate) sixes: u8,
    /// The plane sitting on an enemy stack, which must move on the next roll (F-D-SIT).
    pub(crate) forced: Option<u8>,
    /// Planes moved by the current run of sixes (only kept under `moved-to-hangar`).
    pub(crate) six_moved: u8,
    /// Ranks taken under play-on as players finish (0 = none yet).
    pub(crate) ranks: [u8; 4],
    /// Enemy planes each colour sent back (F-CAPTURE-BONUS).
    pub(crate) captures: [u16; 4],
}

impl Game {
    /// The options.
    #[inline]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// What the game awaits.
    #[inline]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whose turn it is (the last mover once the game is over).
    #[inline]
    pub fn turn(&self) -> Colour {
        self.turn
    }

    /// Whether the game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Whether `colour` has a seat in this game.
    #[inline]
    pub fn is_seated(&self, colour: Colour) -> bool {
        self.seated & (1 << colour as u8) != 0
    }

    /// Whether `colour` resigned.
    #[inline]
    pub fn has_resigned(&self, colour: Colour) -> bool {
        self.resigned & (1 << colour as u8) != 0
    }

    /// The seated colours in turn order.
    pub fn players(&self) -> impl Iterator<Item = Colour> + '_ {
        Colour::ALL.into_iter().filter(|&c| self.is_seated(c))
    }

    /// Number of seated players.
    pub fn player_count(&self) -> usize {
        self.seated.count_ones() as usize
    }

    /// Planes per player.
    #[inline]
    pub fn plane_count(&self) -> usize {
        self.options.planes as usize
    }

    /// The planes of `colour` (empty for an empty seat).
    pub fn planes(&self, colour: Colour) -> &[Progress] {
        if self.is_seated(colour) {
            &self.planes[colour.index()][..self.plane_count()]
        } else {
            &[]
        }
    }

    /// One plane's progress.
    pub fn plane(&self, colour: Colour, plane: u8) -> Progress {
        self.planes[colour.index()][plane as usize & 3]
    }

    /// Number of finished planes of `colour`.
    pub fn finished(&self, colour: Colour) -> usize {
        self.planes(colour)
            .iter()
            .filter(|p| p.is_finished())
            .count()
    }

    /// Whether every plane of `colour` has finished.
    #[inline]
    pub fn is_done(&self, colour: Colour) -> bool {
        // One comparison of the four bytes (unused slots hold FINISHED too).
        let [a, b, c, d] = self.planes[colour.index()];
        u32::from_le_bytes([a.get(), b.get(), c.get(), d.get()]) == u32::from_le_bytes([56; 4])
    }

    /// Whether `colour` still takes turns: seated, not resigned, not done.
    #[inline]
    pub fn is_active(&self, colour: Colour) -> bool {
        self.is_seated(colour) && !self.has_resigned(colour) && !self.is_done(colour)
    }

    /// The plane that must move on the next roll because it sits on a stack (F-D-SIT).
    #[inline]
    pub fn forced_plane(&self) -> Option<u8> {
        self.forced
    }

    /// Sixes rolled in a row in this turn (counted only under a three-sixes rule).
    #[inline]
    pub fn sixes(&self) -> u8 {
        self.sixes
    }

    /// Enemy planes `colour` has sent back so far (F-CAPTURE-BONUS).
    #[inline]
    pub fn captures(&self, colour: Colour) -> u16 {
        self.captures[colour.index()]
    }

    /// The side of a colour: itself, or its team (red+blue = 0, yellow+green = 1) in a team game.
    #[inline]
    pub(crate) fn side(&self, colour: Colour) -> u8 {
        if self.options.teams {
            colour as u8 & 1
        } else {
            colour as u8
        }
    }

    /// Whether `a` and `b` are on the same side (same colour or partners).
    #[inline]
    pub fn same_side(&self, a: Colour, b: Colour) -> bool {
        self.side(a) == self.side(b)
    }

    /// Bit mask of colours whose planes are on the board (seated, not resigned).
    #[inline]
    pub(crate) fn on_board(&self) -> u8 {
        self.seated & !self.resigned
    }

    /// Planes on each shared square: 4 bits per colour (colour `c` in bits `4c..4c+4`).
    #[inline]
    pub(crate) fn occupancy(&self) -> [u16; Square::COUNT] {
        let mut occ = [0u16; Square::COUNT];
        let on_board = self.on_board();
        for colour in Colour::ALL {
            if on_board & (1 << colour as u8) == 0 {
                continue;
            }
            for &p in &self.planes[colour.index()] {
                if let Some(Square(s)) = square(colour, p) {
                    occ[s as usize] += 1 << (4 * colour as u16);
                }
            }
        }
        occ
    }

    /// The planes (bit `4c + i`) of colours in `colours` standing on `target`.
    pub(crate) fn planes_on(&self, target: Square, colours: u8) -> u16 {
        let mut mask = 0u16;
        for colour in Colour::ALL {
            if colours & (1 << colour as u8) == 0 {
                continue;
            }
            for (i, &p) in self.planes[colour.index()].iter().enumerate() {
                if square(colour, p) == Some(target) {
                    mask |= 1 << (4 * colour as u16 + i as u16);
                }
            }
        }
        mask
    }

    /// Bit mask of the colours that are enemies of `colour` and on the board.
    #[inline]
    pub(crate) fn enemies(&self, colour: Colour) -> u8 {
        let own_side = if self.options.teams {
            0b0101 << (colour as u8 & 1)
        } else {
            1 << colour as u8
        };
        !own_side & self.on_board()
    }

    /// The next colour after `colour`, clockwise, that still takes turns.
    pub(crate) fn next_active(&self, colour: Colour) -> Option<Colour> {
        let mut c = colour;
        for _ in 0..4 {
            c = c.next();
            if self.is_active(c) {
                return Some(c);
            }
        }
        None
    }
}
