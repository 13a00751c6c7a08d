//! A small neural network that estimates each player's chance to win, trained by TD(λ)
//! self-play (the `train_td` example; docs/benchmarks.md "Aeroplane Chess bots").
//!
//! One hidden layer of `tanh` units over the inputs of [`super::encode`]; the first layer is
//! computed sparsely (the weight rows of the active inputs are summed, NNUE-like: about 20 rows
//! per position), the output is a softmax over the seats that are played. Seats are rotated
//! so the colour about to roll is seat 0; [`Net::win_chances`] turns them back into colours.
//!
//! Separate nets are trained for 2, 3 and 4 players and for 2-vs-2 teams, under the
//! traditional and under the improved rules; they ship in `crates/bots/data/td{2,3,4,4t}.bin`
//! and `td{2,3,4,4t}i.bin` (little-endian `f32`, format in [`Net::to_bytes`]).
//! [`Net::for_game`] gives the net that judges a game: for an option set no net was trained
//! for (custom rules, fewer planes, items, weather) the net of the nearest preset, which
//! judges such games better than the hand evaluation does (docs/benchmarks.md, "Options
//! without a net of their own").

use std::sync::OnceLock;

use hangar_dice::{Dice, Seed};
use hangar_flight::{Game, Options, Preset};

use super::encode::{
    DENSE_INPUTS, Encoded, INPUTS, PLAYER_VIEW_INPUTS, SEATS, SPARSE_INPUTS, encode, encode_for,
};
use super::snapshot::Snapshot;

/// The largest hidden layer a net may have (the forward pass keeps it on the stack).
pub const MAX_HIDDEN: usize = 256;
/// The first bytes of a net file.
const MAGIC: &[u8; 4] = b"HTD1";

/// Why a net file is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// Not a net file, or one for other inputs.
    #[error("not a flight net file (bad header)")]
    BadHeader,
    /// A hidden layer of 0 or more than [`MAX_HIDDEN`] units.
    #[error("bad hidden layer size {0}")]
    BadHidden(usize),
    /// The file's length does not match its header.
    #[error("net file of {found} bytes, expected {expected}")]
    BadLength {
        /// Bytes expected from the header.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// A weight is NaN or infinite.
    #[error("net file holds a weight that is not finite")]
    NotFinite,
}

/// Whose view a net's input takes, and so what its chances mean.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum View {
    /// Seat 0 is the colour about to roll ([`encode`]); trained by self-play, a position's
    /// value does not depend on who owns it (every player plays the same way).
    #[default]
    Roller,
    /// Seat 0 is one player ([`encode_for`]), with a flag on the seat that rolls next;
    /// trained with that player playing greedily on the net against fixed opponents (the
    /// heuristic), so seat 0's chance is that player's chance in exactly that match-up.
    Player,
}

impl View {
    /// Inputs of a net of this view.
    pub const fn inputs(self) -> usize {
        match self {
            View::Roller => INPUTS,
            View::Player => PLAYER_VIEW_INPUTS,
        }
    }
}

/// The network: inputs → `hidden` tanh units → one logit per seat.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    view: View,
    hidden: usize,
    /// `w1[i * hidden + h]`: input `i` to hidden unit `h`.
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// `w2[s * hidden + h]`: hidden unit `h` to seat `s`'s logit.
    w2: Vec<f32>,
    b2: [f32; SEATS],
}

/// The hidden activations of one forward pass, kept for training.
struct Pass {
    hidden: [f32; MAX_HIDDEN],
    probabilities: [f32; SEATS],
}

impl Net {
    /// A fresh roller's-view net with small random weights (for training).
    pub fn random(hidden: usize, seed: Seed) -> Net {
        Net::random_view(hidden, View::Roller, seed)
    }

