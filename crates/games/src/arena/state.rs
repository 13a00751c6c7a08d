//! One arena: its players, the games it seated, the points and the table (P-ARENA).

use std::collections::HashMap;

use hangar_protocol::{ArenaLine, ArenaMark, GameKind};
use serde::{Deserialize, Serialize};

use super::pairing::{Candidate, pair};
use super::points::{Finish, game_points, is_draw, is_win};

/// How many recent results the table shows per player.
pub const RECENT_MARKS: usize = 10;

/// Wins in a row after which points are doubled (P-ARENA).
pub const FIRE_AFTER: u32 = 2;

/// What the arena refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArenaError {
    /// The arena's clock has run out.
    #[error("the arena is over")]
    Over,
    /// The player is not in the arena.
    #[error("not in this arena")]
    NotIn,
}

/// A player of the arena, as stored and restored with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The account id.
    pub id: i64,
    /// The shown name.
    pub name: String,
    /// Whether the account is a bot account (shown as such; bot accounts may play arenas).
    #[serde(default)]
    pub bot: bool,
    /// The player's rating in the arena's game (P-RATING), kept current by the hall, on the
    /// Elo scale the performance uses (±400 for a win or a loss).
    pub rating: i32,
    /// Arena points so far.
    pub points: u32,
    /// Games won in a row up to now (points are doubled from [`FIRE_AFTER`]).
    pub wins_in_row: u32,
    /// Counted games.
    pub games: u32,
    /// Sum of each counted game's performance (for the tie-break).
    pub performance_sum: i64,
    /// The latest results, oldest first (at most [`RECENT_MARKS`]).
    pub recent: Vec<ArenaMark>,
    /// Whether the player takes part now (joined and not withdrawn).
    pub active: bool,
    /// The room of the game the player sits in, if any.
    pub playing: Option<String>,
    /// Since when the player is free (ms since the epoch), if active and not playing.
    pub free_since: Option<i64>,
    /// The opponents of the player's last game (not paired again at once when others are
    /// free).
    pub last_opponents: Vec<i64>,
}

impl Entry {
    /// Whether points are doubled for the next game.
    pub fn on_fire(&self) -> bool {
        self.wins_in_row >= FIRE_AFTER
    }

    /// The performance rating: the mean per game of the opponents' mean rating plus 400 for a
    /// win, minus 400 for a loss, in proportion between; the player's rating before any game.
    pub fn performance(&self) -> i32 {
        if self.games == 0 {
            self.rating
        } else {
            (self.performance_sum / i64::from(self.games)) as i32
        }
    }
}

/// A game the arena seated and waits to hear the end of.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seated {
    /// The players in seat order.
    pub players: Vec<i64>,
    /// Their ratings when they sat down (for performance).
    pub ratings: Vec<i32>,
}

/// One line of the table, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// 1 = leading; players equal in points and performance share a rank.
    pub rank: u32,
    /// The account id.
    pub id: i64,
    /// Arena points.
    pub points: u32,
    /// Performance rating (the tie-break).
    pub performance: i32,
}

/// An arena tournament (P-ARENA): a game, a start and an end; players join and withdraw at
/// will and are seated whenever free.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Arena {
    /// The game played.
    pub game: GameKind,
    /// When pairing starts (ms since the epoch).
    pub starts_at: i64,
    /// When the arena ends (ms since the epoch): games running then do not count.
    pub ends_at: i64,
    /// How long (ms) free flight players wait for a table of four before a smaller table.
    pub table_wait_ms: i64,
    players: Vec<Entry>,
    #[serde(skip)]
    index: HashMap<i64, usize>,
    games: HashMap<String, Seated>,
    /// Games seated per pair of players (the lower id first), for the per-arena pair limit
    /// (P-ARENA); stored as `[a, b, games]` triples, none in arenas stored before it.
    #[serde(default, with = "pair_counts")]
    pair_games: HashMap<(i64, i64), u32>,
    /// Games one pair counts in this arena (the hall's `arena_pair_games`; 0: no cap): a
    /// pair that played as many sits together only when no one else is free.
    #[serde(skip)]
    pair_cap: u32,
    /// Pairs of players one of whom blocked the other (the hall reads them every few
    /// seconds): never seated at one table.
    #[serde(skip)]
    blocks: Vec<(i64, i64)>,
}

