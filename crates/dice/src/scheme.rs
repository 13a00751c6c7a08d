//! Which construction a game's dice follow, and the one place that knows where each draw of a
//! game comes from under either: the seating, the rolls and the chance draws (items, weather).
//!
//! A record names its scheme, so a game keeps verifying by the construction it was played
//! with: games recorded before per-roll dice name none and are [`DiceScheme::SeedStream`].

use serde::{Deserialize, Serialize};

use crate::roll_key::RollKeyer;
use crate::{Dice, Entropy, Seed};

/// The construction of a game's dice, as a record names it (`"seed_stream"`, `"per_roll"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceScheme {
    /// Every draw of the game, in order, from the one stream `Dice::new(seed)`: the hall's
    /// seed alone fixes every roll. Records made before per-roll dice; the default, so that a
    /// record without a scheme reads as one of them.
    #[default]
    SeedStream,
    /// The seating and the opening chance draws from `Dice::new(seed)`; roll k (from 0) and
    /// the chance draws after it, until the next roll, from
    /// `RollKey::derive(seed, k, roller's bytes).dice()`.
    PerRoll,
}

impl DiceScheme {
    /// The scheme's name, as records and the store write it.
    pub const fn name(self) -> &'static str {
        match self {
            DiceScheme::SeedStream => "seed_stream",
            DiceScheme::PerRoll => "per_roll",
        }
    }

    /// The scheme a name names, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        [DiceScheme::SeedStream, DiceScheme::PerRoll]
            .into_iter()
            .find(|scheme| scheme.name() == name)
    }
}

/// The dice of one game under its [`DiceScheme`]: the stream the next draw comes from.
///
/// A driver (the hall's table, `hangar verify`, the replay) calls [`GameDice::begin_roll`]
/// for every die thrown (a booster's throw included) and draws everything else — the
/// seating, the items and weather — from [`GameDice::current`].
#[derive(Clone, Debug)]
pub struct GameDice {
    scheme: DiceScheme,
    /// The seed's HMAC, keyed once for every roll of the game.
    keyer: RollKeyer,
    rolls: u64,
    current: Dice,
}

impl GameDice {
    /// A game's dice before anything is drawn: the current stream is `Dice::new(seed)`.
    pub fn new(scheme: DiceScheme, seed: Seed) -> Self {
        GameDice {
            scheme,
            keyer: RollKeyer::new(&seed),
            rolls: 0,
            current: Dice::new(seed),
        }
    }

    /// The construction these dice follow.
    pub fn scheme(&self) -> DiceScheme {
        self.scheme
    }

    /// How many rolls have begun: the `k` the next [`GameDice::begin_roll`] uses.
    pub fn rolls(&self) -> u64 {
        self.rolls
    }

    /// The draws made so far from the current stream (under [`DiceScheme::SeedStream`], every
    /// draw of the game).
    pub fn current_draws(&self) -> u64 {
        self.current.rolls()
    }

    /// The stream the next draw that is not a new roll comes from: the seating, the chance
    /// draws, and the die of the roll just begun.
    pub fn current(&mut self) -> &mut Dice {
        &mut self.current
    }

    /// Begins the next roll with the roller's bytes (`None` for a hall bot, auto-play or the
    /// timer) and returns the stream its die comes from. Under [`DiceScheme::PerRoll`] that
    /// is a new stream keyed by [`RollKey::derive`]; under [`DiceScheme::SeedStream`] the
    /// seed's one stream goes on and the bytes play no part (such games had none).
    pub fn begin_roll(&mut self, entropy: Option<&Entropy>) -> &mut Dice {
        let k = self.rolls;
        self.rolls += 1;
        if self.scheme == DiceScheme::PerRoll {
            self.current = self.keyer.derive(k, entropy).dice();
        }
        &mut self.current
    }

    /// Begins the next roll and throws its die, 1..=6.
    pub fn roll(&mut self, entropy: Option<&Entropy>) -> u8 {
        self.begin_roll(entropy).roll()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RollKey;

    #[test]
    fn the_scheme_names_are_stable() {
        assert_eq!(
            serde_json::to_string(&DiceScheme::SeedStream).unwrap(),
            "\"seed_stream\""
        );
        assert_eq!(
            serde_json::to_string(&DiceScheme::PerRoll).unwrap(),
            "\"per_roll\""
        );
        assert_eq!(
            serde_json::from_str::<DiceScheme>("\"per_roll\"").unwrap(),
            DiceScheme::PerRoll
        );
        assert_eq!(DiceScheme::default(), DiceScheme::SeedStream);
        for scheme in [DiceScheme::SeedStream, DiceScheme::PerRoll] {
            assert_eq!(
                serde_json::to_string(&scheme).unwrap(),
                format!("\"{}\"", scheme.name())
            );
            assert_eq!(DiceScheme::from_name(scheme.name()), Some(scheme));
        }
        assert_eq!(DiceScheme::from_name("other"), None);
    }

    #[test]
    fn seed_stream_draws_what_dice_new_draws() {
        // Old records keep verifying: rolls and other draws interleave on the one stream.
        let seed = Seed::from_u64(11);
        let mut old = Dice::new(seed);
        let mut game = GameDice::new(DiceScheme::SeedStream, seed);
        let bytes = Entropy::from_bytes(&[1; 16]).unwrap();
        for i in 0..50u32 {
            assert_eq!(game.current().roll_below(4), old.roll_below(4));
            let entropy = (i % 2 == 0).then_some(&bytes);
            assert_eq!(game.roll(entropy), old.roll());
            assert_eq!(game.current().roll_below(156), old.roll_below(156));
        }
        assert_eq!(game.rolls(), 50);
    }

    #[test]
    fn per_roll_draws_the_setup_from_the_seed_and_each_roll_from_its_key() {
        let seed = Seed::from_u64(12);
        let bytes = Entropy::from_bytes(&[2; 32]).unwrap();
        let mut game = GameDice::new(DiceScheme::PerRoll, seed);
        // The seating comes from the seed's own stream, as before.
        let mut setup = Dice::new(seed);
        assert_eq!(game.current().roll_below(24), setup.roll_below(24));
        for k in 0..20u64 {
            let entropy = (k % 3 != 0).then_some(&bytes);
            let mut expected = RollKey::derive(&seed, k, entropy).dice();
            assert_eq!(game.roll(entropy), expected.roll(), "roll {k}");
            // The chance draws after the roll continue the roll's stream.
            assert_eq!(game.current().roll_below(104), expected.roll_below(104));
        }
    }
}
