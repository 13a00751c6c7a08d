//! Making an arena (P-ARENA): by the operator (`hangar admin arena create`) or by the hall's
//! schedule. The arena is stored; every running hall takes it up within a second.

use hangar_games::arena::Arena;
use hangar_protocol::GameKind;

use super::TABLE_WAIT_MS;
use crate::store::{Store, StoredArena};

/// Shortest and longest arena, minutes.
pub const MINUTES: std::ops::RangeInclusive<i64> = 1..=24 * 60;
/// Seconds per decision an arena's games may have (as rooms allow, P-TIMER).
pub const TURN_SECONDS: std::ops::RangeInclusive<u64> = 5..=120;

/// What an arena is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewArena {
    /// Its name (1–60 characters).
    pub name: String,
    /// The game played.
    pub game: GameKind,
    /// When pairing starts, Unix ms.
    pub starts_at: i64,
    /// How long it runs, minutes.
    pub minutes: i64,
    /// Seconds per decision in its games.
    pub turn_seconds: u64,
}

/// Checks and stores a new arena; its id, or `None` when an arena of the same name, game and
/// start exists already. Bad settings are refused and nothing is stored.
pub async fn create_arena(store: &Store, new: &NewArena) -> anyhow::Result<Option<i64>> {
    let name = new.name.trim();
    if name.is_empty() || name.chars().count() > 60 {
        anyhow::bail!("an arena's name has 1–60 characters");
    }
    if !MINUTES.contains(&new.minutes) {
        anyhow::bail!("an arena lasts 1–1440 minutes, not {}", new.minutes);
    }
    if !TURN_SECONDS.contains(&new.turn_seconds) {
        anyhow::bail!(
            "an arena's games give 5–120 seconds per decision, not {}",
            new.turn_seconds
        );
    }
    let ends_at = new.starts_at + new.minutes * 60_000;
    let state = Arena::new(new.game, new.starts_at, ends_at, TABLE_WAIT_MS);
    let id = store
        .create_arena(&StoredArena {
            id: 0,
            name: name.to_owned(),
            game: new.game.name().to_owned(),
            starts_at: new.starts_at,
            ends_at,
            turn_seconds: new.turn_seconds as i64,
            state: serde_json::to_string(&state)?,
            finished: false,
        })
        .await?;
    Ok(id)
}
