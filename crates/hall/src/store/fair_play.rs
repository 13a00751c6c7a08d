//! The moderator's tools of fair play (docs/security.md, "Moderation"): the report of
//! `hangar admin fair-play` — pairs with many scored games against each other, scored games
//! some person left within their first decisions, players whose wins come mostly from new
//! identities, each with the game ids — and `hangar admin ban --refund`, which bans a player
//! and gives back, in the ban's transaction, the score and rating its victims lost to it.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;
use sqlx::{AnyConnection, Row};

use super::{Store, StoreError};
use crate::time::now_ms;
use hangar_games::LoggedAct;
use hangar_games::rating::Skill;
use hangar_protocol::GameKind;

/// A player as the report and the refunds name it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Identity {
    /// The player's id (what `--id` takes).
    pub id: i64,
    /// The player's name.
    pub name: String,
    /// A guest (no password).
    pub guest: bool,
    /// When the guest or account was made (Unix ms).
    pub created_at: i64,
}

/// The thresholds of the report (`hangar admin fair-play`'s flags).
#[derive(Clone, Copy, Debug)]
pub struct FairPlayLimits {
    /// Only games finished at or after this time (Unix ms).
    pub since: i64,
    /// A pair is listed with at least this many scored games against each other.
    pub pair_games: usize,
    /// A scored jungle game is listed when some person in it made at most this many moves of
    /// their own (not the timer's).
    pub early_decisions: u32,
    /// A scored flight game is listed when some person in it made at most this many decisions
    /// of their own (rolls, moves, items; not auto-play's or the timer's). Flight allows a
    /// resignation after 15 turns, when each of two people has made about 20 rolls and moves.
    pub early_flight_decisions: u32,
    /// An opponent is new when made at most this many minutes before the game started…
    pub new_minutes: i64,
    /// …or when it has at most this many scored games in all.
    pub new_games: i64,
    /// A winner is considered with at least this many scored wins in the window.
    pub min_wins: usize,
    /// …and listed when at least this share of them (0–1) beat a new identity.
    pub new_share: f64,
}

/// What `hangar admin fair-play` reports.
#[derive(Clone, Debug, Serialize)]
pub struct FairPlayReport {
    /// The window's start (Unix ms).
    pub since: i64,
    /// When the report was made (Unix ms).
    pub until: i64,
    /// Pairs with many scored games against each other, most games first.
    pub pairs: Vec<PairGames>,
    /// Scored games some person left within their first decisions, oldest first.
    pub early: Vec<EarlyGame>,
    /// Players whose wins come mostly from new identities, most such wins first.
    pub new_identity_wins: Vec<NewIdentityWins>,
}

/// Two people's scored games against each other in the window.
#[derive(Clone, Debug, Serialize)]
pub struct PairGames {
    /// The two (lower id first).
    pub players: [Identity; 2],
    /// How many of the games each won.
    pub wins: [usize; 2],
    /// The games, oldest first.
    pub games: Vec<i64>,
}

/// A scored game that some person left within their first decisions.
#[derive(Clone, Debug, Serialize)]
pub struct EarlyGame {
    /// The game's id.
    pub game_id: i64,
    /// `jungle` or `flight`.
    pub game: String,
    /// Why it ended (`resigned`, `escaped`, …), as its result says.
    pub reason: Option<String>,
    /// The length of its action log (every action, the hall's included).
    pub actions: usize,
    /// Each person's line, in seat order.
    pub seats: Vec<SeatDecisions>,
}

/// One person's part of a listed game.
#[derive(Clone, Debug, Serialize)]
pub struct SeatDecisions {
    /// The person.
    pub player: Identity,
    /// The seat.
    pub seat: i64,
    /// Won the game.
    pub won: bool,
    /// Their own decisions.
    pub decisions: u32,
    /// Their score change.
    pub delta: i64,
}

