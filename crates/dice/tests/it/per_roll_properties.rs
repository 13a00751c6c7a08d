//! Properties of the per-roll construction (P-FAIR-DICE): a roll follows from its inputs and
//! from nothing else, and any change to the roller's bytes gives another stream.

use hangar_dice::{DiceScheme, Entropy, GameDice, RollKey, Seed};
use proptest::prelude::*;

fn entropy_bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), Entropy::MIN_BYTES..=Entropy::MAX_BYTES)
}

/// The first 16 words of roll `k`'s stream.
fn words(seed: &Seed, k: u64, entropy: Option<&Entropy>) -> Vec<u32> {
    let mut dice = RollKey::derive(seed, k, entropy).dice();
    (0..16).map(|_| dice.next_u32()).collect()
}

proptest! {
    /// Same seed, k and bytes: the same die and the same stream after it.
    #[test]
    fn same_inputs_same_roll(seed in any::<[u8; 32]>(), k in any::<u64>(), bytes in entropy_bytes()) {
        let seed = Seed::from_bytes(seed);
        let entropy = Entropy::from_bytes(&bytes).unwrap();
        let mut a = RollKey::derive(&seed, k, Some(&entropy)).dice();
        let mut b = RollKey::derive(&seed, k, Some(&entropy.clone())).dice();
        for _ in 0..8 {
            let die = a.roll();
            prop_assert!((1..=6).contains(&die));
            prop_assert_eq!(die, b.roll());
        }
    }

    /// Changing any one byte of the roller's bytes changes the stream (its first 16 words:
    /// equal by chance with probability 2^-512).
    #[test]
    fn any_changed_byte_changes_the_stream(
        seed in any::<[u8; 32]>(),
        k in any::<u64>(),
        bytes in entropy_bytes(),
        at in any::<prop::sample::Index>(),
        flip in 1u8..=255,
    ) {
        let seed = Seed::from_bytes(seed);
        let mut changed = bytes.clone();
        let i = at.index(changed.len());
        changed[i] ^= flip;
        let a = Entropy::from_bytes(&bytes).unwrap();
        let b = Entropy::from_bytes(&changed).unwrap();
        prop_assert_ne!(words(&seed, k, Some(&a)), words(&seed, k, Some(&b)));
    }

    /// Two independent draws of bytes give different streams.
    #[test]
    fn random_byte_pairs_give_different_streams(
        seed in any::<[u8; 32]>(), k in any::<u64>(), a in entropy_bytes(), b in entropy_bytes(),
    ) {
        prop_assume!(a != b);
        let seed = Seed::from_bytes(seed);
        let a = Entropy::from_bytes(&a).unwrap();
        let b = Entropy::from_bytes(&b).unwrap();
        prop_assert_ne!(words(&seed, k, Some(&a)), words(&seed, k, Some(&b)));
    }

    /// Bytes appended to the message cannot be moved into k: roll k with bytes never has the
    /// key of the hall's roll k, nor of another roll number with other bytes.
    #[test]
    fn the_roll_number_and_bytes_do_not_mix(seed in any::<[u8; 32]>(), k in any::<u64>(), bytes in entropy_bytes()) {
        let seed = Seed::from_bytes(seed);
        let entropy = Entropy::from_bytes(&bytes).unwrap();
        let person = RollKey::derive(&seed, k, Some(&entropy));
        prop_assert_ne!(person, RollKey::derive(&seed, k, None));
        prop_assert_ne!(person, RollKey::derive(&seed, k.wrapping_add(1), Some(&entropy)));
    }

    /// Two games equal but for one roll's bytes: every other roll is the same, that roll's
    /// stream is not (the hall cannot produce it without the person's bytes).
    #[test]
    fn one_rolls_bytes_change_that_roll_only(
        seed in any::<[u8; 32]>(),
        rolls in proptest::collection::vec(entropy_bytes(), 2..12),
        at in any::<prop::sample::Index>(),
    ) {
        let seed = Seed::from_bytes(seed);
        let original: Vec<Entropy> = rolls.iter().map(|b| Entropy::from_bytes(b).unwrap()).collect();
        let mut forged = original.clone();
        let changed = at.index(forged.len());
        let mut bytes = forged[changed].as_bytes().to_vec();
        bytes[0] ^= 0x80;
        forged[changed] = Entropy::from_bytes(&bytes).unwrap();

        let mut a = GameDice::new(DiceScheme::PerRoll, seed);
        let mut b = GameDice::new(DiceScheme::PerRoll, seed);
        for (k, (x, y)) in original.iter().zip(&forged).enumerate() {
            let (da, db) = (a.begin_roll(Some(x)), b.begin_roll(Some(y)));
            let wa: Vec<u32> = (0..16).map(|_| da.next_u32()).collect();
            let wb: Vec<u32> = (0..16).map(|_| db.next_u32()).collect();
            if k == changed {
                prop_assert_ne!(wa, wb);
            } else {
                prop_assert_eq!(wa, wb);
            }
        }
    }
}
