//! Aeroplane Chess positions. The bytes build either a new game ([`Game::new`]) or an unchecked
//! [`Setup`] with [`arbitrary`]; [`Game::from_setup`] must refuse an impossible one with a
//! named error and never panic. From an accepted position the bytes then choose a walk of
//! actions, and at every step:
//!
//! - the position survives its round trips (as a `Setup` and as JSON);
//! - every action the position offers plays: each die value when a roll is awaited, each legal
//!   plane when a move is, each outcome when a chance draw is;
//! - a move awaited has at least one legal plane, and a plane plays exactly when
//!   [`Game::is_legal`] says so;
//! - what the action leads to is again a position `from_setup` accepts.

use arbitrary::{Result, Unstructured};
use hangar_flight::{Action, Colour, Game, Options, Phase, PlayerSetup, Progress, Setup};

/// Most actions in one walk: several hundred turns, while the fuzzer still runs thousands of
/// inputs a second.
const MAX_ACTIONS: usize = 600;

/// Runs the target on the fuzzer's bytes.
pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let built = if u.arbitrary::<bool>().unwrap_or(true) {
        new_game(&mut u).map(|(options, seats, first)| Game::new(options, &seats, first))
    } else {
        any_setup(&mut u).map(Game::from_setup)
    };
    match built {
        // Too few bytes to build anything.
        Err(_) => {}
        Ok(Err(error)) => assert!(!error.to_string().is_empty(), "a refusal names its fault"),
        Ok(Ok(game)) => {
            walk(game, &mut u);
        }
    }
}

/// Plays from `game` the actions the bytes choose, checking every position on the way;
/// returns where the walk stopped (the game over, the bytes used up, or [`MAX_ACTIONS`]).
pub fn walk(mut game: Game, u: &mut Unstructured) -> Game {
    for _ in 0..MAX_ACTIONS {
        let offered = check(&game);
        if offered.is_empty() || u.is_empty() {
            return game;
        }
        let action = match u.int_in_range(0..=63u8) {
            // Now and then someone leaves or uses an item, which the offered actions omit.
            Ok(0) => rare_action(&game, u),
            _ => u.choose(&offered).ok().copied(),
        };
        let Some(action) = action else { return game };
        match game.after(action) {
            Ok((next, _events)) => game = next,
            Err(error) => assert!(!error.to_string().is_empty(), "a refusal names its fault"),
        }
    }
    game
}

/// Checks one position and returns the actions it offers (none once the game is over).
fn check(game: &Game) -> Vec<Action> {
    assert_eq!(
        Game::from_setup(Setup::from(*game)),
        Ok(*game),
        "setup round trip"
    );
    let json = serde_json::to_string(game).expect("a game serialises");
    let back: Game = serde_json::from_str(&json).expect("a game's JSON reads back");
    assert_eq!(back, *game, "JSON round trip of {json}");

    let offered: Vec<Action> = match game.phase() {
        Phase::Roll => (1..=6).map(|value| Action::Roll { value }).collect(),
        Phase::Move { .. } => {
            let legal: Vec<u8> = game.legal_moves().iter().map(|m| m.plane).collect();
            assert!(
                !legal.is_empty(),
                "a move is awaited but no plane can move: {json}"
            );
            // Equivalent planes are listed once (F-D-SAME), so `is_legal` may accept more
            // than the list; it must accept exactly what `play` accepts.
            for plane in 0..=4 {
                let plays = game.after(Action::Move { plane }).is_ok();
                assert_eq!(game.is_legal(plane), plays, "plane {plane} of {json}");
                assert!(
                    plays || !legal.contains(&plane),
                    "listed plane {plane} refused: {json}"
                );
            }
            legal
                .into_iter()
                .map(|plane| Action::Move { plane })
                .collect()
        }
        Phase::Draw { .. } => {
            let choices = game.draw_choices();
            assert!(
                choices > 0,
                "a draw is awaited with nothing to draw: {json}"
            );
            (0..choices).map(|index| Action::Draw { index }).collect()
        }
        Phase::Over => Vec::new(),
    };
    for &action in &offered {
        let (next, _events) = game
            .after(action)
            .unwrap_or_else(|e| panic!("{action:?} refused ({e}) in {json}"));
        assert!(
            Game::from_setup(Setup::from(next)).is_ok(),
            "{action:?} from {json} led to an impossible position"
        );
    }
    offered
}