/// [`Arena`]'s games per pair as a list of `[a, b, games]` (JSON keys are strings).
mod pair_counts {
    use std::collections::HashMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(
        map: &HashMap<(i64, i64), u32>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let mut list: Vec<(i64, i64, u32)> = map.iter().map(|(&(a, b), &n)| (a, b, n)).collect();
        list.sort_unstable();
        list.serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<HashMap<(i64, i64), u32>, D::Error> {
        let list = Vec::<(i64, i64, u32)>::deserialize(deserializer)?;
        Ok(list.into_iter().map(|(a, b, n)| ((a, b), n)).collect())
    }
}

/// The key of a pair in [`Arena`]'s games per pair.
fn pair_key(a: i64, b: i64) -> (i64, i64) {
    (a.min(b), a.max(b))
}

impl Arena {
    /// A new arena with no players.
    pub fn new(game: GameKind, starts_at: i64, ends_at: i64, table_wait_ms: i64) -> Arena {
        Arena {
            game,
            starts_at,
            ends_at,
            table_wait_ms,
            players: Vec::new(),
            index: HashMap::new(),
            games: HashMap::new(),
            pair_games: HashMap::new(),
            pair_cap: 0,
            blocks: Vec::new(),
        }
    }

    /// Sets how many games one pair counts in this arena (0: no cap); pairs that played as
    /// many are seated together only when no one else is free.
    pub fn set_pair_cap(&mut self, cap: u32) {
        self.pair_cap = cap;
    }

    /// Sets the blocks between this arena's players (each pair once, either way; P-CHALLENGE):
    /// two of them are never seated at one table.
    pub fn set_blocks(&mut self, blocks: Vec<(i64, i64)>) {
        self.blocks = blocks;
    }

    /// The ids of the players who take part now (joined, not withdrawn).
    pub fn active_players(&self) -> Vec<i64> {
        self.players
            .iter()
            .filter(|e| e.active)
            .map(|e| e.id)
            .collect()
    }

    /// The games this arena seated the two players at one table.
    pub fn games_of_pair(&self, a: i64, b: i64) -> u32 {
        self.pair_games.get(&pair_key(a, b)).copied().unwrap_or(0)
    }

    /// Rebuilds the lookup after deserialising a stored arena.
    pub fn reindex(&mut self) {
        self.index = self
            .players
            .iter()
            .enumerate()
            .map(|(i, e)| (e.id, i))
            .collect();
    }

    /// Whether the clock has run out at `now`.
    pub fn is_over(&self, now: i64) -> bool {
        now >= self.ends_at
    }

    /// Every player who ever joined, in joining order.
    pub fn players(&self) -> &[Entry] {
        &self.players
    }

    /// The player with this id.
    pub fn player(&self, id: i64) -> Option<&Entry> {
        self.index.get(&id).map(|&i| &self.players[i])
    }

    /// The games seated and not yet over, by room code.
    pub fn running(&self) -> &HashMap<String, Seated> {
        &self.games
    }

    /// A player joins (or comes back after withdrawing or escaping): free from `now`.
    pub fn join(
        &mut self,
        id: i64,
        name: &str,
        bot: bool,
        rating: i32,
        now: i64,
    ) -> Result<(), ArenaError> {
        if self.is_over(now) {
            return Err(ArenaError::Over);
        }
        let index = match self.index.get(&id) {
            Some(&i) => i,
            None => {
                self.players.push(Entry {
                    id,
                    name: name.to_owned(),
                    bot,
                    rating,
                    points: 0,
                    wins_in_row: 0,
                    games: 0,
                    performance_sum: 0,
                    recent: Vec::new(),
                    active: false,
                    playing: None,
                    free_since: None,
                    last_opponents: Vec::new(),
                });
                self.index.insert(id, self.players.len() - 1);
                self.players.len() - 1
            }
        };
        let entry = &mut self.players[index];
        entry.rating = rating;
        entry.active = true;
        if entry.playing.is_none() && entry.free_since.is_none() {
            entry.free_since = Some(now);
        }
        Ok(())
    }

    /// A player withdraws: not seated again until they join again. A game they play goes on
    /// and counts.
    pub fn withdraw(&mut self, id: i64) -> Result<(), ArenaError> {
        let &i = self.index.get(&id).ok_or(ArenaError::NotIn)?;
        let entry = &mut self.players[i];
        entry.active = false;
        entry.free_since = None;
        Ok(())
    }

