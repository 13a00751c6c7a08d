//! The TD-trained nets: they load, give probabilities, judge every game by the nearest preset,
//! and see a position the same from whichever colour it is played.

#![allow(clippy::unwrap_used)] // Tests fail loudly on any error.

use hangar_bots::flight::snapshot::{At, Snapshot};
use hangar_bots::flight::{HeuristicBot, Net, View, play_game};
use hangar_dice::{Dice, Seed};
use hangar_flight::{Game, NoEvents, Options, Seating};

/// Plays `rolls` rolls of random moves from the start.
fn position(options: Options, players: usize, seed: u64, rolls: u32) -> Game {
    let mut dice = Dice::new(Seed::from_u64(seed));
    let seating = Seating::draw(players, options.teams, |n| dice.roll_below(n)).unwrap();
    let mut game = Game::new(options, &seating.seated(), seating.first).unwrap();
    for _ in 0..rolls {
        if game.is_over() {
            break;
        }
        let moves = game.roll(dice.roll(), &mut NoEvents).unwrap();
        if !moves.is_empty() {
            let index = dice.roll_below(moves.len() as u32) as usize;
            game.play_unchecked(&moves[index], &mut NoEvents);
        }
    }
    game
}

/// Snapshots of random play still going, from the opening to deep in the game.
fn snapshots_in_play(options: Options, players: usize) -> impl Iterator<Item = Snapshot> {
    (0..10)
        .map(move |seed| position(options, players, seed, 10 + 15 * seed as u32))
        .filter(|game| !game.is_over())
        .map(|game| Snapshot::of(&game))
}

/// The same position with every colour moved `shift` seats on.
fn rotated(snapshot: &Snapshot, shift: usize) -> Snapshot {
    let mut turned = snapshot.clone();
    for colour in 0..4 {
        let to = (colour + shift) % 4;
        turned.present[to] = snapshot.present[colour];
        turned.at[to] = snapshot.at[colour];
    }
    turned.to_roll = snapshot.to_roll.map(|c| (c + shift) % 4);
    turned
}

/// The two presets a net is shipped for.
const PRESETS: [Options; 2] = [Options::traditional(), Options::improved()];

/// `options` with 2-vs-2 teams.
fn with_teams(options: &Options) -> Options {
    Options {
        teams: true,
        ..*options
    }
}

#[test]
fn every_shipped_net_loads() {
    for options in &PRESETS {
        for players in 2..=4 {
            let net = Net::shipped(options, players).expect("td{2,3,4}.bin, td{2,3,4}i.bin");
            assert_eq!(net.view(), View::Roller);
        }
        for players in [0, 1, 5] {
            assert!(Net::shipped(options, players).is_none());
        }
        let teams = Net::shipped(&with_teams(options), 4).expect("td4t.bin, td4ti.bin");
        assert_ne!(teams, Net::shipped(options, 4).unwrap());
    }
    // Each preset and player count has a net of its own, not one net under two names.
    assert_ne!(
        Net::shipped(&PRESETS[0], 3).unwrap(),
        Net::shipped(&PRESETS[0], 4).unwrap()
    );
    for players in 2..=4 {
        assert_ne!(
            Net::shipped(&PRESETS[0], players).unwrap(),
            Net::shipped(&PRESETS[1], players).unwrap()
        );
    }
    let versus = Net::versus(2).expect("crates/bots/data/td2h.bin");
    assert_eq!(versus.view(), View::Player);
}

#[test]
fn every_game_of_two_to_four_players_has_a_net() {
    let teams = with_teams(&Options::traditional());
    assert!(Net::for_game(&position(Options::traditional(), 2, 1, 0)).is_some());
    assert!(Net::for_game(&position(Options::traditional(), 4, 1, 0)).is_some());
    assert!(Net::for_game(&position(Options::traditional(), 3, 1, 0)).is_some());
    assert!(Net::for_game(&position(teams, 4, 1, 0)).is_some());
    assert!(Net::for_game(&position(with_teams(&Options::improved()), 4, 1, 0)).is_some());
    for players in 2..=4 {
        assert!(Net::for_game(&position(Options::improved(), players, 1, 0)).is_some());
    }
    assert!(Net::versus_for_game(&position(Options::traditional(), 2, 1, 0)).is_some());
    assert!(Net::versus_for_game(&position(Options::traditional(), 3, 1, 0)).is_none());
    assert!(Net::versus_for_game(&position(Options::improved(), 2, 1, 0)).is_none());
    assert!(Net::versus_for_game(&position(teams, 4, 1, 0)).is_none());
}

