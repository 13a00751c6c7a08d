//! Records (P-RECORD, F-ROLL): the seat draws and every roll come from the seed, in the
//! documented order, and a record replays exactly.
#![allow(clippy::unwrap_used)]

use hangar_dice::{Dice, Seed};
use hangar_flight::{
    Action, Game, Options, Phase, Record, RecordError, RecordedAction, Seating, Table,
};

/// F-ROLL + F-ORDER + F-D-SEATS: the table draws the seating first, then one die per roll.
#[test]
fn dice_stream_order() {
    let seed = Seed::from_u64(42);
    let mut table = Table::new(Options::traditional(), 3, seed).unwrap();
    let mut dice = Dice::new(seed);
    let seating = Seating::draw(3, false, |n| dice.roll_below(n)).unwrap();
    assert_eq!(table.seating(), &seating);
    assert_eq!(table.draws(), dice.rolls());
    let mut game = Game::new(Options::traditional(), &seating.seated(), seating.first).unwrap();
    for _ in 0..200 {
        match table.game().phase() {
            Phase::Roll => {
                let mut a = Vec::new();
                let mut b = Vec::new();
                table.roll(&mut a).unwrap();
                game.play(Action::Roll { value: dice.roll() }, &mut b)
                    .unwrap();
                assert_eq!(a, b);
            }
            Phase::Move { .. } => {
                let plane = table.game().legal_moves()[0].plane;
                table.choose(plane, &mut Vec::new()).unwrap();
                game.choose(plane, &mut Vec::new()).unwrap();
            }
            Phase::Draw { .. } => panic!("a table settles draws at once"),
            Phase::Over => break,
        }
        assert_eq!(table.game(), &game);
    }
}

/// A refused action draws no die and is not recorded.
#[test]
fn refused_actions_leave_the_record_alone() {
    let mut table = Table::new(Options::improved(), 4, Seed::from_u64(7)).unwrap();
    assert!(table.choose(0, &mut Vec::new()).is_err());
    assert!(table.record().actions.is_empty());
    let draws = table.draws();
    while !matches!(table.game().phase(), Phase::Move { .. }) {
        table.roll(&mut Vec::new()).unwrap();
    }
    let draws_before = table.draws();
    assert!(draws_before > draws);
    assert!(table.roll(&mut Vec::new()).is_err());
    assert_eq!(table.draws(), draws_before);
}

/// A record whose actions do not fit the dice is refused with the failing index.
#[test]
fn tampered_record_is_refused() {
    let record = Record {
        options: Options::traditional(),
        players: 2,
        seed: Seed::from_u64(1),
        actions: vec![RecordedAction::Move(0)],
    };
    assert!(matches!(
        record.replay(&mut Vec::new()),
        Err(RecordError::Action { index: 0, .. })
    ));
    let record = Record {
        players: 5,
        ..record
    };
    assert!(matches!(
        record.replay(&mut Vec::new()),
        Err(RecordError::Setup(_))
    ));
}

/// The JSON form of a record: options, players, seed, and compact actions.
#[test]
fn record_json_shape() {
    let record = Record {
        options: Options::traditional(),
        players: 2,
        seed: Seed::from_u64(1),
        actions: vec![
            RecordedAction::Roll,
            RecordedAction::Move(2),
            RecordedAction::Resign(hangar_flight::Colour::Red),
        ],
    };
    let json = serde_json::to_value(&record).unwrap();
    assert_eq!(
        json["actions"],
        serde_json::json!(["roll", {"move": 2}, {"resign": "red"}])
    );
    assert_eq!(json["seed"].as_str().unwrap().len(), 64);
    assert_eq!(serde_json::from_value::<Record>(json).unwrap(), record);
}
