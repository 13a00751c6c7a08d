//! Score changes at the end of a game: F-SCORE, F-CAPTURE-BONUS, P-RESIGN, P-ESCAPE for
//! flight; P-JUNGLE-DRAW and P-JUNGLE-DISCONNECT for jungle. Pure functions.
//!
//! The room scores through [`crate::GameSession::score`]: it gives each seat's
//! [`SeatOutcome`] (facts it keeps whatever the game) and gets the score changes and the end
//! reason; which of those facts count, and how, is the game's rule and stays here.

use hangar_protocol::{EndReason, OutReason};

use crate::Ending;

/// Points an escaper loses (P-ESCAPE).
pub const ESCAPE_PENALTY: i64 = 200;
/// Points per enemy plane sent back (F-CAPTURE-BONUS).
pub const CAPTURE_BONUS: i64 = 5;
/// Points a jungle player loses per disconnection (P-JUNGLE-DISCONNECT).
pub const JUNGLE_DISCONNECT_PENALTY: i64 = 10;
/// Points a jungle loser loses (P-JUNGLE-DRAW).
pub const JUNGLE_LOSS: i64 = 2;

/// How a flight player left a running game, if they did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Left {
    /// Resigned or gone for 3 minutes: loses `v` per unfinished plane, to the winner.
    Resigned,
    /// Escaped: loses [`ESCAPE_PENALTY`].
    Escaped,
}

/// One flight seat at the end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlightLine {
    /// Finished planes (for one who left: when they left).
    pub finished: u32,
    /// Enemy planes sent back.
    pub captures: u32,
    /// Final rank, 1 = winner.
    pub rank: u32,
    /// Colour index (order for the odd point of a split, F-D-SCORE).
    pub colour: usize,
    /// Whether and how the player left; `order` of leaving among leavers (0 first).
    pub left: Option<(Left, u32)>,
}

/// What the room knows of one seat at the end of a game, whatever the game: how it left (if
/// it did), its disconnections and its finished pieces as the result shows them. The room
/// fills it; the game's scoring ([`crate::GameSession::score`]) reads what its rules need.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeatOutcome {
    /// Why the seat left the running game and its order among those who left (0 first);
    /// `None` for a seat that played to the end.
    pub out: Option<(OutReason, u32)>,
    /// Disconnections during the game (counted in jungle, P-JUNGLE-DISCONNECT).
    pub disconnects: u32,
    /// Finished pieces as the result counts them: for a seat that left, those it had when it
    /// left (its pieces left the board with it); else the game's count at the end (the
    /// flight planes of F-SCORE; 0 in jungle).
    pub finished: u32,
}

/// The reason of the seat that left last, if any left: a game that ended because of a
/// leaving ends with that reason.
fn last_out(seats: &[SeatOutcome]) -> Option<OutReason> {
    seats
        .iter()
        .filter_map(|s| s.out.map(|(o, order)| (order, o)))
        .max_by_key(|(order, _)| *order)
        .map(|(_, o)| o)
}

/// A flight game's score changes and end reason (F-SCORE, F-CAPTURE-BONUS, P-RESIGN,
/// P-ESCAPE; P-DISCONNECT: one gone too long, or put out otherwise, scores as a resigner).
/// `stake` and `planes` are the room's; `ending` the session's, `seats` the room's facts.
pub(crate) fn flight_score(
    stake: i64,
    planes: u32,
    ending: &Ending,
    seats: &[SeatOutcome],
) -> (Vec<i64>, EndReason) {
    let last_out = last_out(seats);
    let lines: Vec<FlightLine> = seats
        .iter()
        .enumerate()
        .map(|(i, s)| FlightLine {
            finished: s.finished,
            captures: ending.captures[i],
            rank: ending.ranks[i].unwrap_or(seats.len() as u32),
            colour: ending.colours[i],
            left: s.out.map(|(o, order)| {
                let left = if o == OutReason::Escaped {
                    Left::Escaped
                } else {
                    Left::Resigned
                };
                (left, order)
            }),
        })
        .collect();
    let winners_done = lines
        .iter()
        .any(|l| l.left.is_none() && l.rank == 1 && l.finished == planes);
    let ended_by_leaving = last_out.is_some() && !winners_done;
    let reason = match (ended_by_leaving, last_out) {
        (true, Some(out)) => out.into(),
        _ => EndReason::Finished,
    };
    (
        flight_deltas(stake, planes, &lines, ended_by_leaving),
        reason,
    )
}

