//! Players, names, tokens and passwords (P-GUEST, P-ACCOUNT, P-SCORE).

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Every player's starting score (P-SCORE).
pub const START_SCORE: i64 = 1000;

/// The highest level.
pub const MAX_LEVEL: i64 = 30;

/// A guest or an account, as the wire shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Database id.
    pub id: i64,
    /// Display name.
    pub name: String,
    /// Whether this is a guest (no password).
    pub guest: bool,
    /// Current score (积分).
    pub score: i64,
}

/// The wire form of a player, with its level.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct PlayerView {
    /// Database id.
    pub id: i64,
    /// Display name.
    pub name: String,
    /// Whether this is a guest.
    pub guest: bool,
    /// Current score (积分), 1000 at the start (P-SCORE).
    pub score: i64,
    /// Level derived from the score.
    pub level: i64,
}

impl Player {
    /// The wire form.
    pub fn view(&self) -> PlayerView {
        PlayerView {
            id: self.id,
            name: self.name.clone(),
            guest: self.guest,
            score: self.score,
            level: level(self.score),
        }
    }
}

/// The level (级别) of a score: 1 up to 1099 points, then one more per 100, at most 30.
pub fn level(score: i64) -> i64 {
    (1 + (score - START_SCORE).max(0) / 100).min(MAX_LEVEL)
}

/// Why a name or password is refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CredentialError {
    /// Bad name.
    #[error("a name is 1–20 characters without control characters or surrounding spaces")]
    BadName,
    /// Bad password.
    #[error("a password is 8–128 bytes")]
    BadPassword,
}

/// Checks a player name: 1–20 characters, no control characters, no surrounding spaces.
pub fn check_name(name: &str) -> Result<(), CredentialError> {
    let count = name.chars().count();
    if !(1..=20).contains(&count)
        || name.chars().any(char::is_control)
        || name.trim() != name
        || name.starts_with("bot:")
    {
        return Err(CredentialError::BadName);
    }
    Ok(())
}

/// Checks a password's length.
pub fn check_password(password: &str) -> Result<(), CredentialError> {
    if !(8..=128).contains(&password.len()) {
        return Err(CredentialError::BadPassword);
    }
    Ok(())
}

/// A fresh random 128-bit token in hex.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system must provide randomness");
    hex::encode(bytes)
}

/// The stored form of a token: SHA-256 hex (tokens are random, so no salt is needed).
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Whether a text looks like a token (32 hex digits).
pub fn token_well_formed(token: &str) -> bool {
    token.len() == 32 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Hashes a password with argon2 and a random salt (slow on purpose: call off the runtime).
pub fn hash_password(password: &str) -> String {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).expect("the operating system must provide randomness");
    let salt = SaltString::encode_b64(&salt).expect("16 bytes is a valid salt");
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .expect("argon2 hashes any password")
        .to_string()
}

/// Checks a password against a stored argon2 hash.
pub fn verify_password(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored)
        .map(|hash| {
            Argon2::default()
                .verify_password(password.as_bytes(), &hash)
                .is_ok()
        })
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_score_levels_grow_with_score() {
        assert_eq!(level(START_SCORE), 1);
        assert_eq!(level(0), 1);
        assert_eq!(level(1099), 1);
        assert_eq!(level(1100), 2);
        assert_eq!(level(1_000_000), MAX_LEVEL);
    }

    #[test]
    fn p_account_names_are_checked() {
        assert!(check_name("ana").is_ok());
        assert!(check_name("飞行棋高手").is_ok());
        assert!(check_name("").is_err());
        assert!(check_name("a\u{7}b").is_err());
        assert!(check_name(" ana").is_err());
        assert!(check_name(&"x".repeat(21)).is_err());
        assert!(check_name(&"x".repeat(20)).is_ok());
    }

    #[test]
    fn p_account_passwords_are_hashed_and_verified() {
        let stored = hash_password("correct horse");
        assert!(stored.starts_with("$argon2"));
        assert!(!stored.contains("correct horse"));
        assert!(verify_password("correct horse", &stored));
        assert!(!verify_password("wrong horse", &stored));
    }

    #[test]
    fn p_guest_tokens_are_random_and_stored_hashed() {
        let a = new_token();
        let b = new_token();
        assert_ne!(a, b);
        assert!(token_well_formed(&a));
        assert_ne!(hash_token(&a), a);
        assert_eq!(hash_token(&a).len(), 64);
    }
}
