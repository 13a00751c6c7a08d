//! The game state: [`Game`], a small `Copy` value that knows whose turn it is and what it
//! awaits, and its rules, one file per concern: [`setup`] builds and checks a position,
//! [`moves`] lists the legal moves, [`walk`] resolves one plane's move into a [`choice`],
//! `play` applies an action, [`chance`] settles the item and weather draws, [`result`] ranks
//! and scores.

pub(crate) mod chance;
pub(crate) mod choice;
pub(crate) mod moves;
mod play;
pub(crate) mod result;
pub(crate) mod setup;
pub(crate) mod walk;

use serde::{Deserialize, Serialize};

use crate::board::{Progress, Square, square};
use crate::colour::Colour;
use crate::game::chance::Draw;
use crate::items::{Item, ItemBar, ItemOnBoard, MAX_ITEMS_ON_BOARD};
use crate::options::Options;
use crate::weather::WeatherCell;

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
    /// A chance draw is awaited (items and weather only, §7–8): the driver draws a uniform
    /// number below [`Game::draw_choices`] and plays it as [`crate::Action::Draw`]
    /// ([`Game::draw_chances`] does it from the game's dice).
    Draw {
        /// What is drawn.
        what: Draw,
    },
    /// The game is over.
    Over,
}

/// The state of items and weather (§7–8). With both options off it stays at its start value
/// and the rules only test the two option flags, so the fast path pays nothing for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Extras {
    /// Items lying on the board (F-ITEM-SPAWN).
    pub(crate) board_items: [Option<ItemOnBoard>; MAX_ITEMS_ON_BOARD],
    /// Each colour's item bar (F-ITEM-PICK).
    pub(crate) bars: [ItemBar; 4],
    /// The weather cell, if one is up (F-WEATHER).
    pub(crate) weather: Option<WeatherCell>,
    /// The round within the weather cycle: 0–2 a cell is up, 3–5 the board is clear.
    pub(crate) weather_round: u8,
    /// The colour that rolled first: a round starts each time the turn reaches or passes
    /// its seat.
    pub(crate) first: Colour,
    /// The item used for the awaited or pending roll (a booster), if any.
    pub(crate) in_use: Option<Item>,
}

impl Extras {
    pub(crate) const fn new(first: Colour) -> Extras {
        Extras {
            board_items: [None; MAX_ITEMS_ON_BOARD],
            bars: [ItemBar::EMPTY; 4],
            weather: None,
            weather_round: 0,
            first,
            in_use: None,
        }
    }
}

/// A position with everything needed to go on playing: options, seats, planes, turn, the
/// pending roll, the run of sixes, the plane sitting on a stack, ranks taken and captures.
///
/// Built only by [`Game::new`] or from a [`crate::Setup`] through [`Game::from_setup`], which
/// refuse impossible positions; serialises as its `Setup`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(
    try_from = "crate::game::setup::Setup",
    into = "crate::game::setup::Setup"
)]
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
    /// Items and weather (§7–8).
    pub(crate) extras: Extras,
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

    /// The items lying on the board (F-ITEM-SPAWN), at most two.
    pub fn board_items(&self) -> impl Iterator<Item = ItemOnBoard> + '_ {
        self.extras.board_items.iter().flatten().copied()
    }

    /// The item bar of `colour` (F-ITEM-PICK).
    #[inline]
    pub fn item_bar(&self, colour: Colour) -> ItemBar {
        self.extras.bars[colour.index()]
    }

    /// The weather cell, if one is up (F-WEATHER).
    #[inline]
    pub fn weather(&self) -> Option<WeatherCell> {
        self.extras.weather
    }

    /// The round within the weather cycle: 0–2 a cell is up (or being drawn), 3–5 clear.
    #[inline]
    pub fn weather_round(&self) -> u8 {
        self.extras.weather_round
    }

    /// The colour that rolled first; rounds start when the turn reaches or passes its seat.
    #[inline]
    pub fn first_player(&self) -> Colour {
        self.extras.first
    }

    /// The item in use for the awaited or pending roll (a booster), if any (F-ITEM-USE).
    #[inline]
    pub fn item_in_use(&self) -> Option<Item> {
        self.extras.in_use
    }

    /// Pips a plane walks for `roll` (twice the roll while a booster is in use).
    #[inline]
    pub(crate) fn pips(&self, roll: u8) -> u8 {
        match self.extras.in_use {
            None => roll,
            Some(item) => item.pips(roll),
        }
    }

    /// Whether items or weather are on.
    #[inline]
    pub(crate) fn has_extras(&self) -> bool {
        self.options.items || self.options.weather
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
