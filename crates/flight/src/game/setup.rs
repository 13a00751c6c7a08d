//! Unchecked positions ([`Setup`]) and the checked constructors of [`Game`].

use serde::{Deserialize, Serialize};

use crate::board::{Progress, TRACK_SQUARES, square};
use crate::colour::Colour;
use crate::game::chance::Draw;
use crate::game::walk::Occupancy;
use crate::game::{Extras, Game, Phase};
use crate::items::{Item, ItemBar, ItemEffect, ItemOnBoard, MAX_ITEMS_ON_BOARD};
use crate::options::{Finish, Options, Stacks, ThreeSixes};
use crate::weather::{WEATHER_ROUNDS, WeatherCell};

/// One seated player in a [`Setup`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSetup {
    /// The player's colour (seat).
    pub colour: Colour,
    /// Progress of each plane; exactly `options.planes` of them.
    pub planes: Vec<Progress>,
    /// Enemy planes sent back so far (F-CAPTURE-BONUS).
    #[serde(default)]
    pub captures: u16,
    /// Whether the player resigned (its planes are off the board).
    #[serde(default)]
    pub resigned: bool,
    /// Rank taken on finishing under play-on.
    #[serde(default)]
    pub rank: Option<u8>,
    /// The item bar, oldest first (at most 3; option `items`, F-ITEM-PICK).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<Item>,
}

/// A position as plain data, not yet checked: what JSON and other outside sources give.
/// [`Game::from_setup`] checks it. This is also the serialised form of a [`Game`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Rule options.
    #[serde(default)]
    pub options: Options,
    /// The seated players, any order.
    pub players: Vec<PlayerSetup>,
    /// Whose turn it is.
    pub turn: Colour,
    /// The pending roll when a choice of plane is awaited; `None` when a roll is awaited.
    #[serde(default)]
    pub roll: Option<u8>,
    /// Sixes rolled in a row this turn (counted only under a three-sixes rule).
    #[serde(default)]
    pub sixes: u8,
    /// The plane sitting on an enemy stack that must move on the next roll (F-D-SIT).
    #[serde(default)]
    pub forced: Option<u8>,
    /// Planes moved by this turn's sixes (only under `moved-to-hangar`).
    #[serde(default)]
    pub six_moved: Vec<u8>,
    /// Items lying on the board (at most 2; option `items`, F-ITEM-SPAWN).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<ItemOnBoard>,
    /// The weather cell, if one is up (option `weather`, F-WEATHER).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weather: Option<WeatherCell>,
    /// The round within the weather cycle: 0–2 a cell is up (at 0 it may still be drawn),
    /// 3–5 the board is clear.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub weather_round: u8,
    /// The colour that rolled first: rounds start when the turn reaches or passes its seat
    /// (items and weather only; default: the colour on turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<Colour>,
    /// The item in use for the awaited or pending roll (a booster).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_in_use: Option<Item>,
    /// The awaited chance draw, if any (items and weather only); `roll` is then `null`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<Draw>,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// Why a [`Setup`] (or a new game's arguments) is not a possible position.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