/// Any other option set is judged by the net of the preset it is nearest to: the one that
/// agrees on more of take-off, three sixes, stacks and finish; items, weather, play-on and the
/// plane count (F-PLANES) do not move it.
#[test]
fn custom_rules_get_the_nearest_preset_s_net() {
    let custom = |base: Options, key: &str, value: &str| {
        let mut options = base;
        options.set(key, value).unwrap();
        options
    };
    let traditional = Options::traditional();
    let improved = Options::improved();
    for players in 2..=4 {
        let near_traditional = Net::shipped(&traditional, players);
        let near_improved = Net::shipped(&improved, players);
        for (key, value) in [
            ("stacks", "pass"),
            ("finish", "exact-only"),
            ("takeoff", "five-or-six"),
            ("three-sixes", "moved-to-hangar"),
            ("planes", "2"),
            ("planes", "3"),
            ("items", "true"),
            ("weather", "true"),
            ("play-on", "true"),
        ] {
            assert_eq!(
                Net::shipped(&custom(traditional, key, value), players),
                near_traditional
            );
        }
        for (key, value) in [("finish", "bounce"), ("planes", "3"), ("weather", "true")] {
            assert_eq!(
                Net::shipped(&custom(improved, key, value), players),
                near_improved
            );
        }
        // Two rules of each: a tie, judged by the traditional net.
        let half = custom(custom(traditional, "stacks", "pass"), "finish", "overshoot");
        assert_eq!(Net::shipped(&half, players), near_traditional);
        let mostly_improved = custom(half, "takeoff", "five-or-six");
        assert_eq!(Net::shipped(&mostly_improved, players), near_improved);
    }
    let teams = custom(custom(improved, "teams", "true"), "planes", "2");
    assert_eq!(
        Net::shipped(&teams, 4),
        Net::shipped(&with_teams(&improved), 4)
    );
}

/// F-PLANES: a game of fewer planes is seen as a four-plane game whose missing planes have
/// finished: the net sees exactly that position, and its chances still sum to one.
#[test]
fn fewer_planes_are_judged_as_planes_already_home() {
    let mut options = Options::traditional();
    options.set("planes", "2").unwrap();
    let net = Net::shipped(&options, 2).unwrap();
    let mut judged = 0;
    for snapshot in snapshots_in_play(options, 2) {
        judged += 1;
        assert_eq!(snapshot.planes, 2);
        let mut padded = snapshot.clone();
        padded.planes = 4;
        for colour in 0..4 {
            padded.at[colour][2..].fill(At::Finished);
        }
        assert_eq!(net.win_chances(&snapshot), net.win_chances(&padded));
        let sum: f32 = net.win_chances(&snapshot).iter().sum();
        assert!((sum - 1.0).abs() < 1e-4, "{sum}");
    }
    assert!(judged >= 5, "only {judged} positions still in play");
}

/// F-TEAM: a team game is won by a side, so a team net gives partners one chance, their
/// side's, and the two sides' chances sum to 1.
#[test]
fn partners_share_their_side_s_chance() {
    for options in PRESETS.iter().map(with_teams) {
        let net = Net::shipped(&options, 4).unwrap();
        for snapshot in snapshots_in_play(options, 4) {
            let chances = net.win_chances(&snapshot);
            for colour in 0..4 {
                assert!((0.0..=1.0).contains(&chances[colour]), "{chances:?}");
                assert_eq!(chances[colour], chances[(colour + 2) % 4]);
                assert!((net.chance(&snapshot, colour) - chances[colour]).abs() < 1e-5);
            }
            assert!((chances[0] + chances[1] - 1.0).abs() < 1e-4, "{chances:?}");
        }
    }
}

