//! Reading players' standing: leaderboards per game by rating or score (P-RATING), a player's
//! finished games with who played them (P-RECORD), and the per-game figures of a profile
//! (P-PROFILE).

use std::collections::{BTreeMap, BTreeSet};

use sqlx::Row;

use super::ratings::skill_from_row;
use super::{Store, StoreError, player_from_row};
use crate::accounts::Player;
use hangar_games::rating::{Skill, provisional_deviation};
use hangar_protocol::{
    BoardOrder, BotRecord, GameKind, GamePlayer, GameResult, GameStats, GameSummary, RatingPoint,
};

/// How many points of rating history a profile shows per game.
const HISTORY_POINTS: i64 = 100;

/// The number of different people player `p.id` met in scored games (of the game `$1`, when
/// `game_filter` says so): a subquery of the leaderboards and the profile.
fn opponents_sql(game_filter: &str) -> String {
    format!(
        "(SELECT COUNT(DISTINCT o.player_id) FROM game_players me \
         JOIN game_players o ON o.game_id = me.game_id AND o.player_id <> me.player_id \
         JOIN games og ON og.id = me.game_id \
         WHERE me.player_id = p.id AND me.practice = 0{game_filter})"
    )
}

impl Store {
    /// A page of a leaderboard: players whose scored games (of `game`, or of either game) were
    /// against at least `listed_after` different people (P-RATING: a farmer's few puppets list
    /// nobody), best first, with their rating of `game`. `Rating` order needs a game, and lists
    /// the players whose rating is provisional after all the others (as lichess does: one
    /// lucky first game does not top the board).
    pub async fn leaderboard(
        &self,
        game: Option<GameKind>,
        order: BoardOrder,
        bots: bool,
        offset: i64,
        limit: i64,
        listed_after: i64,
    ) -> Result<Vec<(Player, Option<Skill>)>, StoreError> {
        // Bot accounts are listed unless left out (P-BOT-ACCOUNT).
        let bot_filter = if bots { "" } else { " AND p.bot = 0" };
        let Some(game) = game else {
            let opponents = opponents_sql("");
            let rows = sqlx::query(&format!(
                "SELECT id, name, guest, bot, score FROM players p \
                 WHERE EXISTS (SELECT 1 FROM ratings r WHERE r.player_id = p.id){bot_filter} \
                 AND {opponents} >= $3 \
                 ORDER BY score DESC, id ASC LIMIT $1 OFFSET $2"
            ))
            .bind(limit)
            .bind(offset)
            .bind(listed_after)
            .fetch_all(&self.pool)
            .await?;
            return rows
                .iter()
                .map(|row| Ok((player_from_row(row)?, None)))
                .collect();
        };
        let order_by = match order {
            BoardOrder::Rating => {
                "CASE WHEN r.deviation > $5 THEN 1 ELSE 0 END, r.rating DESC, p.id ASC"
            }
            BoardOrder::Score => "p.score DESC, p.id ASC",
        };
        let opponents = opponents_sql(" AND og.game = $1");
        let sql = format!(
            "SELECT p.id, p.name, p.guest, p.bot, p.score, r.rating, r.deviation, r.volatility, r.games \
             FROM ratings r JOIN players p ON p.id = r.player_id WHERE r.game = $1{bot_filter} \
             AND {opponents} >= $4 \
             ORDER BY {order_by} LIMIT $2 OFFSET $3"
        );
        let query = sqlx::query(&sql)
            .bind(game.name())
            .bind(limit)
            .bind(offset)
            .bind(listed_after);
        let query = match order {
            BoardOrder::Rating => query.bind(provisional_deviation(game)),
            BoardOrder::Score => query,
        };
        let rows = query.fetch_all(&self.pool).await?;
        rows.iter()
            .map(|row| Ok((player_from_row(row)?, Some(skill_from_row(row)?))))
            .collect()
    }

