//! What the hall tells about players: leaderboards per game (P-RATING), a player's own
//! finished games (P-RECORD) and any player's profile (P-PROFILE).

use super::{Conn, internal, invalid};
use hangar_games::rating::Skill;
use hangar_protocol::{
    Ack, BoardOrder, ErrorCode, GameKind, MyGames, OnlinePlayer, Outcome, PlayersOnline, Profile,
    ProtoError,
};

/// Entries of a leaderboard page and games of a list, when the command names no number.
const DEFAULT_PAGE: i64 = 20;
/// At most this many entries or games in one answer.
const MAX_PAGE: i64 = 100;
/// Players listed by `players_online` when the command names no number.
const ONLINE_PAGE: usize = 50;
/// Recent games shown on a profile.
const PROFILE_GAMES: i64 = 20;

impl Conn {
    /// The rooms quick match tries, in order (P-QUICK): the fullest first, and among rooms
    /// equally full the one whose players' mean rating of the game is closest to this
    /// player's (a player without a rating counts at the starting one). Should the ratings
    /// not be readable, the fullest-first order stands.
    pub(super) async fn quick_order(&self, game: GameKind, player: i64) -> Vec<String> {
        let mut candidates = self.hall.quick_candidates(game);
        let mut ids: Vec<i64> = candidates.iter().flat_map(|c| c.players.clone()).collect();
        // Never seated with someone either of the two blocked (P-CHALLENGE). Should the
        // blocks not be readable, no room with others is tried: a new room is opened.
        match self.hall.store.blocked_either_way(player, &ids).await {
            Ok(blocked) if blocked.is_empty() => {}
            Ok(blocked) => candidates.retain(|c| !c.players.iter().any(|p| blocked.contains(p))),
            Err(e) => {
                tracing::warn!(error = %e, "quick match without the blocks: a room of its own");
                candidates.retain(|c| c.players.is_empty());
            }
        }
        ids.push(player);
        let ratings = match self.hall.store.ratings_of(game, &ids).await {
            Ok(ratings) => ratings,
            Err(e) => {
                tracing::warn!(error = %e, "quick match without ratings");
                return candidates.into_iter().map(|c| c.code).collect();
            }
        };
        let start = Skill::initial(game).rating;
        let rating = |id: &i64| ratings.get(id).copied().unwrap_or(start);
        let mine = rating(&player);
        let distance = |players: &[i64]| {
            if players.is_empty() {
                return 0.0;
            }
            let mean = players.iter().map(rating).sum::<f64>() / players.len() as f64;
            (mean - mine).abs()
        };
        // Stable: rooms equally full and equally close keep the hall's order (by code).
        candidates.sort_by(|a, b| {
            b.taken
                .cmp(&a.taken)
                .then_with(|| distance(&a.players).total_cmp(&distance(&b.players)))
        });
        candidates.into_iter().map(|c| c.code).collect()
    }

    /// `players_online`: the registered players connected to this node, by name, the asker
    /// left out — whom the page offers to challenge (P-CHALLENGE).
    pub(super) async fn players_online(&self, limit: Option<usize>) -> Outcome {
        let me = self.require_player()?.id;
        let ids: Vec<i64> = self
            .hall
            .sessions
            .players()
            .into_iter()
            .filter(|&id| id != me)
            .collect();
        let accounts = self.hall.store.accounts_of(&ids).await.map_err(internal)?;
        let total_online = accounts.len();
        let online = accounts
            .iter()
            .take(limit.unwrap_or(ONLINE_PAGE).clamp(1, MAX_PAGE as usize))
            .map(|p| OnlinePlayer {
                player: p.view(),
                seated: !self.hall.seated_rooms(p.id).is_empty(),
            })
            .collect();
        Ok(Ack::PlayersOnline(PlayersOnline {
            online,
            total_online,
        }))
    }

    /// `leaderboard`: a page of the board of one game (by score or rating) or of both games.
    pub(super) async fn leaderboard(
        &self,
        game: Option<GameKind>,
        by: BoardOrder,
        bots: bool,
        offset: Option<i64>,
        limit: Option<i64>,
    ) -> Outcome {
        if by == BoardOrder::Rating && game.is_none() {
            return Err(invalid("a board by rating names its game".to_owned()));
        }
        let offset = offset.unwrap_or(0);
        if offset < 0 {
            return Err(invalid(format!("offset {offset}: 0 or more")));
        }
        let limit = limit.unwrap_or(DEFAULT_PAGE).clamp(1, MAX_PAGE);
        let lines = self
            .hall
            .store
            .leaderboard(game, by, bots, offset, limit, self.hall.listed_after())
            .await
            .map_err(internal)?;
        Ok(Ack::Leaderboard(crate::accounts::leaderboard_page(
            lines, game, offset,
        )))
    }

    /// `my_games`: the signed-in player's finished games (P-RECORD), private rooms included.
    pub(super) async fn my_games(&self, limit: Option<i64>) -> Outcome {
        let player = self.require_player()?;
        let games = self
            .hall
            .store
            .player_games(
                player.id,
                limit.unwrap_or(DEFAULT_PAGE).clamp(1, MAX_PAGE),
                true,
            )
            .await
            .map_err(internal)?;
        Ok(Ack::MyGames(MyGames { games }))
    }

    /// `profile`: any player's figures per game and recent games (P-PROFILE). Private rooms'
    /// codes show only on the player's own profile.
    pub(super) async fn profile(&self, player_id: i64) -> Outcome {
        let store = &self.hall.store;
        let Some(player) = store.player(player_id).await.map_err(internal)? else {
            return Err(ProtoError::new(
                ErrorCode::NoPlayer,
                format!("no player {player_id}"),
            ));
        };
        let own = self.player.as_ref().is_some_and(|p| p.id == player_id);
        let stats = store
            .game_stats(player_id, own, self.hall.listed_after())
            .await
            .map_err(internal)?;
        let recent = store
            .player_games(player_id, PROFILE_GAMES, own)
            .await
            .map_err(internal)?;
        Ok(Ack::Profile(Profile {
            player: player.view(),
            stats,
            recent,
        }))
    }
}
