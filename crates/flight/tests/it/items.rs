//! Items (flight.md §7): F-ITEM-SPAWN, F-ITEM-PICK, F-ITEM-USE and their decisions.
#![allow(clippy::unwrap_used)]

use crate::common;

use common::{p, planes_of, player, roll_move};
use hangar_flight::Colour::{Blue, Red};
use hangar_flight::{
    Action, Colour, Draw, Event, Game, Item, ItemOnBoard, Options, Phase, PlayError, PlayerSetup,
    Setup, Square,
};

fn items_on(mut options: Options) -> Options {
    options.items = true;
    options
}

/// A position with items on: `players`, `turn` to roll, `items` on the board (red progress
/// → track square), red's bar `bar`.
fn position(players: Vec<PlayerSetup>, turn: Colour, items: &[(i16, Item)], bar: &[Item]) -> Game {
    position_with(Options::traditional(), players, turn, items, bar, |_| {})
}

fn position_with(
    options: Options,
    mut players: Vec<PlayerSetup>,
    turn: Colour,
    items: &[(i16, Item)],
    bar: &[Item],
    edit: impl FnOnce(&mut Setup),
) -> Game {
    for pl in &mut players {
        if pl.colour == Red {
            pl.items = bar.to_vec();
        }
    }
    let mut setup = Setup {
        options: items_on(options),
        players,
        turn,
        roll: None,
        sixes: 0,
        forced: None,
        six_moved: Vec::new(),
        items: items
            .iter()
            .map(|&(progress, item)| ItemOnBoard {
                square: red_square(progress),
                item,
            })
            .collect(),
        weather: None,
        weather_round: 0,
        first: Some(Red),
        item_in_use: None,
        draw: None,
    };
    edit(&mut setup);
    Game::from_setup(setup).unwrap()
}

/// The track square of red's progress `p`.
fn red_square(progress: i16) -> Square {
    Square(((2 + progress) % 52) as u8)
}

fn bar(game: &Game, colour: Colour) -> Vec<Item> {
    game.item_bar(colour).items().collect()
}

/// F-ITEM-SPAWN: round 1 starts with the game, and an item is drawn at once over the 52
/// track squares × 2 kinds; the draw is an input like the die.
#[test]
fn an_item_is_drawn_when_the_game_starts() {
    let mut game = Game::new(items_on(Options::traditional()), &[Red, Blue], Red).unwrap();
    assert_eq!(game.phase(), Phase::Draw { what: Draw::Item });
    assert_eq!(game.draw_choices(), 104);
    let mut events = Vec::new();
    assert_eq!(game.roll(3, &mut events), Err(PlayError::DrawExpected));
    assert_eq!(
        game.draw(104, &mut events),
        Err(PlayError::BadDraw {
            index: 104,
            choices: 104
        })
    );
    game.draw(7 * 2 + 1, &mut events).unwrap();
    assert_eq!(
        events,
        vec![Event::ItemAppeared {
            item: Item::Booster,
            square: Square(7)
        }]
    );
    assert_eq!(
        game.board_items().collect::<Vec<_>>(),
        vec![ItemOnBoard {
            square: Square(7),
            item: Item::Booster
        }]
    );
    assert_eq!(game.phase(), Phase::Roll);
    assert_eq!(game.draw(0, &mut events), Err(PlayError::NoDrawAwaited));
}

/// F-ITEM-SPAWN: one new item at the start of each round (when the turn comes back to the
/// first player), never in the middle of a round, and none while two lie on the board.
#[test]
fn f_item_spawn_one_item_per_round_and_at_most_two_on_the_board() {
    let mut game = Game::new(items_on(Options::traditional()), &[Red, Blue], Red).unwrap();
    game.draw(7 * 2, &mut Vec::new()).unwrap();
    // Red's roll is spent (all planes in the hangar): blue's turn, same round.
    common::roll_only(&mut game, 1);
    assert_eq!(game.phase(), Phase::Roll);
    assert_eq!(game.turn(), Blue);
    // Back to red: round 2 starts, one item lies, so one is drawn over the 51 free squares.
    common::roll_only(&mut game, 1);
    assert_eq!(game.phase(), Phase::Draw { what: Draw::Item });
    assert_eq!(game.draw_choices(), 51 * 2);
    // Square 7 holds an item, so outcome 7 × 2 is square 8.
    let mut events = Vec::new();
    game.draw(7 * 2 + 1, &mut events).unwrap();
    assert_eq!(
        events,
        vec![Event::ItemAppeared {
            item: Item::Booster,
            square: Square(8)
        }]
    );
    // Round 3: two lie, nothing is drawn.
    common::roll_only(&mut game, 1);
    common::roll_only(&mut game, 1);
    assert_eq!(game.turn(), Red);
    assert_eq!(game.phase(), Phase::Roll);
    assert_eq!(game.board_items().count(), 2);
}