    /// The hall's latest rating of a player (used for pairing and for performance).
    pub fn set_rating(&mut self, id: i64, rating: i32) {
        if let Some(&i) = self.index.get(&id) {
            self.players[i].rating = rating;
        }
    }

    /// Forms the tables of this round from the free players (see [`pair`]) and marks their
    /// players busy; the hall then calls [`Arena::seated`] with each table's room. Nothing is
    /// paired before the start or after the end.
    /// Only players for whom `present` holds are seated (the hall: those it can reach now).
    pub fn pair_round(&mut self, now: i64, present: impl Fn(i64) -> bool) -> Vec<Vec<i64>> {
        if now < self.starts_at || self.is_over(now) {
            return Vec::new();
        }
        // Who played the cap of games with whom (few pairs: a pair's games are few).
        let mut capped: HashMap<i64, Vec<i64>> = HashMap::new();
        if self.pair_cap > 0 {
            for (&(a, b), &n) in &self.pair_games {
                if n >= self.pair_cap {
                    capped.entry(a).or_default().push(b);
                    capped.entry(b).or_default().push(a);
                }
            }
        }
        let mut blocked: HashMap<i64, Vec<i64>> = HashMap::new();
        for &(a, b) in &self.blocks {
            blocked.entry(a).or_default().push(b);
            blocked.entry(b).or_default().push(a);
        }
        let candidates: Vec<Candidate<'_>> = self
            .players
            .iter()
            .filter(|e| e.active && e.playing.is_none() && present(e.id))
            .filter_map(|e| {
                Some(Candidate {
                    id: e.id,
                    points: e.points,
                    rating: e.rating,
                    free_since: e.free_since?,
                    last_opponents: &e.last_opponents,
                    capped_with: capped.get(&e.id).map_or(&[][..], Vec::as_slice),
                    blocked_with: blocked.get(&e.id).map_or(&[][..], Vec::as_slice),
                })
            })
            .collect();
        let tables = pair(self.game, &candidates, now, self.table_wait_ms);
        for table in &tables {
            for id in table {
                let i = self.index[id];
                self.players[i].free_since = None;
            }
        }
        tables
    }

    /// A table formed by [`Arena::pair_round`] sits in room `code`: each pair at it has
    /// played one more game in this arena.
    pub fn seated(&mut self, code: &str, players: &[i64]) {
        for (k, &a) in players.iter().enumerate() {
            for &b in &players[k + 1..] {
                *self.pair_games.entry(pair_key(a, b)).or_default() += 1;
            }
        }
        let mut ratings = Vec::with_capacity(players.len());
        for id in players {
            if let Some(&i) = self.index.get(id) {
                let entry = &mut self.players[i];
                entry.playing = Some(code.to_owned());
                entry.free_since = None;
                ratings.push(entry.rating);
            }
        }
        self.games.insert(
            code.to_owned(),
            Seated {
                players: players.to_vec(),
                ratings,
            },
        );
    }

    /// A table could not be seated (the room failed to open): its players are free again.
    pub fn unseat(&mut self, players: &[i64], now: i64) {
        for id in players {
            if let Some(&i) = self.index.get(id) {
                let entry = &mut self.players[i];
                if entry.active && entry.playing.is_none() {
                    entry.free_since = Some(now);
                }
            }
        }
    }

    /// The game in room `code` ended at `now` with these finishes. It counts only if it ended
    /// before the arena's end; its players are free again (an escaper is withdrawn until they
    /// join again). Returns whether it counted.
    pub fn finished(&mut self, code: &str, table: &[Finish], now: i64) -> bool {
        let Some(seated) = self.games.remove(code) else {
            return false;
        };
        let counts = !self.is_over(now);
        for (k, &id) in seated.players.iter().enumerate() {
            let Some(&i) = self.index.get(&id) else {
                continue;
            };
            let finish = table.iter().find(|f| f.player == id);
            let entry = &mut self.players[i];
            entry.playing = None;
            entry.last_opponents = seated
                .players
                .iter()
                .copied()
                .filter(|&o| o != id)
                .collect();
            if let (true, Some(finish)) = (counts, finish) {
                let opponents: Vec<i32> = seated
                    .ratings
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != k)
                    .map(|(_, &r)| r)
                    .collect();
                Self::score(self.game, entry, finish, table, &opponents);
            }
            let escaped = finish.is_some_and(|f| f.escaped);
            if escaped {
                entry.active = false;
            }
            entry.free_since = (entry.active && !escaped && counts).then_some(now);
        }
        counts
    }

