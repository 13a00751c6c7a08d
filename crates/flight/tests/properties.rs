//! Property tests over random games with random options: invariants of every reachable
//! position (F-BOARD, F-STACK, F-FINISH), records replay exactly (P-RECORD), serde
//! round-trips, and the checked constructor accepts every reachable state.
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;

use hangar_dice::Seed;
use hangar_flight::board::square;
use hangar_flight::{
    Colour, Event, Finish, Game, Options, Phase, Record, ReturnReason, Stacks, Table, TakeOff,
    ThreeSixes,
};
use proptest::prelude::*;

fn options() -> impl Strategy<Value = (Options, u8)> {
    (
        prop_oneof![Just(TakeOff::Six), Just(TakeOff::FiveOrSix)],
        prop_oneof![
            Just(ThreeSixes::None),
            Just(ThreeSixes::AllToHangar),
            Just(ThreeSixes::MovedToHangar)
        ],
        prop_oneof![Just(Stacks::Block), Just(Stacks::Pass)],
        prop_oneof![
            Just(Finish::Bounce),
            Just(Finish::Overshoot),
            Just(Finish::ExactOnly),
            Just(Finish::Circle)
        ],
        any::<bool>(),
        2u8..=4,
        any::<bool>(),
        2u8..=4,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(
                takeoff,
                three_sixes,
                stacks,
                finish,
                play_on,
                planes,
                teams,
                players,
                items,
                weather,
            )| {
                let teams = teams && players == 4;
                (
                    Options {
                        takeoff,
                        three_sixes,
                        stacks,
                        finish,
                        play_on,
                        planes,
                        teams,
                        items,
                        weather,
                    },
                    players,
                )
            },
        )
}

/// Checks the invariants of a reachable position.
fn check_position(game: &Game) {
    // The checked constructor accepts it and gives it back unchanged.
    assert_eq!(Game::from_setup(game.to_setup()).as_ref(), Ok(game));
    let mut sides: HashMap<u8, Vec<(Colour, u8)>> = HashMap::new();
    for colour in game.players() {
        // Planes are conserved.
        assert_eq!(game.planes(colour).len(), game.plane_count());
        for (i, &p) in game.planes(colour).iter().enumerate() {
            // No plane stands where its route cannot go.
            assert!(p.is_hangar() || p.get() <= 60);
            assert!(!p.is_loop() || game.options().finish == Finish::Circle);
            if game.has_resigned(colour) {
                continue;
            }
            if let Some(s) = square(colour, p) {
                sides.entry(s.0).or_default().push((colour, i as u8));
            }
        }
    }
    // At rest no square holds two sides, except a plane sitting on a stack (F-STACK).
    for planes in sides.values() {
        let (first, _) = planes[0];
        if planes.iter().all(|&(c, _)| game.same_side(c, first)) {
            continue;
        }
        let sitter = game.forced_plane().map(|f| (game.turn(), f));
        assert!(
            sitter.is_some_and(|s| planes.contains(&s)),
            "two sides share a square: {planes:?} in {game:?}"
        );
    }
}

/// A position with planes of one colour treated as interchangeable (F-D-SAME): each
/// colour's planes sorted, and plane indices replaced by where those planes stand.
fn canonical(game: &Game) -> serde_json::Value {
    let mut setup = game.to_setup();
    let turn = game.turn();
    let spot = |i: u8| game.plane(turn, i).to_i16();
    let forced = setup.forced.map(spot);
    let mut six_moved: Vec<i16> = setup.six_moved.iter().map(|&i| spot(i)).collect();
    six_moved.sort_unstable();
    for p in &mut setup.players {
        p.planes.sort();
    }
    setup.forced = None;
    setup.six_moved.clear();
    serde_json::json!({"setup": setup, "forced": forced, "six_moved": six_moved, "phase": game.phase()})
}

/// F-CHOICE / F-D-SAME: the listed moves give pairwise different positions, and every
/// legal plane gives the position of one listed move.
fn check_choices(game: &Game) {
    let moves = game.legal_moves();
    let after = |plane: u8| {
        let mut g = *game;
        g.choose(plane, &mut hangar_flight::NoEvents).unwrap();
        canonical(&g)
    };
    let listed: Vec<serde_json::Value> = moves.iter().map(|m| after(m.plane)).collect();
    for i in 0..listed.len() {
        for j in i + 1..listed.len() {
            assert_ne!(
                listed[i], listed[j],
                "two listed moves are one choice in {game:?}"
            );
        }
    }
    for plane in 0..game.plane_count() as u8 {
        if game.is_legal(plane) {
            assert!(
                listed.contains(&after(plane)),
                "plane {plane} is not covered in {game:?}"
            );
        }
    }
}