/// The player's-view net judges a position for each player from that player's seat: the
/// chances are probabilities, and a player far ahead is the favourite whoever rolls next.
#[test]
fn the_versus_net_favours_the_player_far_ahead() {
    let net = Net::versus(2).unwrap();
    let mut snapshot = Snapshot::of(&position(Options::traditional(), 2, 3, 0));
    let seated: Vec<usize> = (0..4).filter(|&c| snapshot.present[c]).collect();
    for (ahead, behind) in [(seated[0], seated[1]), (seated[1], seated[0])] {
        snapshot.at[ahead] = [At::Finished, At::Finished, At::Finished, At::Route(52)];
        snapshot.at[behind] = [At::Hangar, At::Hangar, At::Route(0), At::Route(5)];
        for roller in [ahead, behind] {
            snapshot.to_roll = Some(roller);
            let (a, b) = (net.chance(&snapshot, ahead), net.chance(&snapshot, behind));
            assert!((0.0..=1.0).contains(&a) && (0.0..=1.0).contains(&b));
            assert!(a > 0.8 && b < 0.2, "roller {roller}: ahead {a}, behind {b}");
        }
    }
}

#[test]
fn win_chances_are_probabilities_of_the_seated_colours() {
    for (options, players) in PRESETS.iter().flat_map(|o| [(o, 2), (o, 3), (o, 4)]) {
        let net = Net::shipped(options, players).unwrap();
        for seed in 0..20 {
            let game = position(*options, players, seed, 10 * seed as u32);
            let snapshot = Snapshot::of(&game);
            let chances = net.win_chances(&snapshot);
            let sum: f32 = chances.iter().sum();
            assert!((sum - 1.0).abs() < 1e-4, "{chances:?}");
            for (colour, chance) in chances.iter().enumerate() {
                assert!((0.0..=1.0).contains(chance));
                if !snapshot.present[colour] {
                    assert_eq!(*chance, 0.0);
                }
            }
        }
    }
}

#[test]
fn a_position_is_worth_the_same_from_every_colour() {
    for (options, players) in PRESETS.iter().flat_map(|o| [(o, 2), (o, 3), (o, 4)]) {
        let net = Net::shipped(options, players).unwrap();
        for seed in 0..10 {
            let game = position(*options, players, seed, 15 + 12 * seed as u32);
            let snapshot = Snapshot::of(&game);
            let chances = net.win_chances(&snapshot);
            for shift in 1..4 {
                let turned = net.win_chances(&rotated(&snapshot, shift));
                for colour in 0..4 {
                    let diff = (turned[(colour + shift) % 4] - chances[colour]).abs();
                    assert!(diff < 1e-5, "shift {shift}: {turned:?} vs {chances:?}");
                }
            }
        }
    }
}

#[test]
fn the_side_far_ahead_is_the_favourite() {
    for options in &PRESETS {
        let net = Net::shipped(options, 2).unwrap();
        let mut snapshot = Snapshot::of(&position(*options, 2, 3, 0));
        let (me, other) = {
            let seated: Vec<usize> = (0..4).filter(|&c| snapshot.present[c]).collect();
            (seated[0], seated[1])
        };
        snapshot.at[me] = [At::Finished, At::Finished, At::Finished, At::Route(52)];
        snapshot.at[other] = [At::Hangar, At::Hangar, At::Route(0), At::Route(5)];
        for roller in [me, other] {
            snapshot.to_roll = Some(roller);
            let chances = net.win_chances(&snapshot);
            assert!(chances[me] > 0.8, "{options:?}: {chances:?}");
        }
    }
}

#[test]
fn a_finished_game_is_worth_its_result() {
    let heuristic = HeuristicBot::default();
    let result = play_game(
        Options::traditional(),
        &[&heuristic, &heuristic],
        Seed::from_u64(4),
    )
    .unwrap();
    let chances = Net::shipped(&Options::traditional(), 2)
        .unwrap()
        .win_chances(&Snapshot::of(&result.game));
    let winner = result.colours[result.ranks.iter().position(|&r| r == 1).unwrap()];
    assert_eq!(chances[winner], 1.0);
    assert_eq!(chances.iter().sum::<f32>(), 1.0);
}
