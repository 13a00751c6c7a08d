//! The bots the hall and the simulator can pick, as values and as spec strings
//! (`random`, `greedy`, `ab`, `ab:depth=6`, `ab:ms=200`, `ab:nodes=50000`, `ab:level=hard`),
//! and the levels the hall offers a seat ([`JungleLevel`]).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use hangar_dice::Dice;
use hangar_jungle::{Game, Move};

use crate::jungle::search::{Limits, Searcher};

/// The jungle bot levels the hall offers a seat (P-SEATS), under their wire names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JungleLevel {
    /// A uniformly random allowed move (`random`).
    Random,
    /// Instant: wins at once when it can, else captures, else a random move (`greedy`).
    Greedy,
    /// A 2-ply search that plays a random move one time in four (`easy`). Auto-play plays it.
    Easy,
    /// 200 ms per move, the default searcher (`normal`).
    Normal,
    /// One second per move (`hard`).
    Hard,
    /// The protocol's name for the default searcher (`alphabeta`): plays as [`Normal`].
    ///
    /// [`Normal`]: JungleLevel::Normal
    AlphaBeta,
}

impl JungleLevel {
    /// Every level under its own wire name, in the order the hall lists them.
    pub const ALL: [JungleLevel; 6] = [
        JungleLevel::Random,
        JungleLevel::Greedy,
        JungleLevel::Easy,
        JungleLevel::Normal,
        JungleLevel::Hard,
        JungleLevel::AlphaBeta,
    ];

    /// The level auto-play (P-AUTOPLAY) plays for a person.
    pub const AUTOPLAY: JungleLevel = JungleLevel::Easy;

    /// The level's wire name (also what `ab:level=` takes for a searcher).
    pub const fn name(self) -> &'static str {
        match self {
            JungleLevel::Random => "random",
            JungleLevel::Greedy => "greedy",
            JungleLevel::Easy => "easy",
            JungleLevel::Normal => "normal",
            JungleLevel::Hard => "hard",
            JungleLevel::AlphaBeta => "alphabeta",
        }
    }

    /// The search settings of a searching level; `None` for `random` and `greedy`.
    pub fn config(self) -> Option<SearchConfig> {
        let time = |ms| Limits {
            time: Some(Duration::from_millis(ms)),
            ..Limits::default()
        };
        match self {
            JungleLevel::Random | JungleLevel::Greedy => None,
            JungleLevel::Easy => Some(SearchConfig {
                limits: Limits {
                    depth: Some(2),
                    ..Limits::default()
                },
                random_percent: 25,
            }),
            JungleLevel::Normal | JungleLevel::AlphaBeta => Some(SearchConfig {
                limits: time(200),
                random_percent: 0,
            }),
            JungleLevel::Hard => Some(SearchConfig {
                limits: time(1000),
                random_percent: 0,
            }),
        }
    }

    /// Whether the level searches (up to a second a move), so a server runs it off its async
    /// threads.
    pub fn is_slow(self) -> bool {
        self.config().is_some()
    }
}

impl fmt::Display for JungleLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for JungleLevel {
    type Err = BotSpecError;

    /// A wire name, in any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        JungleLevel::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| BotSpecError::UnknownLevel(s.to_owned()))
    }
}

/// How an alpha-beta bot plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// When to stop searching.
    pub limits: Limits,
    /// Chance in percent of playing a uniformly random move instead (weaker levels).
    pub random_percent: u32,
}

impl Default for SearchConfig {
    fn default() -> Self {
        JungleLevel::Normal
            .config()
            .expect("the normal level searches")
    }
}

/// A Jungle bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JungleBot {
    /// Plays a uniformly random allowed move.
    Random,
    /// Wins at once when it can, else captures, else a random move ([`super::greedy`]).
    Greedy,
    /// Searches with alpha-beta.
    AlphaBeta(SearchConfig),
}

impl JungleBot {
    /// The default searcher (`ab`, the normal level: 200 ms per move).
    pub fn default_bot() -> JungleBot {
        JungleBot::level(JungleLevel::Normal)
    }

    /// The bot of a hall level.
    pub fn level(level: JungleLevel) -> JungleBot {
        match level {
            JungleLevel::Random => JungleBot::Random,
            JungleLevel::Greedy => JungleBot::Greedy,
            _ => JungleBot::AlphaBeta(level.config().unwrap_or_default()),
        }
    }
}

/// Why a bot spec was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotSpecError {
    /// Neither `random` nor `ab…`.
    #[error(
        "unknown jungle bot {0:?} (known: random, ab, ab:depth=N, ab:ms=N, ab:nodes=N, ab:level=easy|normal|hard)"
    )]
    UnknownBot(String),
    /// Not a hall level.
    #[error(
        "unknown jungle bot level {0:?} (known: random, greedy, easy, normal, hard, alphabeta)"
    )]
    UnknownLevel(String),
    /// A parameter is malformed.
    #[error(
        "bad bot parameter {0:?}: expected depth=N, ms=N, nodes=N, random=PERCENT or level=easy|normal|hard"
    )]
    BadParameter(String),
}

