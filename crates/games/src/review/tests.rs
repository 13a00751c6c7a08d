//! P-REVIEW: the review's judgements on planted positions, and its accounts over many games.
#![allow(clippy::unwrap_used)] // tests fail loudly

use hangar_dice::{DiceScheme, Entropy, Seed};
use hangar_flight::{Colour, Game as FlightGame, Options, PlayerSetup, Progress, Setup};
use hangar_jungle::{Game, Move, Position};
use hangar_protocol::GameKind;
use serde_json::json;

use super::flight::review_steps;
use super::jungle::review_game;
use super::*;
use crate::record::RECORD_FORMAT;
use crate::{Act, DEFAULT_TURN_SECONDS, RoomOptions};

/// A small budget: the tests run in debug builds.
const NODES: u64 = 20_000;

fn names() -> Vec<String> {
    vec!["ann".to_owned(), "bob".to_owned()]
}

/// A game from `fen` with `moves` played.
fn jungle_game(fen: &str, moves: &[&str]) -> Game {
    let start: Position = fen.parse().unwrap();
    let mut game = Game::from_position(start);
    for m in moves {
        game.play(m.parse::<Move>().unwrap()).unwrap();
    }
    game
}

/// P-REVIEW: a yellow lion stands on red's trap beside red's den; red's cat can take it
/// (a piece on an enemy trap has no strength) but walks away, and the lion walks into the
/// den. The walk is a blunder, the better move the capture; the winning move is not marked.
#[test]
fn p_review_jungle_a_planted_blunder_is_marked_with_the_better_move() {
    let game = jungle_game("e6/7/7/7/7/7/7/2Cl3/6E r", &["c2c3", "d2d1"]);
    assert!(game.outcome().is_some());
    let review = review_game(&game, &[], &names(), NODES);
    let blunder = &review.moves[0];
    assert_eq!(blunder.played, "c2c3");
    assert_eq!(blunder.judgement, Some(Judgement::Blunder), "{blunder:?}");
    assert_eq!(blunder.best.as_deref(), Some("c2d2"));
    assert!(blunder.loss > 0.5, "{blunder:?}");
    assert_eq!(
        review.positions[0].line.first().map(String::as_str),
        Some("c2d2")
    );
    assert_eq!(review.moves[1].judgement, None);
    assert_eq!(review.players[0].blunders, 1);
    assert_eq!(
        review.players[1].marks(),
        "no inaccuracy, mistake or blunder"
    );
    // The end: yellow's den entry won.
    assert_eq!(review.positions[2].red_win_chance, 0.0);
}

/// P-REVIEW: a red lion three steps from yellow's den, yellow's elephant too far away to
/// stop it: the review finds the forced win in 5 plies, with its line, and marks nothing.
#[test]
fn p_review_jungle_a_forced_win_is_found_in_a_short_endgame() {
    let moves = ["d6d7", "a9b9", "d7d8", "b9c9", "d8d9"];
    let game = jungle_game("e6/7/7/3L3/7/7/7/7/7 r", &moves);
    let review = review_game(&game, &[], &names(), NODES);
    let start = &review.positions[0];
    assert_eq!(start.mate, Some(5), "{start:?}");
    assert_eq!(start.red_win_chance, 1.0);
    assert_eq!(start.best.as_deref(), Some("d6d7"));
    assert_eq!(start.line.first().map(String::as_str), Some("d6d7"));
    // Every red move on the way keeps the win: none is marked.
    assert!(
        review.moves.iter().all(|m| m.judgement.is_none()),
        "{:?}",
        review.moves
    );
    assert_eq!(review.positions[2].mate, Some(3));
    assert_eq!(review.positions[4].mate, Some(1));
    assert_eq!(review.positions[4].best.as_deref(), Some("d8d9"));
}

/// The win chance is symmetric and monotone in the score, 1 and 0 for forced results.
#[test]
fn p_review_jungle_win_chance_follows_the_score() {
    assert_eq!(win_chance(0), 0.5);
    assert!((win_chance(300) + win_chance(-300) - 1.0).abs() < 1e-12);
    assert!(win_chance(300) > win_chance(100));
    assert_eq!(win_chance(hangar_bots::jungle::WIN - 3), 1.0);
    assert_eq!(win_chance(3 - hangar_bots::jungle::WIN), 0.0);
}

