//! The board (F-BOARD): progress along a colour's route, shared squares, and where each
//! position is drawn.
//!
//! A plane's position is its [`Progress`] along its own route. Planes of different colours
//! meet only on *shared* squares ([`Square`]): the 52 track squares and, with
//! `finish = circle`, the four finish squares of the centre loop. Launch pads, home columns
//! and the hangar are private (F-SAFE); the one exception is the crossing square (F-CROSS).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::colour::Colour;

/// Number of squares of the outer track.
pub const TRACK_SQUARES: u8 = 52;
/// The progress of the shortcut's start (飞棋 from 18 to 30).
pub const SHORTCUT_FROM: u8 = 18;
/// The progress of the shortcut's end.
pub const SHORTCUT_TO: u8 = 30;
/// The progress of the turn-in square (the arrow into the home column); it never jumps.
pub const TURN_IN: u8 = 50;
/// The progress, in the *opposite* colour's route, of the square where a shortcut crosses
/// its home column (the third home-column square).
pub const CROSSING: u8 = 53;

/// A plane's position along its own colour's route.
///
/// `hangar`; `0` launch pad; `1..=50` track; `51..=55` home column; `56` finished. With
/// `finish = circle` a plane that walked past its finish square is on the centre loop:
/// `57 + k` is the loop square `k` steps clockwise after its own finish square (`57` is its
/// own finish square, reached without finishing, e.g. after a capture there).
/// In JSON a progress is a number, the hangar being `-1`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Progress(u8);

impl Progress {
    /// In the hangar (停机坪), not on the board.
    pub const HANGAR: Progress = Progress(u8::MAX);
    /// On the launch pad (起飞点).
    pub const PAD: Progress = Progress(0);
    /// Finished (终点): the plane has its flag and never moves again.
    pub const FINISHED: Progress = Progress(56);
    /// On its own finish square as a loop plane, not finished (circle only).
    pub const LOOP_START: Progress = Progress(57);
    /// The highest valid value (loop offset 3).
    pub const MAX: u8 = 60;

    /// The progress with this number; `None` above 60. (Use [`Progress::HANGAR`] for the hangar.)
    pub const fn new(value: u8) -> Option<Progress> {
        if value <= Progress::MAX {
            Some(Progress(value))
        } else {
            None
        }
    }

    /// The raw number (`255` for the hangar).
    #[inline]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// The number as in JSON: `-1` for the hangar.
    pub const fn to_i16(self) -> i16 {
        if self.is_hangar() { -1 } else { self.0 as i16 }
    }

    /// In the hangar.
    #[inline]
    pub const fn is_hangar(self) -> bool {
        self.0 == u8::MAX
    }

    /// Finished.
    #[inline]
    pub const fn is_finished(self) -> bool {
        self.0 == 56
    }

    /// On the outer track (1..=50).
    #[inline]
    pub const fn is_track(self) -> bool {
        self.0 >= 1 && self.0 <= 50
    }

    /// In the private home column (51..=55).
    #[inline]
    pub const fn is_column(self) -> bool {
        self.0 >= 51 && self.0 <= 55
    }

    /// On the centre loop (circle finish only).
    #[inline]
    pub const fn is_loop(self) -> bool {
        self.0 >= 57 && self.0 <= 60
    }

    /// Whether this is an own-colour track square that jumps (F-JUMP): 2, 6, …, 46.
    #[inline]
    pub const fn jumps(self) -> bool {
        self.0 >= 2 && self.0 <= 46 && self.0 % 4 == 2
    }

    /// Pips left to finish (a loop plane must go round to its own finish square); 0 when
    /// finished. The hangar counts as the launch pad here.
    pub const fn remaining(self) -> u8 {
        match self.0 {
            u8::MAX => 56,
            p @ 0..=56 => 56 - p,
            p => 61 - p,
        }
    }

    /// The progress made, for ranking (F-RANK): `56 − remaining()`, the hangar counting 0.
    pub const fn score(self) -> u8 {
        if self.is_hangar() {
            0
        } else {
            56 - self.remaining()
        }
    }
}

impl fmt::Debug for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_hangar() {
            f.write_str("H")
        } else {
            write!(f, "{}", self.0)
        }
    }
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_hangar() {
            f.write_str("hangar")
        } else {
            write!(f, "{}", self.0)
        }
    }
}

impl Serialize for Progress {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_i16(self.to_i16())
    }
}

