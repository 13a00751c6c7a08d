//! The rules JSON `bot` request (P-ENGINE): `hangar rules flight|jungle`, run as a real
//! process, answers the action the bots crate's bot of that level picks in that position
//! with that seed — the same calls `hangar sim` and the hall make.
#![allow(clippy::unwrap_used)]

use crate::cli_common;

use cli_common::hangar;

use hangar_bots::flight::parse_bot;
use hangar_bots::jungle::{JungleBot, JunglePlayer};
use hangar_dice::{Dice, Seed};
use hangar_flight::{NoEvents, Phase, Preset, Table};
use serde_json::{Value, json};

fn rules(game: &str, request: &Value) -> (bool, Value) {
    let out = hangar(&["rules", game], request.to_string());
    (
        out.status.success(),
        serde_json::from_slice(&out.stdout).unwrap(),
    )
}

#[test]
fn p_engine_flight_bot_request_answers_the_bots_own_choice() {
    let options = Preset::Improved.options();
    let mut table = Table::new(options, 4, Seed::from_u64(5)).unwrap();
    let mut rng = Dice::new(Seed::from_u64(99));
    let heuristic = parse_bot("heuristic").unwrap();
    let mut asked = 0;
    let mut differs = 0;
    while !table.game().is_over() && asked < 12 {
        let game = *table.game();
        if let Phase::Move { .. } = game.phase() {
            let moves = game.legal_moves();
            if moves.len() > 1 {
                asked += 1;
                for (level, seed) in [("random", asked), ("heuristic", 7), ("search:depth=1", 3)] {
                    let (ok, answer) = rules(
                        "flight",
                        &json!({"request": "bot", "level": level, "position": game, "seed": seed}),
                    );
                    assert!(ok, "{answer}");
                    let bot = parse_bot(level).unwrap();
                    let mut dice = Dice::new(Seed::from_u64(seed));
                    let expected = moves[bot.pick(&game, &moves, &mut dice)];
                    assert_eq!(
                        answer["action"],
                        json!({"type": "move", "plane": expected.plane}),
                        "{level} seed {seed}"
                    );
                    assert_eq!(answer["move"]["to"], json!(expected.to));
                    if level == "random" && answer["action"]["plane"] != json!(moves[0].plane) {
                        differs += 1;
                    }
                }
            }
        } else {
            // The roll phase's answer is a roll: the hall's bots use no items.
            let (ok, answer) = rules(
                "flight",
                &json!({"request": "bot", "level": "heuristic", "position": game}),
            );
            assert!(ok, "{answer}");
            assert_eq!(answer["action"], json!({"type": "roll"}));
        }
        let game = *table.game();
        match game.phase() {
            Phase::Move { .. } => {
                let plane = heuristic.choose(&game, &mut rng).unwrap();
                table.choose(plane, &mut NoEvents).unwrap();
            }
            _ => {
                table.roll(&mut NoEvents).unwrap();
            }
        }
    }
    assert_eq!(asked, 12, "enough positions with a choice");
    assert!(differs > 0, "the seed reaches the random bot");
}

#[test]
fn p_engine_jungle_bot_request_answers_the_bots_own_choice() {
    let mut plies: Vec<String> = Vec::new();
    let mut game = hangar_jungle::Game::new(hangar_jungle::Rules::default());
    let mut rng = Dice::new(Seed::from_u64(3));
    for turn in 0..10u64 {
        for level in ["random", "greedy", "easy", "ab:depth=3"] {
            let seed = turn * 10 + 1;
            let (ok, answer) = rules(
                "jungle",
                &json!({"type": "bot", "level": level, "moves": plies, "seed": seed}),
            );
            assert!(ok, "{answer}");
            let bot: JungleBot = level.parse().unwrap();
            let expected = JunglePlayer::new(bot)
                .choose(&game, &mut Dice::new(Seed::from_u64(seed)))
                .unwrap();
            assert_eq!(answer["type"], "bot");
            assert_eq!(
                answer["move"],
                expected.to_string(),
                "{level} after {plies:?}"
            );
        }
        let m = JunglePlayer::new(JungleBot::Random)
            .choose(&game, &mut rng)
            .unwrap();
        game.play(m).unwrap();
        plies.push(m.to_string());
    }
}

#[test]
fn p_engine_bot_requests_refuse_unknown_levels_and_finished_games() {
    let (ok, answer) = rules("jungle", &json!({"type": "bot", "level": "grandmaster"}));
    assert!(!ok);
    assert_eq!(answer["error"], "bad_request");
    let (ok, answer) = rules(
        "jungle",
        &json!({"type": "bot", "level": "random", "position": "l6/3L3/7/7/7/7/7/7/7 r", "moves": ["d8d9"]}),
    );
    assert!(!ok);
    assert_eq!(answer["error"], "game_over", "{answer}");
    let position = json!({"players": [{"colour": "red", "planes": [3, 15, -1, -1]}, {"colour": "blue", "planes": [53, -1, -1, -1]}], "turn": "red"});
    let (ok, answer) = rules(
        "flight",
        &json!({"request": "bot", "level": "grandmaster", "position": position}),
    );
    assert!(!ok);
    assert!(
        answer["error"].as_str().unwrap().contains("unknown bot"),
        "{answer}"
    );
    // A seed is a number or 64 hex digits.
    let (ok, _) = rules(
        "flight",
        &json!({"request": "bot", "level": "random", "position": position, "seed": "abc"}),
    );
    assert!(!ok);
}
