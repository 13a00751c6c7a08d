//! The evaluation both the heuristic and the search bot use: how good a position is for one
//! side, in "pips" (one pip = one square of progress).
//!
//! It follows the advice of seed 000 §F: progress counts, a plane within reach of an enemy is
//! worth less by the chance it is hit (jumps and the shortcut included, so resting on another
//! colour's square is seen as dangerous), stacks are safer under `stacks = block`, the home
//! column is safe, a plane's loss when hit is all its progress plus the wait for a take-off
//! roll (so a plane far ahead is kept safe, and capturing the leader's planes pays most), and
//! the strongest opponent weighs more than the others (chase the leader). A `race` term can
//! make a side close to winning count more than its pips; self-play tuning set it to 0.

use std::fmt;
use std::str::FromStr;

use super::geometry::{CROSSING, LAST_TRACK, hit_chance, progress_of, square_of};
use super::snapshot::{At, Snapshot};

/// Full progress of a plane: launch pad (0) to finish (56).
const ROUTE: f32 = 56.0;
/// What a won (lost) game is worth: more than any position.
pub const WIN: f32 = 1.0e6;

/// The tunable weights of the evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Worth of a plane on its pad over one in the hangar (the wait for a take-off roll).
    pub pad: f32,
    /// Extra worth of a plane in its (safe) home column.
    pub home: f32,
    /// Extra worth of a finished plane.
    pub finished: f32,
    /// Multiplier of the expected loss of planes within enemy reach.
    pub danger: f32,
    /// Share of that danger left on a stack when stacks block.
    pub stack_guard: f32,
    /// How much more the side nearest to winning counts: worth grows as `race · f⁴`, with `f`
    /// the side's share of the full route.
    pub race: f32,
    /// Weight of the strongest opponent against the mean of the opponents (0..=1).
    pub leader: f32,
    /// Worth of being the side about to roll (a roll is worth about 3.5 pips and a chance).
    pub tempo: f32,
}

impl Default for Weights {
    fn default() -> Self {
        // Tuned by self-play with `hangar sim` (docs/benchmarks.md, "Aeroplane Chess bots"):
        // each weight moved up and down against three bots with the previous defaults, 6,000
        // games each.
        Weights {
            pad: 30.0,
            home: 6.0,
            finished: 8.0,
            danger: 0.6,
            stack_guard: 0.6,
            race: 0.0,
            leader: 0.5,
            tempo: 4.0,
        }
    }
}

/// Why a weight setting is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown or bad weight `{0}` (known: pad, home, finished, danger, stack_guard, race, leader, tempo)"
)]
pub struct WeightError(pub String);

impl Weights {
    /// Sets one weight by name, for `heuristic:danger=1.5` style bot specs.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), WeightError> {
        let parsed: f32 = value
            .parse()
            .map_err(|_| WeightError(format!("{key}={value}")))?;
        if !parsed.is_finite() {
            return Err(WeightError(format!("{key}={value}")));
        }
        let slot = match key {
            "pad" => &mut self.pad,
            "home" => &mut self.home,
            "finished" => &mut self.finished,
            "danger" => &mut self.danger,
            "stack_guard" => &mut self.stack_guard,
            "race" => &mut self.race,
            "leader" => &mut self.leader,
            "tempo" => &mut self.tempo,
            _ => return Err(WeightError(key.to_owned())),
        };
        *slot = parsed;
        Ok(())
    }
}

impl fmt::Display for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "pad={},home={},finished={},danger={},stack_guard={},race={},leader={},tempo={}",
            self.pad,
            self.home,
            self.finished,
            self.danger,
            self.stack_guard,
            self.race,
            self.leader,
            self.tempo
        )
    }
}

impl FromStr for Weights {
    type Err = WeightError;

    /// `key=value,key=value`, starting from the defaults.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut weights = Weights::default();
        for pair in s.split(',').filter(|p| !p.trim().is_empty()) {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| WeightError(pair.to_owned()))?;
            weights.set(key.trim(), value.trim())?;
        }
        Ok(weights)
    }
}

/// Worth of one plane ignoring danger.
fn plane_worth(at: At, weights: &Weights) -> f32 {
    match at {
        At::Hangar => 0.0,
        At::Route(0) => weights.pad,
        At::Route(p) if p <= LAST_TRACK => weights.pad + f32::from(p),
        At::Route(p) => weights.pad + f32::from(p) + weights.home,
        At::Loop(short) => weights.pad + ROUTE - f32::from(short),
        At::Finished => weights.pad + ROUTE + weights.home + weights.finished,
    }
}

