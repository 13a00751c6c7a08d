//! Skill ratings per game (P-RATING), computed by the `skillratings` crate: Glicko-2 for Jungle
//! (two players, win / loss / draw) and Weng-Lin (the Bayesian rating behind OpenSkill) for
//! Aeroplane Chess, which rates any number of teams by their ranks — four players alone, or two
//! teams of two (F-TEAMS), ties included (F-D-RANK).

use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use skillratings::{MultiTeamOutcome, Outcomes};

use hangar_protocol::{GameKind, RatingView};

/// A Glicko-2 deviation above this marks a provisional rating: the threshold lichess uses
/// (a new player starts at 350 and falls below 110 after about a dozen games).
const GLICKO2_PROVISIONAL_DEVIATION: f64 = 110.0;

/// A Weng-Lin uncertainty above this marks a provisional rating: 60 % of the starting 25/3,
/// reached after about seven four-player games (twenty two-player ones).
const WENG_LIN_PROVISIONAL_UNCERTAINTY: f64 = 5.0;

/// The deviation of `game`'s ratings above which a rating is provisional (`Skill::provisional`).
pub fn provisional_deviation(game: GameKind) -> f64 {
    match game {
        GameKind::Jungle => GLICKO2_PROVISIONAL_DEVIATION,
        GameKind::Flight => WENG_LIN_PROVISIONAL_UNCERTAINTY,
    }
}

/// One player's rating in one game, as stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// The rating (Glicko-2 scale 1500 at the start; Weng-Lin μ, 25 at the start).
    pub rating: f64,
    /// How uncertain it is (Glicko-2 deviation, Weng-Lin σ).
    pub deviation: f64,
    /// Glicko-2 volatility; 0 for Weng-Lin, which has none.
    pub volatility: f64,
    /// Rated games played.
    pub games: i64,
}

impl Skill {
    /// The rating of a player who has not played a rated game of `game`.
    pub fn initial(game: GameKind) -> Skill {
        match game {
            GameKind::Jungle => {
                let start = Glicko2Rating::new();
                Skill {
                    rating: start.rating,
                    deviation: start.deviation,
                    volatility: start.volatility,
                    games: 0,
                }
            }
            GameKind::Flight => {
                let start = WengLinRating::new();
                Skill {
                    rating: start.rating,
                    deviation: start.uncertainty,
                    volatility: 0.0,
                    games: 0,
                }
            }
        }
    }

    /// Whether the rating rests on too few games to mean much yet.
    pub fn provisional(&self, game: GameKind) -> bool {
        self.deviation > provisional_deviation(game)
    }

    /// The wire view of this rating.
    pub fn view(&self, game: GameKind) -> RatingView {
        RatingView {
            rating: self.rating,
            deviation: self.deviation,
            games: self.games,
            provisional: self.provisional(game),
        }
    }

    fn glicko2(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn weng_lin(&self) -> WengLinRating {
        WengLinRating {
            rating: self.rating,
            uncertainty: self.deviation,
        }
    }

    fn after_glicko2(&self, new: Glicko2Rating) -> Skill {
        Skill {
            rating: new.rating,
            deviation: new.deviation,
            volatility: new.volatility,
            games: self.games + 1,
        }
    }

    fn after_weng_lin(&self, new: WengLinRating) -> Skill {
        Skill {
            rating: new.rating,
            deviation: new.uncertainty,
            volatility: 0.0,
            games: self.games + 1,
        }
    }
}

/// A rated player's place in a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The team (flight: seats 0 & 2 against 1 & 3 with F-TEAMS; otherwise one per seat).
    pub team: usize,
    /// The final rank, 1 best; equal ranks tie.
    pub rank: u32,
}

/// The new skills after one game, in the order of `skills` / `standings` (one per player).
pub fn rate(game: GameKind, skills: &[Skill], standings: &[Standing]) -> Vec<Skill> {
    assert_eq!(skills.len(), standings.len(), "one standing per player");
    match game {
        GameKind::Jungle => rate_jungle(skills, standings),
        GameKind::Flight => rate_flight(skills, standings),
    }
}