impl<'de> Deserialize<'de> for Progress {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = i16::deserialize(deserializer)?;
        match value {
            -1 => Ok(Progress::HANGAR),
            0..=60 => Ok(Progress(value as u8)),
            _ => Err(serde::de::Error::custom(format!(
                "progress {value} is not -1 (hangar) or 0..=60"
            ))),
        }
    }
}

/// A square planes of different colours can share: `0..=51` track squares numbered
/// clockwise, `52 + c` the finish square of colour `c` on the centre loop (circle only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Square(pub u8);

impl Square {
    /// Number of shared squares (52 track + 4 loop).
    pub const COUNT: usize = 56;

    /// The colour of a track square (squares repeat red, yellow, blue, green), or the owner
    /// of a loop square.
    pub const fn colour(self) -> Colour {
        Colour::from_index(self.0 as usize)
    }
}

/// The shared square a plane of `colour` at `progress` stands on, if any.
#[inline]
pub const fn square(colour: Colour, progress: Progress) -> Option<Square> {
    // A table lookup: this sits on the engine's hot path. The hangar (255) maps to slot 63.
    let s = square_bit(colour, progress);
    if s == NO_SQUARE {
        None
    } else {
        Some(Square(s))
    }
}

/// What [`square_bit`] gives for private places: a bit number no shared square uses.
pub(crate) const NO_SQUARE: u8 = 63;

/// The shared square as a bit number, or [`NO_SQUARE`]: branch-free for bit sets.
#[inline]
pub(crate) const fn square_bit(colour: Colour, progress: Progress) -> u8 {
    SQUARE_OF[colour as usize][(progress.0 & 63) as usize]
}

/// `SQUARE_OF[colour][progress]`: the shared square, or `NO_SQUARE`.
static SQUARE_OF: [[u8; 64]; 4] = {
    let mut table = [[NO_SQUARE; 64]; 4];
    let mut c = 0;
    while c < 4 {
        let mut p = 1;
        while p <= 60 {
            if p <= 50 {
                table[c][p] = ((13 * c + 2 + p) % TRACK_SQUARES as usize) as u8;
            } else if p >= 57 {
                table[c][p] = (52 + (c + p - 57) % 4) as u8;
            }
            p += 1;
        }
        c += 1;
    }
    table
};

/// The track square of progress 0 of `colour` (its route's origin): progress `p` in
/// `1..=50` is square `(origin + p) mod 52`.
#[inline]
pub(crate) const fn route_origin(colour: Colour) -> u32 {
    (13 * colour as u32 + 2) % TRACK_SQUARES as u32
}

/// Where a position is drawn on the board, for clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Location {
    /// In the hangar of `colour`.
    Hangar {
        /// Whose hangar.
        colour: Colour,
    },
    /// On the launch pad of `colour`.
    Pad {
        /// Whose pad.
        colour: Colour,
    },
    /// On track square `square` (0..=51).
    Track {
        /// The track square.
        square: u8,
    },
    /// On home-column square `step` (1..=5) of `colour`; step 3 is the crossing square.
    Column {
        /// Whose column.
        colour: Colour,
        /// 1 (entry) to 5 (last before the finish).
        step: u8,
    },
    /// Finished, in the centre (终点) of `colour`; with circle finish also the loop square.
    Finish {
        /// Whose finish.
        colour: Colour,
    },
}

/// Where a plane of `colour` at `progress` is drawn (F-BOARD).
pub const fn locate(colour: Colour, progress: Progress) -> Location {
    let p = progress.0;
    match p {
        u8::MAX => Location::Hangar { colour },
        0 => Location::Pad { colour },
        1..=50 => Location::Track {
            square: (13 * colour as u8 + 2 + p) % TRACK_SQUARES,
        },
        51..=55 => Location::Column {
            colour,
            step: p - 50,
        },
        56 => Location::Finish { colour },
        _ => Location::Finish {
            colour: Colour::from_index((colour as usize) + (p as usize - 57)),
        },
    }
}

/// The crossing square of `colour`'s shortcut: the opposite colour's progress 53 (F-CROSS).
pub const fn crossing(colour: Colour) -> (Colour, Progress) {
    (colour.opposite(), Progress(CROSSING))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remaining_and_score() {
        assert_eq!(Progress::HANGAR.remaining(), 56);
        assert_eq!(Progress::PAD.remaining(), 56);
        assert_eq!(Progress::FINISHED.remaining(), 0);
        assert_eq!(Progress::LOOP_START.remaining(), 4);
        assert_eq!(Progress(58).remaining(), 3);
        assert_eq!(Progress(60).remaining(), 1);
        assert_eq!(Progress(60).score(), 55);
    }
}
