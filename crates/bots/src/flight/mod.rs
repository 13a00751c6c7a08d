//! Bots for Aeroplane Chess (飞行棋): random, heuristic and search, behind one interface
//! ([`FlightBot`]) that the hall, `hangar sim` and `hangar play` share.
//!
//! - [`FlightLevel`]`::{Random, Heuristic, Hard}` are the hall's levels under their wire names; [`parse_bot`] builds any
//!   bot from a spec such as `search:depth=3` or `heuristic:danger=1.5`.
//! - [`play_game`] plays a whole game between bots from a seed (simulations, tests).
//! - [`RolloutBot`] (spec `rollout`; [`RolloutBot::hall`] is the hard level) is Monte Carlo
//!   policy improvement: common random numbers, racing of the candidates, the share of
//!   rollouts won as the value. [`SearchBot`] (spec `search`) is expectimax over the die.
//! - [`learned`] is an experimental learned win-chance evaluation (`search:leaf=learned`),
//!   fitted to self-play outcomes by the `train_flight` example.
//! - [`net`] is a TD(λ)-trained network's win chance per player ([`encode`] its input, [`td`]
//!   the greedy play on it; the `train_td` example trains it): self-play nets, and a net for
//!   one player against heuristic bots ([`Net::versus`], experimental).
//! - [`clock`]: time budgets on the wall clock (the hall) or the deciding thread's CPU time
//!   (`hangar sim --clock cpu`, [`parse_bot_clocked`]).
//! - [`eval`] is the evaluation both the heuristic and the search use; [`geometry`] the
//!   route tables it reasons with; [`snapshot`] its picture of a position.

mod arena;
mod bots;
pub mod clock;
pub mod encode;
pub mod eval;
pub mod geometry;
pub mod learned;
pub mod net;
pub mod rollout;
pub mod search;
pub mod snapshot;
mod spec;
pub mod td;

pub use arena::{GameResult, play_game};
pub use bots::{FlightBot, HeuristicBot, RandomBot, RolloutBot, SearchBot, TdBot};
pub use clock::Clock;
pub use eval::Weights;
pub use learned::LearnedEval;
pub use net::{Net, NetError, View};
pub use rollout::{RolloutLeaf, RolloutLimits};
pub use search::{Leaf, SearchLimits};
pub use spec::{BotSpecError, FlightLevel, parse_bot, parse_bot_clocked, split_bot_list};