fn rate_jungle(skills: &[Skill], standings: &[Standing]) -> Vec<Skill> {
    let [a, b] = skills else {
        panic!("a jungle game rates two players");
    };
    let outcome = match standings[0].rank.cmp(&standings[1].rank) {
        std::cmp::Ordering::Less => Outcomes::WIN,
        std::cmp::Ordering::Greater => Outcomes::LOSS,
        std::cmp::Ordering::Equal => Outcomes::DRAW,
    };
    let (new_a, new_b) = glicko2(&a.glicko2(), &b.glicko2(), &outcome, &Glicko2Config::new());
    vec![a.after_glicko2(new_a), b.after_glicko2(new_b)]
}

fn rate_flight(skills: &[Skill], standings: &[Standing]) -> Vec<Skill> {
    // Teams in order of first appearance; a team's rank is its best member's (team mates share
    // a rank under F-D-RANK anyway).
    let mut teams: Vec<(usize, u32, Vec<usize>)> = Vec::new();
    for (player, standing) in standings.iter().enumerate() {
        match teams.iter_mut().find(|(team, ..)| *team == standing.team) {
            Some((_, rank, members)) => {
                *rank = (*rank).min(standing.rank);
                members.push(player);
            }
            None => teams.push((standing.team, standing.rank, vec![player])),
        }
    }
    let ratings: Vec<Vec<WengLinRating>> = teams
        .iter()
        .map(|(_, _, members)| members.iter().map(|&p| skills[p].weng_lin()).collect())
        .collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(&ratings)
        .map(|((_, rank, _), team)| (&team[..], MultiTeamOutcome::new(*rank as usize)))
        .collect();
    let rated = weng_lin_multi_team(&input, &WengLinConfig::new());
    let mut out = skills.to_vec();
    for ((_, _, members), new) in teams.iter().zip(rated) {
        for (&player, rating) in members.iter().zip(new) {
            out[player] = skills[player].after_weng_lin(rating);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solo(ranks: &[u32]) -> Vec<Standing> {
        ranks
            .iter()
            .enumerate()
            .map(|(team, &rank)| Standing { team, rank })
            .collect()
    }

    #[test]
    fn p_rating_jungle_winner_gains_what_the_loser_loses_from_equal_ratings() {
        let start = Skill::initial(GameKind::Jungle);
        let new = rate(GameKind::Jungle, &[start, start], &solo(&[2, 1]));
        assert!(new[1].rating > 1500.0 && new[0].rating < 1500.0);
        assert!((new[1].rating - 1500.0 - (1500.0 - new[0].rating)).abs() < 1e-9);
        assert_eq!((new[0].games, new[1].games), (1, 1));
        let drawn = rate(GameKind::Jungle, &[start, start], &solo(&[1, 1]));
        assert!((drawn[0].rating - 1500.0).abs() < 1e-9);
        assert!(
            drawn[0].deviation < start.deviation,
            "a draw is information too"
        );
    }

    #[test]
    fn p_rating_flight_orders_four_players_by_rank_and_teams_move_together() {
        let start = Skill::initial(GameKind::Flight);
        let new = rate(GameKind::Flight, &[start; 4], &solo(&[3, 1, 4, 2]));
        let order: Vec<usize> = {
            let mut seats: Vec<usize> = (0..4).collect();
            seats.sort_by(|&a, &b| new[b].rating.total_cmp(&new[a].rating));
            seats
        };
        assert_eq!(order, vec![1, 3, 0, 2]);
        let teams: Vec<Standing> = [(0, 1), (1, 2), (0, 1), (1, 2)]
            .iter()
            .map(|&(team, rank)| Standing { team, rank })
            .collect();
        let new = rate(GameKind::Flight, &[start; 4], &teams);
        assert_eq!(new[0], new[2]);
        assert_eq!(new[1], new[3]);
        assert!(new[0].rating > 25.0 && new[1].rating < 25.0);
    }

    #[test]
    fn p_rating_a_new_rating_is_provisional_until_enough_games() {
        for game in [GameKind::Jungle, GameKind::Flight] {
            let mut skills = [Skill::initial(game), Skill::initial(game)];
            assert!(skills[0].provisional(game));
            for i in 0..30 {
                let ranks = if i % 3 == 0 { [2, 1] } else { [1, 2] };
                let new = rate(game, &skills, &solo(&ranks));
                skills = [new[0], new[1]];
            }
            assert!(
                !skills[0].provisional(game),
                "{game:?} after 30 games: {:?}",
                skills[0]
            );
        }
    }
}
