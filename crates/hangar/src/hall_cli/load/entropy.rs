//! The roller's bytes of the load generator's rolls (P-FAIR-DICE): the hall refuses a
//! person's roll without 16 bytes or more, so each simulated player sends fresh ones. A load
//! run needs them cheap, not secret: one seed from the operating system per player, then
//! SplitMix64 (two words per roll, no allocation but the text).

use hangar_dice::Entropy;

/// A simulated player's source of roll bytes.
#[derive(Debug)]
pub(super) struct RollBytes {
    state: u64,
}

impl RollBytes {
    /// Seeded from the operating system once.
    pub(super) fn new() -> Self {
        let seed = Entropy::random();
        let mut state = [0u8; 8];
        state.copy_from_slice(&seed.as_bytes()[..8]);
        RollBytes {
            state: u64::from_le_bytes(state),
        }
    }

    /// The `,"entropy":"…"` field of a roll: 16 bytes as 32 hex digits.
    pub(super) fn field(&mut self) -> String {
        format!(r#","entropy":"{:016x}{:016x}""#, self.next(), self.next())
    }

    /// SplitMix64's next word.
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_fair_dice_each_roll_field_is_16_fresh_bytes_of_hex() {
        let mut bytes = RollBytes::new();
        let (a, b) = (bytes.field(), bytes.field());
        assert_ne!(a, b);
        let hex = a
            .trim_start_matches(r#","entropy":""#)
            .trim_end_matches('"');
        let entropy: Entropy = hex.parse().expect("16 bytes of hex");
        assert_eq!(entropy.as_bytes().len(), 16);
    }
}
