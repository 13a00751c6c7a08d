//! The roller's bytes of a person's roll (P-FAIR-DICE, protocol.md §8): required with every
//! `roll` and booster, 16–64 bytes of hex, refused as `invalid` before anything changes, so
//! that no client falls back to the hall's choice unnoticed.

use hangar_dice::Entropy;
use hangar_games::Act;
use hangar_protocol::{ErrorCode, ProtoError};

/// The bytes of a person's `roll`: required.
pub(super) fn for_roll(entropy: Option<&str>) -> Result<Entropy, ProtoError> {
    let text = entropy.ok_or_else(|| {
        invalid("a roll carries \"entropy\": 16 to 64 fresh random bytes of your client, as hex")
    })?;
    parse(text)
}

/// The bytes of a person's `use_item` of `item` (`None`: a name that is no item, refused
/// after this): required for an item whose use throws a die (the game says which,
/// [`Act::needs_entropy`]: that throw is a roll), checked if given with another (which
/// throws none and leaves them unused).
pub(super) fn for_item(
    item: Option<Act>,
    entropy: Option<&str>,
) -> Result<Option<Entropy>, ProtoError> {
    match entropy {
        Some(text) => parse(text).map(Some),
        // The words of the one such item (a booster), as clients have always been told.
        None if item.is_some_and(Act::needs_entropy) => Err(invalid(
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
        let item = |name| Act::item_named(name).ok();
        assert!(for_item(item("booster"), None).is_err());
        assert_eq!(for_item(item("six_die"), None), Ok(None));
        assert!(for_item(item("six_die"), Some("00")).is_err());
        // A name that is no item needs no bytes: it is refused as no item.
        assert_eq!(for_item(None, None), Ok(None));
    }
}