/// A two-player flight position, red to move with a 3: plane 0 (progress 10, square 12)
/// takes blue's plane on square 15; plane 1 (progress 14, square 16) would stop on square
/// 19, two squares in front of blue's other plane (square 17).
fn capture_or_walk_into_capture() -> FlightGame {
    let options = Options::traditional();
    let p = |v: u8| Progress::new(v).unwrap();
    let planes = |v: [Progress; 4]| v.to_vec();
    let mut setup = FlightGame::new(options, &[Colour::Red, Colour::Blue], Colour::Red)
        .unwrap()
        .to_setup();
    setup.players = vec![
        PlayerSetup {
            colour: Colour::Red,
            planes: planes([p(10), p(14), Progress::HANGAR, Progress::HANGAR]),
            ..setup.players[0].clone()
        },
        PlayerSetup {
            colour: Colour::Blue,
            planes: planes([p(39), p(41), Progress::HANGAR, Progress::HANGAR]),
            ..setup.players[1].clone()
        },
    ];
    setup.turn = Colour::Red;
    setup.roll = Some(3);
    FlightGame::from_setup(Setup { ..setup }).unwrap()
}

/// P-REVIEW: where one option captures and another walks into capture, the review prefers
/// the capture and charges the other option to the player's skill.
#[test]
fn p_review_flight_the_capture_is_preferred_and_walking_into_capture_is_charged() {
    let before = capture_or_walk_into_capture();
    let moves = before.legal_moves();
    let capture = moves.iter().find(|m| m.plane == 0).unwrap();
    assert_eq!(capture.capture_count(), 1, "plane 0 takes blue's plane");
    let mut after = before;
    after.choose(1, &mut hangar_flight::NoEvents).unwrap();
    let colours = [Colour::Red, Colour::Blue];
    let act = |plane| LoggedAct {
        seat: 0,
        action: Act::Plane(plane),
        roll: None,
        entropy: None,
        auto: false,
        cmd: None,
    };
    let review = review_steps(
        &[(None, before), (Some((0, act(1))), after)],
        &colours,
        &names(),
    );
    let FlightStepKind::Decision {
        best,
        chosen,
        skill,
        options,
        class,
        ..
    } = &review.steps[0].kind
    else {
        panic!("a decision: {:?}", review.steps);
    };
    assert_eq!((*best, *chosen), (0, 1));
    let [take, walk] = [0, 1].map(|p| options.iter().find(|o| o.plane == p).unwrap());
    assert!(take.chances[0] > walk.chances[0] + 0.05, "{options:?}");
    assert!(*skill < -0.05 && class.is_some(), "{skill} {class:?}");
    assert_eq!(review.accounts[0].skill, *skill);
    assert_eq!(review.accounts[0].decisions, 1);
    // The same decision with the capture costs nothing.
    let mut took = before;
    took.choose(0, &mut hangar_flight::NoEvents).unwrap();
    let review = review_steps(
        &[(None, before), (Some((0, act(0))), took)],
        &colours,
        &names(),
    );
    assert_eq!(review.accounts[0].skill, 0.0);
}

/// A finished flight game of `seats` heuristic bots from `seed` as the hall records it:
/// seat 0's actions are auto-play's, the others roll as persons with bytes of their own.
fn simulated_flight_record(seed: u64, seats: usize) -> crate::record::GameRecord {
    let seed = Seed::from_u64(seed);
    let options = RoomOptions::stored(GameKind::Flight, &json!({}), DEFAULT_TURN_SECONDS).unwrap();
    let mut session = GameSession::start(&options, seats, seed, DiceScheme::PerRoll).unwrap();
    let mut actions = Vec::new();
    let mut bytes = hangar_dice::Dice::new(seed.derive(7));
    while let Some((seat, _)) = session.turn() {
        let action = session
            .bot_act(seat, hangar_protocol::BotLevel::Heuristic)
            .expect("a bot has a move");
        let entropy = (seat != 0 && action == Act::Roll).then(|| {
            let raw: Vec<u8> = (0..16).map(|_| bytes.roll_below(256) as u8).collect();
            Entropy::from_bytes(&raw).unwrap()
        });
        let played = session.play(seat, &action, entropy.as_ref()).unwrap();
        actions.push(LoggedAct {
            seat,
            action,
            roll: played.roll,
            entropy: played.roll.and(entropy),
            auto: seat == 0,
            cmd: None,
        });
    }
    crate::record::GameRecord {
        format: RECORD_FORMAT.to_owned(),
        game_id: 1,
        game: GameKind::Flight,
        room: "R".into(),
        options: json!({}),
        seats: (0..seats)
            .map(|s| json!({"name": format!("p{s}")}))
            .collect(),
        commitment: seed.commitment(),
        seed: Some(seed),
        actions,
        result: None,
        started_at: 0,
        finished_at: Some(1),
        flight_record: session.flight_record().cloned(),
        dice: DiceScheme::PerRoll,
    }
}

