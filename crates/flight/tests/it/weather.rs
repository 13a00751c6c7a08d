//! Weather (flight.md §8): F-WEATHER — storm, tailwind and headwind through or onto the
//! cell, and the cycle of 3 rounds on, 3 rounds off.
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{p, planes_of, player, roll_move, roll_only};
use hangar_flight::Colour::{Blue, Red};
use hangar_flight::{
    Draw, Event, Game, Options, Phase, PlayerSetup, Setup, Square, Weather, WeatherCell,
};

/// Red's plane at `from` walks by `roll` with `weather` on red's progress `cell`; returns
/// the events and where the plane ends.
fn walk_through(weather: Weather, cell: i16, from: i16, roll: u8) -> (Vec<Event>, i16) {
    let mut game = position(
        vec![player(Red, &[from, -1, -1, -1]), player(Blue, &[-1; 4])],
        Some((cell, weather)),
    );
    let events = roll_move(&mut game, roll, 0);
    (events, planes_of(&game, Red)[0])
}

fn position(players: Vec<PlayerSetup>, cell: Option<(i16, Weather)>) -> Game {
    let mut options = Options::traditional();
    options.weather = true;
    Game::from_setup(Setup {
        options,
        players,
        turn: Red,
        roll: None,
        sixes: 0,
        forced: None,
        six_moved: Vec::new(),
        items: Vec::new(),
        weather: cell.map(|(progress, weather)| WeatherCell {
            square: Square(((2 + progress) % 52) as u8),
            weather,
        }),
        weather_round: if cell.is_some() { 1 } else { 3 },
        first: Some(Red),
        item_in_use: None,
        draw: None,
    })
    .unwrap()
}

fn felt(events: &[Event], weather: Weather, at: i16) -> bool {
    events.contains(&Event::WeatherFelt {
        colour: Red,
        plane: 0,
        weather,
        at: p(at),
    })
}

/// F-WEATHER storm: a walk through or onto the cell ends there, and does not jump even on an
/// own-colour square.
#[test]
fn storm_ends_the_walk_on_the_cell_without_a_jump() {
    // Through: 12 + 5 would be 17; the storm on 14 (own colour) stops it there.
    let (events, end) = walk_through(Weather::Storm, 14, 12, 5);
    assert_eq!(end, 14);
    assert!(felt(&events, Weather::Storm, 14));
    assert!(!events.iter().any(|e| matches!(e, Event::Jumped { .. })));
    // Onto.
    let (events, end) = walk_through(Weather::Storm, 14, 11, 3);
    assert_eq!(end, 14);
    assert!(felt(&events, Weather::Storm, 14));
}

/// F-WEATHER tailwind: 3 extra pips forward, through or onto the cell.
#[test]
fn tailwind_adds_three_pips() {
    let (events, end) = walk_through(Weather::Tailwind, 20, 19, 2);
    assert_eq!(end, 24);
    assert!(felt(&events, Weather::Tailwind, 20));
    assert!(events.contains(&Event::Walked {
        colour: Red,
        plane: 0,
        from: p(20),
        to: p(24)
    }));
    let (_, end) = walk_through(Weather::Tailwind, 20, 17, 3);
    assert_eq!(end, 23);
    // The extra pips end a forward walk: 15 + 4 + 3 = 22, an own-colour square, jumps to 26.
    let (events, end) = walk_through(Weather::Tailwind, 17, 15, 4);
    assert!(felt(&events, Weather::Tailwind, 17));
    assert_eq!(end, 26);
}

/// F-WEATHER headwind: the walk ends 2 pips short — before the cell's far side, on it, or,
/// when fewer than 2 pips were left, blown back behind it (no jump or flight from there).
#[test]
fn headwind_ends_the_walk_two_pips_short() {
    // Through with 3 pips left: 23 − 2 = 21.
    let (events, end) = walk_through(Weather::Headwind, 20, 17, 6);
    assert_eq!(end, 21);
    assert!(felt(&events, Weather::Headwind, 20));
    // One pip left: blown back 1 behind the cell.
    let (events, end) = walk_through(Weather::Headwind, 20, 17, 4);
    assert_eq!(end, 19);
    assert!(events.contains(&Event::BlownBack {
        colour: Red,
        plane: 0,
        from: p(20),
        to: p(19)
    }));
    // Onto the cell: blown back 2 onto 18, where it does not fly.
    let (events, end) = walk_through(Weather::Headwind, 20, 19, 1);
    assert_eq!(end, 18);
    assert!(!events.iter().any(|e| matches!(e, Event::Flew { .. })));
}

