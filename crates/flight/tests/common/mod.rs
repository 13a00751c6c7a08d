//! Helpers shared by the flight tests: positions from text-like data and random games.
#![allow(dead_code, clippy::unwrap_used)]

use hangar_flight::{Colour, Event, Game, Options, Phase, PlayerSetup, Progress, Setup};

/// A progress from a number, -1 for the hangar.
pub fn p(v: i16) -> Progress {
    if v < 0 {
        Progress::HANGAR
    } else {
        Progress::new(v as u8).unwrap()
    }
}

/// A player with planes at these progress values.
pub fn player(colour: Colour, planes: &[i16]) -> PlayerSetup {
    PlayerSetup {
        colour,
        planes: planes.iter().map(|&v| p(v)).collect(),
        captures: 0,
        resigned: false,
        rank: None,
        items: Vec::new(),
    }
}

/// A position with `players`, `turn` to roll.
pub fn position(options: Options, players: Vec<PlayerSetup>, turn: Colour) -> Game {
    Game::from_setup(Setup {
        options,
        players,
        turn,
        roll: None,
        sixes: 0,
        forced: None,
        six_moved: Vec::new(),
        items: Vec::new(),
        weather: None,
        weather_round: 0,
        first: None,
        item_in_use: None,
        draw: None,
    })
    .expect("valid test position")
}

/// Rolls `value` and moves `plane`, returning all events.
pub fn roll_move(game: &mut Game, value: u8, plane: u8) -> Vec<Event> {
    let mut events = Vec::new();
    game.roll(value, &mut events).unwrap();
    if let Phase::Move { .. } = game.phase() {
        game.choose(plane, &mut events).unwrap();
    }
    events
}

/// Rolls `value` expecting the roll to be settled at once.
pub fn roll_only(game: &mut Game, value: u8) -> Vec<Event> {
    let mut events = Vec::new();
    let moves = game.roll(value, &mut events).unwrap();
    assert!(moves.is_empty(), "a choice was awaited: {moves:?}");
    events
}

/// The options with four planes but only `n` used.
pub fn with_planes(mut options: Options, n: u8) -> Options {
    options.planes = n;
    options
}

/// A small deterministic generator for random games in tests.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The progress of `to`'s route on the track square where `from` has progress `progress`.
pub fn same(from: Colour, progress: i16, to: Colour) -> i16 {
    let square = (13 * from.index() as i16 + 2 + progress).rem_euclid(52);
    let q = (square - 13 * to.index() as i16 - 2).rem_euclid(52);
    assert!((1..=50).contains(&q), "{to} never visits that square");
    q
}

/// Whether the events contain one matching `pred`.
pub fn has(events: &[Event], pred: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(pred)
}

/// The planes of `colour` as numbers (-1 hangar).
pub fn planes_of(game: &Game, colour: Colour) -> Vec<i16> {
    game.planes(colour).iter().map(|p| p.to_i16()).collect()
}