/// A jungle game's score changes and end reason (P-JUNGLE-DRAW, P-JUNGLE-DISCONNECT,
/// P-ESCAPE; a forfeit is named by how the loser left: P-JUNGLE-TIMEOUT's timeouts, P-RESIGN,
/// P-DISCONNECT). `level` is the room's (P-SCORE weighs the win by it).
pub(crate) fn jungle_score(
    level: u8,
    ending: &Ending,
    seats: &[SeatOutcome],
) -> (Vec<i64>, EndReason) {
    let disconnects = [seats[0].disconnects, seats[1].disconnects];
    let escaped = [0, 1].map(|i| matches!(seats[i].out, Some((OutReason::Escaped, _))));
    let reason = match (ending.reason, last_out(seats)) {
        (EndReason::Forfeit, Some(out)) => out.into(),
        (reason, _) => reason,
    };
    (
        jungle_deltas(ending.jungle_winner, i64::from(level), disconnects, escaped).to_vec(),
        reason,
    )
}

/// The score change of each seat (F-SCORE with the platform's leaving rules).
///
/// `ended_by_leaving`: the game ended because the last opponent left, so the winner gains `v`
/// per own finished plane (P-RESIGN with two players) plus what earlier leavers forfeited.
pub fn flight_deltas(
    stake: i64,
    planes: u32,
    lines: &[FlightLine],
    ended_by_leaving: bool,
) -> Vec<i64> {
    let v = stake / i64::from(planes.max(1));
    let unfinished = |line: &FlightLine| i64::from(planes.saturating_sub(line.finished));
    let last_leaver = lines
        .iter()
        .filter_map(|l| l.left.map(|(_, order)| order))
        .max();
    let mut deltas = vec![0i64; lines.len()];
    let mut pool = 0i64;
    for (i, line) in lines.iter().enumerate() {
        match line.left {
            Some((Left::Escaped, _)) => deltas[i] -= ESCAPE_PENALTY,
            Some((Left::Resigned, order)) => {
                let loss = v * unfinished(line);
                deltas[i] -= loss;
                if !(ended_by_leaving && Some(order) == last_leaver) {
                    pool += loss;
                }
            }
            None => {}
        }
    }
    let mut winners: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].left.is_none() && lines[i].rank == 1)
        .collect();
    winners.sort_by_key(|&i| lines[i].colour);
    if ended_by_leaving {
        for &w in &winners {
            deltas[w] += v * i64::from(lines[w].finished);
        }
    } else {
        for (i, line) in lines.iter().enumerate() {
            if line.left.is_none() && line.rank != 1 {
                let loss = v * unfinished(line);
                deltas[i] -= loss;
                pool += loss;
            }
        }
    }
    split(&mut deltas, &winners, pool);
    for (i, line) in lines.iter().enumerate() {
        deltas[i] += CAPTURE_BONUS * i64::from(line.captures);
    }
    deltas
}

/// Shares `pool` between `winners` (in colour order), the odd points to the earlier ones.
fn split(deltas: &mut [i64], winners: &[usize], pool: i64) {
    if winners.is_empty() {
        return;
    }
    let n = winners.len() as i64;
    let share = pool.div_euclid(n);
    let odd = pool.rem_euclid(n);
    for (k, &w) in winners.iter().enumerate() {
        deltas[w] += share + i64::from((k as i64) < odd);
    }
}

