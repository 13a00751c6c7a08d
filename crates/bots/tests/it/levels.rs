//! The bot levels the hall offers a seat (P-SEATS): one typed enum per game whose wire names
//! read back as themselves, and the greedy jungle bot's choices.

use hangar_bots::flight::FlightLevel;
use hangar_bots::jungle::{JungleBot, JungleLevel, choose_move};
use hangar_dice::{Dice, Seed};
use hangar_jungle::Game;

#[test]
fn flight_levels_read_back_under_their_wire_names() {
    let names: Vec<String> = FlightLevel::ALL.iter().map(ToString::to_string).collect();
    assert_eq!(names, ["random", "heuristic", "hard"]);
    for level in FlightLevel::ALL {
        assert_eq!(level.to_string().parse::<FlightLevel>(), Ok(level));
    }
    // The older names stay readable.
    assert_eq!("easy".parse(), Ok(FlightLevel::Random));
    assert_eq!("normal".parse(), Ok(FlightLevel::Heuristic));
    assert_eq!("search".parse(), Ok(FlightLevel::Hard));
    assert!("greedy".parse::<FlightLevel>().is_err());
    assert!(FlightLevel::Hard.is_slow() && !FlightLevel::Heuristic.is_slow());
}

#[test]
fn jungle_levels_read_back_under_their_wire_names() {
    let names: Vec<String> = JungleLevel::ALL.iter().map(ToString::to_string).collect();
    assert_eq!(
        names,
        ["random", "greedy", "easy", "normal", "hard", "alphabeta"]
    );
    for level in JungleLevel::ALL {
        assert_eq!(level.to_string().parse::<JungleLevel>(), Ok(level));
    }
    assert!("heuristic".parse::<JungleLevel>().is_err());
    assert_eq!(
        JungleBot::level(JungleLevel::AlphaBeta),
        JungleBot::level(JungleLevel::Normal)
    );
    assert_eq!(JungleBot::level(JungleLevel::Greedy), JungleBot::Greedy);
    assert!(!JungleLevel::Greedy.is_slow() && JungleLevel::Easy.is_slow());
    // `ab:level=` takes searching levels only.
    assert!("ab:level=greedy".parse::<JungleBot>().is_err());
    assert_eq!("greedy".parse::<JungleBot>(), Ok(JungleBot::Greedy));
}

fn game(text: &str) -> Game {
    Game::from_position(text.parse().expect("a valid position"))
}

#[test]
fn the_greedy_bot_wins_at_once_when_it_can_else_captures() {
    // Red's lion on d8, beside the yellow den (d9) and a yellow cat (c8).
    let wins = game("r6/2cL3/7/7/7/7/7/7/7 r");
    // Red's lion on d3 beside a yellow cat (c3); nothing wins at once.
    let captures = game("r6/7/7/7/7/7/2cL3/7/7 r");
    for seed in 0..20 {
        let mut dice = Dice::new(Seed::from_u64(seed));
        let m = choose_move(&wins, &JungleBot::Greedy, &mut dice).expect("a move");
        assert_eq!(m.to_string(), "d8d9", "seed {seed}");
        let m = choose_move(&captures, &JungleBot::Greedy, &mut dice).expect("a move");
        assert_eq!(m.to_string(), "d3c3", "seed {seed}");
    }
}

/// The command line (`hangar sim`/`play --bot`) seats the hall's bot under each level name:
/// the names have one owner, the level enums. `search` is the documented exception: a spec
/// names the expectimax search bot by it, the hall reads it as the older name of `hard`.
#[test]
fn p_seats_cli_specs_name_the_hall_levels() {
    for level in FlightLevel::ALL {
        let spec = hangar_bots::flight::parse_bot(level.name()).expect("a level is a spec");
        assert_eq!(spec.name(), level.bot().name(), "flight {level}");
    }
    for alias in ["easy", "normal"] {
        let level: FlightLevel = alias.parse().expect("an alias");
        let spec = hangar_bots::flight::parse_bot(alias).expect("an alias is a spec");
        assert_eq!(spec.name(), level.bot().name(), "flight {alias}");
    }
    let search = hangar_bots::flight::parse_bot("search").expect("the search bot");
    assert_ne!(search.name(), FlightLevel::Hard.bot().name());
    for level in JungleLevel::ALL {
        assert_eq!(
            level.name().parse::<JungleBot>(),
            Ok(JungleBot::level(level)),
            "jungle {level}"
        );
    }
}
