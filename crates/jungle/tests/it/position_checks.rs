//! The checked `Position`: impossible setups are refused with a reason; text and JSON
//! round-trip, including the optional rules field.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] functions

use crate::common;

use common::try_position;
use hangar_jungle::{
    Color, ParsePositionError, Position, PositionError, Role, Rules, START_TEXT, Setup,
};

#[test]
fn impossible_positions_are_refused_with_a_reason() {
    let rules = Rules::default();
    let err = try_position("Ra1 Rb1 lg9", Color::Red, rules).unwrap_err();
    assert_eq!(
        err,
        PositionError::Duplicate {
            color: Color::Red,
            role: Role::Rat,
            count: 2
        }
    );
    // J-DEN: no piece in its own den.
    let err = try_position("Ld1 lg9", Color::Red, rules).unwrap_err();
    assert!(matches!(err, PositionError::InOwnDen { .. }), "{err}");
    // J-WATER: only rats in the water.
    let err = try_position("Lb4 lg9", Color::Red, rules).unwrap_err();
    assert!(matches!(err, PositionError::InWater { .. }), "{err}");
    assert!(try_position("Rb4 rf6 lg9", Color::Red, rules).is_ok());
    // The side to move cannot already stand in the enemy den.
    let err = try_position("Ld9 lg9", Color::Red, rules).unwrap_err();
    assert!(
        matches!(err, PositionError::MoverInEnemyDen { .. }),
        "{err}"
    );
    assert!(
        try_position("Ld9 lg9", Color::Yellow, rules).is_ok(),
        "red just entered: decided"
    );
    assert_eq!(
        try_position("", Color::Red, rules).unwrap_err(),
        PositionError::Empty
    );
    // J-WIN-WIPE: the side that moved last cannot have lost every piece; the side to move
    // without pieces is a finished game.
    assert_eq!(
        try_position("Lc1 Rg1", Color::Red, rules).unwrap_err(),
        PositionError::NoPieces {
            color: Color::Yellow
        }
    );
    let over = try_position("Lc1 Rg1", Color::Yellow, rules).unwrap();
    assert!(over.outcome().is_some());
    for err in [
        PositionError::Empty,
        PositionError::Duplicate {
            color: Color::Red,
            role: Role::Rat,
            count: 2,
        },
    ] {
        assert!(!err.to_string().is_empty());
    }
}

#[test]
fn position_text_round_trips_with_and_without_rules() {
    let start: Position = START_TEXT.parse().unwrap();
    assert_eq!(start, Position::default());
    assert_eq!(start.to_string(), START_TEXT);
    let rules: Rules = "order=wolf-over-dog,leopard-leaps".parse().unwrap();
    let pos = Position::start(rules);
    let text = pos.to_string();
    assert_eq!(
        text,
        format!("{START_TEXT} order=wolf-over-dog,leopard-leaps=true")
    );
    let back: Position = text.parse().unwrap();
    assert_eq!(back, pos);
    assert_eq!(back.rules(), rules);
    let json = serde_json::to_string(&pos).unwrap();
    assert_eq!(serde_json::from_str::<Position>(&json).unwrap(), pos);
}

#[test]
fn bad_position_text_is_refused_with_the_right_kind_of_error() {
    assert!(matches!(
        "nonsense".parse::<Position>(),
        Err(ParsePositionError::Syntax(_))
    ));
    let with_bad_rules = format!("{START_TEXT} order=sideways");
    assert!(matches!(
        with_bad_rules.parse::<Position>(),
        Err(ParsePositionError::Rules(_))
    ));
    assert!(matches!(
        "3L3/7/7/7/7/7/7/7/7 r".parse::<Position>(),
        Err(ParsePositionError::Invalid(_))
    ));
    assert!(serde_json::from_str::<Position>("\"7/7/7/7/7/7/7/7/7 r\"").is_err());
}

#[test]
fn setup_round_trips_through_position() {
    let setup: Setup = START_TEXT.parse().unwrap();
    let pos = Position::from_setup(&setup, Rules::default()).unwrap();
    assert_eq!(pos.to_setup(), setup);
    assert_eq!(
        pos.square_of(Color::Red, Role::Rat).unwrap().to_string(),
        "g3"
    );
    assert_eq!(
        pos.square_of(Color::Yellow, Role::Elephant)
            .unwrap()
            .to_string(),
        "g7"
    );
}