/// Jungle score changes for (seat 0, seat 1): `winner` None is a draw (P-JUNGLE-DRAW);
/// `disconnects` counts each seat's disconnections (P-JUNGLE-DISCONNECT); `escaped` marks a
/// seat that left the running game on purpose: it loses [`ESCAPE_PENALTY`] instead of the
/// loser's 2 (P-ESCAPE: 200 in flight and jungle alike).
pub fn jungle_deltas(
    winner: Option<usize>,
    room_level: i64,
    disconnects: [u32; 2],
    escaped: [bool; 2],
) -> [i64; 2] {
    let mut deltas = [0i64; 2];
    if let Some(w) = winner {
        deltas[w] += 2 * room_level;
        if !escaped[1 - w] {
            deltas[1 - w] -= JUNGLE_LOSS;
        }
    }
    for seat in 0..2 {
        if escaped[seat] {
            deltas[seat] -= ESCAPE_PENALTY;
        }
    }
    for seat in 0..2 {
        deltas[seat] -= JUNGLE_DISCONNECT_PENALTY * i64::from(disconnects[seat]);
    }
    deltas
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(finished: u32, rank: u32, colour: usize) -> FlightLine {
        FlightLine {
            finished,
            captures: 0,
            rank,
            colour,
            left: None,
        }
    }

    #[test]
    fn f_score_example_from_the_spec() {
        // S = 1000, 4 planes: finished 4/3/2/1 → +1500 / −250 / −500 / −750.
        let lines = [line(4, 1, 0), line(3, 2, 1), line(2, 3, 2), line(1, 4, 3)];
        assert_eq!(
            flight_deltas(1000, 4, &lines, false),
            vec![1500, -250, -500, -750]
        );
    }

    #[test]
    fn p_capture_bonus_is_added_whatever_the_result() {
        let mut lines = [line(4, 1, 0), line(0, 2, 2)];
        lines[1].captures = 3;
        assert_eq!(flight_deltas(100, 4, &lines, false), vec![100, -100 + 15]);
    }

    #[test]
    fn f_d_score_team_split_gives_the_odd_point_to_the_earlier_colour() {
        // v = 33 (100/3 rounded down); losers lose 3×33 + 2×33... team of red and blue wins.
        let lines = [line(3, 1, 0), line(1, 2, 1), line(3, 1, 2), line(2, 2, 3)];
        let d = flight_deltas(100, 3, &lines, false);
        assert_eq!(d[1], -66);
        assert_eq!(d[3], -33);
        assert_eq!(d[0] + d[2], 99);
        assert_eq!((d[0], d[2]), (50, 49));
    }

    #[test]
    fn p_resign_two_players_winner_gains_v_per_finished_plane() {
        let mut lines = [line(2, 1, 0), line(1, 2, 2)];
        lines[1].left = Some((Left::Resigned, 0));
        assert_eq!(flight_deltas(100, 4, &lines, true), vec![50, -75]);
    }

    #[test]
    fn p_resign_many_players_loss_goes_to_the_eventual_winner() {
        let mut lines = [line(4, 1, 0), line(1, 3, 1), line(2, 2, 2)];
        lines[1].left = Some((Left::Resigned, 0));
        // Yellow resigned with 1 finished: −75 to the pool; blue loses 2×25 at the end.
        assert_eq!(flight_deltas(100, 4, &lines, false), vec![125, -75, -50]);
    }

    #[test]
    fn p_resign_two_players_the_winners_gain_counts_each_finished_plane() {
        // v = 25: the winner's gain grows by v with each finished plane, captures on top.
        for finished in 0..4 {
            let mut lines = [line(finished, 1, 0), line(2, 2, 2)];
            lines[1].left = Some((Left::Resigned, 0));
            lines[0].captures = 1;
            let gain = 25 * i64::from(finished) + 5;
            assert_eq!(flight_deltas(100, 4, &lines, true), vec![gain, -50]);
        }
    }

    #[test]
    fn p_escape_costs_200_and_the_winner_gains_v_per_finished_plane() {
        // Two players, v = 25: the escaper loses 200 whatever it had finished; the winner
        // gains 25 for each of its 3 finished planes, and the capture bonus of both is paid.
        let mut lines = [line(3, 1, 0), line(1, 2, 2)];
        lines[1].left = Some((Left::Escaped, 0));
        assert_eq!(flight_deltas(100, 4, &lines, true), vec![75, -200]);
        lines[0].captures = 2;
        lines[1].captures = 1;
        assert_eq!(flight_deltas(100, 4, &lines, true), vec![85, -195]);
        // v = 50 with 2 planes: one finished plane is worth 50.
        let mut lines = [line(1, 1, 0), line(0, 2, 1)];
        lines[1].left = Some((Left::Escaped, 0));
        assert_eq!(flight_deltas(100, 2, &lines, true), vec![50, -200]);
    }

    #[test]
    fn p_jungle_draw_and_disconnect_scores() {
        let none = [false, false];
        assert_eq!(jungle_deltas(Some(0), 1, [0, 0], none), [2, -2]);
        assert_eq!(jungle_deltas(Some(1), 3, [0, 0], none), [-2, 6]);
        assert_eq!(jungle_deltas(None, 1, [0, 0], none), [0, 0]);
        assert_eq!(jungle_deltas(Some(0), 1, [1, 2], none), [-8, -22]);
    }

    #[test]
    fn p_escape_a_jungle_escape_costs_200() {
        // The escaper loses 200 (not the loser's 2); the winner gains as P-JUNGLE-DRAW's.
        assert_eq!(jungle_deltas(Some(0), 1, [0, 0], [false, true]), [2, -200]);
        assert_eq!(jungle_deltas(Some(1), 3, [1, 0], [true, false]), [-210, 6]);
    }
}