pub enum SetupError {
    /// Items, an item bar or an item in use without the `items` option; more than two items
    /// on the board, two on one square or off the track; a bar of more than three.
    #[error("impossible items: {0}")]
    BadItems(&'static str),
    /// A weather cell or cycle that the `weather` option and the round do not allow.
    #[error("impossible weather: {0}")]
    BadWeather(&'static str),
    /// A chance draw that cannot be awaited here.
    #[error("impossible awaited draw: {0}")]
    BadDraw(&'static str),
    /// 2 to 4 planes per player (F-PLANES).
    #[error("{0} planes per player: 2 to 4 allowed")]
    PlaneCount(u8),
    /// 2 to 4 players (F-PLAYERS).
    #[error("{0} players: 2 to 4 allowed")]
    PlayerCount(usize),
    /// A colour appears twice.
    #[error("{0} is seated twice")]
    DuplicateColour(Colour),
    /// Two players sit opposite (F-PLAYERS).
    #[error("two players must take opposite colours")]
    NotOpposite,
    /// A team game has four players (F-TEAM).
    #[error("a team game needs four players")]
    TeamsNeedFour,
    /// A player has the wrong number of planes.
    #[error("{colour} has {found} planes, the options say {expected}")]
    WrongPlaneCount {
        /// Whose.
        colour: Colour,
        /// How many were given.
        found: usize,
        /// `options.planes`.
        expected: u8,
    },
    /// Loop positions exist only with `finish = circle`.
    #[error("{colour} plane {plane} is on the centre loop, which needs finish = circle")]
    LoopWithoutCircle {
        /// Whose.
        colour: Colour,
        /// Which.
        plane: u8,
    },
    /// Two sides share a square at rest (F-STACK), other than a plane sitting on a stack.
    #[error("planes of different sides share track square {square} at rest")]
    SidesShareSquare {
        /// The shared square.
        square: u8,
    },
    /// The turn belongs to a colour that does not play (empty seat, resigned, done).
    #[error("it cannot be {0}'s turn: that colour is not playing")]
    TurnNotPlaying(Colour),
    /// A pending roll must be 1 to 6, have a legal move, and the game must not be over.
    #[error("impossible pending roll {0}")]
    BadRoll(u8),
    /// The count of sixes does not fit the rules and the pending roll.
    #[error("impossible count of sixes {0}")]
    BadSixes(u8),
    /// The forced plane must exist and sit on an enemy stack under `stacks = block`.
    #[error("plane {0} cannot be forced: it does not sit on an enemy stack")]
    BadForced(u8),
    /// `six_moved` lists planes that do not exist or is given without its rule.
    #[error("impossible list of planes moved by sixes")]
    BadSixMoved,
    /// Ranks are taken only under play-on, by players whose planes have all finished, 1, 2, …
    #[error("impossible ranks")]
    BadRanks,
    /// A player resigned in a way no game reaches.
    #[error("impossible resignation")]
    BadResignation,
}

impl Game {
    /// A new game at the start: every plane in the hangar, `first` to roll (F-ORDER).
    /// `players` are the seated colours (see [`crate::Seating`] to draw them, F-D-SEATS).
    pub fn new(options: Options, players: &[Colour], first: Colour) -> Result<Game, SetupError> {
        let setup = Setup {
            options,
            players: players
                .iter()
                .map(|&colour| PlayerSetup {
                    colour,
                    planes: vec![Progress::HANGAR; options.planes as usize],
                    captures: 0,
                    resigned: false,
                    rank: None,
                    items: Vec::new(),
                })
                .collect(),
            turn: first,
            roll: None,
            sixes: 0,
            forced: None,
            six_moved: Vec::new(),
            items: Vec::new(),
            weather: None,
            weather_round: 0,
            first: Some(first),
            item_in_use: None,
            // Round 1 starts with the game: its draws are awaited at once.
            draw: if options.weather {
                Some(Draw::Weather)
            } else if options.items {
                Some(Draw::Item)
            } else {
                None
            },
        };
        Game::from_setup(setup)
    }

    /// Checks a setup and builds the game, refusing impossible positions with the reason.
    pub fn from_setup(setup: Setup) -> Result<Game, SetupError> {
        let o = setup.options;
        if !(2..=4).contains(&o.planes) {
            return Err(SetupError::PlaneCount(o.planes));
        }
        let n = setup.players.len();
        if !(2..=4).contains(&n) {
            return Err(SetupError::PlayerCount(n));
        }
        let mut game = Game {
            options: o,
            seated: 0,
            resigned: 0,
            planes: [[Progress::HANGAR; 4]; 4],
            turn: setup.turn,
            phase: Phase::Roll,
            sixes: setup.sixes,
            forced: setup.forced,
            six_moved: 0,
            ranks: [0; 4],
            captures: [0; 4],
            // Rounds matter only with items or weather; without them one fixed value keeps
            // one form per position.
            extras: Extras::new(if o.items || o.weather {
                setup.first.unwrap_or(setup.turn)
            } else {
                Colour::Red
            }),
        };
        for p in &setup.players {
            let bit = 1 << p.colour as u8;
            if game.seated & bit != 0 {
                return Err(SetupError::DuplicateColour(p.colour));
            }
            game.seated |= bit;
            if p.planes.len() != o.planes as usize {
                return Err(SetupError::WrongPlaneCount {
                    colour: p.colour,
                    found: p.planes.len(),
                    expected: o.planes,
                });
            }
            let mut row = [Progress::FINISHED; 4];
            for (i, &q) in p.planes.iter().enumerate() {
                if q.is_loop() && o.finish != Finish::Circle {
                    return Err(SetupError::LoopWithoutCircle {
                        colour: p.colour,
                        plane: i as u8,
                    });
                }
                row[i] = q;
            }
            game.planes[p.colour.index()] = row;
            game.captures[p.colour.index()] = p.captures;
            if p.resigned {
                game.resigned |= bit;
            }
            game.ranks[p.colour.index()] = p.rank.unwrap_or(0);
            if !p.items.is_empty() && !o.items {
                return Err(SetupError::BadItems("an item bar without the items option"));
            }
            game.extras.bars[p.colour.index()] = ItemBar::from_items(&p.items)
                .ok_or(SetupError::BadItems("an item bar holds at most three"))?;
        }
        if n == 2 && game.seated != 0b0101 && game.seated != 0b1010 {
            return Err(SetupError::NotOpposite);
        }
        if o.teams && n != 4 {
            return Err(SetupError::TeamsNeedFour);
        }
        game.check_resignations()?;
        game.check_ranks()?;
        let over = game.derive_over();
        game.check_squares()?;
        game.check_extras(&setup, over)?;
        game.check_turn(&setup, over)?;
        Ok(game)
    }

    /// The game as plain data.
    pub fn to_setup(&self) -> Setup {
        Setup {
            options: self.options,
            players: self
                .players()
                .map(|colour| PlayerSetup {
                    colour,
                    planes: self.planes(colour).to_vec(),
                    captures: self.captures(colour),
                    resigned: self.has_resigned(colour),
                    rank: Some(self.ranks[colour.index()]).filter(|&r| r != 0),
                    items: self.item_bar(colour).items().collect(),
                })
                .collect(),
            turn: self.turn,
            roll: match self.phase {
                Phase::Move { roll } => Some(roll),
                _ => None,
            },
            sixes: self.sixes,
            forced: self.forced,
            six_moved: (0..4).filter(|i| self.six_moved & (1 << i) != 0).collect(),
            items: self.board_items().collect(),
            weather: self.extras.weather,
            weather_round: self.extras.weather_round,
            first: self.has_extras().then_some(self.extras.first),
            item_in_use: self.extras.in_use,
            draw: match self.phase {
                Phase::Draw { what } => Some(what),
                _ => None,
            },
        }
    }

    /// Items, weather and the awaited draw (§7–8) fit the options, the round and the phase;
    /// sets them in the game.
    fn check_extras(&mut self, setup: &Setup, over: bool) -> Result<(), SetupError> {
        let o = self.options;
        if !o.items {
            if !setup.items.is_empty() || setup.item_in_use.is_some() {
                return Err(SetupError::BadItems("items without the items option"));
            }
            if setup.draw == Some(Draw::Item) {
                return Err(SetupError::BadDraw("an item draw without the items option"));
            }
        }
        if setup.items.len() > MAX_ITEMS_ON_BOARD {
            return Err(SetupError::BadItems("at most two items lie on the board"));
        }
        for (i, item) in setup.items.iter().enumerate() {
            if item.square.0 >= TRACK_SQUARES {
                return Err(SetupError::BadItems("items lie on track squares 0..=51"));
            }
            if setup.items[..i].iter().any(|o| o.square == item.square) {
                return Err(SetupError::BadItems("two items on one square"));
            }
            self.extras.board_items[i] = Some(*item);
        }
        if let Some(item) = setup.item_in_use {
            if !matches!(item.effect(), ItemEffect::MultiplyPips { .. }) {
                return Err(SetupError::BadItems(
                    "only a booster stays in use for a roll",
                ));
            }
            if over || setup.draw.is_some() {
                return Err(SetupError::BadItems(
                    "an item in use needs a roll of its own",
                ));
            }
            self.extras.in_use = Some(item);
        }
        if !o.weather
            && (setup.weather.is_some()
                || setup.weather_round != 0
                || setup.draw == Some(Draw::Weather))
        {
            return Err(SetupError::BadWeather("weather without the weather option"));
        }
        let round = setup.weather_round;
        if round >= 2 * WEATHER_ROUNDS {
            return Err(SetupError::BadWeather("the weather round is 0 to 5"));
        }
        let drawing_weather = setup.draw == Some(Draw::Weather);
        if let Some(cell) = setup.weather
            && cell.square.0 >= TRACK_SQUARES
        {
            return Err(SetupError::BadWeather(
                "the cell lies on track squares 0..=51",
            ));
        }
        // A cell is up in rounds 0–2 of the cycle, once drawn; a finished game keeps it.
        let cell_allowed = round < WEATHER_ROUNDS;
        let cell_required = cell_allowed && o.weather && !over && !drawing_weather;
        if setup.weather.is_some() && !cell_allowed || setup.weather.is_none() && cell_required {
            return Err(SetupError::BadWeather(
                "a cell is up in rounds 0–2 of the cycle (once drawn) and not in rounds 3–5",
            ));
        }
        self.extras.weather = setup.weather;
        self.extras.weather_round = round;
        if let Some(what) = setup.draw {
            if over || setup.roll.is_some() || self.sixes != 0 || self.forced.is_some() {
                return Err(SetupError::BadDraw(
                    "draws are awaited only at a round's start",
                ));
            }
            match what {
                Draw::Weather if round != 0 || setup.weather.is_some() => {
                    return Err(SetupError::BadDraw(
                        "a weather draw is awaited only at round 0 of the cycle, without a cell",
                    ));
                }
                Draw::Item if setup.items.len() >= MAX_ITEMS_ON_BOARD => {
                    return Err(SetupError::BadDraw("no item is drawn while two lie"));
                }
                _ => {}
            }
            self.phase = Phase::Draw { what };
        }
        Ok(())
    }

    /// Whether `plane` of `colour` stands on a square with two or more enemy planes.
    pub(crate) fn sits_on_stack(&self, colour: Colour, plane: u8) -> bool {
        let Some(s) = square(colour, self.plane(colour, plane)) else {
            return false;
        };
        let board = Occupancy::new(self, colour);
        board.enemy_count_at(s) >= 2
    }

    fn check_resignations(&self) -> Result<(), SetupError> {
        let count = self.resigned.count_ones();
        // A resignation ends a team game, and a game stops when one player is left.
        let too_many = if self.options.teams {
            count > 1
        } else {
            count as usize + 1 > self.player_count()
        };
        if too_many {
            return Err(SetupError::BadResignation);
        }
        Ok(())
    }

    fn check_ranks(&self) -> Result<(), SetupError> {
        let mut ranked: Vec<u8> = Vec::new();
        for c in self.players() {
            let r = self.ranks[c.index()];
            if r == 0 {
                // Under play-on (no teams) everyone done has a rank.
                if self.options.play_on
                    && !self.options.teams
                    && self.is_done(c)
                    && !self.has_resigned(c)
                {
                    return Err(SetupError::BadRanks);
                }
                continue;
            }
            if !self.options.play_on || self.options.teams || !self.is_done(c) {
                return Err(SetupError::BadRanks);
            }
            ranked.push(r);
        }
        ranked.sort_unstable();
        if ranked.iter().enumerate().any(|(i, &r)| r as usize != i + 1) {
            return Err(SetupError::BadRanks);
        }
        Ok(())
    }

    /// Whether the game is over, from the planes, resignations and options (F-WIN).
    fn derive_over(&self) -> bool {
        let active = Colour::ALL.iter().filter(|&&c| self.is_active(c)).count();
        if self.options.teams {
            return self.resigned != 0
                || (0..2u8).any(|s| {
                    Colour::ALL
                        .iter()
                        .filter(|c| c.index() as u8 & 1 == s)
                        .all(|&c| self.is_done(c))
                });
        }
        if !self.options.play_on {
            let someone_done = self
                .players()
                .any(|c| !self.has_resigned(c) && self.is_done(c));
            return someone_done || active <= 1;
        }
        active <= 1
    }

    /// At rest no square holds two sides, except one plane sitting on a stack (F-STACK).
    fn check_squares(&self) -> Result<(), SetupError> {
        let occ = self.occupancy();
        for (s, &x) in occ.iter().enumerate() {
            let mut sides = [0u8; 4];
            for c in Colour::ALL {
                sides[self.side(c) as usize] += ((x >> (4 * c as u16)) & 0xF) as u8;
            }
            let present = sides.iter().filter(|&&k| k > 0).count();
            if present <= 1 {
                continue;
            }
            let sitter_ok = present == 2
                && self.forced.is_some_and(|f| {
                    square(self.turn, self.plane(self.turn, f)).is_some_and(|q| q.0 as usize == s)
                })
                && sides[self.side(self.turn) as usize] == 1
                && sides.iter().any(|&k| k >= 2);
            if !sitter_ok {
                return Err(SetupError::SidesShareSquare { square: s as u8 });
            }
        }
        Ok(())
    }

    fn check_turn(&mut self, setup: &Setup, over: bool) -> Result<(), SetupError> {
        let o = self.options;
        if over {
            if setup.roll.is_some() {
                return Err(SetupError::BadRoll(setup.roll.unwrap_or(0)));
            }
            if self.sixes != 0 {
                return Err(SetupError::BadSixes(self.sixes));
            }
            if self.forced.is_some() {
                return Err(SetupError::BadForced(self.forced.unwrap_or(0)));
            }
            if !setup.six_moved.is_empty() {
                return Err(SetupError::BadSixMoved);
            }
            if !self.is_seated(self.turn) {
                return Err(SetupError::TurnNotPlaying(self.turn));
            }
            self.phase = Phase::Over;
            return Ok(());
        }
        if !self.is_active(self.turn) {
            return Err(SetupError::TurnNotPlaying(self.turn));
        }
        // Sixes: counted only under a three-sixes rule, never three at rest.
        let pending_six = setup.roll == Some(6);
        let sixes_ok = if o.three_sixes == ThreeSixes::None {
            self.sixes == 0
        } else if pending_six {
            (1..=2).contains(&self.sixes)
        } else {
            self.sixes <= 2
        };
        if !sixes_ok {
            return Err(SetupError::BadSixes(self.sixes));
        }
        // The planes moved by this run of sixes (moved-to-hangar only).
        let mut mask = 0u8;
        for &i in &setup.six_moved {
            if i >= o.planes || o.three_sixes != ThreeSixes::MovedToHangar {
                return Err(SetupError::BadSixMoved);
            }
            mask |= 1 << i;
        }
        if mask.count_ones() > u32::from(self.sixes.saturating_sub(u8::from(pending_six))) {
            return Err(SetupError::BadSixMoved);
        }
        self.six_moved = mask;
        // A sitter exists only under `block`, waiting for the next roll.
        if let Some(f) = self.forced
            && (f >= o.planes
                || o.stacks != Stacks::Block
                || setup.roll.is_some()
                || (o.three_sixes != ThreeSixes::None && self.sixes == 0)
                || (o.three_sixes == ThreeSixes::MovedToHangar && mask & (1 << f) == 0)
                || !self.sits_on_stack(self.turn, f))
        {
            return Err(SetupError::BadForced(f));
        }
        if let Some(roll) = setup.roll {
            if !(1..=6).contains(&roll) || setup.draw.is_some() || self.moves_for(roll).is_empty() {
                return Err(SetupError::BadRoll(roll));
            }
            self.phase = Phase::Move { roll };
        }
        Ok(())
    }
}

impl TryFrom<Setup> for Game {
    type Error = SetupError;

    fn try_from(setup: Setup) -> Result<Self, Self::Error> {
        Game::from_setup(setup)
    }
}

impl From<Game> for Setup {
    fn from(game: Game) -> Self {
        game.to_setup()
    }
}