impl FromStr for JungleBot {
    type Err = BotSpecError;

    /// A level name ([`JungleLevel`]), or `ab` followed by `:key=value` parameters (several
    /// separated by `:`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        // A level name (`random`, `greedy`, `easy`, `normal`, `hard`, `alphabeta`) is the
        // bot the hall seats under that name: the level enum owns the names.
        if let Ok(level) = s.parse::<JungleLevel>() {
            return Ok(JungleBot::level(level));
        }
        let mut parts = s.split(':');
        if parts.next() != Some("ab") {
            return Err(BotSpecError::UnknownBot(s.to_owned()));
        }
        let mut config = SearchConfig::default();
        let mut explicit = Limits::default();
        for param in parts {
            let bad = || BotSpecError::BadParameter(param.to_owned());
            let (key, value) = param.split_once('=').ok_or_else(bad)?;
            let number = || value.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(bad);
            match key {
                "depth" => {
                    explicit.depth = Some(u32::try_from(number()?).map_err(|_| bad())?.min(100))
                }
                "ms" => explicit.time = Some(Duration::from_millis(number()?)),
                "nodes" => explicit.nodes = Some(number()?),
                "random" => {
                    config.random_percent = value
                        .parse::<u32>()
                        .ok()
                        .filter(|&p| p <= 100)
                        .ok_or_else(bad)?;
                }
                "level" => {
                    config = JungleLevel::ALL
                        .into_iter()
                        .find(|l| l.name() == value)
                        .and_then(JungleLevel::config)
                        .ok_or_else(bad)?;
                }
                _ => return Err(bad()),
            }
        }
        if explicit != Limits::default() {
            config.limits = explicit;
        }
        Ok(JungleBot::AlphaBeta(config))
    }
}

impl fmt::Display for JungleBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JungleBot::Random => f.write_str("random"),
            JungleBot::Greedy => f.write_str("greedy"),
            JungleBot::AlphaBeta(config) => {
                f.write_str("ab")?;
                let Limits { depth, time, nodes } = config.limits;
                if let Some(d) = depth {
                    write!(f, ":depth={d}")?;
                }
                if let Some(t) = time {
                    write!(f, ":ms={}", t.as_millis())?;
                }
                if let Some(n) = nodes {
                    write!(f, ":nodes={n}")?;
                }
                if config.random_percent > 0 {
                    write!(f, ":random={}", config.random_percent)?;
                }
                Ok(())
            }
        }
    }
}

/// A bot with its memory (transposition table) for a whole game: what the simulator and the
/// hall keep per seat.
pub struct JunglePlayer {
    bot: JungleBot,
    searcher: Option<Searcher>,
}

impl JunglePlayer {
    /// A player for `bot`.
    pub fn new(bot: JungleBot) -> JunglePlayer {
        let searcher = match bot {
            JungleBot::Random | JungleBot::Greedy => None,
            JungleBot::AlphaBeta(_) => Some(Searcher::default()),
        };
        JunglePlayer { bot, searcher }
    }

    /// The bot this player runs.
    pub fn bot(&self) -> JungleBot {
        self.bot
    }

    /// Forgets the previous game.
    pub fn new_game(&mut self) {
        if let Some(searcher) = &mut self.searcher {
            searcher.new_game();
        }
    }

    /// The move to play in `game`, never one refused by J-REPEAT; `None` if the game is over
    /// or there is no allowed move. Randomness comes only from `dice`.
    pub fn choose(&mut self, game: &Game, dice: &mut Dice) -> Option<Move> {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let random = |dice: &mut Dice| moves[dice.roll_below(moves.len() as u32) as usize];
        match (self.bot, &mut self.searcher) {
            (JungleBot::AlphaBeta(config), Some(searcher)) => {
                if config.random_percent > 0 && dice.roll_below(100) < config.random_percent {
                    return Some(random(dice));
                }
                searcher.search(game, config.limits).map(|r| r.best)
            }
            (JungleBot::Greedy, _) => super::greedy::choose(game, dice),
            _ => Some(random(dice)),
        }
    }
}

/// The simple entry point: the move `bot` plays in `game` (a fresh player each call, so no
/// memory between moves; keep a [`JunglePlayer`] for a whole game instead).
pub fn choose_move(game: &Game, bot: &JungleBot, dice: &mut Dice) -> Option<Move> {
    JunglePlayer::new(*bot).choose(game, dice)
}
