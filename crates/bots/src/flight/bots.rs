//! The bots behind [`FlightBot`]: random, heuristic (greedy on the evaluation), search
//! (expectimax on the same evaluation) and rollout (Monte Carlo policy improvement, the hard
//! level).

use std::time::Duration;

use hangar_dice::{Dice, Seed};
use hangar_flight::{Game, Moves};

use super::clock::Clock;
use super::eval::Weights;
use super::net::Net;
use super::rollout::{RolloutLeaf, RolloutLimits, rollout_index};
use super::search::{Leaf, SearchLimits, greedy_index, search_index};
use super::td::{ReplyModel, td_index, td_search_index};

/// A player of Aeroplane Chess: given a position awaiting a move and its legal moves, picks one.
///
/// The one interface the hall (bot seats, auto-play 托管), `hangar sim` and `hangar play` use.
/// Bots keep no state between calls, so one bot can serve many games and threads; whatever
/// randomness a bot needs comes from `rng`.
pub trait FlightBot: Send + Sync {
    /// The bot's name with its settings, as `hangar sim` prints it.
    fn name(&self) -> String;

    /// The index into `moves` of the chosen move. `game` awaits a move (`Phase::Move`) and
    /// `moves` is `game.legal_moves()`, not empty.
    fn pick(&self, game: &Game, moves: &Moves, rng: &mut Dice) -> usize;

    /// The plane to move (for `Action::Move { plane }`), or `None` when `game` does not await
    /// a move. Always one of `game.legal_moves()`.
    fn choose(&self, game: &Game, rng: &mut Dice) -> Option<u8> {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let index = self.pick(game, &moves, rng).min(moves.len() - 1);
        Some(moves[index].plane)
    }
}

/// Picks uniformly among the legal moves (the easy level).
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomBot;

impl FlightBot for RandomBot {
    fn name(&self) -> String {
        "random".to_owned()
    }

    fn pick(&self, _game: &Game, moves: &Moves, rng: &mut Dice) -> usize {
        rng.roll_below(moves.len() as u32) as usize
    }
}

/// Plays the move whose result evaluates best (the normal level): captures, take-offs,
/// safety from enemies in reach (jumps and the shortcut included), stacks, the race, all
/// weighed by [`Weights`] (seed 000 §F). A few microseconds per decision.
#[derive(Clone, Copy, Debug, Default)]
pub struct HeuristicBot {
    /// The evaluation's weights.
    pub weights: Weights,
}

impl FlightBot for HeuristicBot {
    fn name(&self) -> String {
        if self.weights == Weights::default() {
            "heuristic".to_owned()
        } else {
            format!("heuristic:{}", self.weights)
        }
    }

    fn pick(&self, game: &Game, moves: &Moves, _rng: &mut Dice) -> usize {
        greedy_index(game, moves, &self.weights)
    }
}

/// Expectimax over the die with the heuristic's evaluation at the leaves.
#[derive(Clone, Copy, Debug)]
pub struct SearchBot {
    /// The evaluation's weights.
    pub weights: Weights,
    /// Depth and time limits.
    pub limits: SearchLimits,
}

impl SearchBot {
    /// A clocked search's default budget: deepening up to 6 rolls within 50 ms.
    pub const HALL_TIME: Duration = Duration::from_millis(50);

    /// A deterministic search of exactly `depth` rolls.
    pub fn with_depth(depth: u32) -> Self {
        SearchBot {
            weights: Weights::default(),
            limits: SearchLimits {
                max_depth: depth,
                time: None,
                clock: Clock::Wall,
                leaf: Leaf::Heuristic,
            },
        }
    }
}

impl Default for SearchBot {
    fn default() -> Self {
        SearchBot {
            weights: Weights::default(),
            limits: SearchLimits {
                max_depth: 6,
                time: Some(Self::HALL_TIME),
                clock: Clock::Wall,
                leaf: Leaf::Heuristic,
            },
        }
    }
}

impl FlightBot for SearchBot {
    fn name(&self) -> String {
        let mut name = format!("search:depth={}", self.limits.max_depth);
        if let Some(time) = self.limits.time {
            name.push_str(&format!(",ms={}", time.as_millis()));
            if self.limits.clock != Clock::Wall {
                name.push_str(&format!(",clock={}", self.limits.clock));
            }
        }
        if self.limits.leaf == Leaf::Learned {
            name.push_str(",leaf=learned");
        }
        if self.weights != Weights::default() {
            name.push_str(&format!(",{}", self.weights));
        }
        name
    }