    /// A fresh net of `view` with small random weights (for training).
    pub fn random_view(hidden: usize, view: View, seed: Seed) -> Net {
        let hidden = hidden.clamp(1, MAX_HIDDEN);
        let mut dice = Dice::new(seed);
        let mut uniform = |scale: f32| {
            let u = dice.roll_below(1 << 20) as f32 / (1 << 20) as f32;
            (2.0 * u - 1.0) * scale
        };
        let w1 = (0..view.inputs() * hidden).map(|_| uniform(0.1)).collect();
        let w2 = (0..SEATS * hidden)
            .map(|_| uniform(1.0 / (hidden as f32).sqrt()))
            .collect();
        Net {
            view,
            hidden,
            w1,
            b1: vec![0.0; hidden],
            w2,
            b2: [0.0; SEATS],
        }
    }

    /// Hidden units.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Whose view the net's input takes.
    pub fn view(&self) -> View {
        self.view
    }

    /// This roller's-view net as the start of a player's-view one: the same weights, and
    /// zero weights for the "rolls next" flags (a warm start for training).
    pub fn to_player_view(&self) -> Net {
        let mut net = self.clone();
        if net.view == View::Roller {
            net.view = View::Player;
            net.w1.resize(
                (PLAYER_VIEW_INPUTS - INPUTS) * net.hidden + net.w1.len(),
                0.0,
            );
        }
        net
    }

    /// The input of `snapshot` for this net, to judge it for `colour`; `colour`'s seat in it.
    pub fn input(&self, snapshot: &Snapshot, colour: usize) -> Option<(Encoded, usize)> {
        match self.view {
            View::Roller => {
                let roller = snapshot.to_roll?;
                Some((encode(snapshot, roller), (colour + SEATS - roller) % SEATS))
            }
            View::Player => Some((encode_for(snapshot, colour), 0)),
        }
    }

