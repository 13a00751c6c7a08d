//! The test vector of the per-roll construction (docs/protocol.md, "The fair dice
//! construction"): the same numbers are checked by web/js/rollkey.js's tests and, through the
//! page, by tests/e2e/fair-roll.test.mjs. The keys were also computed with Python's `hmac`
//! and the words with web/js/dice.js, independently of this crate.

use hangar_dice::{Dice, Entropy, RollKey, Seed};

/// Seed bytes 00 01 02 … 1f.
const SEED: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const BYTES: &str = "f0e1d2c3b4a5968778695a4b3c2d1e0f";
/// `BYTES` with its last bit flipped.
const BYTES_FLIPPED: &str = "f0e1d2c3b4a5968778695a4b3c2d1e0e";

struct Vector {
    k: u64,
    entropy: Option<&'static str>,
    key: &'static str,
    words: [u32; 4],
    rolls: [u8; 8],
    /// The first roll, then `roll_below(156)` (a weather draw: 52 squares × 3 kinds).
    die_then_weather: (u8, u32),
}

const VECTORS: [Vector; 4] = [
    Vector {
        k: 0,
        entropy: Some(BYTES),
        key: "ed3f5c0843bebaf323fe47177cab59e9f6a44cdef1f3ff82871a965d4a721794",
        words: [0x0f84_7294, 0xfaca_34bb, 0x6668_cccf, 0xb337_cb77],
        rolls: [5, 2, 6, 2, 2, 2, 4, 5],
        die_then_weather: (5, 55),
    },
    Vector {
        k: 7,
        entropy: Some(BYTES),
        key: "499bb87e181c33a8b391d9ba808dce5ebdbc49e32822aa8c4ef0cd2d8d26a14a",
        words: [0xcc54_be2f, 0x0c65_d60c, 0x4aba_a4db, 0xdd32_bc51],
        rolls: [4, 1, 2, 4, 3, 1, 4, 5],
        die_then_weather: (4, 108),
    },
    Vector {
        k: 7,
        entropy: None,
        key: "dd12e3f09e85b8f1646d96744e4ecc0468d4e071ac6be42f731dd79a3bb857e2",
        words: [0xcc2a_51e7, 0x8ff0_3933, 0x154d_d162, 0x8648_a88e],
        rolls: [4, 6, 1, 1, 6, 3, 1, 5],
        die_then_weather: (4, 23),
    },
    Vector {
        k: 7,
        entropy: Some(BYTES_FLIPPED),
        key: "c2d587e6a4c43650baa1c8fa3b8173e716024661c5f8475cdbb769616957dbb8",
        words: [0x0923_7ab3, 0xce9b_34d5, 0x4536_301f, 0xf374_f5c0],
        rolls: [4, 6, 2, 5, 1, 5, 2, 4],
        die_then_weather: (4, 65),
    },
];

#[test]
fn p_fair_dice_the_per_roll_test_vector() {
    let seed: Seed = SEED.parse().unwrap();
    for v in VECTORS {
        let entropy: Option<Entropy> = v.entropy.map(|hex| hex.parse().unwrap());
        let key = RollKey::derive(&seed, v.k, entropy.as_ref());
        let what = format!("k {} bytes {:?}", v.k, v.entropy);
        assert_eq!(hex::encode(key.bytes()), v.key, "{what}");

        let mut dice = key.dice();
        let words: Vec<u32> = (0..4).map(|_| dice.next_u32()).collect();
        assert_eq!(words, v.words, "{what}");

        let mut dice = key.dice();
        let rolls: Vec<u8> = (0..8).map(|_| dice.roll()).collect();
        assert_eq!(rolls, v.rolls, "{what}");

        let mut dice = key.dice();
        assert_eq!(
            (dice.roll(), dice.roll_below(156)),
            v.die_then_weather,
            "{what}"
        );
    }
}

#[test]
fn the_roll_stream_is_chacha20_keyed_by_the_roll_key() {
    // Drawn exactly as the seed's stream is drawn: the same words as `Dice::new` with the key.
    let seed: Seed = SEED.parse().unwrap();
    let key = RollKey::derive(&seed, 3, None);
    let mut by_key = key.dice();
    let mut by_seed = Dice::new(Seed::from_bytes(*key.bytes()));
    for _ in 0..64 {
        assert_eq!(by_key.next_u32(), by_seed.next_u32());
    }
}
