//! The Aeroplane Chess board drawn as text for `hangar play`: a 15 × 15 cross of cells, three
//! characters each, coloured with ANSI escapes (crossterm) when the output is a terminal.
//!
//! Geometry (flight.md §1): the 52 track squares run clockwise round the cross, 13 per arm;
//! square `13k` is the turn-in square of seat `k`, its home column runs down the middle lane of
//! arm `k` to the centre, and its hangar sits in the corner clockwise after the arm.

use crossterm::style::{Color, Stylize};

/// Grid side, in cells.
const SIDE: usize = 15;

/// Where a plane is, for drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spot {
    /// In its hangar (the plane's number gives its parking place).
    Hangar,
    /// On its launch pad.
    Pad,
    /// On outer-track square `0..52`.
    Track(usize),
    /// On square `1..=5` of its home column.
    Home(usize),
    /// On the centre loop square of colour `0..4` (finish option `circle`).
    Loop(usize),
    /// Finished.
    Finished,
}

/// One plane to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlaneMark {
    /// Its colour, 0 red, 1 yellow, 2 blue, 3 green.
    pub colour: usize,
    /// Its number 1..=4, as the player types it.
    pub number: usize,
    /// Where it is.
    pub spot: Spot,
}

/// Something lying on a track square (an item, the weather cell), drawn where no plane stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareMark {
    /// The track square, 0..52.
    pub square: usize,
    /// Three characters.
    pub text: &'static str,
}

/// Colour letters, red, yellow, blue, green.
pub const LETTERS: [char; 4] = ['R', 'Y', 'B', 'G'];

/// Colour names.
pub const COLOUR_NAMES: [&str; 4] = ["red", "yellow", "blue", "green"];

fn terminal_colour(colour: usize) -> Color {
    match colour {
        0 => Color::DarkRed,
        1 => Color::DarkYellow,
        2 => Color::DarkBlue,
        _ => Color::DarkGreen,
    }
}

/// Turns a cell of arm 0 (the top arm) into the same cell of arm `arm`, rotating clockwise.
fn rotate(cell: (usize, usize), arm: usize) -> (usize, usize) {
    let mut cell = cell;
    for _ in 0..arm % 4 {
        cell = (cell.1, SIDE - 1 - cell.0);
    }
    cell
}

/// The cell of outer-track square `square` (0..52).
pub fn track_cell(square: usize) -> (usize, usize) {
    let (arm, offset) = (square / 13 % 4, square % 13);
    let cell = match offset {
        0 => (0, 7),
        1 => (0, 8),
        2..=6 => (offset - 1, 8),
        _ => (6, 9 + (offset - 7)),
    };
    rotate(cell, arm)
}

/// The cell of square `step` (1..=5) of colour `colour`'s home column.
pub fn home_cell(colour: usize, step: usize) -> (usize, usize) {
    rotate((step.clamp(1, 5), 7), colour)
}

/// The centre cell of colour `colour`: its finish square (and its loop square).
pub fn centre_cell(colour: usize) -> (usize, usize) {
    rotate((6, 7), colour)
}

/// The launch pad cell of colour `colour`.
pub fn pad_cell(colour: usize) -> (usize, usize) {
    rotate((1, 10), colour)
}

/// The hangar parking cell of plane `number` (1..=4) of colour `colour`.
pub fn hangar_cell(colour: usize, number: usize) -> (usize, usize) {
    let index = number.clamp(1, 4) - 1;
    rotate((3 + index / 2, 11 + index % 2), colour)
}

fn spot_cell(mark: &PlaneMark) -> Option<(usize, usize)> {
    Some(match mark.spot {
        Spot::Hangar => hangar_cell(mark.colour, mark.number),
        Spot::Pad => pad_cell(mark.colour),
        Spot::Track(square) => track_cell(square),
        Spot::Home(step) => home_cell(mark.colour, step),
        Spot::Loop(colour) => centre_cell(colour),
        Spot::Finished => return None,
    })
}

/// What a cell shows: a background colour (if any) and three characters.
#[derive(Clone, Debug)]
struct Cell {
    background: Option<usize>,
    text: String,
}

fn cell_text(marks: &[&PlaneMark]) -> String {
    let first = marks[0];
    if marks.iter().all(|m| m.colour == first.colour) {
        let letter = LETTERS[first.colour];
        match marks.len() {
            1 => format!("{letter}{} ", first.number),
            2 => format!("{letter}{}{}", first.number, marks[1].number),
            n => format!("{letter}x{n}"),
        }
    } else {
        format!("**{}", marks.len().min(9))
    }
}

/// Draws the board with the planes; `colour` chooses ANSI colours or plain text.
#[cfg(test)]
pub fn render(marks: &[PlaneMark], colour: bool) -> String {
    render_with(marks, &[], colour)
}