    /// `colour`'s chance to win from `snapshot` (a position awaiting a roll, or over: then 1
    /// for the winner's side, else 0). In a team game it is the chance of `colour`'s side.
    pub fn chance(&self, snapshot: &Snapshot, colour: usize) -> f32 {
        match self.input(snapshot, colour) {
            Some((input, seat)) => {
                let seats = self.forward(&input).probabilities;
                if has_partner(snapshot, colour) {
                    side_sums(seats)[seat]
                } else {
                    seats[seat]
                }
            }
            None => {
                if snapshot.winner_side == Some(snapshot.side[colour]) {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }

    fn forward(&self, input: &Encoded) -> Pass {
        let h = self.hidden;
        let mut acc = [0f32; MAX_HIDDEN];
        let acc = &mut acc[..h];
        acc.copy_from_slice(&self.b1);
        for &i in input.active() {
            let row = &self.w1[usize::from(i) * h..][..h];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        for (j, &x) in input.dense.iter().enumerate() {
            if x != 0.0 {
                let row = &self.w1[(SPARSE_INPUTS + j) * h..][..h];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w * x;
                }
            }
        }
        let mut hidden = [0f32; MAX_HIDDEN];
        for (out, &a) in hidden.iter_mut().zip(acc.iter()) {
            *out = a.tanh();
        }
        let mut logits = [f32::MIN; SEATS];
        for (s, logit) in logits.iter_mut().enumerate() {
            if input.present[s] {
                let row = &self.w2[s * h..][..h];
                *logit = self.b2[s]
                    + row
                        .iter()
                        .zip(&hidden[..h])
                        .map(|(w, x)| w * x)
                        .sum::<f32>();
            }
        }
        let top = logits.iter().fold(f32::MIN, |a, &b| a.max(b));
        let mut probabilities = [0f32; SEATS];
        let mut total = 0.0;
        for s in 0..SEATS {
            if input.present[s] {
                probabilities[s] = (logits[s] - top).exp();
                total += probabilities[s];
            }
        }
        if total > 0.0 {
            for p in probabilities.iter_mut() {
                *p /= total;
            }
        }
        Pass {
            hidden,
            probabilities,
        }
    }

    /// Each rotated seat's chance to win (0 for seats nobody plays; the rest sum to 1).
    pub fn seat_chances(&self, input: &Encoded) -> [f32; SEATS] {
        self.forward(input).probabilities
    }

    /// Each colour's chance to win from `snapshot` (0 for colours nobody plays). A finished
    /// game is 1 for the winner's colours. In a team game a colour's chance is its side's, so
    /// partners have the same and the chances sum to 2. A player's-view net judges each
    /// colour from its own view.
    pub fn win_chances(&self, snapshot: &Snapshot) -> [f32; SEATS] {
        let mut chances = [0f32; SEATS];
        match snapshot.to_roll {
            Some(_) if self.view == View::Player => {
                for (colour, chance) in chances.iter_mut().enumerate() {
                    if snapshot.present[colour] {
                        *chance = self.chance(snapshot, colour);
                    }
                }
            }
            Some(roller) => {
                let input = encode(snapshot, roller);
                let seats = self.seat_chances(&input);
                for (seat, chance) in seats.iter().enumerate() {
                    chances[input.colour(seat)] = *chance;
                }
                if has_partner(snapshot, roller) {
                    chances = side_sums(chances);
                }
            }
            None => {
                for (colour, chance) in chances.iter_mut().enumerate() {
                    if snapshot.winner_side == Some(snapshot.side[colour]) {
                        *chance = 1.0;
                    }
                }
            }
        }
        chances
    }

    /// One step of gradient descent on the cross-entropy between the net's seat chances and
    /// `target` (a distribution over the rotated seats): TD learning moves a position's
    /// estimate towards what followed it. Returns the estimate before the step.
    pub fn learn(&mut self, input: &Encoded, target: &[f32; SEATS], rate: f32) -> [f32; SEATS] {
        let h = self.hidden;
        let pass = self.forward(input);
        // d(loss)/d(logit) of a softmax with cross-entropy: estimate − target.
        let mut delta = [0f32; SEATS];
        for s in 0..SEATS {
            if input.present[s] {
                delta[s] = pass.probabilities[s] - target[s];
            }
        }
        let mut back = [0f32; MAX_HIDDEN];
        for (s, &d) in delta.iter().enumerate() {
            if d == 0.0 {
                continue;
            }
            let row = &mut self.w2[s * h..][..h];
            for ((w, x), b) in row.iter_mut().zip(&pass.hidden[..h]).zip(back.iter_mut()) {
                *b += d * *w;
                *w -= rate * d * x;
            }
            self.b2[s] -= rate * d;
        }
        for (b, x) in back[..h].iter_mut().zip(&pass.hidden[..h]) {
            *b *= 1.0 - x * x;
        }
        for (b1, b) in self.b1.iter_mut().zip(&back[..h]) {
            *b1 -= rate * b;
        }
        for &i in input.active() {
            let row = &mut self.w1[usize::from(i) * h..][..h];
            for (w, b) in row.iter_mut().zip(&back[..h]) {
                *w -= rate * b;
            }
        }
        for (j, &x) in input.dense.iter().enumerate() {
            if x != 0.0 {
                let row = &mut self.w1[(SPARSE_INPUTS + j) * h..][..h];
                for (w, b) in row.iter_mut().zip(&back[..h]) {
                    *w -= rate * b * x;
                }
            }
        }
        pass.probabilities
    }

    /// The file format: `HTD1`, then `u32` inputs (720 for a roller's view, 724 for a
    /// player's), hidden units and seats, then `w1` (input by input), `b1`, `w2` (seat by
    /// seat), `b2`, all little-endian `f32`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(16 + 4 * (self.w1.len() + self.w2.len() + 64));
        bytes.extend_from_slice(MAGIC);
        for n in [self.view.inputs(), self.hidden, SEATS] {
            bytes.extend_from_slice(&(n as u32).to_le_bytes());
        }
        for x in self
            .w1
            .iter()
            .chain(&self.b1)
            .chain(&self.w2)
            .chain(&self.b2)
        {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        bytes
    }

    /// Reads a net written by [`Net::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, NetError> {
        let word = |at: usize| -> Option<u32> {
            let slice = bytes.get(at..at + 4)?;
            Some(u32::from_le_bytes([slice[0], slice[1], slice[2], slice[3]]))
        };
        if bytes.get(..4) != Some(MAGIC.as_slice()) {
            return Err(NetError::BadHeader);
        }
        let (Some(inputs), Some(hidden), Some(seats)) = (word(4), word(8), word(12)) else {
            return Err(NetError::BadHeader);
        };
        let view = match inputs as usize {
            INPUTS => View::Roller,
            PLAYER_VIEW_INPUTS => View::Player,
            _ => return Err(NetError::BadHeader),
        };
        if seats as usize != SEATS {
            return Err(NetError::BadHeader);
        }
        let inputs = view.inputs();
        let hidden = hidden as usize;
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetError::BadHidden(hidden));
        }
        let count = inputs * hidden + hidden + SEATS * hidden + SEATS;
        let expected = 16 + 4 * count;
        if bytes.len() != expected {
            return Err(NetError::BadLength {
                expected,
                found: bytes.len(),
            });
        }
        let floats: Vec<f32> = bytes[16..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if floats.iter().any(|x| !x.is_finite()) {
            return Err(NetError::NotFinite);
        }
        let (w1, rest) = floats.split_at(inputs * hidden);
        let (b1, rest) = rest.split_at(hidden);
        let (w2, b2) = rest.split_at(SEATS * hidden);
        Ok(Net {
            view,
            hidden,
            w1: w1.to_vec(),
            b1: b1.to_vec(),
            w2: w2.to_vec(),
            b2: [b2[0], b2[1], b2[2], b2[3]],
        })
    }

    /// The shipped self-play net for `players` players under `options` (2–4; none for other
    /// counts): the net of the nearest preset ([`nearest_preset`]) — under the traditional
    /// rules `td2.bin`, `td3.bin`, `td4.bin` and, for 2-vs-2 team games, `td4t.bin`; under
    /// the improved ones `td2i.bin`, `td3i.bin`, `td4i.bin` and `td4ti.bin`.
    pub fn shipped(options: &Options, players: usize) -> Option<&'static Net> {
        static NETS: [OnceLock<Option<Net>>; 8] = [const { OnceLock::new() }; 8];
        let (slot, bytes): (usize, &[u8]) = match (nearest_preset(options), options.teams, players)
        {
            (Preset::Traditional, false, 2) => (0, include_bytes!("../../data/td2.bin")),
            (Preset::Traditional, false, 3) => (1, include_bytes!("../../data/td3.bin")),
            (Preset::Traditional, false, 4) => (2, include_bytes!("../../data/td4.bin")),
            (Preset::Traditional, true, 4) => (3, include_bytes!("../../data/td4t.bin")),
            (Preset::Improved, false, 2) => (4, include_bytes!("../../data/td2i.bin")),
            (Preset::Improved, false, 3) => (5, include_bytes!("../../data/td3i.bin")),
            (Preset::Improved, false, 4) => (6, include_bytes!("../../data/td4i.bin")),
            (Preset::Improved, true, 4) => (7, include_bytes!("../../data/td4ti.bin")),
            _ => return None,
        };
        NETS[slot]
            .get_or_init(|| Net::from_bytes(bytes).ok())
            .as_ref()
    }

