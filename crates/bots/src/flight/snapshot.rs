//! A compact picture of a position for the evaluation: where every plane is, who sits where,
//! who is on whose side, whose roll is next. Built from the engine's [`Game`] in a few
//! nanoseconds; kept separate so the evaluation can be tested on hand-made pictures.

use hangar_flight::{Colour, Game, Progress, Stacks};

/// Where one plane is, in its own colour's route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// Not on the board.
    Hangar,
    /// Progress 0..=55: launch pad, outer track, home column (flight.md §1).
    Route(u8),
    /// On the centre loop (finish option `circle`), `pips` short of its own finish square.
    Loop(u8),
    /// Finished.
    Finished,
}

impl At {
    /// The picture of an engine progress.
    pub fn of(progress: Progress) -> At {
        if progress.is_hangar() {
            At::Hangar
        } else if progress.is_finished() {
            At::Finished
        } else if progress.is_loop() {
            At::Loop(progress.remaining())
        } else {
            At::Route(progress.get())
        }
    }
}

/// Every plane of every colour, and the seating.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// Whether a player with planes on the board sits at each colour (red, yellow, blue, green).
    pub present: [bool; 4],
    /// The side of each colour: its own index, or its team (red+blue 0, yellow+green 1).
    pub side: [usize; 4],
    /// Planes per player (2–4).
    pub planes: usize,
    /// Each colour's planes; only the first `planes` count.
    pub at: [[At; 4]; 4],
    /// Whether enemy stacks block walks (stacks = block) rather than being captured whole.
    pub stacks_block: bool,
    /// The colour about to roll, if the game goes on.
    pub to_roll: Option<usize>,
    /// When the game is over, the side that won it.
    pub winner_side: Option<usize>,
}

impl Snapshot {
    /// The picture of an engine position.
    pub fn of(game: &Game) -> Snapshot {
        let teams = game.options().teams;
        let mut snapshot = Snapshot {
            present: [false; 4],
            side: [0, 1, 2, 3],
            planes: game.plane_count(),
            at: [[At::Hangar; 4]; 4],
            stacks_block: game.options().stacks == Stacks::Block,
            to_roll: None,
            winner_side: None,
        };
        for colour in Colour::ALL {
            let c = colour.index();
            if teams {
                snapshot.side[c] = c & 1;
            }
            snapshot.present[c] = game.is_seated(colour) && !game.has_resigned(colour);
            for (i, &progress) in game.planes(colour).iter().enumerate() {
                snapshot.at[c][i] = At::of(progress);
            }
        }
        if game.is_over() {
            let ranks = game.final_ranks();
            snapshot.winner_side = (0..4)
                .find(|&c| ranks[c] == Some(1))
                .map(|c| snapshot.side[c]);
        } else {
            snapshot.to_roll = Some(game.turn().index());
        }
        snapshot
    }

    /// The planes of `colour` that count.
    pub fn planes_of(&self, colour: usize) -> &[At] {
        &self.at[colour][..self.planes]
    }

    /// Whether `a` and `b` are enemies (both on the board, different sides).
    pub fn enemies(&self, a: usize, b: usize) -> bool {
        self.present[a] && self.present[b] && self.side[a] != self.side[b]
    }
}

/// A test position: red against blue, four planes each at `red` and `blue`.
#[cfg(test)]
pub(crate) fn two_player(red: [At; 4], blue: [At; 4]) -> Snapshot {
    Snapshot {
        present: [true, false, true, false],
        side: [0, 1, 2, 3],
        planes: 4,
        at: [red, [At::Hangar; 4], blue, [At::Hangar; 4]],
        stacks_block: true,
        to_roll: None,
        winner_side: None,
    }
}
