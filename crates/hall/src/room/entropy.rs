//! The roller's bytes of a person's roll (P-FAIR-DICE, protocol.md §8): required with every
//! `roll` and booster, 16–64 bytes of hex, refused as `invalid` before anything changes, so
//! that no client falls back to the hall's choice unnoticed.

use hangar_dice::Entropy;
use hangar_protocol::{ErrorCode, ProtoError};

/// The item whose use throws a die (its throw is a roll and needs the roller's bytes).
const BOOSTER: &str = "booster";

/// The bytes of a person's `roll`: required.
pub(super) fn for_roll(entropy: Option<&str>) -> Result<Entropy, ProtoError> {
    let text = entropy.ok_or_else(|| {
        invalid("a roll carries \"entropy\": 16 to 64 fresh random bytes of your client, as hex")
    })?;
    parse(text)
}

/// The bytes of a person's `use_item`: required for a booster, checked if given with
/// another item (which throws no die and leaves them unused).
pub(super) fn for_item(item: &str, entropy: Option<&str>) -> Result<Option<Entropy>, ProtoError> {
    match entropy {
        Some(text) => parse(text).map(Some),
        None if item == BOOSTER => Err(invalid(
            "a booster's throw is a roll: it carries \"entropy\", 16 to 64 random bytes as hex",
        )),
        None => Ok(None),
    }
}

fn parse(text: &str) -> Result<Entropy, ProtoError> {
    text.parse()
        .map_err(|e: hangar_dice::EntropyError| invalid(e.to_string()))
}

fn invalid(message: impl Into<String>) -> ProtoError {
    ProtoError::new(ErrorCode::Invalid, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_fair_dice_a_roll_needs_16_to_64_bytes_of_hex() {
        let code = |r: Result<Entropy, ProtoError>| r.map_err(|e| e.code).map(|_| ());
        assert_eq!(code(for_roll(None)), Err(ErrorCode::Invalid));
        assert_eq!(code(for_roll(Some("zz"))), Err(ErrorCode::Invalid));
        assert_eq!(
            code(for_roll(Some(&"ab".repeat(15)))),
            Err(ErrorCode::Invalid)
        );
        assert_eq!(
            code(for_roll(Some(&"ab".repeat(65)))),
            Err(ErrorCode::Invalid)
        );
        assert_eq!(code(for_roll(Some(&"AB".repeat(16)))), Ok(()));
        assert!(for_item("booster", None).is_err());
        assert_eq!(for_item("six_die", None), Ok(None));
        assert!(for_item("six_die", Some("00")).is_err());
    }
}