/// A resignation or the use of an item in the bar of the player on turn.
fn rare_action(game: &Game, u: &mut Unstructured) -> Option<Action> {
    let mut rare: Vec<Action> = game
        .item_bar(game.turn())
        .items()
        .map(|item| Action::UseItem { item })
        .collect();
    rare.extend(game.players().map(|colour| Action::Resign { colour }));
    u.choose(&rare).ok().copied()
}

/// The arguments of a new game: options, a seating of 2 to 4 colours, and who starts.
fn new_game(u: &mut Unstructured) -> Result<(Options, Vec<Colour>, Colour)> {
    let options = options(u)?;
    let first = colour(u)?;
    let seats = match u.int_in_range(0..=3u8)? {
        0 => vec![first, first.opposite()],
        1 => Colour::ALL
            .into_iter()
            .filter(|&c| c != first.next())
            .collect(),
        2 => Colour::ALL.to_vec(),
        // Any colours at all: often refused, which is checked too.
        _ => (0..u.int_in_range(0..=5)?)
            .map(|_| colour(u))
            .collect::<Result<_>>()?,
    };
    Ok((options, seats, first))
}

/// An unchecked position, often impossible.
fn any_setup(u: &mut Unstructured) -> Result<Setup> {
    let options = options(u)?;
    let mut players = Vec::new();
    for _ in 0..u.int_in_range(0..=5)? {
        let planes = if u.ratio(7, 8)? {
            usize::from(options.planes)
        } else {
            u.int_in_range(0..=5)?
        };
        players.push(PlayerSetup {
            colour: colour(u)?,
            planes: (0..planes).map(|_| progress(u)).collect::<Result<_>>()?,
            captures: u.int_in_range(0..=12)?,
            resigned: u.ratio(1, 16)?,
            rank: if u.ratio(1, 8)? {
                Some(u.int_in_range(0..=5)?)
            } else {
                None
            },
            items: Vec::new(),
        });
    }
    // Every field not set here comes from a valid new game, so a field added to `Setup`
    // keeps a sensible value.
    let base = Game::new(
        Options::traditional(),
        &[Colour::Red, Colour::Blue],
        Colour::Red,
    )
    .expect("a two-player traditional game starts");
    Ok(Setup {
        options,
        players,
        turn: colour(u)?,
        roll: if u.ratio(1, 3)? {
            Some(u.int_in_range(0..=7)?)
        } else {
            None
        },
        sixes: u.int_in_range(0..=3)?,
        forced: if u.ratio(1, 8)? {
            Some(u.int_in_range(0..=4)?)
        } else {
            None
        },
        six_moved: (0..u.int_in_range(0..=2)?)
            .map(|_| u.int_in_range(0..=4))
            .collect::<Result<_>>()?,
        weather_round: u.int_in_range(0..=6)?,
        first: if u.ratio(1, 2)? {
            Some(colour(u)?)
        } else {
            None
        },
        ..Setup::from(base)
    })
}

/// Rule options: each rule taken from either preset, the plane count 1 to 5 (2 to 4 valid),
/// and the switches at random.
fn options(u: &mut Unstructured) -> Result<Options> {
    let presets = [Options::traditional(), Options::improved()];
    let mut options = *u.choose(&presets)?;
    options.takeoff = u.choose(&presets)?.takeoff;
    options.three_sixes = u.choose(&presets)?.three_sixes;
    options.stacks = u.choose(&presets)?.stacks;
    options.finish = u.choose(&presets)?.finish;
    options.planes = if u.ratio(15, 16)? {
        u.int_in_range(2..=4)?
    } else {
        *u.choose(&[1, 5])?
    };
    options.play_on = u.arbitrary()?;
    options.teams = u.ratio(1, 4)?;
    options.items = u.ratio(1, 4)?;
    options.weather = u.ratio(1, 4)?;
    Ok(options)
}

fn colour(u: &mut Unstructured) -> Result<Colour> {
    u.choose(&Colour::ALL).copied()
}

/// Any progress a plane can have, the hangar included.
fn progress(u: &mut Unstructured) -> Result<Progress> {
    let value = u.int_in_range(0..=Progress::MAX + 1)?;
    Ok(Progress::new(value).unwrap_or(Progress::HANGAR))
}