/// A player whose scored wins in the window mostly beat new identities.
#[derive(Clone, Debug, Serialize)]
pub struct NewIdentityWins {
    /// The winner.
    pub player: Identity,
    /// Scored wins in the window.
    pub wins: usize,
    /// Of them, the wins over a new identity.
    pub from_new: usize,
    /// The new identities beaten, by id.
    pub opponents: Vec<Identity>,
    /// The wins over a new identity, oldest first.
    pub games: Vec<i64>,
}

/// What one victim was given back for one game by `ban --refund`.
#[derive(Clone, Debug, Serialize)]
pub struct Refund {
    /// The game.
    pub game_id: i64,
    /// `jungle` or `flight`.
    pub game: String,
    /// The victim.
    pub player: Identity,
    /// The score given back (what the victim lost in the game).
    pub score: i64,
    /// The rating of `game` given back (what the victim's rating lost in the game).
    pub rating: f64,
}

/// One person's row of a scored game in the window.
struct Line {
    game_id: i64,
    game: String,
    started_at: i64,
    reason: Option<String>,
    player: Identity,
    seat: i64,
    rank: i64,
    won: bool,
    delta: i64,
    scored_games: i64,
}

impl Store {
    /// The fair-play report over the scored games finished since `limits.since`.
    pub async fn fair_play_report(
        &self,
        limits: &FairPlayLimits,
    ) -> Result<FairPlayReport, StoreError> {
        let until = now_ms();
        let lines = self.scored_lines(limits.since).await?;
        let mut games: BTreeMap<i64, Vec<Line>> = BTreeMap::new();
        for line in lines {
            games.entry(line.game_id).or_default().push(line);
        }
        let decisions = self.decisions_since(limits.since).await?;
        Ok(FairPlayReport {
            since: limits.since,
            until,
            pairs: pairs(&games, limits),
            early: early(&games, &decisions, limits),
            new_identity_wins: new_identity_wins(&games, limits),
        })
    }

    /// Every person's line of every scored game finished since `since`, by game and seat.
    async fn scored_lines(&self, since: i64) -> Result<Vec<Line>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.game, g.started_at, g.result, gp.player_id, gp.seat, gp.rank, gp.won, \
             gp.delta, p.name, p.guest, p.created_at, \
             (SELECT COUNT(*) FROM game_players x WHERE x.player_id = gp.player_id \
              AND x.practice = 0) AS scored_games \
             FROM games g JOIN game_players gp ON gp.game_id = g.id \
             JOIN players p ON p.id = gp.player_id \
             WHERE g.status = 'finished' AND g.finished_at >= $1 AND gp.practice = 0 \
             ORDER BY g.id, gp.seat",
        )
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let result: Option<String> = row.try_get("result")?;
                let reason = result
                    .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
                    .and_then(|result| result["reason"].as_str().map(str::to_owned));
                Ok(Line {
                    game_id: row.try_get("id")?,
                    game: row.try_get("game")?,
                    started_at: row.try_get("started_at")?,
                    reason,
                    player: Identity {
                        id: row.try_get("player_id")?,
                        name: row.try_get("name")?,
                        guest: row.try_get::<i64, _>("guest")? != 0,
                        created_at: row.try_get("created_at")?,
                    },
                    seat: row.try_get("seat")?,
                    rank: row.try_get("rank")?,
                    won: row.try_get::<i64, _>("won")? != 0,
                    delta: row.try_get("delta")?,
                    scored_games: row.try_get("scored_games")?,
                })
            })
            .collect()
    }

    /// For each game finished since `since`: its log's length and each seat's own decisions.
    /// A finished game's log is all in its chunks (finishing a game chunks the rest).
    async fn decisions_since(&self, since: i64) -> Result<HashMap<i64, Decisions>, StoreError> {
        let rows = sqlx::query(
            "SELECT c.game_id, c.length, c.data FROM action_chunks c \
             JOIN games g ON g.id = c.game_id \
             WHERE g.status = 'finished' AND g.finished_at >= $1 AND EXISTS \
             (SELECT 1 FROM game_players gp WHERE gp.game_id = g.id AND gp.practice = 0) \
             ORDER BY c.game_id, c.first_idx",
        )
        .bind(since)
        .fetch_all(&self.pool)
        .await?;
        let mut games: HashMap<i64, Decisions> = HashMap::new();
        for row in &rows {
            let game_id: i64 = row.try_get("game_id")?;
            let length: i64 = row.try_get("length")?;
            let data: String = row.try_get("data")?;
            let counted = games.entry(game_id).or_default();
            counted.actions += usize::try_from(length).unwrap_or(0);
            for text in data.split('\n') {
                let Ok(logged) = LoggedAct::from_line(text) else {
                    continue;
                };
                let own = !logged.auto && logged.action.is_play();
                if own {
                    *counted.by_seat.entry(logged.seat as i64).or_default() += 1;
                }
            }
        }
        Ok(games)
    }

    /// Bans a player as [`Store::ban`] does and, in the same transaction, gives back what the
    /// players it beat lost to it: for every scored game it played, each person ranked below
    /// it gets back the score it lost in that game (a gain stays) and the rating of that game
    /// it lost there, and a `refunds` row says so. A game's loss is refunded once: a game and
    /// victim with a row already are left alone. The refunds made, oldest game first.
    ///
    /// The rating lost in a game is the victim's rating after it (its `rating_history` row)
    /// taken from the rating before it: the victim's previous history row of that game, or
    /// the starting rating, plus what refunds gave back in between. Only the rating value is
    /// given back; the deviation (and Glicko-2's volatility, which no history keeps) stay as
    /// the games left them.
    pub async fn ban_with_refund(
        &self,
        player_id: i64,
        reason: &str,
    ) -> Result<Vec<Refund>, StoreError> {
        let reason = reason.to_owned();
        self.write(move |conn| {
            Box::pin(async move {
                super::admin::ban_in(conn, player_id, reason).await?;
                refund(conn, player_id).await
            })
        })
        .await
    }
}