/// The chance that enemy `enemy` sends a plane standing on square `square` home next turn.
fn enemy_reach(snapshot: &Snapshot, enemy: usize, square: usize) -> f32 {
    let Some(target) = progress_of(enemy, square) else {
        return 0.0;
    };
    let mut chance = 0.0;
    let mut waiting = false;
    for &at in snapshot.planes_of(enemy) {
        match at {
            At::Route(q) if q <= LAST_TRACK && q < target => chance += hit_chance(q, target),
            At::Hangar => waiting = true,
            _ => {}
        }
    }
    if waiting {
        // A take-off 6 then the bonus roll from the pad.
        chance += hit_chance(0, target) / 6.0;
    }
    chance.min(1.0)
}

/// The chance that the plane of `colour` at progress `progress` is sent home before its
/// side's next turn.
pub(crate) fn danger(snapshot: &Snapshot, colour: usize, progress: u8) -> f32 {
    if progress == CROSSING {
        // Only the opposite colour's flight crosses here (F-CROSS).
        let opposite = (colour + 2) % 4;
        if !snapshot.enemies(colour, opposite) {
            return 0.0;
        }
        let chance: f32 = snapshot
            .planes_of(opposite)
            .iter()
            .map(|&at| match at {
                At::Route(q) if q < 18 => hit_chance(q, 18),
                _ => 0.0,
            })
            .sum();
        return chance.min(1.0);
    }
    if progress == 0 || progress > LAST_TRACK {
        return 0.0;
    }
    let square = square_of(colour, progress);
    let mut safe = 1.0;
    for enemy in 0..4 {
        if snapshot.enemies(colour, enemy) {
            safe *= 1.0 - enemy_reach(snapshot, enemy, square);
        }
    }
    1.0 - safe
}

/// How many planes of `colour`'s side stand on the same track square as `progress`.
pub(crate) fn stack_size(snapshot: &Snapshot, colour: usize, progress: u8) -> usize {
    let square = square_of(colour, progress);
    (0..4)
        .filter(|&c| snapshot.present[c] && snapshot.side[c] == snapshot.side[colour])
        .flat_map(|c| snapshot.planes_of(c).iter().map(move |&at| (c, at)))
        .filter(|&(c, at)| matches!(at, At::Route(p) if (1..=LAST_TRACK).contains(&p) && square_of(c, p) == square))
        .count()
}

/// Worth of `colour`'s planes with danger taken off.
fn colour_worth(snapshot: &Snapshot, colour: usize, weights: &Weights) -> f32 {
    let mut total = 0.0;
    for &at in snapshot.planes_of(colour) {
        let worth = plane_worth(at, weights);
        total += worth;
        if let At::Route(p) = at {
            let mut risk = danger(snapshot, colour, p);
            if risk > 0.0 && p != CROSSING && stack_size(snapshot, colour, p) > 1 {
                risk *= if snapshot.stacks_block {
                    weights.stack_guard
                } else {
                    1.0
                };
            }
            total -= weights.danger * risk * worth;
        }
    }
    total
}

