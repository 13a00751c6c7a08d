//! The checked constructor refuses impossible positions with a reason; options and
//! positions have a stable JSON form (§9 presets).
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{player, position, same};
use hangar_flight::{
    Colour, Finish, Game, Options, Preset, Setup, SetupError, Stacks, TakeOff, ThreeSixes,
};

use Colour::{Blue, Green, Red, Yellow};

fn base() -> Setup {
    Game::new(Options::traditional(), &[Red, Blue], Red)
        .unwrap()
        .to_setup()
}

/// §9: the presets set the options as listed.
#[test]
fn presets_match_the_table() {
    let t = Options::traditional();
    assert_eq!(
        (
            t.takeoff,
            t.three_sixes,
            t.stacks,
            t.finish,
            t.items,
            t.weather
        ),
        (
            TakeOff::Six,
            ThreeSixes::None,
            Stacks::Block,
            Finish::Bounce,
            false,
            false
        )
    );
    let i = Options::improved();
    assert_eq!(
        (i.takeoff, i.three_sixes, i.stacks, i.finish),
        (
            TakeOff::FiveOrSix,
            ThreeSixes::AllToHangar,
            Stacks::Pass,
            Finish::Overshoot
        )
    );
    assert_eq!("improved".parse::<Preset>().unwrap().options(), i);
    assert_eq!(Options::default(), t);
    let mut o = Options::traditional();
    o.set("finish", "circle").unwrap();
    o.set("three-sixes", "moved-to-hangar").unwrap();
    o.set("takeoff", "5-or-6").unwrap();
    o.set("play_on", "true").unwrap();
    assert_eq!(o.finish, Finish::Circle);
    assert_eq!(o.three_sixes, ThreeSixes::MovedToHangar);
    assert_eq!(o.takeoff, TakeOff::FiveOrSix);
    assert!(o.play_on);
    assert!(o.set("planes", "7").is_err());
    assert!(o.set("colour", "red").is_err());
}

/// Options JSON: snake_case keys, kebab-case values, missing keys from traditional.
#[test]
fn options_json() {
    let o: Options =
        serde_json::from_str(r#"{"stacks":"pass","finish":"exact-only","planes":3}"#).unwrap();
    assert_eq!(o.stacks, Stacks::Pass);
    assert_eq!(o.finish, Finish::ExactOnly);
    assert_eq!(o.takeoff, TakeOff::Six);
    let json = serde_json::to_value(Options::improved()).unwrap();
    assert_eq!(json["takeoff"], "five-or-six");
    assert_eq!(json["three_sixes"], "all-to-hangar");
    assert!(serde_json::from_str::<Options>(r#"{"stack":"pass"}"#).is_err());
}

/// Positions JSON: the hangar is -1; a game deserialises only through the checks.
#[test]
fn game_json_goes_through_the_checks() {
    let g = Game::new(Options::traditional(), &[Red, Blue], Blue).unwrap();
    let json = serde_json::to_value(g).unwrap();
    assert_eq!(
        json["players"][0]["planes"],
        serde_json::json!([-1, -1, -1, -1])
    );
    assert_eq!(json["turn"], "blue");
    let mut bad = json.clone();
    bad["turn"] = "green".into();
    let err = serde_json::from_value::<Game>(bad).unwrap_err().to_string();
    assert!(err.contains("green"), "{err}");
    let mut bad = json;
    bad["players"][0]["planes"][0] = 61.into();
    assert!(serde_json::from_value::<Game>(bad).is_err());
}

/// Each impossible position is refused with its reason.
#[test]
fn impossible_positions_are_refused() {
    let check = |edit: &dyn Fn(&mut Setup), expected: SetupError| {
        let mut s = base();
        edit(&mut s);
        assert_eq!(Game::from_setup(s), Err(expected));
    };
    check(
        &|s| s.players[0].items = vec![hangar_flight::Item::Booster],
        SetupError::BadItems("an item bar without the items option"),
    );
    check(
        &|s| s.draw = Some(hangar_flight::Draw::Weather),
        SetupError::BadWeather("weather without the weather option"),
    );
    check(
        &|s| s.players[0].planes.pop().map(drop).unwrap_or(()),
        SetupError::WrongPlaneCount {
            colour: Red,
            found: 3,
            expected: 4,
        },
    );
    check(
        &|s| s.players[1].colour = Red,
        SetupError::DuplicateColour(Red),
    );
    check(&|s| s.players[1].colour = Yellow, SetupError::NotOpposite);
    check(&|s| s.turn = Green, SetupError::TurnNotPlaying(Green));
    check(&|s| s.roll = Some(3), SetupError::BadRoll(3));
    check(&|s| s.roll = Some(9), SetupError::BadRoll(9));
    check(&|s| s.sixes = 1, SetupError::BadSixes(1));
    check(&|s| s.forced = Some(0), SetupError::BadForced(0));
    check(&|s| s.six_moved = vec![0], SetupError::BadSixMoved);
    check(&|s| s.players[0].rank = Some(1), SetupError::BadRanks);
    check(
        &|s| s.players[0].planes[0] = common::p(58),
        SetupError::LoopWithoutCircle {
            colour: Red,
            plane: 0,
        },
    );
    check(
        &|s| {
            s.players[0].resigned = true;
            s.players[1].resigned = true;
        },
        SetupError::BadResignation,
    );
}

/// F-STACK at rest: two sides on one square is impossible, except a plane sitting on a
/// stack (F-D-SIT), which is its player's next forced move.
#[test]
fn sides_sharing_a_square() {
    let mut s = position(
        Options::traditional(),
        vec![
            player(Red, &[10, -1, -1, -1]),
            player(Yellow, &[-1; 4]),
            player(Blue, &[-1; 4]),
            player(Green, &[-1; 4]),
        ],
        Red,
    )
    .to_setup();
    let y = same(Red, 10, Yellow);
    s.players[1].planes = vec![common::p(y), common::p(-1), common::p(-1), common::p(-1)];
    let sq = hangar_flight::board::square(Red, common::p(10)).unwrap().0;
    assert_eq!(
        Game::from_setup(s.clone()),
        Err(SetupError::SidesShareSquare { square: sq })
    );
    s.players[1].planes[1] = common::p(y);
    assert_eq!(
        Game::from_setup(s.clone()),
        Err(SetupError::SidesShareSquare { square: sq })
    );
    s.forced = Some(0);
    assert!(Game::from_setup(s).is_ok(), "red sits on the yellow stack");
}
