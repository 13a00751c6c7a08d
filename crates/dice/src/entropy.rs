//! The roller's bytes (P-FAIR-DICE): fresh random bytes a person's client draws just before it
//! sends a `roll`, mixed into that roll's key so that no one, the hall included, knows the roll
//! before the person acts.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// 16 to 64 bytes a person's client drew for one roll; on the wire and in records as hex.
///
/// A roll made by a hall bot, by auto-play or by the timer has none: it is written
/// `Option<&Entropy>::None`, never an empty `Entropy`, so that a person's bytes always meet
/// the length rule.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Entropy(Box<[u8]>);

/// Why bytes or a text are not an [`Entropy`].
#[derive(Debug, Clone, Copy, thiserror::Error, PartialEq, Eq)]
pub enum EntropyError {
    /// The hex text has an odd number of digits (half a byte).
    #[error("entropy is hex with an even number of digits (got {digits})")]
    OddLength {
        /// How many characters the text has.
        digits: usize,
    },
    /// A character is not a hexadecimal digit.
    #[error("entropy is hexadecimal digits only (0-9, a-f, A-F)")]
    NotHex,
    /// Fewer bytes than [`Entropy::MIN_BYTES`].
    #[error("entropy is at least {min} bytes (got {bytes})", min = Entropy::MIN_BYTES)]
    TooShort {
        /// How many bytes were given.
        bytes: usize,
    },
    /// More bytes than [`Entropy::MAX_BYTES`].
    #[error("entropy is at most {max} bytes (got {bytes})", max = Entropy::MAX_BYTES)]
    TooLong {
        /// How many bytes were given.
        bytes: usize,
    },
}

impl Entropy {
    /// The fewest bytes a roll accepts: 128 bits, too many to guess.
    pub const MIN_BYTES: usize = 16;
    /// The most bytes a roll accepts: enough for any client, small enough for every record.
    pub const MAX_BYTES: usize = 64;
    /// How many bytes [`Entropy::random`] draws (and the page draws).
    pub const DRAWN_BYTES: usize = 16;

    /// The entropy of these bytes, if there are 16 to 64 of them.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, EntropyError> {
        match bytes.len() {
            n if n < Self::MIN_BYTES => Err(EntropyError::TooShort { bytes: n }),
            n if n > Self::MAX_BYTES => Err(EntropyError::TooLong { bytes: n }),
            _ => Ok(Entropy(bytes.into())),
        }
    }

    /// 16 fresh bytes from the operating system, as a client that is a program (the command
    /// line, an outside engine) sends with its `roll`.
    pub fn random() -> Self {
        let mut bytes = [0u8; Self::DRAWN_BYTES];
        getrandom::fill(&mut bytes).expect("the operating system must provide randomness");
        Entropy(bytes.into())
    }

    /// The raw bytes, as they enter the roll's key.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Display for Entropy {
    /// Lower-case hex, two digits per byte.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex::encode(&self.0))
    }
}

impl fmt::Debug for Entropy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Entropy({self})")
    }
}

impl FromStr for Entropy {
    type Err = EntropyError;

    /// Hex in either case, nothing around it: a wire field is taken as sent.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if !s.len().is_multiple_of(2) {
            return Err(EntropyError::OddLength { digits: s.len() });
        }
        // `hex` accepts both cases; its other errors (a bad character) are all `NotHex` here,
        // checked before the length so that "zz…" is named for what is wrong with it.
        let bytes = hex::decode(s).map_err(|_| EntropyError::NotHex)?;
        Self::from_bytes(&bytes)
    }
}

impl Serialize for Entropy {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Entropy {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_in_lower_case() {
        let upper = "00112233445566778899AABBCCDDEEFF";
        let entropy: Entropy = upper.parse().unwrap();
        assert_eq!(entropy.as_bytes().len(), 16);
        assert_eq!(entropy.to_string(), upper.to_lowercase());
        assert_eq!(entropy.to_string().parse::<Entropy>().unwrap(), entropy);
    }

    #[test]
    fn bad_texts_are_named() {
        assert_eq!(
            "abc".parse::<Entropy>(),
            Err(EntropyError::OddLength { digits: 3 })
        );
        let not_hex = format!("{}zz", "00".repeat(16));
        assert_eq!(not_hex.parse::<Entropy>(), Err(EntropyError::NotHex));
        assert_eq!(
            " 00112233445566778899aabbccddeeff0".parse::<Entropy>(),
            Err(EntropyError::NotHex)
        );
        assert_eq!(
            "00".repeat(15).parse::<Entropy>(),
            Err(EntropyError::TooShort { bytes: 15 })
        );
        assert_eq!(
            "".parse::<Entropy>(),
            Err(EntropyError::TooShort { bytes: 0 })
        );
        assert_eq!(
            "00".repeat(65).parse::<Entropy>(),
            Err(EntropyError::TooLong { bytes: 65 })
        );
    }

    #[test]
    fn the_bounds_are_inclusive() {
        assert!(Entropy::from_bytes(&[7; 16]).is_ok());
        assert!(Entropy::from_bytes(&[7; 64]).is_ok());
        assert!(Entropy::from_bytes(&[7; 17]).is_ok());
    }

    #[test]
    fn serde_is_the_hex_text() {
        let entropy = Entropy::from_bytes(&[0xab; 16]).unwrap();
        let json = serde_json::to_string(&entropy).unwrap();
        assert_eq!(json, format!("\"{}\"", "ab".repeat(16)));
        assert_eq!(serde_json::from_str::<Entropy>(&json).unwrap(), entropy);
        assert!(serde_json::from_str::<Entropy>("\"abcd\"").is_err());
    }

    #[test]
    fn random_entropy_is_fresh() {
        let (a, b) = (Entropy::random(), Entropy::random());
        assert_eq!(a.as_bytes().len(), Entropy::DRAWN_BYTES);
        // Equal only with probability 2^-128.
        assert_ne!(a, b);
    }
}