/// Worth of a side: its planes' worth plus the race bonus.
fn side_worth(snapshot: &Snapshot, side: usize, weights: &Weights) -> f32 {
    let mut worth = 0.0;
    let mut colours = 0;
    for colour in 0..4 {
        if snapshot.present[colour] && snapshot.side[colour] == side {
            worth += colour_worth(snapshot, colour, weights);
            colours += 1;
        }
    }
    let full = (colours * snapshot.planes) as f32 * plane_worth(At::Finished, weights);
    let share = if full > 0.0 {
        (worth / full).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let to_roll = snapshot.to_roll.is_some_and(|c| snapshot.side[c] == side);
    worth
        + weights.race * share.powi(4) * (colours * snapshot.planes) as f32
        + if to_roll { weights.tempo } else { 0.0 }
}

/// How good the position is for the side of `colour`: its worth minus a blend of the strongest
/// and the mean opponent side. A finished game is ±[`WIN`].
pub fn evaluate(snapshot: &Snapshot, colour: usize, weights: &Weights) -> f32 {
    let me = snapshot.side[colour];
    if let Some(winner) = snapshot.winner_side {
        return if winner == me { WIN } else { -WIN };
    }
    let mine = side_worth(snapshot, me, weights);
    let mut strongest = f32::MIN;
    let mut sum = 0.0;
    let mut count = 0;
    for side in 0..4 {
        let seated = (0..4).any(|c| snapshot.present[c] && snapshot.side[c] == side);
        if side != me && seated {
            let worth = side_worth(snapshot, side, weights);
            strongest = strongest.max(worth);
            sum += worth;
            count += 1;
        }
    }
    if count == 0 {
        return mine;
    }
    let mean = sum / count as f32;
    mine - weights.leader * strongest - (1.0 - weights.leader) * mean
}

/// An estimate of the chance that the side of `colour` wins from here: a softmax of the sides'
/// worths (in pips) at `temperature` pips. Rollouts that stop before the end of the game are
/// judged by it; a finished game is 1 or 0.
pub fn win_chance(snapshot: &Snapshot, colour: usize, weights: &Weights, temperature: f32) -> f32 {
    let me = snapshot.side[colour];
    if let Some(winner) = snapshot.winner_side {
        return if winner == me { 1.0 } else { 0.0 };
    }
    let mut worths = [None; 4];
    for (side, slot) in worths.iter_mut().enumerate() {
        if (0..4).any(|c| snapshot.present[c] && snapshot.side[c] == side) {
            *slot = Some(side_worth(snapshot, side, weights));
        }
    }
    let top = worths.iter().flatten().fold(f32::MIN, |a, &b| a.max(b));
    let temperature = temperature.max(1e-3);
    let mut total = 0.0;
    let mut mine = 0.0;
    for (side, worth) in worths.iter().enumerate() {
        if let Some(worth) = worth {
            let weight = ((worth - top) / temperature).exp();
            total += weight;
            if side == me {
                mine = weight;
            }
        }
    }
    if total > 0.0 { mine / total } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flight::snapshot::two_player;

    #[test]
    fn progress_is_good_and_enemy_progress_bad() {
        let w = Weights::default();
        let base = two_player(
            [At::Route(5), At::Hangar, At::Hangar, At::Hangar],
            [At::Hangar; 4],
        );
        let ahead = two_player(
            [At::Route(9), At::Hangar, At::Hangar, At::Hangar],
            [At::Hangar; 4],
        );
        assert!(evaluate(&ahead, 0, &w) > evaluate(&base, 0, &w));
        assert!(evaluate(&ahead, 2, &w) < evaluate(&base, 2, &w));
    }

    #[test]
    fn resting_within_enemy_reach_costs() {
        let w = Weights::default();
        // Red 3 squares ahead of a blue plane, against red far away.
        let blue_at = 10u8;
        let square = square_of(2, blue_at);
        let red_near = progress_of(0, (square + 3) % 52).unwrap();
        let red_far = progress_of(0, (square + 25) % 52).unwrap();
        let blue = [At::Route(blue_at), At::Hangar, At::Hangar, At::Hangar];
        let near = two_player(
            [At::Route(red_near), At::Hangar, At::Hangar, At::Hangar],
            blue,
        );
        let far = two_player(
            [At::Route(red_far), At::Hangar, At::Hangar, At::Hangar],
            blue,
        );
        let near_worth = colour_worth(&near, 0, &w) - f32::from(red_near);
        let far_worth = colour_worth(&far, 0, &w) - f32::from(red_far);
        assert!(near_worth < far_worth, "{near_worth} vs {far_worth}");
    }

    #[test]
    fn weights_parse_and_refuse_nonsense() {
        let w: Weights = "danger=2, race=10".parse().unwrap();
        assert_eq!((w.danger, w.race), (2.0, 10.0));
        assert!("nope=1".parse::<Weights>().is_err());
        assert!("danger=x".parse::<Weights>().is_err());
        let round: Weights = w.to_string().parse().unwrap();
        assert_eq!(round, w);
    }

    #[test]
    fn a_won_game_outweighs_everything() {
        let mut s = two_player([At::Finished; 4], [At::Route(40); 4]);
        s.winner_side = Some(0);
        assert_eq!(evaluate(&s, 0, &Weights::default()), WIN);
        assert_eq!(evaluate(&s, 2, &Weights::default()), -WIN);
    }
}