/// The log of one game as the report counts it.
#[derive(Default)]
struct Decisions {
    actions: usize,
    by_seat: HashMap<i64, u32>,
}

/// Pairs with at least `pair_games` scored games against each other.
fn pairs(games: &BTreeMap<i64, Vec<Line>>, limits: &FairPlayLimits) -> Vec<PairGames> {
    let mut found: BTreeMap<(i64, i64), PairGames> = BTreeMap::new();
    for lines in games.values() {
        for (i, a) in lines.iter().enumerate() {
            for b in &lines[i + 1..] {
                if a.player.id == b.player.id {
                    continue;
                }
                let (low, high) = if a.player.id < b.player.id {
                    (a, b)
                } else {
                    (b, a)
                };
                let pair = found
                    .entry((low.player.id, high.player.id))
                    .or_insert_with(|| PairGames {
                        players: [low.player.clone(), high.player.clone()],
                        wins: [0, 0],
                        games: Vec::new(),
                    });
                pair.games.push(a.game_id);
                pair.wins[0] += usize::from(low.won);
                pair.wins[1] += usize::from(high.won);
            }
        }
    }
    let mut pairs: Vec<PairGames> = found
        .into_values()
        .filter(|pair| pair.games.len() >= limits.pair_games)
        .collect();
    pairs.sort_by_key(|pair| std::cmp::Reverse(pair.games.len()));
    pairs
}