/// F-WEATHER: only walks feel the weather; a jump passes over the cell, and a plane starting
/// on the cell does not feel it when it walks away.
#[test]
fn jumps_pass_over_the_cell() {
    let (events, end) = walk_through(Weather::Storm, 12, 8, 2);
    assert_eq!(end, 14);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::WeatherFelt { .. }))
    );
    let (events, end) = walk_through(Weather::Storm, 12, 12, 3);
    assert_eq!(end, 15);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::WeatherFelt { .. }))
    );
}

/// F-WEATHER: where a tailwind walk ends, an enemy plane is captured as usual (F-CAPTURE).
#[test]
fn a_tailwind_walk_captures_where_it_ends() {
    let blue_at = common::same(Red, 24, Blue);
    let mut game = position(
        vec![
            player(Red, &[19, -1, -1, -1]),
            player(Blue, &[blue_at, -1, -1, -1]),
        ],
        Some((20, Weather::Tailwind)),
    );
    roll_move(&mut game, 2, 0);
    assert_eq!(planes_of(&game, Red)[0], 24);
    assert_eq!(planes_of(&game, Blue)[0], -1);
    assert_eq!(game.captures(Red), 1);
}

/// F-WEATHER cycle: a cell is drawn when the game starts (52 squares × 3 kinds), stays 3
/// rounds, the board is clear 3 rounds, then a new cell is drawn.
#[test]
fn weather_cycles_three_rounds_on_three_rounds_off() {
    let mut options = Options::traditional();
    options.weather = true;
    let mut game = Game::new(options, &[Red, Blue], Red).unwrap();
    assert_eq!(
        game.phase(),
        Phase::Draw {
            what: Draw::Weather
        }
    );
    assert_eq!(game.draw_choices(), 156);
    let mut events = Vec::new();
    game.draw(5 * 3 + 1, &mut events).unwrap();
    let cell = WeatherCell {
        square: Square(5),
        weather: Weather::Tailwind,
    };
    assert_eq!(
        events,
        vec![Event::WeatherAppeared {
            weather: Weather::Tailwind,
            square: Square(5)
        }]
    );
    // A round is red's turn and blue's; every roll of 1 is spent (all planes in the hangar).
    let play_round = |game: &mut Game| {
        let mut events = roll_only(game, 1);
        events.extend(roll_only(game, 1));
        events
    };
    for round in 2..=3 {
        let events = play_round(&mut game);
        assert_eq!(game.weather(), Some(cell), "round {round}");
        assert!(
            events
                .iter()
                .all(|e| !matches!(e, Event::WeatherCleared { .. }))
        );
    }
    let events = play_round(&mut game);
    assert_eq!(game.weather(), None, "round 4 is clear");
    assert!(events.contains(&Event::WeatherCleared {
        weather: Weather::Tailwind,
        square: Square(5)
    }));
    for round in 5..=6 {
        play_round(&mut game);
        assert_eq!(game.weather(), None, "round {round}");
        assert_eq!(game.phase(), Phase::Roll);
    }
    play_round(&mut game);
    assert_eq!(
        game.phase(),
        Phase::Draw {
            what: Draw::Weather
        },
        "round 7 draws a new cell"
    );
    // The position with a draw awaited survives the checked round trip.
    assert_eq!(Game::from_setup(game.to_setup()), Ok(game));
}

/// F-WEATHER with F-STACK-TRADITIONAL: the weather acts on entering the cell, then the stack
/// rule. A storm on an enemy stack ends the walk on it: a landing, so everything there goes
/// home (F-D-COLLISION); a tailwind leaves pips to walk past the stack, which turn back.
#[test]
fn weather_on_an_enemy_stack() {
    let stack = common::same(Red, 20, Blue);
    let planes = || {
        vec![
            player(Red, &[17, -1, -1, -1]),
            player(Blue, &[stack, stack, -1, -1]),
        ]
    };
    let mut game = position(planes(), Some((20, Weather::Storm)));
    let events = roll_move(&mut game, 5, 0);
    assert!(felt(&events, Weather::Storm, 20));
    assert_eq!(planes_of(&game, Red)[0], -1);
    assert_eq!(planes_of(&game, Blue), vec![-1, -1, -1, -1]);
    assert_eq!(game.captures(Red), 2);
    // Tailwind: 1 pip left + 3 = 4 pips past the stack: turned back 4 from 20 to 16.
    let mut game = position(planes(), Some((20, Weather::Tailwind)));
    let events = roll_move(&mut game, 4, 0);
    assert!(felt(&events, Weather::Tailwind, 20));
    assert_eq!(planes_of(&game, Red)[0], 16);
    assert_eq!(planes_of(&game, Blue), vec![stack, stack, -1, -1]);
}