/// F-ITEM-SPAWN decision: an item that appears under a plane at rest is not picked up; a
/// plane that later comes to rest there takes it.
#[test]
fn an_item_appearing_under_a_resting_plane_is_not_picked() {
    let mut game = position_with(
        Options::traditional(),
        vec![player(Red, &[11, 9, -1, -1]), player(Blue, &[-1; 4])],
        Red,
        &[],
        &[],
        |s| s.draw = Some(Draw::Item),
    );
    // Red's plane 0 rests on square 13 (red progress 11); no item lies, so outcome 13 × 2
    // is a six die on square 13.
    game.draw(13 * 2, &mut Vec::new()).unwrap();
    assert_eq!(
        game.board_items().collect::<Vec<_>>(),
        vec![ItemOnBoard {
            square: red_square(11),
            item: Item::SixDie
        }]
    );
    assert!(game.item_bar(Red).is_empty());
    // Plane 1 comes to rest there: it takes the item (F-ITEM-PICK).
    let events = roll_move(&mut game, 2, 1);
    assert!(events.contains(&Event::ItemPicked {
        colour: Red,
        plane: 1,
        item: Item::SixDie,
        at: p(11),
        kept: true
    }));
    assert_eq!(bar(&game, Red), vec![Item::SixDie]);
    assert_eq!(game.board_items().count(), 0);
}

/// F-ITEM-PICK: resting points take items — the end of the walk and the end of the jump —
/// while squares walked or jumped over do not.
#[test]
fn f_item_pick_items_are_taken_at_each_resting_point_only() {
    // Items on red's 10 (an own-colour square: the walk ends there, then jumps to 14) and 12.
    let mut game = position(
        vec![player(Red, &[8, -1, -1, -1]), player(Blue, &[-1; 4])],
        Red,
        &[(10, Item::Booster), (12, Item::SixDie)],
        &[],
    );
    let events = roll_move(&mut game, 2, 0);
    assert_eq!(planes_of(&game, Red)[0], 14);
    assert!(events.contains(&Event::ItemPicked {
        colour: Red,
        plane: 0,
        item: Item::Booster,
        at: p(10),
        kept: true
    }));
    assert_eq!(bar(&game, Red), vec![Item::Booster]);
    // The six die on 12 was jumped over and still lies.
    assert_eq!(
        game.board_items().collect::<Vec<_>>(),
        vec![ItemOnBoard {
            square: red_square(12),
            item: Item::SixDie
        }]
    );
    // Walking over an item does not take it either.
    let mut game = position(
        vec![player(Red, &[3, -1, -1, -1]), player(Blue, &[-1; 4])],
        Red,
        &[(5, Item::Booster)],
        &[],
    );
    roll_move(&mut game, 4, 0);
    assert_eq!(planes_of(&game, Red)[0], 7);
    assert!(game.item_bar(Red).is_empty());
    assert_eq!(game.board_items().count(), 1);
}

/// F-ITEM-PICK decision: the bar holds three; a fourth picked up is lost and leaves the board.
#[test]
fn a_fourth_item_is_lost() {
    let full = [Item::SixDie, Item::SixDie, Item::Booster];
    let mut game = position(
        vec![player(Red, &[9, -1, -1, -1]), player(Blue, &[-1; 4])],
        Red,
        &[(11, Item::Booster)],
        &full,
    );
    let events = roll_move(&mut game, 2, 0);
    assert!(events.contains(&Event::ItemPicked {
        colour: Red,
        plane: 0,
        item: Item::Booster,
        at: p(11),
        kept: false
    }));
    assert_eq!(bar(&game, Red), full.to_vec());
    assert_eq!(game.board_items().count(), 0);
}

/// F-ITEM-USE decision: an item is used only on one's own turn, before rolling — not with a
/// roll pending, not while a draw is awaited, not another player's item, not with items off.
#[test]
fn items_are_used_only_on_ones_own_turn_before_rolling() {
    let planes = || vec![player(Red, &[9, -1, -1, -1]), player(Blue, &[-1; 4])];
    // With a roll pending.
    let mut game = position_with(
        Options::traditional(),
        planes(),
        Red,
        &[],
        &[Item::Booster],
        |s| s.roll = Some(2),
    );
    let before = game;
    assert_eq!(
        game.play(
            Action::UseItem {
                item: Item::Booster
            },
            &mut Vec::new()
        ),
        Err(PlayError::MoveExpected)
    );
    assert_eq!(game, before);
    // While a draw is awaited.
    let mut game = position_with(
        Options::traditional(),
        planes(),
        Red,
        &[],
        &[Item::Booster],
        |s| s.draw = Some(Draw::Item),
    );
    assert_eq!(
        game.use_item(Item::Booster, &mut Vec::new()),
        Err(PlayError::DrawExpected)
    );
    // Blue's turn: red's booster is not blue's.
    let mut game = position(planes(), Blue, &[], &[Item::Booster]);
    assert_eq!(
        game.use_item(Item::Booster, &mut Vec::new()),
        Err(PlayError::NoItem {
            item: Item::Booster
        })
    );
    // Items off.
    let mut game = Game::new(Options::traditional(), &[Red, Blue], Red).unwrap();
    assert_eq!(
        game.use_item(Item::SixDie, &mut Vec::new()),
        Err(PlayError::ItemsOff)
    );
}

