//! Text pictures of a game, for `render_mode="ansi"`.

use std::fmt::Write;

use hangar_flight::{Colour, Phase, Progress};
use hangar_jungle::{FILES, Piece, Position, RANKS, Square};

use crate::flight_env::FlightEnv;

/// The flight game as text: each seated colour's planes, then whose turn and what is awaited.
pub fn flight_text(env: &FlightEnv) -> String {
    let game = env.game();
    let mut text = String::new();
    for colour in Colour::ALL {
        let Some(agent) = env.agent_of(colour) else {
            continue;
        };
        let planes: Vec<String> = game
            .planes(colour)
            .iter()
            .map(|&p| match p {
                Progress::HANGAR => "hangar".to_owned(),
                Progress::FINISHED => "home".to_owned(),
                p => p.get().to_string(),
            })
            .collect();
        let _ = writeln!(
            text,
            "{:<6} player_{agent}: {}",
            colour.name(),
            planes.join(" ")
        );
    }
    let turn = game.turn();
    let _ = match game.phase() {
        Phase::Over => writeln!(text, "game over, ranks {:?}", game.ranks()),
        Phase::Move { roll } => writeln!(text, "{} to move a plane by {roll}", turn.name()),
        Phase::Roll => writeln!(text, "{} to roll", turn.name()),
        Phase::Draw { what } => writeln!(text, "awaiting the {what:?} draw"),
    };
    text
}

/// The Jungle board as text, rank 9 at the top: red upper case, yellow lower case, `~` water,
/// `#` traps, `@` dens, `.` land.
pub fn jungle_text(position: &Position) -> String {
    let mut text = String::new();
    for rank in (0..RANKS).rev() {
        let _ = write!(text, "{} ", rank + 1);
        for file in 0..FILES {
            let Some(sq) = Square::from_coords(file, rank) else {
                continue;
            };
            let c = match position.piece_at(sq) {
                Some(piece) => Piece::char(piece),
                None if hangar_jungle::is_water(sq) => '~',
                None if hangar_jungle::DENS.contains(&sq) => '@',
                None if hangar_jungle::TRAPS.iter().any(|t| t.contains(sq)) => '#',
                None => '.',
            };
            text.push(c);
        }
        text.push('\n');
    }
    text.push_str("  abcdefg\n");
    let _ = writeln!(text, "{} to move", position.turn().name());
    text
}