    /// The shipped player's-view net for one player against `players - 1` heuristic bots
    /// under the traditional rules (`crates/bots/data/td2h.bin`, 2 players).
    pub fn versus(players: usize) -> Option<&'static Net> {
        static TWO: OnceLock<Option<Net>> = OnceLock::new();
        match players {
            2 => TWO
                .get_or_init(|| Net::from_bytes(include_bytes!("../../data/td2h.bin")).ok())
                .as_ref(),
            _ => None,
        }
    }

    /// The shipped player's-view net for `game`, if one was trained for its options and
    /// player count (the traditional rules, 2 players).
    pub fn versus_for_game(game: &Game) -> Option<&'static Net> {
        // Experimental and trained for exactly one game: no nearest-preset stand-in.
        if *game.options() == Preset::Traditional.options() {
            Net::versus(game.player_count())
        } else {
            None
        }
    }

    /// The shipped self-play net for `game`'s options and player count (see [`Net::shipped`]).
    pub fn for_game(game: &Game) -> Option<&'static Net> {
        Net::shipped(game.options(), game.player_count())
    }
}

/// The preset whose net judges a game under `options`: the one that agrees with the most of
/// the four rules the presets set (take-off, three sixes, stacks, finish), the traditional
/// one on a tie. A net learns one set of rules; for another set (a single option changed,
/// items, weather, fewer planes) the nearest net still judges far better than the hand
/// evaluation's softmax (docs/benchmarks.md, "Options without a net of their own").
fn nearest_preset(options: &Options) -> Preset {
    let agreement = |preset: Preset| {
        let rules = preset.options();
        [
            rules.takeoff == options.takeoff,
            rules.three_sixes == options.three_sixes,
            rules.stacks == options.stacks,
            rules.finish == options.finish,
        ]
        .into_iter()
        .filter(|&same| same)
        .count()
    };
    if agreement(Preset::Improved) > agreement(Preset::Traditional) {
        Preset::Improved
    } else {
        Preset::Traditional
    }
}

