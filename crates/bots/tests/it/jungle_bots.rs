//! The Jungle bots: they find wins, defend their den, respect J-REPEAT at the root, and
//! parse their spec strings.

use hangar_bots::jungle::{
    JungleBot, JungleLevel, JunglePlayer, Limits, Searcher, WIN, choose_move,
};
use hangar_dice::{Dice, Seed};
use hangar_jungle::{Game, Move, Position, Rules};

fn game(text: &str) -> Game {
    Game::from_position(text.parse::<Position>().expect("test position"))
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn j_win_den_the_searcher_enters_the_den_when_it_can() {
    // Red lion on d8 beside yellow's den; yellow has pieces elsewhere.
    let g = game("l6/3L3/7/7/7/7/7/7/7 r");
    let report = Searcher::default().search(&g, depth(4)).unwrap();
    assert_eq!(report.best.to_string(), "d8d9");
    assert!(report.score > WIN - 10);
}

#[test]
fn j_win_den_the_searcher_captures_a_piece_beside_its_den() {
    // Yellow's rat stands on d2 (red's trap, beside red's den): red must take it with the
    // tiger on d3 or lose next move; a far-away capture of the yellow cat is a trap.
    // The red lion on a4 could take the yellow cat on a7 instead.
    let g = game("7/7/c6/7/7/L6/3T3/3r3/7 r");
    assert!(g.outcome().is_none());
    let report = Searcher::default().search(&g, depth(4)).unwrap();
    assert_eq!(report.best.to_string(), "d3d2", "{report:?}");
}

#[test]
fn the_searcher_takes_a_free_piece() {
    // The red elephant on a4 may take the yellow lion on a5 (8 ≥ 7).
    let g = game("6t/7/7/7/l6/E6/7/7/7 r");
    let report = Searcher::default().search(&g, depth(3)).unwrap();
    assert_eq!(report.best.to_string(), "a4a5");
}

#[test]
fn j_repeat_bots_never_choose_a_refused_move() {
    // Replay the shuffle of the J-REPEAT test until yellow's g8g9 would be refused.
    let mut g = Game::new(Rules::default());
    for m in ["a1a2", "g9g8", "a2a1", "g8g9", "a1a2", "g9g8", "a2a1"] {
        g.play(m.parse().unwrap()).unwrap();
    }
    let refused: Move = "g8g9".parse().unwrap();
    assert!(g.is_refused(refused));
    for bot in ["random", "ab:depth=1", "ab:depth=3", "ab:level=easy"] {
        let bot: JungleBot = bot.parse().unwrap();
        for seed in 0..20 {
            let mut dice = Dice::new(Seed::from_u64(seed));
            let m = choose_move(&g, &bot, &mut dice).unwrap();
            assert_ne!(m, refused, "{bot}");
            assert!(g.legal_moves().contains(&m));
        }
    }
}

#[test]
fn no_move_once_the_game_is_over() {
    let mut g = game("l6/3L3/7/7/7/7/7/7/7 r");
    g.play("d8d9".parse().unwrap()).unwrap();
    let mut dice = Dice::new(Seed::from_u64(1));
    assert_eq!(choose_move(&g, &JungleBot::Random, &mut dice), None);
    assert_eq!(
        choose_move(&g, &JungleBot::level(JungleLevel::Normal), &mut dice),
        None
    );
}

#[test]
fn a_node_limited_search_is_deterministic_and_stops() {
    let g = Game::new(Rules::default());
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let a = Searcher::default().search(&g, limits).unwrap();
    let b = Searcher::default().search(&g, limits).unwrap();
    assert_eq!(a, b);
    assert!(a.depth >= 1);
    assert!(
        a.nodes < 20_000 + 2_048,
        "stops within one check interval: {}",
        a.nodes
    );
}

#[test]
fn bot_specs_parse_and_print_back() {
    for text in [
        "random",
        "ab:depth=6",
        "ab:ms=200",
        "ab:nodes=5000",
        "ab:depth=2:random=25",
    ] {
        let bot: JungleBot = text.parse().unwrap();
        assert_eq!(bot.to_string(), text);
    }
    assert_eq!(
        "ab".parse::<JungleBot>().unwrap(),
        JungleBot::level(JungleLevel::Normal)
    );
    assert_eq!(
        "ab:level=hard".parse::<JungleBot>().unwrap(),
        JungleBot::level(JungleLevel::Hard)
    );
    for bad in [
        "",
        "minimax",
        "ab:depth",
        "ab:depth=0",
        "ab:ms=-3",
        "ab:level=godlike",
        "ab:colour=red",
        "ab:random=101",
    ] {
        assert!(bad.parse::<JungleBot>().is_err(), "{bad:?}");
    }
}

#[test]
fn a_player_plays_a_whole_game_to_the_end() {
    let mut g = Game::new(Rules::default());
    let mut red = JunglePlayer::new("ab:depth=2".parse().unwrap());
    let mut yellow = JunglePlayer::new(JungleBot::Random);
    let mut dice = Dice::new(Seed::from_u64(5));
    while g.outcome().is_none() {
        let player = if g.turn() == hangar_jungle::Color::Red {
            &mut red
        } else {
            &mut yellow
        };
        let m = player.choose(&g, &mut dice).unwrap();
        g.play(m).unwrap();
    }
    assert!(g.plies().len() <= 16 * 200 + 1);
}

#[test]
fn j_repeat_the_searcher_sees_that_refusals_can_leave_the_opponent_without_moves() {
    // Red's lion walks a1-a2-a3-a2-b2-b1-c1-b1-a1 while yellow's lion shuffles g9-g8, so that
    // both positions red's lion can reach from a1 (a2 and b1, yellow's lion on g9) have
    // occurred twice. Now g8g9 brings red back to a1 with only refused moves: red loses.
    let mut g = game("6l/7/7/7/7/7/7/7/L6 r");
    for m in [
        "a1a2", "g9g8", "a2a3", "g8g9", "a3a2", "g9g8", "a2b2", "g8g9", "b2b1", "g9g8", "b1c1",
        "g8g9", "c1b1", "g9g8", "b1a1",
    ] {
        assert_eq!(g.play(m.parse().unwrap()).unwrap(), None, "{m}");
    }
    let report = Searcher::default().search(&g, depth(3)).unwrap();
    assert_eq!(report.best.to_string(), "g8g9");
    assert!(report.score > WIN - 10, "{report:?}");
    let outcome = g.play(report.best).unwrap().unwrap();
    assert_eq!(outcome.winner(), Some(hangar_jungle::Color::Yellow));
}
