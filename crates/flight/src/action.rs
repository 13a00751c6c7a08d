//! What players do ([`Action`]) and why the engine refuses an action ([`PlayError`]).

use serde::{Deserialize, Serialize};

use crate::colour::Colour;
use crate::items::Item;

/// An action on a game. Rolls are inputs: whoever drives the game draws the die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// The player on turn rolled `value` (1..=6).
    Roll {
        /// The die.
        value: u8,
    },
    /// The player on turn moves plane `plane` (0-based index) by the pending roll.
    Move {
        /// The plane's index within its colour.
        plane: u8,
    },
    /// `colour` resigns or leaves (platform P-RESIGN / P-ESCAPE): its planes leave the board.
    Resign {
        /// Who resigns.
        colour: Colour,
    },
    /// The outcome of the awaited chance draw (items, weather): `index` below
    /// [`crate::Game::draw_choices`], drawn by the driver.
    Draw {
        /// The outcome.
        index: u16,
    },
    /// The player on turn uses an item from its bar before rolling (F-ITEM-USE).
    UseItem {
        /// The kind used.
        item: Item,
    },
}

/// Why an action was refused. A refused action changes nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum PlayError {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// A move is awaited, not a roll.
    #[error("a plane must be moved with the pending roll first")]
    MoveExpected,
    /// A roll is awaited, not a move.
    #[error("the die must be rolled first")]
    RollExpected,
    /// A die shows 1 to 6.
    #[error("a die shows 1 to 6, not {value}")]
    BadDie {
        /// The refused value.
        value: u8,
    },
    /// There is no such plane.
    #[error("there is no plane {plane} (planes are numbered from 0)")]
    NoSuchPlane {
        /// The refused index.
        plane: u8,
    },
    /// That plane cannot move by this roll (finished, in the hangar without a take-off roll,
    /// past the finish under `exact-only`, or another plane must move).
    #[error("plane {plane} cannot move by {roll}")]
    IllegalMove {
        /// The plane.
        plane: u8,
        /// The pending roll.
        roll: u8,
    },
    /// A chance draw is awaited first (items, weather).
    #[error("a chance draw (item or weather) must be settled first")]
    DrawExpected,
    /// No chance draw is awaited.
    #[error("no chance draw is awaited")]
    NoDrawAwaited,
    /// The draw's outcome is out of range.
    #[error("draw outcome {index} is not below {choices}")]
    BadDraw {
        /// The refused outcome.
        index: u16,
        /// The number of outcomes.
        choices: u16,
    },
    /// Items are off in this game.
    #[error("items are off in this game")]
    ItemsOff,
    /// The player on turn holds no such item.
    #[error("no {item} in the item bar")]
    NoItem {
        /// The item asked for.
        item: Item,
    },
    /// An item is already in use for this roll (one item per roll).
    #[error("{item} is already in use for this roll")]
    ItemInUse {
        /// The item in use.
        item: Item,
    },
    /// The colour is not playing (empty seat, already resigned or all planes finished).
    #[error("{colour} is not playing")]
    NotPlaying {
        /// Who.
        colour: Colour,
    },
}
