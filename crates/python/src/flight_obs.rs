//! The flight observation: 50 numbers from one player's point of view, colours rotated so
//! that the viewer is always seat 0 and the others follow clockwise (`docs/python.md`).

use hangar_flight::{Colour, Game, Item, Phase, Progress, Square, WEATHER_ROUNDS, Weather};

/// Length of the flight observation.
pub const FLIGHT_OBS: usize = 50;

/// Track squares: a relative square counts from the viewer's own colour.
const TRACK: u32 = 52;

/// Where each part starts.
const PLANES: usize = 0;
const ON_BOARD: usize = 16;
const SAME_SIDE: usize = 20;
const TO_MOVE: usize = 24;
const ROLL: usize = 28;
const SIXES: usize = 34;
const FORCED: usize = 35;
const CAPTURES: usize = 36;
const BAR: usize = 40;
const BOOSTED: usize = 42;
const WEATHER_ROUND: usize = 43;
const BOARD_ITEMS: usize = 44;
const WEATHER_CELL: usize = 48;

/// A shared square seen from `viewer`: track squares turned so the viewer's colour is at 0
/// (13 squares per seat), loop squares by relative seat.
fn relative_square(square: Square, viewer: Colour) -> f32 {
    let s = u32::from(square.0);
    let v = viewer.index() as u32;
    let r = if s < TRACK {
        (s + TRACK - 13 * v) % TRACK
    } else {
        TRACK + (s - TRACK + 4 - v) % 4
    };
    r as f32
}

/// Writes the observation of `game` from `viewer`'s point of view into `out[..FLIGHT_OBS]`.
pub(crate) fn write_observation(game: &Game, viewer: Colour, out: &mut [f32]) {
    let out = &mut out[..FLIGHT_OBS];
    out.fill(0.0);
    let over = game.is_over();
    for r in 0..4 {
        let c = Colour::from_index((viewer.index() + r) % 4);
        for i in 0..4u8 {
            let p = game.plane(c, i);
            out[PLANES + 4 * r + usize::from(i)] = if p == Progress::HANGAR {
                -1.0
            } else {
                f32::from(p.get())
            };
        }
        let seated = game.is_seated(c);
        out[ON_BOARD + r] = f32::from(u8::from(seated && !game.has_resigned(c)));
        out[SAME_SIDE + r] = f32::from(u8::from(seated && game.same_side(viewer, c)));
        out[TO_MOVE + r] = f32::from(u8::from(!over && game.turn() == c));
        out[CAPTURES + r] = f32::from(game.captures(c).min(255));
    }
    if let Phase::Move { roll } = game.phase() {
        out[ROLL + usize::from(roll.clamp(1, 6)) - 1] = 1.0;
    }
    out[SIXES] = f32::from(game.sixes());
    out[FORCED] = game.forced_plane().map_or(0.0, |p| f32::from(p) + 1.0);
    let bar = game.item_bar(viewer);
    for (k, &item) in Item::ALL.iter().enumerate() {
        out[BAR + k] = bar.items().filter(|&i| i == item).count() as f32;
    }
    out[BOOSTED] = f32::from(u8::from(
        game.turn() == viewer && game.item_in_use().is_some(),
    ));
    out[WEATHER_ROUND] = f32::from(game.weather_round().min(2 * WEATHER_ROUNDS));
    out[BOARD_ITEMS..BOARD_ITEMS + 4].fill(-1.0);
    for (k, item) in game.board_items().take(2).enumerate() {
        out[BOARD_ITEMS + 2 * k] = relative_square(item.square, viewer);
        out[BOARD_ITEMS + 2 * k + 1] =
            Item::ALL.iter().position(|&i| i == item.item).unwrap_or(0) as f32;
    }
    out[WEATHER_CELL] = -1.0;
    out[WEATHER_CELL + 1] = -1.0;
    if let Some(cell) = game.weather() {
        out[WEATHER_CELL] = relative_square(cell.square, viewer);
        out[WEATHER_CELL + 1] = Weather::ALL
            .iter()
            .position(|&w| w == cell.weather)
            .unwrap_or(0) as f32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_squares_turn_with_the_viewer() {
        // Yellow's route starts 13 squares after red's: its square 15 is red's 2.
        assert_eq!(relative_square(Square(15), Colour::Yellow), 2.0);
        assert_eq!(relative_square(Square(2), Colour::Red), 2.0);
        assert_eq!(relative_square(Square(0), Colour::Green), 13.0);
        // Loop squares: the viewer's own finish square is 52.
        assert_eq!(relative_square(Square(53), Colour::Yellow), 52.0);
        assert_eq!(relative_square(Square(52), Colour::Yellow), 55.0);
    }
}