/// Draws the board with the planes and marks on track squares (items, weather); a plane
/// hides a mark on its square.
pub fn render_with(marks: &[PlaneMark], squares: &[SquareMark], colour: bool) -> String {
    let mut grid: Vec<Vec<Option<Cell>>> = vec![vec![None; SIDE]; SIDE];
    for square in 0..52 {
        let (r, c) = track_cell(square);
        grid[r][c] = Some(Cell {
            background: Some(square % 4),
            text: " . ".to_owned(),
        });
    }
    for (seat, letter) in LETTERS.iter().enumerate() {
        for step in 1..=5 {
            let (r, c) = home_cell(seat, step);
            grid[r][c] = Some(Cell {
                background: Some(seat),
                text: " - ".to_owned(),
            });
        }
        let (r, c) = centre_cell(seat);
        grid[r][c] = Some(Cell {
            background: Some(seat),
            text: " * ".to_owned(),
        });
        let (r, c) = pad_cell(seat);
        grid[r][c] = Some(Cell {
            background: None,
            text: format!("{letter}> "),
        });
        for number in 1..=4 {
            let (r, c) = hangar_cell(seat, number);
            grid[r][c] = Some(Cell {
                background: None,
                text: " o ".to_owned(),
            });
        }
    }
    for mark in squares {
        let (r, c) = track_cell(mark.square % 52);
        if let Some(cell) = &mut grid[r][c] {
            cell.text = mark.text.to_owned();
        }
    }
    let mut by_cell: Vec<((usize, usize), Vec<&PlaneMark>)> = Vec::new();
    for mark in marks {
        if let Some(cell) = spot_cell(mark) {
            match by_cell.iter_mut().find(|(c, _)| *c == cell) {
                Some((_, list)) => list.push(mark),
                None => by_cell.push((cell, vec![mark])),
            }
        }
    }
    for ((r, c), list) in by_cell {
        let text = cell_text(&list);
        match &mut grid[r][c] {
            Some(cell) => cell.text = text,
            slot => {
                *slot = Some(Cell {
                    background: None,
                    text,
                })
            }
        }
    }
    let mut out = String::new();
    for row in grid {
        for cell in row {
            match cell {
                None => out.push_str("   "),
                Some(cell) => match (colour, cell.background) {
                    (true, Some(bg)) => {
                        out.push_str(&format!(
                            "{}",
                            cell.text
                                .as_str()
                                .with(Color::White)
                                .on(terminal_colour(bg))
                        ));
                    }
                    _ => out.push_str(&cell.text),
                },
            }
        }
        // Trailing spaces are noise in logs and tests.
        while out.ends_with(' ') {
            out.pop();
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // F-BOARD: 52 distinct track cells, plus 5 home cells per colour, all distinct.
    #[test]
    fn every_square_has_its_own_cell() {
        let mut cells: Vec<(usize, usize)> = (0..52).map(track_cell).collect();
        for seat in 0..4 {
            cells.extend((1..=5).map(|step| home_cell(seat, step)));
            cells.push(centre_cell(seat));
            cells.push(pad_cell(seat));
            cells.extend((1..=4).map(|n| hangar_cell(seat, n)));
        }
        let count = cells.len();
        cells.sort_unstable();
        cells.dedup();
        assert_eq!(cells.len(), count);
        assert!(cells.iter().all(|&(r, c)| r < SIDE && c < SIDE));
    }

    #[test]
    fn consecutive_track_squares_are_neighbours() {
        for square in 0..52 {
            let (a, b) = (track_cell(square), track_cell((square + 1) % 52));
            let distance = a.0.abs_diff(b.0) + a.1.abs_diff(b.1);
            // Corners of the cross join diagonally.
            assert!(distance == 1 || (a.0 != b.0 && a.1 != b.1 && distance == 2));
        }
    }

    #[test]
    fn planes_are_drawn_with_letter_and_number() {
        let marks = [
            PlaneMark {
                colour: 0,
                number: 2,
                spot: Spot::Track(5),
            },
            PlaneMark {
                colour: 0,
                number: 3,
                spot: Spot::Track(5),
            },
            PlaneMark {
                colour: 2,
                number: 1,
                spot: Spot::Home(3),
            },
        ];
        let text = render(&marks, false);
        assert!(text.contains("R23"), "{text}");
        assert!(text.contains("B1"), "{text}");
        assert_eq!(text.lines().count(), SIDE);
    }

    #[test]
    fn square_marks_show_where_no_plane_stands() {
        let plane = PlaneMark {
            colour: 1,
            number: 4,
            spot: Spot::Track(9),
        };
        let squares = [
            SquareMark {
                square: 3,
                text: "iB ",
            },
            SquareMark {
                square: 9,
                text: "wS ",
            },
        ];
        let text = render_with(&[plane], &squares, false);
        assert!(text.contains("iB"), "{text}");
        assert!(!text.contains("wS"), "a plane hides the mark: {text}");
        assert!(text.contains("Y4"), "{text}");
    }
}