/// Scored games some person left within their first `early_decisions` decisions.
fn early(
    games: &BTreeMap<i64, Vec<Line>>,
    decisions: &HashMap<i64, Decisions>,
    limits: &FairPlayLimits,
) -> Vec<EarlyGame> {
    let none = Decisions::default();
    games
        .iter()
        .filter_map(|(&game_id, lines)| {
            let log = decisions.get(&game_id).unwrap_or(&none);
            let seats: Vec<SeatDecisions> = lines
                .iter()
                .map(|line| SeatDecisions {
                    player: line.player.clone(),
                    seat: line.seat,
                    won: line.won,
                    decisions: log.by_seat.get(&line.seat).copied().unwrap_or(0),
                    delta: line.delta,
                })
                .collect();
            let early = if lines[0].game == GameKind::Flight.name() {
                limits.early_flight_decisions
            } else {
                limits.early_decisions
            };
            seats
                .iter()
                .any(|s| s.decisions <= early)
                .then(|| EarlyGame {
                    game_id,
                    game: lines[0].game.clone(),
                    reason: lines[0].reason.clone(),
                    actions: log.actions,
                    seats,
                })
        })
        .collect()
}

/// Winners with at least `min_wins` scored wins of which at least `new_share` beat a new
/// identity.
fn new_identity_wins(
    games: &BTreeMap<i64, Vec<Line>>,
    limits: &FairPlayLimits,
) -> Vec<NewIdentityWins> {
    let mut found: BTreeMap<i64, (NewIdentityWins, BTreeSet<i64>)> = BTreeMap::new();
    for lines in games.values() {
        for winner in lines.iter().filter(|l| l.won) {
            let entry = found.entry(winner.player.id).or_insert_with(|| {
                let wins = NewIdentityWins {
                    player: winner.player.clone(),
                    wins: 0,
                    from_new: 0,
                    opponents: Vec::new(),
                    games: Vec::new(),
                };
                (wins, BTreeSet::new())
            });
            entry.0.wins += 1;
            let new: Vec<&Line> = lines
                .iter()
                .filter(|l| l.rank > winner.rank && l.player.id != winner.player.id)
                .filter(|l| {
                    l.player.created_at >= l.started_at - limits.new_minutes * 60_000
                        || l.scored_games <= limits.new_games
                })
                .collect();
            if new.is_empty() {
                continue;
            }
            entry.0.from_new += 1;
            entry.0.games.push(winner.game_id);
            for line in new {
                if entry.1.insert(line.player.id) {
                    entry.0.opponents.push(line.player.clone());
                }
            }
        }
    }
    let mut listed: Vec<NewIdentityWins> = found
        .into_values()
        .map(|(wins, _)| wins)
        .filter(|w| {
            w.wins >= limits.min_wins
                && w.from_new > 0
                && w.from_new as f64 >= limits.new_share * w.wins as f64
        })
        .collect();
    listed.sort_by_key(|wins| std::cmp::Reverse(wins.from_new));
    listed
}

/// One loss to refund, before it is applied.
struct Loss {
    refund: Refund,
    /// When the victim's rating of the game was written (its history row), for the order.
    rated_at: i64,
}