    fn pick(&self, game: &Game, moves: &Moves, _rng: &mut Dice) -> usize {
        search_index(game, moves, &self.weights, self.limits)
    }
}

/// Rollout search (the hard level): each move judged by greedy self-play continuations with
/// shared dice, by the share of them it wins (see [`super::rollout`]).
#[derive(Clone, Copy, Debug)]
pub struct RolloutBot {
    /// The evaluation's weights (the rollout policy's and the cut-short estimate's).
    pub weights: Weights,
    /// Rollouts, horizon, clock.
    pub limits: RolloutLimits,
}

impl RolloutBot {
    /// The hall's hard level: up to [`Self::HALL_ROLLOUTS`] rollouts of 8 rolls per candidate
    /// move within 50 ms, judged at their horizon by the TD-trained net where one applies.
    pub const HALL_TIME: Duration = Duration::from_millis(50);
    /// Most rollouts per candidate of the hard level (the clock usually ends it first).
    pub const HALL_ROLLOUTS: u32 = 4096;

    /// The hall's hard level: rollouts cut short are judged by the TD-trained net where one
    /// was trained for the game (the traditional or the improved preset, 2–4 players or teams),
    /// else by the softmax of the hand evaluation.
    pub fn hall() -> Self {
        RolloutBot {
            weights: Weights::default(),
            limits: RolloutLimits {
                rollouts: Self::HALL_ROLLOUTS,
                time: Some(Self::HALL_TIME),
                leaf: RolloutLeaf::Net,
                ..RolloutLimits::default()
            },
        }
    }
}

impl FlightBot for RolloutBot {
    fn name(&self) -> String {
        let limits = &self.limits;
        let mut name = format!("rollout:n={},horizon={}", limits.rollouts, limits.horizon);
        if let Some(time) = limits.time {
            name.push_str(&format!(",ms={}", time.as_millis()));
            if limits.clock != Clock::Wall {
                name.push_str(&format!(",clock={}", limits.clock));
            }
        }
        if limits.temperature != RolloutLimits::default().temperature {
            name.push_str(&format!(",temp={}", limits.temperature));
        }
        match limits.leaf {
            RolloutLeaf::Net => name.push_str(",leaf=net"),
            RolloutLeaf::Versus => name.push_str(",leaf=versus"),
            RolloutLeaf::Softmax => {}
        }
        if self.weights != Weights::default() {
            name.push_str(&format!(",{}", self.weights));
        }
        name
    }

    fn pick(&self, game: &Game, moves: &Moves, rng: &mut Dice) -> usize {
        if moves.len() <= 1 {
            return 0;
        }
        // The rollouts' dice come from the caller's stream: deterministic for a game seed.
        let mut bytes = [0u8; 32];
        for byte in bytes.iter_mut() {
            *byte = rng.roll_below(256) as u8;
        }
        rollout_index(
            game,
            moves,
            &self.weights,
            self.limits,
            Seed::from_bytes(bytes),
        )
    }
}

/// Plays on the TD-trained net ([`super::net`]): the move after which the net gives the mover
/// the best chance to win (`depth` 0), or the best expected chance `depth` rolls later
/// (expectimax over the die, the others answering as `model` says). Where no net was trained
/// for the game's options or player count (see [`Net::applies`]) it plays as the heuristic.
#[derive(Clone, Copy, Debug, Default)]
pub struct TdBot {
    /// Rolls looked ahead after the move.
    pub depth: u32,
    /// How the others are expected to answer.
    pub model: ReplyModel,
    /// Play on the net trained for one player against heuristic bots
    /// ([`Net::versus_for_game`]) where one applies, instead of the self-play net.
    pub versus: bool,
}

impl FlightBot for TdBot {
    fn name(&self) -> String {
        let mut name = "td".to_owned();
        let mut settings = Vec::new();
        if self.depth > 0 {
            settings.push(format!("depth={}", self.depth));
        }
        if self.model == ReplyModel::Heuristic {
            settings.push("model=heuristic".to_owned());
        }
        if self.versus {
            settings.push("net=versus".to_owned());
        }
        if !settings.is_empty() {
            name.push(':');
            name.push_str(&settings.join(","));
        }
        name
    }

    fn pick(&self, game: &Game, moves: &Moves, _rng: &mut Dice) -> usize {
        let net = if self.versus {
            Net::versus_for_game(game).or_else(|| Net::for_game(game))
        } else {
            Net::for_game(game)
        };
        match net {
            Some(net) if self.depth == 0 => td_index(game, moves, net),
            Some(net) => td_search_index(game, moves, net, self.depth, self.model),
            None => greedy_index(game, moves, &Weights::default()),
        }
    }
}
