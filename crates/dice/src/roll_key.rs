//! The key of one roll (P-FAIR-DICE, docs/protocol.md "The fair dice construction"):
//! `HMAC-SHA256(key = seed, message = k as 8 bytes big-endian ‖ the roller's bytes)`.
//!
//! The hall knows the seed but not a person's bytes until the `roll` arrives, and the person
//! knows the bytes but only the seed's commitment: neither alone can know or choose the roll.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::{Dice, Entropy, Seed};

/// The 32-byte ChaCha20 key of the k-th roll of a game.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RollKey([u8; 32]);

impl RollKey {
    /// The key of roll `k` (0 for the game's first roll) of the game seeded with `seed`.
    /// `entropy` is the roller's bytes; `None` for a roll by a hall bot, by auto-play or by
    /// the timer, whose message is then `k` alone.
    pub fn derive(seed: &Seed, k: u64, entropy: Option<&Entropy>) -> Self {
        RollKeyer::new(seed).derive(k, entropy)
    }

    /// The key's bytes (the HMAC output), for test vectors and outside checkers.
    pub const fn bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The roll's stream: ChaCha20 keyed by this key, drawn exactly as [`Dice::new`] draws
    /// (nonce 0, block counter from 0, little-endian 32-bit words, rejection sampling). The
    /// die is its first [`Dice::roll`]; the action's other chance draws follow from it.
    pub fn dice(&self) -> Dice {
        Dice::new(Seed::from_bytes(self.0))
    }
}

/// The HMAC of one game's seed, keyed once: each roll's key then costs two SHA-256 blocks
/// instead of four (the keyed inner and outer states are copied, not made again). Boxed: a
/// game's dice sit inside every game session, and the states are larger than the rest.
#[derive(Clone)]
pub(crate) struct RollKeyer(Box<Hmac<Sha256>>);

impl RollKeyer {
    /// The HMAC keyed by `seed`.
    pub(crate) fn new(seed: &Seed) -> Self {
        let mac = Hmac::new_from_slice(seed.bytes()).expect("HMAC takes a key of any length");
        RollKeyer(Box::new(mac))
    }

    /// [`RollKey::derive`] of this seed.
    pub(crate) fn derive(&self, k: u64, entropy: Option<&Entropy>) -> RollKey {
        let mut mac = (*self.0).clone();
        // Fixed-width big-endian k first: the message splits one way only into (k, bytes).
        mac.update(&k.to_be_bytes());
        if let Some(entropy) = entropy {
            mac.update(entropy.as_bytes());
        }
        RollKey(mac.finalize().into_bytes().into())
    }
}

impl std::fmt::Debug for RollKeyer {
    /// Without the key: it is the game's secret seed until the game ends.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RollKeyer(..)")
    }
}

impl std::fmt::Debug for RollKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RollKey({})", hex::encode(self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hall_roll_differs_from_a_person_roll() {
        let seed = Seed::from_u64(1);
        let bytes = Entropy::from_bytes(&[0; 16]).unwrap();
        assert_ne!(
            RollKey::derive(&seed, 0, None),
            RollKey::derive(&seed, 0, Some(&bytes))
        );
    }

    #[test]
    fn each_roll_number_has_its_own_key() {
        let seed = Seed::from_u64(1);
        let bytes = Entropy::from_bytes(&[9; 16]).unwrap();
        let a = RollKey::derive(&seed, 0, Some(&bytes));
        let b = RollKey::derive(&seed, 1, Some(&bytes));
        assert_ne!(a, b);
        assert_eq!(a, RollKey::derive(&seed, 0, Some(&bytes)));
    }

    #[test]
    fn the_key_is_hmac_sha256_of_k_then_the_bytes() {
        // RFC 4231 test case 2 cannot be reached (its key is 4 bytes, a seed is 32), so check
        // against HMAC computed by hand from SHA-256: H((K ⊕ opad) ‖ H((K ⊕ ipad) ‖ m)).
        use sha2::{Digest, Sha256};
        let seed = Seed::from_bytes([0x42; 32]);
        let bytes = Entropy::from_bytes(&[0x17; 20]).unwrap();
        let mut block = [0u8; 64];
        block[..32].copy_from_slice(seed.bytes());
        let pad = |byte: u8| block.map(|b| b ^ byte);
        let mut message = 5u64.to_be_bytes().to_vec();
        message.extend_from_slice(bytes.as_bytes());
        let inner = Sha256::new()
            .chain_update(pad(0x36))
            .chain_update(&message)
            .finalize();
        let outer: [u8; 32] = Sha256::new()
            .chain_update(pad(0x5c))
            .chain_update(inner)
            .finalize()
            .into();
        assert_eq!(RollKey::derive(&seed, 5, Some(&bytes)).bytes(), &outer);
    }
}