    fn score(game: GameKind, entry: &mut Entry, finish: &Finish, table: &[Finish], opp: &[i32]) {
        let base = game_points(game, finish, table);
        let doubled = entry.on_fire() && base > 0;
        let points = if doubled { base * 2 } else { base };
        entry.points += points;
        entry.wins_in_row = if is_win(finish, table) {
            entry.wins_in_row + 1
        } else {
            0
        };
        let seats = table.len().max(2) as i64;
        // The game's score in [0, 1]: 1 for first place, 0 for last, a draw ½.
        let (num, den) = if is_draw(table) {
            (1, 2)
        } else if finish.escaped {
            (0, 1)
        } else {
            (seats - i64::from(finish.place), seats - 1)
        };
        let mean_opponent = if opp.is_empty() {
            i64::from(entry.rating)
        } else {
            opp.iter().map(|&r| i64::from(r)).sum::<i64>() / opp.len() as i64
        };
        entry.performance_sum += mean_opponent + 400 * (2 * num - den) / den;
        entry.games += 1;
        entry.recent.push(ArenaMark {
            place: finish.place,
            of: table.len() as u8,
            drawn: is_draw(table),
            points,
            doubled,
            escaped: finish.escaped,
        });
        if entry.recent.len() > RECENT_MARKS {
            entry.recent.remove(0);
        }
    }

    /// The arena's end: games still running do not count; nobody is free any more.
    pub fn close(&mut self) {
        self.games.clear();
        for entry in &mut self.players {
            entry.playing = None;
            entry.free_since = None;
        }
    }

    /// The table, best first: points, then performance; equal players share a rank. Every
    /// player who joined is listed (withdrawn ones keep their points).
    pub fn standings(&self) -> Vec<Standing> {
        let mut order: Vec<&Entry> = self.players.iter().collect();
        order.sort_by(|a, b| {
            b.points
                .cmp(&a.points)
                .then(b.performance().cmp(&a.performance()))
                .then(a.id.cmp(&b.id))
        });
        let mut out: Vec<Standing> = Vec::with_capacity(order.len());
        for (n, e) in order.iter().enumerate() {
            let performance = e.performance();
            let rank = match out.last() {
                Some(prev) if prev.points == e.points && prev.performance == performance => {
                    prev.rank
                }
                _ => n as u32 + 1,
            };
            out.push(Standing {
                rank,
                id: e.id,
                points: e.points,
                performance,
            });
        }
        out
    }

    /// Lines `offset..offset + limit` of the table as the wire shows them, and how many lines
    /// there are in all.
    pub fn lines(&self, offset: usize, limit: usize) -> (Vec<ArenaLine>, usize) {
        let standings = self.standings();
        let total = standings.len();
        let lines = standings
            .iter()
            .skip(offset)
            .take(limit)
            .map(|s| self.line(s))
            .collect();
        (lines, total)
    }

    /// The table line of one player, if they joined.
    pub fn line_of(&self, id: i64) -> Option<ArenaLine> {
        self.player(id)?;
        self.standings()
            .iter()
            .find(|s| s.id == id)
            .map(|s| self.line(s))
    }

    /// The wire's line of one line of [`Arena::standings`].
    pub fn line(&self, standing: &Standing) -> ArenaLine {
        let entry = &self.players[self.index[&standing.id]];
        ArenaLine {
            rank: standing.rank,
            player_id: entry.id,
            name: entry.name.clone(),
            bot: entry.bot,
            points: entry.points,
            fire: entry.on_fire(),
            performance: standing.performance,
            games: entry.games,
            recent: entry.recent.clone(),
            active: entry.active,
            room: entry.playing.clone(),
        }
    }

    /// The leader's name, once anyone has points.
    pub fn leader(&self) -> Option<&str> {
        let top = self.standings().into_iter().next()?;
        (top.points > 0).then(|| self.players[self.index[&top.id]].name.as_str())
    }
}