    /// A player's finished games, newest first. Unless `private_codes` (the player asking
    /// about their own games), a private room's game shows only its game, result and score
    /// change: "a private game", without id, room, time, rating or who else played.
    pub async fn player_games(
        &self,
        player_id: i64,
        limit: i64,
        private_codes: bool,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.game, g.room, g.private, g.finished_at, g.result, gp.seat, gp.delta, \
             gp.rank, gp.practice, gp.won, rh.rating FROM game_players gp \
             JOIN games g ON g.id = gp.game_id \
             LEFT JOIN rating_history rh ON rh.game_id = gp.game_id AND rh.player_id = gp.player_id \
             WHERE gp.player_id = $1 ORDER BY g.id DESC LIMIT $2",
        )
        .bind(player_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let result: Option<String> = row.try_get("result")?;
                let result: Option<GameResult> =
                    result.and_then(|text| serde_json::from_str(&text).ok());
                let private = row.try_get::<i64, _>("private")? != 0;
                let game: String = row.try_get("game")?;
                // A row of no known game is a broken row, not a flight game.
                let game = GameKind::from_name(&game).ok_or_else(|| {
                    sqlx::Error::Decode(format!("a game of unknown kind {game:?}").into())
                })?;
                let hidden = private && !private_codes;
                if hidden {
                    return Ok(GameSummary {
                        game_id: 0,
                        private: true,
                        game,
                        room: None,
                        finished_at: 0,
                        reason: result.map(|r| r.reason),
                        practice: row.try_get::<i64, _>("practice")? != 0,
                        seat: 0,
                        rank: row.try_get("rank")?,
                        won: row.try_get::<i64, _>("won")? != 0,
                        delta: row.try_get("delta")?,
                        rating: None,
                        players: Vec::new(),
                    });
                }
                Ok(GameSummary {
                    private: false,
                    game_id: row.try_get("id")?,
                    game,
                    room: (private_codes || !private)
                        .then(|| row.try_get("room"))
                        .transpose()?,
                    finished_at: row.try_get::<Option<i64>, _>("finished_at")?.unwrap_or(0),
                    reason: result.as_ref().map(|r| r.reason),
                    practice: row.try_get::<i64, _>("practice")? != 0,
                    seat: usize::try_from(row.try_get::<i64, _>("seat")?).unwrap_or(0),
                    rank: row.try_get("rank")?,
                    won: row.try_get::<i64, _>("won")? != 0,
                    delta: row.try_get("delta")?,
                    rating: row.try_get("rating")?,
                    players: result.map(|r| seated(&r)).unwrap_or_default(),
                })
            })
            .collect()
    }

    /// A player's figures per game they have finished (P-PROFILE), and whether they are
    /// listed (P-RATING: scored games against `listed_after` different people). Unless `own`
    /// (the player asking), the rating history leaves out private rooms' games: a point names
    /// its game and time, which would tell who played it.
    pub async fn game_stats(
        &self,
        player_id: i64,
        own: bool,
        listed_after: i64,
    ) -> Result<Vec<GameStats>, StoreError> {
        let counts = sqlx::query(
            "SELECT g.game, COUNT(*) AS played, CAST(SUM(gp.won) AS BIGINT) AS wins FROM game_players gp \
             JOIN games g ON g.id = gp.game_id WHERE gp.player_id = $1 GROUP BY g.game ORDER BY g.game",
        )
        .bind(player_id)
        .fetch_all(&self.pool)
        .await?;
        let mut stats = Vec::with_capacity(counts.len());
        for row in &counts {
            let name: String = row.try_get("game")?;
            let Some(game) = GameKind::from_name(&name) else {
                continue;
            };
            let rating = sqlx::query(
                "SELECT rating, deviation, volatility, games FROM ratings \
                 WHERE player_id = $1 AND game = $2",
            )
            .bind(player_id)
            .bind(game.name())
            .fetch_optional(&self.pool)
            .await?
            .map(|row| skill_from_row(&row))
            .transpose()?;
            let mut history = sqlx::query(
                "SELECT game_id, at, rating FROM rating_history WHERE player_id = $1 AND game = $2 \
                 AND ($4 = 1 OR game_id NOT IN (SELECT id FROM games WHERE private <> 0)) \
                 ORDER BY game_id DESC LIMIT $3",
            )
            .bind(player_id)
            .bind(game.name())
            .bind(HISTORY_POINTS)
            .bind(i64::from(own))
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(|row| {
                Ok(RatingPoint {
                    game_id: row.try_get("game_id")?,
                    at: row.try_get("at")?,
                    rating: row.try_get("rating")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
            history.reverse();
            let opponents: i64 = sqlx::query(&format!(
                "SELECT {} AS n FROM players p WHERE p.id = $2",
                opponents_sql(" AND og.game = $1")
            ))
            .bind(game.name())
            .bind(player_id)
            .fetch_one(&self.pool)
            .await?
            .try_get("n")?;
            stats.push(GameStats {
                game,
                opponents,
                listed: opponents >= listed_after,
                played: row.try_get("played")?,
                wins: row.try_get::<Option<i64>, _>("wins")?.unwrap_or(0),
                rating: rating.map(|skill| skill.view(game)),
                history,
                bots: self.bot_records(player_id, game).await?,
            });
        }
        Ok(stats)
    }

    /// A player's finished games of `game` against the hall's bots, per bot level, most
    /// played first. Only practice games have bots (P-PRACTICE); who sat comes from the result.
    async fn bot_records(
        &self,
        player_id: i64,
        game: GameKind,
    ) -> Result<Vec<BotRecord>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.result, gp.won FROM game_players gp JOIN games g ON g.id = gp.game_id \
             WHERE gp.player_id = $1 AND g.game = $2 AND gp.practice <> 0 AND g.result IS NOT NULL",
        )
        .bind(player_id)
        .bind(game.name())
        .fetch_all(&self.pool)
        .await?;
        let mut records: BTreeMap<String, BotRecord> = BTreeMap::new();
        for row in &rows {
            let text: String = row.try_get("result")?;
            let Ok(result) = serde_json::from_str::<GameResult>(&text) else {
                continue;
            };
            let won = row.try_get::<i64, _>("won")? != 0;
            let levels: BTreeSet<String> =
                seated(&result).into_iter().filter_map(|p| p.bot).collect();
            for level in levels {
                let record = records.entry(level.clone()).or_insert(BotRecord {
                    bot: level,
                    played: 0,
                    won: 0,
                });
                record.played += 1;
                record.won += i64::from(won);
            }
        }
        let mut records: Vec<BotRecord> = records.into_values().collect();
        records.sort_by(|a, b| b.played.cmp(&a.played).then_with(|| a.bot.cmp(&b.bot)));
        Ok(records)
    }
}

/// Who sat in a finished game, from its result.
fn seated(result: &GameResult) -> Vec<GamePlayer> {
    result
        .players
        .iter()
        .map(|line| {
            let bot = line.player_id.is_none().then(|| {
                line.name
                    .strip_prefix("bot:")
                    .unwrap_or(&line.name)
                    .to_owned()
            });
            GamePlayer {
                seat: line.seat,
                name: line.player_id.is_some().then(|| line.name.clone()),
                player_id: line.player_id,
                bot,
                bot_account: line.bot,
                guest: line.guest,
                rank: line.rank,
                delta: line.delta,
            }
        })
        .collect()
}