/// F-ITEM-USE: a six die is a 6 thrown at once, with its consequences: a take-off and the
/// bonus roll.
#[test]
fn six_die_is_a_thrown_six() {
    let mut game = position(
        vec![player(Red, &[-1; 4]), player(Blue, &[-1; 4])],
        Red,
        &[],
        &[Item::SixDie],
    );
    let mut events = Vec::new();
    let moves = game.use_item(Item::SixDie, &mut events).unwrap();
    assert_eq!(
        events,
        vec![
            Event::ItemUsed {
                colour: Red,
                item: Item::SixDie
            },
            Event::Rolled {
                colour: Red,
                value: 6
            }
        ]
    );
    assert_eq!(game.phase(), Phase::Move { roll: 6 });
    assert_eq!(moves.len(), 1);
    assert!(game.item_bar(Red).is_empty());
    let mut events = Vec::new();
    game.choose(0, &mut events).unwrap();
    assert_eq!(planes_of(&game, Red)[0], 0);
    assert!(events.contains(&Event::BonusRoll { colour: Red }));
    assert_eq!(game.turn(), Red);
}

/// F-ITEM-USE + F-THREE-SIXES: a six die after two sixes is a penalised third 6.
#[test]
fn six_die_counts_toward_three_sixes() {
    let mut game = position_with(
        Options::improved(),
        vec![player(Red, &[10, -1, -1, -1]), player(Blue, &[-1; 4])],
        Red,
        &[],
        &[Item::SixDie],
        |s| s.sixes = 2,
    );
    let mut events = Vec::new();
    let moves = game.use_item(Item::SixDie, &mut events).unwrap();
    assert!(moves.is_empty());
    assert!(events.contains(&Event::ThreeSixes { colour: Red }));
    assert_eq!(planes_of(&game, Red)[0], -1);
    assert_eq!(game.turn(), Blue);
}

/// F-ITEM-USE: a booster leaves the roll to be thrown at once and the moved plane walks
/// twice the roll; one item per roll; the booster is spent with that roll.
#[test]
fn booster_walks_twice_the_roll() {
    let mut game = position(
        vec![player(Red, &[21, -1, -1, -1]), player(Blue, &[-1; 4])],
        Red,
        &[],
        &[Item::Booster, Item::Booster],
    );
    let moves = game.use_item(Item::Booster, &mut Vec::new()).unwrap();
    assert!(moves.is_empty());
    assert_eq!(game.phase(), Phase::Roll);
    assert_eq!(game.item_in_use(), Some(Item::Booster));
    assert_eq!(
        game.use_item(Item::Booster, &mut Vec::new()),
        Err(PlayError::ItemInUse {
            item: Item::Booster
        })
    );
    // The position with a booster in use survives the checked round trip.
    assert_eq!(Game::from_setup(game.to_setup()), Ok(game));
    let moves = game.roll(3, &mut Vec::new()).unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].to, p(27));
    roll_move_chosen(&mut game, 0);
    assert_eq!(planes_of(&game, Red)[0], 27);
    assert_eq!(game.item_in_use(), None);
    assert_eq!(bar(&game, Red), vec![Item::Booster]);
    assert_eq!(game.turn(), Blue);
}

fn roll_move_chosen(game: &mut Game, plane: u8) {
    game.choose(plane, &mut Vec::new()).unwrap();
}

/// F-ITEM-USE: a booster past the finish bounces back twice as far, onto the track again,
/// where the bounce's end captures like any resting point (F-CAPTURE).
#[test]
fn booster_bounce_can_come_back_to_the_track() {
    // Red at 55 walks 2 × 6 = 12: 1 to the finish, 11 back to 45, where a blue plane stands.
    let blue_at = common::same(Red, 45, Blue);
    let mut game = position(
        vec![
            player(Red, &[55, -1, -1, -1]),
            player(Blue, &[blue_at, -1, -1, -1]),
        ],
        Red,
        &[],
        &[Item::Booster],
    );
    game.use_item(Item::Booster, &mut Vec::new()).unwrap();
    let events = roll_move(&mut game, 6, 0);
    assert_eq!(planes_of(&game, Red)[0], 45);
    assert_eq!(planes_of(&game, Blue)[0], -1);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Captured { by: Red, .. }))
    );
}

/// F-ITEM-USE + F-STACK-TRADITIONAL: with a booster the die, not the pips, decides the 6
/// that sits on a stack: a 6 walks 12 pips but stops on top of an enemy stack 4 ahead.
#[test]
fn booster_six_sits_on_a_stack() {
    let stack = common::same(Red, 23, Blue);
    let mut game = position(
        vec![
            player(Red, &[19, -1, -1, -1]),
            player(Blue, &[stack, stack, -1, -1]),
        ],
        Red,
        &[],
        &[Item::Booster],
    );
    game.use_item(Item::Booster, &mut Vec::new()).unwrap();
    let events = roll_move(&mut game, 6, 0);
    assert!(events.iter().any(|e| matches!(e, Event::SatOnStack { .. })));
    assert_eq!(planes_of(&game, Red)[0], 23);
    assert_eq!(game.forced_plane(), Some(0));
}
