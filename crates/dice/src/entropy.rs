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
///
/// Held inline (no allocation) and written as hex from the stack: a person's every roll
/// reads one from its command, keeps it in the record and writes it into the journal and
/// the room's event.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Entropy {
    /// How many of `bytes` are the roller's.
    len: u8,
    /// The roller's bytes, then zeros (so that the derived comparisons see only the bytes).
    bytes: [u8; Entropy::MAX_BYTES],
}

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
            n => {
                let mut entropy = Entropy {
                    len: n as u8,
                    bytes: [0; Self::MAX_BYTES],
                };
                entropy.bytes[..n].copy_from_slice(bytes);
                Ok(entropy)
            }
        }
    }

    /// 16 fresh bytes from the operating system, as a client that is a program (the command
    /// line, an outside engine) sends with its `roll`.
    pub fn random() -> Self {
        let mut bytes = [0u8; Self::DRAWN_BYTES];
        getrandom::fill(&mut bytes).expect("the operating system must provide randomness");
        Self::from_bytes(&bytes).expect("DRAWN_BYTES is within the bounds")
    }

    /// The raw bytes, as they enter the roll's key.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// Writes the bytes as lower-case hex into `buffer` and returns the text.
    fn hex<'b>(&self, buffer: &'b mut [u8; 2 * Self::MAX_BYTES]) -> &'b str {
        let text = &mut buffer[..2 * usize::from(self.len)];
        hex::encode_to_slice(self.as_bytes(), text).expect("the buffer holds twice the bytes");
        std::str::from_utf8(text).expect("hex digits are ASCII")
    }
}

impl fmt::Display for Entropy {
    /// Lower-case hex, two digits per byte.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.hex(&mut [0; 2 * Self::MAX_BYTES]))
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
        // A bad character is named before the length, so that "zz…" is named for what is
        // wrong with it.
        if !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(EntropyError::NotHex);
        }
        let n = s.len() / 2;
        if n > Self::MAX_BYTES {
            return Err(EntropyError::TooLong { bytes: n });
        }
        let mut bytes = [0; Self::MAX_BYTES];
        hex::decode_to_slice(s, &mut bytes[..n]).map_err(|_| EntropyError::NotHex)?;
        Self::from_bytes(&bytes[..n])
    }
}

impl Serialize for Entropy {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.hex(&mut [0; 2 * Self::MAX_BYTES]))
    }
}

impl<'de> Deserialize<'de> for Entropy {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(HexVisitor)
    }
}

/// Reads the hex text where the format holds it: no string is made to be parsed and dropped.
struct HexVisitor;

impl serde::de::Visitor<'_> for HexVisitor {
    type Value = Entropy;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the roller's bytes in hex")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Entropy, E> {
        text.parse().map_err(E::custom)
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
