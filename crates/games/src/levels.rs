//! The hall's bot levels ([`BotLevel`], the protocol's vocabulary) as the bots of
//! `hangar-bots`: which level seats which bot, the levels the hall picks itself (quick match,
//! auto-play), and the check of a level a host or a challenger names.

use hangar_bots::flight::FlightLevel;
use hangar_bots::jungle::JungleLevel;
use hangar_protocol::{BotLevel, ErrorCode, GameKind, ProtoError, UnknownBotLevel};

/// The flight bot of a level; `None` for a level flight does not have.
pub const fn flight_level(level: BotLevel) -> Option<FlightLevel> {
    match level {
        BotLevel::Random => Some(FlightLevel::Random),
        BotLevel::Heuristic => Some(FlightLevel::Heuristic),
        BotLevel::Hard => Some(FlightLevel::Hard),
        BotLevel::Greedy | BotLevel::Easy | BotLevel::Normal | BotLevel::AlphaBeta => None,
    }
}

/// The jungle bot of a level; `None` for a level jungle does not have.
pub const fn jungle_level(level: BotLevel) -> Option<JungleLevel> {
    match level {
        BotLevel::Random => Some(JungleLevel::Random),
        BotLevel::Greedy => Some(JungleLevel::Greedy),
        BotLevel::Easy => Some(JungleLevel::Easy),
        BotLevel::Normal => Some(JungleLevel::Normal),
        BotLevel::Hard => Some(JungleLevel::Hard),
        BotLevel::AlphaBeta => Some(JungleLevel::AlphaBeta),
        BotLevel::Heuristic => None,
    }
}

/// The hall's name of a flight bot level.
pub const fn of_flight(level: FlightLevel) -> BotLevel {
    match level {
        FlightLevel::Random => BotLevel::Random,
        FlightLevel::Heuristic => BotLevel::Heuristic,
        FlightLevel::Hard => BotLevel::Hard,
    }
}

/// The hall's name of a jungle bot level.
pub const fn of_jungle(level: JungleLevel) -> BotLevel {
    match level {
        JungleLevel::Random => BotLevel::Random,
        JungleLevel::Greedy => BotLevel::Greedy,
        JungleLevel::Easy => BotLevel::Easy,
        JungleLevel::Normal => BotLevel::Normal,
        JungleLevel::Hard => BotLevel::Hard,
        JungleLevel::AlphaBeta => BotLevel::AlphaBeta,
    }
}

/// The bots of middle strength that fill a quick match nobody else joined (P-QUICK).
pub const fn quick_bot_level(game: GameKind) -> BotLevel {
    match game {
        GameKind::Flight => of_flight(FlightLevel::Heuristic),
        GameKind::Jungle => of_jungle(JungleLevel::Normal),
    }
}

/// The level auto-play (P-AUTOPLAY) plays for a person.
pub const fn autoplay_level(game: GameKind) -> BotLevel {
    match game {
        GameKind::Flight => of_flight(FlightLevel::AUTOPLAY),
        GameKind::Jungle => of_jungle(JungleLevel::AUTOPLAY),
    }
}

/// A level a host (`add_bot`) or a challenger (a challenge's seats) named for a seat of
/// `game`: the level, or `invalid` naming the game's levels (P-SEATS).
pub fn check_bot_level(
    game: GameKind,
    named: &Result<BotLevel, UnknownBotLevel>,
) -> Result<BotLevel, ProtoError> {
    match named {
        Ok(level) if level.is_for(game) => Ok(*level),
        _ => {
            let name = match named {
                Ok(level) => level.name(),
                Err(unknown) => unknown.name(),
            };
            let levels: Vec<&str> = BotLevel::for_game(game).iter().map(|l| l.name()).collect();
            Err(ProtoError::new(
                ErrorCode::Invalid,
                format!("bot level {name:?}: one of {}", levels.join(", ")),
            ))
        }
    }
}

/// The level of a bot seat as a stored room names it: a name that is no level of `game`
/// (no build of the hall wrote one) plays as auto-play does, as the hall always played it.
pub fn stored_bot_level(game: GameKind, name: &str) -> BotLevel {
    name.parse::<BotLevel>()
        .ok()
        .filter(|level| level.is_for(game))
        .unwrap_or(autoplay_level(game))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_games_levels_are_exactly_its_bots_levels_in_their_order() {
        let flight: Vec<BotLevel> = FlightLevel::ALL.into_iter().map(of_flight).collect();
        assert_eq!(BotLevel::for_game(GameKind::Flight), flight);
        let jungle: Vec<BotLevel> = JungleLevel::ALL.into_iter().map(of_jungle).collect();
        assert_eq!(BotLevel::for_game(GameKind::Jungle), jungle);
        for level in FlightLevel::ALL {
            assert_eq!(of_flight(level).name(), level.name());
            assert_eq!(flight_level(of_flight(level)), Some(level));
        }
        for level in JungleLevel::ALL {
            assert_eq!(of_jungle(level).name(), level.name());
            assert_eq!(jungle_level(of_jungle(level)), Some(level));
        }
        // A level of no game's bots is no game's level.
        for level in BotLevel::ALL {
            assert_eq!(
                flight_level(level).is_some(),
                level.is_for(GameKind::Flight)
            );
            assert_eq!(
                jungle_level(level).is_some(),
                level.is_for(GameKind::Jungle)
            );
        }
    }

    #[test]
    fn the_hall_picks_levels_of_the_game() {
        for game in [GameKind::Flight, GameKind::Jungle] {
            assert!(quick_bot_level(game).is_for(game));
            assert!(autoplay_level(game).is_for(game));
        }
        assert_eq!(quick_bot_level(GameKind::Flight), BotLevel::Heuristic);
        assert_eq!(quick_bot_level(GameKind::Jungle), BotLevel::Normal);
    }

    #[test]
    fn a_level_of_the_other_game_or_of_none_is_refused_with_the_games_levels() {
        let heuristic = check_bot_level(GameKind::Jungle, &Ok(BotLevel::Heuristic))
            .expect_err("flight's level");
        assert_eq!(heuristic.code, ErrorCode::Invalid);
        assert_eq!(
            heuristic.message,
            "bot level \"heuristic\": one of random, greedy, easy, normal, hard, alphabeta"
        );
        let unknown = "genius".parse::<BotLevel>();
        let genius = check_bot_level(GameKind::Flight, &unknown).expect_err("no level");
        assert_eq!(genius.code, ErrorCode::Invalid);
        assert_eq!(
            genius.message,
            "bot level \"genius\": one of random, heuristic, hard"
        );
        assert_eq!(
            check_bot_level(GameKind::Jungle, &Ok(BotLevel::Easy)),
            Ok(BotLevel::Easy)
        );
    }

    #[test]
    fn a_stored_name_of_no_level_plays_as_auto_play() {
        assert_eq!(stored_bot_level(GameKind::Flight, "hard"), BotLevel::Hard);
        assert_eq!(
            stored_bot_level(GameKind::Flight, "greedy"),
            autoplay_level(GameKind::Flight)
        );
        assert_eq!(
            stored_bot_level(GameKind::Jungle, "genius"),
            autoplay_level(GameKind::Jungle)
        );
    }
}
