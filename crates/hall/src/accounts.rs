//! Players, names, tokens and passwords (P-GUEST, P-ACCOUNT, P-SCORE).

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use hangar_protocol::{ErrorCode, GameKind, Leaderboard, PlayerView, ProtoError, Ranked};

use hangar_games::rating::Skill;
use sha2::{Digest, Sha256};
use unicode_normalization::UnicodeNormalization;

/// Every player's starting score (P-SCORE).
pub const START_SCORE: i64 = 1000;

/// The highest level.
pub const MAX_LEVEL: i64 = 30;

/// A guest or an account, as the wire shows it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    /// Database id.
    pub id: i64,
    /// Display name.
    pub name: String,
    /// Whether this is a guest (no password).
    pub guest: bool,
    /// A bot account (P-BOT-ACCOUNT).
    #[serde(default)]
    pub bot: bool,
    /// Current score (积分).
    pub score: i64,
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
            bot: self.bot,
        }
    }
}

/// The error of a command that needs a signed-in player from a connection with none.
pub fn sign_in_first() -> ProtoError {
    ProtoError::new(
        ErrorCode::Unauthenticated,
        "sign in first (guest, login, register or auth)",
    )
}

/// The leaderboard page of `lines` (best first) that starts after `offset` entries, with the
/// ratings of `game` when the board is one game's.
pub fn leaderboard_page(
    lines: Vec<(Player, Option<Skill>)>,
    game: Option<GameKind>,
    offset: i64,
) -> Leaderboard {
    let first = usize::try_from(offset).unwrap_or(0) + 1;
    let entries = lines
        .into_iter()
        .enumerate()
        .map(|(i, (player, skill))| Ranked {
            rank: first + i,
            player: player.view(),
            rating: game.zip(skill).map(|(game, skill)| skill.view(game)),
        })
        .collect();
    Leaderboard { entries }
}

/// The level (级别) of a score: 1 up to 1099 points, then one more per 100, at most 30.
pub fn level(score: i64) -> i64 {
    (1 + (score - START_SCORE).max(0) / 100).min(MAX_LEVEL)
}

/// Why a name or password is refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CredentialError {
    /// Bad name.
    #[error(
        "a name is 1–20 characters with a letter or digit, without invisible, blank-looking, control, format or direction characters or surrounding spaces"
    )]
    BadName,
    /// A name of the bots, or one that would pass for one.
    #[error(
        "names that look like \"bot\" and a separator, or start with \"电脑\", in any look-alike spelling, are the bots'"
    )]
    BotName,
    /// Letters of scripts mixed as UTS #39's moderately restrictive level does not allow, or a
    /// combining mark its letter's script does not use.
    #[error(
        "a name mixes scripts only as Unicode's moderately restrictive level allows (one script, Han with kana or Hangul, or Latin with one other script but Cyrillic or Greek), with no combining mark of another script"
    )]
    MixedScripts,
    /// Bad password.
    #[error("a password is 8–128 bytes")]
    BadPassword,
}

/// The form a player name is kept and compared in: Unicode NFKC, so that full-width and
/// other compatibility forms read as the plain letters they show (`Ａｎａ` is `Ana`, `bot：x`
/// is `bot:x`). Accounts are unique by this form in lowercase.
pub fn normalize_name(name: &str) -> String {
    name.nfkc().collect()
}

/// Checks a player name as given and returns its normalised form ([`normalize_name`]):
/// 1–20 characters with a letter or digit; no hidden character ([`crate::names::hidden`]:
/// control, format, default-ignorable, blank-looking, line-separating); no surrounding spaces;
/// scripts mixed only as UTS #39's moderately restrictive level allows, with no combining mark
/// of another script ([`crate::names::scripts_fit`]); not looking like a bot's name in any
/// spelling ([`crate::names::looks_like_bot`]: the bots are shown as `bot:LEVEL` and `电脑`).
pub fn check_name(name: &str) -> Result<String, CredentialError> {
    let name = name_shape(name)?;
    if crate::names::looks_like_bot(&name) {
        return Err(CredentialError::BotName);
    }
    if !crate::names::scripts_fit(&name) {
        return Err(CredentialError::MixedScripts);
    }
    Ok(name)
}

/// The normalised form of a name that could be an account's: 1–20 characters with a letter or
/// digit, no hidden character, no surrounding spaces. A sign-in looks such a name up (an
/// account made before a rule of [`check_name`] was added keeps signing in).
pub fn name_shape(name: &str) -> Result<String, CredentialError> {
    let name = normalize_name(name);
    let count = name.chars().count();
    if !(1..=20).contains(&count) || name.trim() != name || !crate::names::showable_name(&name) {
        return Err(CredentialError::BadName);
    }
    Ok(name)
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

/// Tokens issued at or before this time (Unix ms) have expired, for tokens that live
/// `lifetime` (`--token-lifetime`).
pub fn token_issued_after(lifetime: std::time::Duration) -> i64 {
    let lifetime = i64::try_from(lifetime.as_millis()).unwrap_or(i64::MAX);
    crate::time::now_ms().saturating_sub(lifetime)
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
        assert_eq!(check_name("ana"), Ok("ana".to_owned()));
        assert!(check_name("飞行棋高手").is_ok());
        assert!(check_name("").is_err());
        assert!(check_name("a\u{7}b").is_err());
        assert!(check_name(" ana").is_err());
        assert!(check_name(&"x".repeat(21)).is_err());
        assert!(check_name(&"x".repeat(20)).is_ok());
    }

    #[test]
    fn p_account_names_are_normalised_and_invisible_characters_refused() {
        // Full-width letters are the letters they show.
        assert_eq!(check_name("Ａｎａ"), Ok("Ana".to_owned()));
        // Zero-width space and joiner, direction override, isolate and mark, BOM, tab.
        for name in [
            "a\u{200B}na",
            "a\u{200D}na",
            "\u{202E}ana",
            "an\u{2067}a",
            "ana\u{200F}",
            "\u{FEFF}ana",
            "a\tna",
            "a\u{2028}na",
            "a\u{E000}na",
        ] {
            assert_eq!(check_name(name), Err(CredentialError::BadName), "{name:?}");
        }
        // An ideographic space at the edge is a surrounding space once normalised.
        assert!(check_name("\u{3000}ana").is_err());
        assert!(check_name("ana lee").is_ok());
    }

    #[test]
    fn p_account_bot_names_are_reserved() {
        for name in [
            "bot:hard",
            "Bot:hard",
            "bot：hard",
            "BOT",
            "bot hard",
            "bot-1",
            "ｂｏｔ_x",
        ] {
            assert_eq!(check_name(name), Err(CredentialError::BotName), "{name:?}");
        }
        assert!(check_name("bottle").is_ok());
        assert!(check_name("robot:x").is_ok());
    }

    #[test]
    fn p_account_look_alikes_of_bots_and_marks_of_other_scripts_are_refused() {
        assert_eq!(check_name("b\u{43E}t:hard"), Err(CredentialError::BotName));
        assert_eq!(check_name("电脑高手"), Err(CredentialError::BotName));
        for name in ["ana\u{2D7F}", "ana\u{16FE4}", "ana\u{1BC9D}", "p\u{3B1}ul"] {
            assert!(check_name(name).is_err(), "{name:?}");
        }
        // Accounts made before these rules still sign in by name.
        assert_eq!(name_shape("p\u{3B1}ul"), Ok("p\u{3B1}ul".to_owned()));
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