/// P-REVIEW: every seat's account adds up to its result, as docs/review.md says:
/// start + skill + bot_play + luck + others + residual = result; with two players the others'
/// column is the opponent's own dice and decisions with the sign turned.
fn check_accounts(review: &FlightReview) {
    for a in &review.accounts {
        let sum = a.start + a.skill + a.bot_play + a.luck + a.others + a.residual;
        assert!((sum - a.result).abs() < 1e-9, "{a:?}: sums to {sum}");
        assert!(a.result == 0.0 || a.result == 1.0);
        assert!(a.skill <= 0.0 && a.bot_play <= 1e-12, "{a:?}");
    }
    if let [a, b] = review.accounts.as_slice() {
        let own = |x: &FlightAccount| x.skill + x.bot_play + x.luck;
        assert!((a.others + own(b)).abs() < 1e-3, "{a:?} {b:?}");
        assert!((a.residual + b.residual).abs() < 1e-3);
    }
    // The steps' own figures are the accounts'.
    for a in &review.accounts {
        let luck: f64 = review
            .steps
            .iter()
            .filter(|s| s.seat == a.seat)
            .filter_map(|s| match s.kind {
                FlightStepKind::Roll { luck, .. } => Some(luck),
                _ => None,
            })
            .sum();
        assert!((luck - a.luck).abs() < 1e-9);
    }
}

/// P-REVIEW: skill + luck add up as documented, in 2, 3 and 4 player games reviewed from
/// their records.
#[test]
fn p_review_flight_skill_and_luck_add_up_as_documented() {
    for (seed, seats) in [(1, 2), (2, 3), (3, 4)] {
        let record = simulated_flight_record(seed, seats);
        let review = review_record(&record, &ReviewSettings::default()).unwrap();
        let GameReview::Flight(review) = review.game else {
            panic!("a flight review");
        };
        assert_eq!(review.accounts.len(), seats);
        assert!(review.steps.len() > 50);
        assert!(review.accounts[0].bot_decisions > 0 && review.accounts[0].decisions == 0);
        assert!(review.accounts[1].decisions > 0 && review.accounts[1].bot_decisions == 0);
        check_accounts(&review);
        let text = review.to_text(1);
        assert!(text.contains("luck ") && text.contains("skill "), "{text}");
    }
}

/// P-REVIEW: over many seeded games each seat's luck averages to zero, within four of its
/// own standard errors.
#[test]
fn p_review_flight_luck_averages_to_zero_over_many_games() {
    let games = 60;
    let mut luck = [Vec::new(), Vec::new()];
    for seed in 0..games {
        let record = simulated_flight_record(1000 + seed, 2);
        let GameReview::Flight(review) = review_record(&record, &ReviewSettings::default())
            .unwrap()
            .game
        else {
            panic!("a flight review");
        };
        check_accounts(&review);
        for a in &review.accounts {
            luck[a.seat].push(a.luck);
        }
    }
    for (seat, values) in luck.iter().enumerate() {
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let variance = values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let error = (variance / n).sqrt();
        assert!(error > 0.0);
        assert!(
            mean.abs() < 4.0 * error,
            "seat {seat}: mean luck {mean:.4}, standard error {error:.4}"
        );
    }
}

/// P-REVIEW: a running game is refused (its seed is secret), and a review serialises to the
/// documented JSON and back.
#[test]
fn p_review_a_running_game_is_refused_and_the_json_round_trips() {
    let mut record = simulated_flight_record(5, 2);
    let review = review_record(&record, &ReviewSettings::default()).unwrap();
    let text = serde_json::to_string(&review).unwrap();
    let back: Review = serde_json::from_str(&text).unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), value);
    assert_eq!(value["format"], REVIEW_FORMAT);
    assert_eq!(value["game"], "flight");
    assert!(value["accounts"][0]["luck"].is_f64());

    record.actions.truncate(record.actions.len() / 2);
    record.flight_record = None;
    assert_eq!(
        review_record(&record, &ReviewSettings::default()),
        Err(ReviewError::NotOver)
    );
    record.seed = None;
    assert_eq!(
        review_record(&record, &ReviewSettings::default()),
        Err(ReviewError::Record(RecordError::NoSeed))
    );
}

