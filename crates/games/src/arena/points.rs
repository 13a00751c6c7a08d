//! Points per arena game (P-ARENA): Jungle 2/1/0; flight 3/2/1/0 at a table of four, 2/1/0 at
//! three, 2/0 at two; doubled once a player has won two games in a row, until a game is not
//! won. A player who escapes (P-ESCAPE) scores 0.

use hangar_protocol::GameKind;
use serde::{Deserialize, Serialize};

/// One player's end of an arena game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finish {
    /// The player's account id.
    pub player: i64,
    /// 1 = first. A Jungle draw gives both players place 1.
    pub place: u8,
    /// Whether the player left the running game on purpose (P-ESCAPE).
    pub escaped: bool,
}

/// Whether every player of the table shares first place: a drawn game (Jungle).
pub fn is_draw(table: &[Finish]) -> bool {
    table.len() > 1 && table.iter().all(|f| f.place == 1)
}

/// Whether `finish` won its table: first place, not a draw, not escaped.
pub fn is_win(finish: &Finish, table: &[Finish]) -> bool {
    finish.place == 1 && !finish.escaped && !is_draw(table)
}

/// The points of one player's game before any doubling.
pub fn game_points(game: GameKind, finish: &Finish, table: &[Finish]) -> u32 {
    if finish.escaped {
        return 0;
    }
    if is_draw(table) {
        return 1;
    }
    let seats = table.len() as u32;
    let place = u32::from(finish.place).max(1);
    match (game, seats) {
        // Jungle, and flight at a table of two: the winner's 2, nothing for the loser.
        (GameKind::Jungle, _) | (GameKind::Flight, 0..=2) => {
            if place == 1 {
                2
            } else {
                0
            }
        }
        // Flight at three or four: one point per player placed behind.
        (GameKind::Flight, _) => seats.saturating_sub(place),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(places: &[u8]) -> Vec<Finish> {
        places
            .iter()
            .enumerate()
            .map(|(i, &place)| Finish {
                player: i as i64 + 1,
                place,
                escaped: false,
            })
            .collect()
    }

    #[test]
    fn p_arena_points_per_place() {
        let four = table(&[2, 1, 4, 3]);
        let got: Vec<u32> = four
            .iter()
            .map(|f| game_points(GameKind::Flight, f, &four))
            .collect();
        assert_eq!(got, [2, 3, 0, 1]);
        let three = table(&[3, 1, 2]);
        let got: Vec<u32> = three
            .iter()
            .map(|f| game_points(GameKind::Flight, f, &three))
            .collect();
        assert_eq!(got, [0, 2, 1]);
        let two = table(&[2, 1]);
        let got: Vec<u32> = two
            .iter()
            .map(|f| game_points(GameKind::Flight, f, &two))
            .collect();
        assert_eq!(got, [0, 2]);
        let jungle = table(&[1, 2]);
        let got: Vec<u32> = jungle
            .iter()
            .map(|f| game_points(GameKind::Jungle, f, &jungle))
            .collect();
        assert_eq!(got, [2, 0]);
        let drawn = table(&[1, 1]);
        assert!(is_draw(&drawn));
        assert!(!is_win(&drawn[0], &drawn));
        assert_eq!(game_points(GameKind::Jungle, &drawn[0], &drawn), 1);
    }

    #[test]
    fn p_arena_an_escape_scores_nothing() {
        let mut two = table(&[1, 2]);
        two[0].escaped = true;
        assert_eq!(game_points(GameKind::Jungle, &two[0], &two), 0);
        assert!(!is_win(&two[0], &two));
    }
}
