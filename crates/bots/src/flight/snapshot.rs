//! A compact, engine-independent picture of a position, from which the evaluation works:
//! where every plane is, who sits where, who is on whose side.

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

/// Every plane of every colour, and the seating.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// Whether a player sits at each colour (red, yellow, blue, green).
    pub present: [bool; 4],
    /// The side of each colour: its own index, or its team's lowest colour in team games.
    pub side: [usize; 4],
    /// Planes per player (2–4).
    pub planes: usize,
    /// Each colour's planes; only the first `planes` count.
    pub at: [[At; 4]; 4],
    /// Whether enemy stacks block walks (stacks = block) rather than being captured whole.
    pub stacks_block: bool,
    /// Whether the game is over, and which side won it.
    pub winner_side: Option<usize>,
}

impl Snapshot {
    /// The planes of `colour` that count.
    pub fn planes_of(&self, colour: usize) -> &[At] {
        &self.at[colour][..self.planes]
    }

    /// Whether `a` and `b` are enemies (both seated, different sides).
    pub fn enemies(&self, a: usize, b: usize) -> bool {
        self.present[a] && self.present[b] && self.side[a] != self.side[b]
    }

    /// How many of `colour`'s planes have finished.
    pub fn finished(&self, colour: usize) -> usize {
        self.planes_of(colour)
            .iter()
            .filter(|&&at| at == At::Finished)
            .count()
    }
}