/// P-REVIEW: a Jungle record is reviewed move by move, auto-play's moves kept apart.
#[test]
fn p_review_jungle_a_record_is_reviewed() {
    let seed = Seed::from_u64(9);
    let options = RoomOptions::stored(GameKind::Jungle, &json!({}), DEFAULT_TURN_SECONDS).unwrap();
    let mut session = GameSession::start(&options, 2, seed, DiceScheme::PerRoll).unwrap();
    let mut actions = Vec::new();
    while let Some((seat, _)) = session.turn() {
        if actions.len() >= 60 {
            // Yellow resigns: the game ends off the board.
            session.remove(1);
            actions.push(LoggedAct {
                seat: 1,
                action: Act::Resign,
                roll: None,
                entropy: None,
                auto: false,
                cmd: None,
            });
            break;
        }
        let action = session
            .bot_act(seat, hangar_protocol::BotLevel::Greedy)
            .expect("a bot has a move");
        session.play(seat, &action, None).unwrap();
        actions.push(LoggedAct {
            seat,
            action,
            roll: None,
            entropy: None,
            auto: seat == 1,
            cmd: None,
        });
    }
    let plies = actions
        .iter()
        .filter(|a| matches!(a.action, Act::Step(_)))
        .count();
    let record = crate::record::GameRecord {
        format: RECORD_FORMAT.to_owned(),
        game_id: 2,
        game: GameKind::Jungle,
        room: "J".into(),
        options: json!({}),
        seats: vec![json!({"name": "ann"}), json!({"name": "bob"})],
        commitment: seed.commitment(),
        seed: Some(seed),
        actions,
        result: None,
        started_at: 0,
        finished_at: Some(1),
        flight_record: None,
        dice: DiceScheme::PerRoll,
    };
    let review = review_record(&record, &ReviewSettings { nodes: 2_000 }).unwrap();
    let GameReview::Jungle(jungle) = &review.game else {
        panic!("a jungle review");
    };
    assert_eq!(jungle.moves.len(), plies);
    assert_eq!(jungle.positions.len(), plies + 1);
    assert!(jungle.moves.iter().all(|m| m.auto == (m.seat == 1)));
    assert_eq!(jungle.players[1].moves, 0);
    assert_eq!(
        jungle.players[1].auto_moves,
        jungle.moves.iter().filter(|m| m.seat == 1).count()
    );
    // Every move's action index points at that move in the record.
    for m in &jungle.moves {
        let logged = &record.actions[m.action.unwrap()];
        assert!(matches!(logged.action, Act::Step(n) if n.to_string() == m.played));
    }
    let text = review.to_text();
    assert!(text.contains("red (ann): "), "{text}");
    // The same review again: a fixed node budget gives the same on every run.
    assert_eq!(
        review_record(&record, &ReviewSettings { nodes: 2_000 }).unwrap(),
        review
    );
}

/// P-REVIEW: the progress a review tells (the hall shows it while it runs) counts up to its
/// total, and the review is the same as without it.
#[test]
fn p_review_progress_counts_up_to_its_total_and_changes_nothing() {
    let record = simulated_flight_record(7, 2);
    let mut seen = Vec::new();
    let review = review_record_with_progress(&record, &ReviewSettings::default(), &mut |d, n| {
        seen.push((d, n))
    })
    .unwrap();
    assert_eq!(
        review,
        review_record(&record, &ReviewSettings::default()).unwrap()
    );
    let of = seen[0].1;
    assert_eq!(of, record.actions.len());
    assert!(seen.iter().all(|&(_, n)| n == of));
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0));
    assert_eq!(seen.last(), Some(&(of, of)));

    let game = jungle_game("e6/7/7/7/7/7/7/2Cl3/6E r", &["c2c3", "d2d1"]);
    let mut positions = Vec::new();
    let judged = jungle::review_game_with_progress(&game, &[], &names(), 2_000, &mut |d, n| {
        positions.push((d, n))
    });
    assert_eq!(positions, [(1, 3), (2, 3), (3, 3)]);
    assert_eq!(judged, review_game(&game, &[], &names(), 2_000));
}

/// P-REVIEW: one class of judgement for both games, each with its thresholds.
#[test]
fn p_review_one_judgement_with_each_game_s_thresholds() {
    assert_eq!(
        Judgement::of_loss(0.12, jungle::THRESHOLDS),
        Some(Judgement::Inaccuracy)
    );
    assert_eq!(
        Judgement::of_loss(0.12, flight::THRESHOLDS),
        Some(Judgement::Blunder)
    );
    assert_eq!(Judgement::of_loss(0.01, flight::THRESHOLDS), None);
    assert_eq!(
        serde_json::to_value(Judgement::Mistake).unwrap(),
        json!(Judgement::Mistake.name())
    );
}
