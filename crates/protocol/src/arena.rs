//! Arena tournaments (P-ARENA) on the wire: the list of arenas, an arena's live table, the
//! player's next game and the final standings (`docs/protocol.md` §11).

use serde::{Deserialize, Serialize};

use super::GameKind;

/// Where an arena is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArenaStatus {
    /// Not started: players may join already; pairing starts at `starts_at`.
    Upcoming,
    /// Running: players are paired whenever free.
    Running,
    /// Over: the standings are final.
    Finished,
}

/// An arena as the list shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArenaSummary {
    /// The arena's id.
    pub id: i64,
    /// Its name, e.g. `Hourly Jungle blitz`.
    pub name: String,
    /// The game played.
    pub game: GameKind,
    /// Upcoming, running or finished.
    pub status: ArenaStatus,
    /// When pairing starts, Unix milliseconds.
    pub starts_at: i64,
    /// When the arena ends, Unix milliseconds: games running then do not count.
    pub ends_at: i64,
    /// Seconds per decision in its games (P-TIMER).
    pub turn_seconds: u64,
    /// Players who joined (withdrawn ones included).
    pub players: usize,
    /// The leader's name, once anyone has points.
    pub leader: Option<String>,
}

/// One game in a player's row of recent results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArenaMark {
    /// The player's place, 1 = first (a Jungle draw gives both players 1, with `drawn`).
    pub place: u8,
    /// How many sat at the table.
    pub of: u8,
    /// The game was drawn.
    #[serde(default)]
    pub drawn: bool,
    /// The arena points it brought (doubling included).
    pub points: u32,
    /// The points were doubled: the player had won the two games before (on fire).
    #[serde(default)]
    pub doubled: bool,
    /// The player escaped (P-ESCAPE): 0 points, withdrawn.
    #[serde(default)]
    pub escaped: bool,
}

/// One line of an arena's table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArenaLine {
    /// 1 = leading; equal points and performance share a rank.
    pub rank: u32,
    /// The player's id.
    pub player_id: i64,
    /// The player's name.
    pub name: String,
    /// A bot account (bot accounts may play arenas; the hall's own bots never do).
    #[serde(default)]
    pub bot: bool,
    /// Arena points.
    pub points: u32,
    /// On fire: the player's next points are doubled.
    pub fire: bool,
    /// Performance rating, the tie-break.
    pub performance: i32,
    /// Counted games.
    pub games: u32,
    /// The latest results, oldest first (at most 10).
    pub recent: Vec<ArenaMark>,
    /// Taking part now (joined and not withdrawn).
    pub active: bool,
    /// The room of the game the player sits in now, if any.
    pub room: Option<String>,
}

/// An arena's table: the arena, a page of lines, and the asker's own line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArenaTable {
    /// The arena.
    pub arena: ArenaSummary,
    /// Lines from the page's offset, best first (the top 100 in a pushed table).
    pub standings: Vec<ArenaLine>,
    /// How many lines in all.
    pub total: usize,
    /// The signed-in player's own line, if they joined.
    pub me: Option<ArenaLine>,
}

/// What a connection that follows an arena is sent (`arena_subscribe`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ArenaMessage {
    /// The table changed (at most about once a second), or the arena started or ended.
    Arena(ArenaTable),
    /// The follower's next game: a room is open for them with a seat held; the client joins
    /// it (`join_room` with the seat) after a short countdown.
    ArenaGame {
        /// The arena's id.
        arena: i64,
        /// The room's code.
        room: String,
        /// The seat held for the player.
        seat: usize,
        /// When the game starts by itself, Unix milliseconds (the countdown's end).
        starts_at: i64,
    },
}

/// The result of `arenas`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Arenas {
    /// Running first, then upcoming by start, then finished ones of the last day.
    pub arenas: Vec<ArenaSummary>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_arena_messages_read_back_as_written() {
        let table = ArenaTable {
            arena: ArenaSummary {
                id: 7,
                name: "Hourly Jungle blitz".into(),
                game: GameKind::Jungle,
                status: ArenaStatus::Running,
                starts_at: 1,
                ends_at: 2,
                turn_seconds: 10,
                players: 1,
                leader: None,
            },
            standings: Vec::new(),
            total: 0,
            me: None,
        };
        let message = ArenaMessage::Arena(table);
        let text = serde_json::to_string(&message).expect("serialises");
        assert!(
            text.starts_with(r#"{"type":"arena","arena":{"id":7"#),
            "{text}"
        );
        let back: ArenaMessage = serde_json::from_str(&text).expect("reads");
        assert_eq!(back, message);
    }
}
