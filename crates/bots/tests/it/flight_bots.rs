//! The flight bots only ever choose legal moves, under every rule option, for 2–4 players and
//! teams; whole games between them end; a seed replays a game exactly; and the heuristic
//! follows the advice of seed 000 §F in hand-made positions.

#![allow(clippy::unwrap_used)] // Tests fail loudly on any error.

use hangar_bots::flight::{FlightBot, HeuristicBot, RandomBot, SearchBot, parse_bot, play_game};
use hangar_dice::{Dice, Seed};
use hangar_flight::{
    Colour, Finish, Game, NoEvents, Options, Phase, PlayerSetup, Progress, Seating, Setup, Stacks,
    TakeOff, ThreeSixes,
};
use proptest::prelude::*;

fn options_strategy() -> impl Strategy<Value = (Options, usize)> {
    (
        any::<bool>(),
        0..3u8,
        any::<bool>(),
        0..4u8,
        any::<bool>(),
        2..=4u8,
        any::<bool>(),
        2..=4usize,
    )
        .prop_map(
            |(five, sixes, pass, finish, play_on, planes, teams, players)| {
                let options = Options {
                    takeoff: if five {
                        TakeOff::FiveOrSix
                    } else {
                        TakeOff::Six
                    },
                    three_sixes: [
                        ThreeSixes::None,
                        ThreeSixes::AllToHangar,
                        ThreeSixes::MovedToHangar,
                    ][sixes as usize],
                    stacks: if pass { Stacks::Pass } else { Stacks::Block },
                    finish: [
                        Finish::Bounce,
                        Finish::Overshoot,
                        Finish::ExactOnly,
                        Finish::Circle,
                    ][finish as usize],
                    play_on,
                    planes,
                    teams: teams && players == 4,
                    ..Options::traditional()
                };
                (options, players)
            },
        )
}

fn all_bots() -> Vec<Box<dyn FlightBot>> {
    vec![
        Box::new(RandomBot),
        Box::new(HeuristicBot::default()),
        Box::new(SearchBot::with_depth(1)),
        Box::new(SearchBot::with_depth(2)),
        parse_bot("hard:ms=2").unwrap(),
        parse_bot("search:ms=2").unwrap(),
        parse_bot("rollout:n=2,horizon=4").unwrap(),
        parse_bot("rollout:n=2,horizon=0").unwrap(),
        parse_bot("rollout:n=64,horizon=3,ms=2,temp=20").unwrap(),
        parse_bot("search:depth=1,leaf=learned").unwrap(),
        parse_bot("td").unwrap(),
        parse_bot("td:depth=1").unwrap(),
        parse_bot("rollout:n=2,horizon=4,leaf=net").unwrap(),
        parse_bot("hard:ms=2,leaf=net").unwrap(),
        parse_bot("hard:ms=2").unwrap(),
        parse_bot("hard:ms=2,clock=cpu").unwrap(),
        parse_bot("rollout:n=2,horizon=4,leaf=versus").unwrap(),
        parse_bot("td:net=versus").unwrap(),
    ]
}