/// Plays a random game on a table, checking every step; returns the events.
fn play(
    options: Options,
    players: u8,
    seed: u64,
    choices: &[u8],
    max_actions: usize,
) -> (Table, Vec<Event>) {
    let mut events = Vec::new();
    let mut table = Table::start(options, players, Seed::from_u64(seed), &mut events).unwrap();
    let mut step = 0usize;
    while table.game().phase() != Phase::Over && step < max_actions {
        let before = *table.game();
        let start = events.len();
        match before.phase() {
            // F-ITEM-USE: sometimes use the oldest item in the bar before rolling.
            Phase::Roll
                if choices[step % choices.len()].is_multiple_of(3)
                    && before.item_in_use().is_none()
                    && !before.item_bar(before.turn()).is_empty() =>
            {
                let item = before.item_bar(before.turn()).items().next().unwrap();
                table.use_item(item, &mut events).unwrap();
            }
            Phase::Roll => {
                table.roll(&mut events).unwrap();
            }
            Phase::Move { .. } => {
                let moves = before.legal_moves();
                assert!(!moves.is_empty());
                // Listed moves are legal, and legal_moves agrees with is_legal.
                for m in &moves {
                    assert!(before.is_legal(m.plane));
                }
                check_choices(&before);
                let pick = choices[step % choices.len()] as usize % moves.len();
                table.choose(moves[pick].plane, &mut events).unwrap();
            }
            Phase::Draw { .. } | Phase::Over => unreachable!("a table settles draws at once"),
        }
        let after = table.game();
        // Items are conserved: on the board at most two, in each bar at most three.
        assert!(after.board_items().count() <= 2);
        for colour in after.players() {
            assert!(after.item_bar(colour).len() <= 3);
        }
        // Finished planes never move, except back to the hangar by a three-sixes penalty.
        for colour in before.players() {
            for i in 0..before.plane_count() {
                let was = before.plane(colour, i as u8);
                let now = after.plane(colour, i as u8);
                if was.is_finished() && now != was {
                    assert!(events[start..].iter().any(|e| matches!(e,
                        Event::Returned { colour: c, plane, reason: ReturnReason::ThreeSixes, .. }
                            if *c == colour && *plane as usize == i)));
                }
            }
        }
        check_position(after);
        step += 1;
    }
    (table, events)
}

proptest! {
    // PROPTEST_CASES=5000 for a longer run.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(128)
    ))]

    /// Invariants of every reachable position, and P-RECORD: replaying the record gives the
    /// same final state and the same events.
    #[test]
    fn random_games_keep_invariants_and_replay(
        (options, players) in options(),
        seed in any::<u64>(),
        choices in proptest::collection::vec(any::<u8>(), 1..32),
    ) {
        let (table, events) = play(options, players, seed, &choices, 4000);
        let mut replayed = Vec::new();
        let again = table.record().replay(&mut replayed).unwrap();
        prop_assert_eq!(again.game(), table.game());
        prop_assert_eq!(&replayed, &events);
        // The record survives JSON.
        let json = serde_json::to_string(table.record()).unwrap();
        let back: Record = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(&back, table.record());
    }

    /// The fast path (`roll_and_pick`, `play_unchecked`, `NoEvents`) and the checked path
    /// with events (`play`) give the same game at every step.
    #[test]
    fn fast_path_matches_checked_path(
        (options, players) in options(),
        seed in any::<u64>(),
        choices in proptest::collection::vec(any::<u8>(), 1..16),
    ) {
        let table = Table::new(options, players, Seed::from_u64(seed)).unwrap();
        let mut fast = *table.game();
        let mut slow = fast;
        let mut dice = hangar_dice::Dice::new(Seed::from_u64(seed ^ 0xABCD));
        let mut step = 0usize;
        while fast.phase() != Phase::Over && step < 3000 {
            let pick = choices[step % choices.len()] as usize;
            if let Phase::Draw { .. } = fast.phase() {
                let index = dice.roll_below(u32::from(fast.draw_choices())) as u16;
                fast.draw(index, &mut hangar_flight::NoEvents).unwrap();
                slow.play(hangar_flight::Action::Draw { index }, &mut Vec::new()).unwrap();
                prop_assert_eq!(fast, slow);
                continue;
            }
            if pick.is_multiple_of(3)
                && fast.item_in_use().is_none()
                && let Some(item) = fast.item_bar(fast.turn()).items().next()
            {
                let moves = fast.use_item(item, &mut hangar_flight::NoEvents).unwrap();
                if !moves.is_empty() {
                    fast.play_unchecked(&moves[pick % moves.len()], &mut hangar_flight::NoEvents);
                }
                let mut events = Vec::new();
                let moves = slow.use_item(item, &mut events).unwrap();
                if !moves.is_empty() {
                    slow.play(hangar_flight::Action::Move { plane: moves[pick % moves.len()].plane }, &mut events).unwrap();
                }
                prop_assert_eq!(fast, slow);
                step += 1;
                continue;
            }
            let roll = dice.roll();
            fast.roll_and_pick(roll, |_, m| pick % m.len()).unwrap();
            let mut events = Vec::new();
            let moves = slow.roll(roll, &mut events).unwrap();
            if !moves.is_empty() {
                slow.play(hangar_flight::Action::Move { plane: moves[pick % moves.len()].plane }, &mut events).unwrap();
            }
            prop_assert_eq!(fast, slow);
            step += 1;
        }
    }

    /// Serde round-trips of positions and events along random games.
    #[test]
    fn serde_round_trips(
        (options, players) in options(),
        seed in any::<u64>(),
        choices in proptest::collection::vec(any::<u8>(), 1..8),
    ) {
        let mut table = Table::new(options, players, Seed::from_u64(seed)).unwrap();
        let mut steps = 0;
        while table.game().phase() != Phase::Over && steps < 300 {
            let mut events = Vec::new();
            match table.game().phase() {
                Phase::Roll => {
                    match table.game().item_bar(table.game().turn()).items().next() {
                        Some(item) if steps % 2 == 0 && table.game().item_in_use().is_none() => {
                            table.use_item(item, &mut events).unwrap();
                        }
                        _ => { table.roll(&mut events).unwrap(); }
                    }
                }
                _ => {
                    let moves = table.game().legal_moves();
                    let pick = choices[steps % choices.len()] as usize % moves.len();
                    table.choose(moves[pick].plane, &mut events).unwrap();
                }
            }
            let json = serde_json::to_string(table.game()).unwrap();
            let back: Game = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(&back, table.game());
            let json = serde_json::to_string(&events).unwrap();
            let back: Vec<Event> = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(back, events);
            steps += 1;
        }
    }
}