/// The refunds of `banned`'s victims not refunded yet, applied and recorded.
async fn refund(conn: &mut AnyConnection, banned: i64) -> Result<Vec<Refund>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT v.game_id, g.game, v.player_id, v.delta, p.name, p.guest, p.created_at \
         FROM game_players b JOIN games g ON g.id = b.game_id \
         JOIN game_players v ON v.game_id = b.game_id AND v.player_id <> b.player_id \
         AND v.practice = 0 AND v.rank > b.rank \
         JOIN players p ON p.id = v.player_id \
         WHERE b.player_id = $1 AND b.practice = 0 AND NOT EXISTS \
         (SELECT 1 FROM refunds r WHERE r.game_id = v.game_id AND r.player_id = v.player_id) \
         ORDER BY v.game_id, v.player_id",
    )
    .bind(banned)
    .fetch_all(&mut *conn)
    .await?;
    let mut losses = Vec::with_capacity(rows.len());
    for row in &rows {
        let game_id: i64 = row.try_get("game_id")?;
        let game: String = row.try_get("game")?;
        let victim: i64 = row.try_get("player_id")?;
        let delta: i64 = row.try_get("delta")?;
        let (rating, rated_at) = rating_lost(conn, victim, &game, game_id).await?;
        let score = (-delta).max(0);
        if score == 0 && rating == 0.0 {
            continue;
        }
        losses.push(Loss {
            refund: Refund {
                game_id,
                game,
                player: Identity {
                    id: victim,
                    name: row.try_get("name")?,
                    guest: row.try_get::<i64, _>("guest")? != 0,
                    created_at: row.try_get("created_at")?,
                },
                score,
                rating,
            },
            rated_at,
        });
    }
    // Latest game first: each rating refund then takes the rating back to what it was before
    // that game, exactly (the difference of two close doubles is exact, and so is adding it
    // back to the one it was taken from).
    losses.sort_by(|a, b| {
        (b.rated_at, b.refund.game_id, a.refund.player.id).cmp(&(
            a.rated_at,
            a.refund.game_id,
            b.refund.player.id,
        ))
    });
    let at = now_ms();
    for loss in &losses {
        let r = &loss.refund;
        sqlx::query("UPDATE players SET score = score + $1 WHERE id = $2")
            .bind(r.score)
            .bind(r.player.id)
            .execute(&mut *conn)
            .await?;
        if r.rating != 0.0 {
            sqlx::query(
                "UPDATE ratings SET rating = rating + $1 WHERE player_id = $2 AND game = $3",
            )
            .bind(r.rating)
            .bind(r.player.id)
            .bind(r.game.clone())
            .execute(&mut *conn)
            .await?;
        }
        sqlx::query(
            "INSERT INTO refunds (game_id, player_id, banned_id, game, score, rating, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(r.game_id)
        .bind(r.player.id)
        .bind(banned)
        .bind(r.game.clone())
        .bind(r.score)
        .bind(r.rating)
        .bind(at)
        .execute(&mut *conn)
        .await?;
    }
    let mut refunds: Vec<Refund> = losses.into_iter().map(|l| l.refund).collect();
    refunds.sort_by_key(|r| (r.game_id, r.player.id));
    Ok(refunds)
}

/// The rating of `game` that `player` lost in game `game_id` (0 when it lost none or the game
/// changed no rating of it), and when that game's rating was written.
async fn rating_lost(
    conn: &mut AnyConnection,
    player: i64,
    game: &str,
    game_id: i64,
) -> Result<(f64, i64), sqlx::Error> {
    let Some(after) =
        sqlx::query("SELECT rating, at FROM rating_history WHERE game_id = $1 AND player_id = $2")
            .bind(game_id)
            .bind(player)
            .fetch_optional(&mut *conn)
            .await?
    else {
        return Ok((0.0, 0));
    };
    let (after, at): (f64, i64) = (after.try_get("rating")?, after.try_get("at")?);
    let previous = sqlx::query(
        "SELECT rating, at FROM rating_history WHERE player_id = $1 AND game = $2 \
         AND (at < $3 OR (at = $3 AND game_id < $4)) ORDER BY at DESC, game_id DESC LIMIT 1",
    )
    .bind(player)
    .bind(game.to_owned())
    .bind(at)
    .bind(game_id)
    .fetch_optional(&mut *conn)
    .await?;
    let (mut before, from) = match previous {
        Some(row) => (
            row.try_get::<f64, _>("rating")?,
            row.try_get::<i64, _>("at")?,
        ),
        None => {
            let Some(kind) = GameKind::from_name(game) else {
                return Ok((0.0, at));
            };
            (Skill::initial(kind).rating, i64::MIN)
        }
    };
    // Refunds given between the previous game and this one raised the rating this game
    // started from.
    let given = sqlx::query(
        "SELECT rating FROM refunds WHERE player_id = $1 AND game = $2 \
         AND created_at > $3 AND created_at <= $4 ORDER BY created_at DESC",
    )
    .bind(player)
    .bind(game.to_owned())
    .bind(from)
    .bind(at)
    .fetch_all(&mut *conn)
    .await?;
    for row in &given {
        before += row.try_get::<f64, _>("rating")?;
    }
    Ok(((before - after).max(0.0), at))
}