/// Whether `colour` plays with a partner (the opposite colour), as in a team game.
fn has_partner(snapshot: &Snapshot, colour: usize) -> bool {
    let opposite = (colour + 2) % SEATS;
    snapshot.present[opposite] && snapshot.side[opposite] == snapshot.side[colour]
}

/// Each entry's side's sum, for a team game: a team net splits its side's chance between the
/// partners, who sit opposite (two apart) both as colours and as rotated seats.
fn side_sums(chances: [f32; SEATS]) -> [f32; SEATS] {
    let sides = [chances[0] + chances[2], chances[1] + chances[3]];
    [sides[0], sides[1], sides[0], sides[1]]
}

/// Dense inputs are read by index in the forward pass; keep the layout in one place.
const _: () = assert!(INPUTS == SPARSE_INPUTS + DENSE_INPUTS);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flight::snapshot::{At, two_player};

    #[test]
    fn bytes_round_trip_and_bad_files_are_refused() {
        let player = Net::random_view(8, View::Player, Seed::from_u64(3));
        assert_eq!(Net::from_bytes(&player.to_bytes()).unwrap(), player);
        let net = Net::random(8, Seed::from_u64(1));
        let bytes = net.to_bytes();
        assert_eq!(Net::from_bytes(&bytes).unwrap(), net);
        assert_eq!(Net::from_bytes(b"nope"), Err(NetError::BadHeader));
        assert!(matches!(
            Net::from_bytes(&bytes[..bytes.len() - 4]),
            Err(NetError::BadLength { .. })
        ));
        let mut nan = bytes.clone();
        let at = nan.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert_eq!(Net::from_bytes(&nan), Err(NetError::NotFinite));
    }

    #[test]
    fn learning_moves_the_estimate_towards_the_target() {
        let mut net = Net::random(16, Seed::from_u64(2));
        let mut s = two_player([At::Route(10); 4], [At::Route(3); 4]);
        s.to_roll = Some(0);
        let input = encode(&s, 0);
        let target = [1.0, 0.0, 0.0, 0.0];
        let before = net.seat_chances(&input)[0];
        for _ in 0..50 {
            net.learn(&input, &target, 0.05);
        }
        let after = net.seat_chances(&input)[0];
        assert!(after > before + 0.1, "{before} -> {after}");
        // Seats nobody plays get nothing.
        let chances = net.seat_chances(&input);
        assert_eq!((chances[1], chances[3]), (0.0, 0.0));
    }
}