/// Plays `steps` random rolls from the start, then returns the first position awaiting a
/// choice between at least two moves (or the last position).
fn random_position(options: Options, players: usize, seed: u64, steps: u32) -> Game {
    let mut dice = Dice::new(Seed::from_u64(seed));
    let seating = Seating::draw(players, options.teams, |n| dice.roll_below(n)).unwrap();
    let mut game = Game::new(options, &seating.seated(), seating.first).unwrap();
    let mut step = 0;
    while !game.is_over() {
        let moves = game.roll(dice.roll(), &mut NoEvents).unwrap();
        step += 1;
        if moves.is_empty() {
            continue;
        }
        if step >= steps && moves.len() >= 2 {
            return game;
        }
        let index = dice.roll_below(moves.len() as u32) as usize;
        game.play_unchecked(&moves[index], &mut NoEvents);
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    // F-CHOICE: every bot picks one of the listed legal moves, whatever the options.
    #[test]
    fn bots_only_choose_legal_moves(
        (options, players) in options_strategy(),
        seed in any::<u64>(),
        steps in 0u32..400,
    ) {
        let game = random_position(options, players, seed, steps);
        let moves = game.legal_moves();
        let mut rng = Dice::new(Seed::from_u64(seed ^ 1));
        for bot in all_bots() {
            let chosen = bot.choose(&game, &mut rng);
            match game.phase() {
                Phase::Move { .. } => {
                    let index = bot.pick(&game, &moves, &mut rng);
                    prop_assert!(index < moves.len(), "{} picked {index} of {}", bot.name(), moves.len());
                    let plane = chosen.expect("a move is awaited");
                    prop_assert!(game.is_legal(plane), "{} chose illegal plane {plane}", bot.name());
                    let applied = game.after(hangar_flight::Action::Move { plane });
                    prop_assert!(applied.is_ok());
                }
                _ => prop_assert_eq!(chosen, None),
            }
        }
    }

    // F-WIN: games between mixed bots end with a winner under any options.
    #[test]
    fn games_between_bots_end_with_a_winner(
        (options, players) in options_strategy(),
        seed in any::<u64>(),
    ) {
        let random = RandomBot;
        let heuristic = HeuristicBot::default();
        let search = SearchBot::with_depth(1);
        let pool: [&dyn FlightBot; 3] = [&random, &heuristic, &search];
        let bots: Vec<&dyn FlightBot> = (0..players).map(|i| pool[(i + seed as usize) % 3]).collect();
        let result = play_game(options, &bots, Seed::from_u64(seed)).unwrap();
        prop_assert!(result.game.is_over());
        prop_assert!(result.ranks.contains(&1));
        prop_assert_eq!(result.ranks.len(), players);
    }
}

#[test]
fn a_seed_replays_the_same_game() {
    let heuristic = HeuristicBot::default();
    let search = SearchBot::with_depth(2);
    let random = RandomBot;
    let bots: [&dyn FlightBot; 4] = [&search, &heuristic, &random, &heuristic];
    let a = play_game(Options::improved(), &bots, Seed::from_u64(11)).unwrap();
    let b = play_game(Options::improved(), &bots, Seed::from_u64(11)).unwrap();
    assert_eq!(a, b);
    let c = play_game(Options::improved(), &bots, Seed::from_u64(12)).unwrap();
    assert_ne!(a.rolls, 0);
    assert!(a != c, "another seed gives another game");
}

fn player(colour: Colour, planes: &[i16]) -> PlayerSetup {
    PlayerSetup {
        colour,
        planes: planes
            .iter()
            .map(|&p| {
                if p < 0 {
                    Progress::HANGAR
                } else {
                    Progress::new(p as u8).unwrap()
                }
            })
            .collect(),
        captures: 0,
        resigned: false,
        rank: None,
        items: Vec::new(),
    }
}

fn position(red: &[i16], blue: &[i16], roll: u8) -> Game {
    Game::from_setup(Setup {
        options: Options::traditional(),
        players: vec![player(Colour::Red, red), player(Colour::Blue, blue)],
        turn: Colour::Red,
        roll: Some(roll),
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
    .unwrap()
}

/// The blue progress of the square at red progress `red` (opposite seats are 26 squares
/// apart, F-BOARD).
fn blue_progress_of_red(red: u8) -> i16 {
    let blue = (red as i16 - 26).rem_euclid(52);
    assert!((1..=50).contains(&blue), "blue cannot stand on red's {red}");
    blue
}

fn choices_of(bot: &dyn FlightBot, game: &Game) -> u8 {
    bot.choose(game, &mut Dice::new(Seed::from_u64(0))).unwrap()
}

// F-CAPTURE, seed §F "capture when it can": with a 3, red's plane 0 at 30 hits blue on red's 33;
// plane 1 would just walk from 10 to 13.
#[test]
fn heuristic_and_search_capture_when_they_can() {
    let game = position(
        &[30, 10, -1, -1],
        &[blue_progress_of_red(33), -1, -1, -1],
        3,
    );
    for bot in [
        Box::new(HeuristicBot::default()) as Box<dyn FlightBot>,
        Box::new(SearchBot::with_depth(2)),
    ] {
        assert_eq!(choices_of(bot.as_ref(), &game), 0, "{}", bot.name());
    }
}

// F-TAKEOFF, seed §F "take off when it can": a 6 with planes in the hangar and one plane
// safely in the home column.
#[test]
fn heuristic_takes_off_on_a_six() {
    let game = position(&[52, -1, -1, -1], &[10, -1, -1, -1], 6);
    let plane = choices_of(&HeuristicBot::default(), &game);
    assert_ne!(plane, 0, "moving the home-column plane wastes the take-off");
}

// Seed §F "avoid resting within reach of enemies": with a 2, plane 0 would pass a blue plane
// and land 1 square in front of it; plane 1 moves on far from any enemy instead.
#[test]
fn heuristic_avoids_resting_in_front_of_an_enemy() {
    // Blue at red-progress 20 (blue 46); red plane 0 at 19 sits safely behind it.
    let game = position(
        &[19, 30, -1, -1],
        &[blue_progress_of_red(20), -1, -1, -1],
        2,
    );
    // Both moves gain 2 pips; only the danger differs.
    assert_eq!(choices_of(&HeuristicBot::default(), &game), 1);
    assert_eq!(choices_of(&SearchBot::with_depth(2), &game), 1);
}

// F-CHOICE: the net bots (`td`, rollouts judged by the net) choose legal moves in the games
// their nets were trained for (the traditional and the improved preset, 2–4 players and
// 2-vs-2 teams) and where they fall back (rules of neither preset; the versus net: 3 and 4
// players, teams).
#[test]
fn net_bots_only_choose_legal_moves_with_and_without_a_net() {
    let bots = [
        parse_bot("td").unwrap(),
        parse_bot("td:depth=1").unwrap(),
        parse_bot("rollout:n=4,horizon=6,leaf=net").unwrap(),
        parse_bot("hard:ms=5").unwrap(),
        parse_bot("hard:ms=5,clock=cpu").unwrap(),
        parse_bot("td:net=versus").unwrap(),
        parse_bot("td:depth=1,model=heuristic,net=versus").unwrap(),
        parse_bot("rollout:n=4,horizon=6,leaf=versus").unwrap(),
    ];
    let teams = Options {
        teams: true,
        ..Options::traditional()
    };
    let settings = [
        (Options::traditional(), 2),
        (Options::traditional(), 3),
        (Options::traditional(), 4),
        (teams, 4),
        (Options::improved(), 2),
        (Options::improved(), 3),
        (Options::improved(), 4),
        (
            Options {
                teams: true,
                ..Options::improved()
            },
            4,
        ),
        (
            Options {
                finish: Options::traditional().finish,
                ..Options::improved()
            },
            2,
        ),
    ];
    for (options, players) in settings {
        for seed in 0..12u64 {
            let game = random_position(options, players, seed, 20 + 25 * seed as u32);
            let moves = game.legal_moves();
            let mut rng = Dice::new(Seed::from_u64(seed));
            for bot in &bots {
                let chosen = bot.choose(&game, &mut rng);
                if matches!(game.phase(), Phase::Move { .. }) {
                    let plane = chosen.expect("a move is awaited");
                    assert!(game.is_legal(plane), "{} chose plane {plane}", bot.name());
                    assert!(bot.pick(&game, &moves, &mut rng) < moves.len());
                } else {
                    assert_eq!(chosen, None);
                }
            }
        }
    }
}

// F-WIN: whole games between the net bots and the heuristic end with a winner.
#[test]
fn games_with_the_net_bots_end() {
    let td = parse_bot("td").unwrap();
    let heuristic = HeuristicBot::default();
    for players in [2, 4] {
        let mut bots: Vec<&dyn FlightBot> = vec![td.as_ref()];
        bots.extend(std::iter::repeat_n(
            &heuristic as &dyn FlightBot,
            players - 1,
        ));
        let result = play_game(Options::traditional(), &bots, Seed::from_u64(7)).unwrap();
        assert!(result.game.is_over());
        assert!(result.ranks.contains(&1));
    }
}
