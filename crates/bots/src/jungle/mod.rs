//! Bots for Jungle (斗兽棋): a random player, a greedy one and an alpha-beta searcher with
//! levels.
//!
//! ```
//! use hangar_bots::jungle::{JungleBot, JungleLevel, choose_move};
//! use hangar_dice::{Dice, Seed};
//! use hangar_jungle::{Game, Rules};
//!
//! let game = Game::new(Rules::default());
//! let mut dice = Dice::new(Seed::from_u64(1));
//! let bot: JungleBot = "ab:depth=3".parse().unwrap();
//! let m = choose_move(&game, &bot, &mut dice).expect("a move at the start");
//! assert!(game.legal_moves().contains(&m));
//! # let _ = JungleBot::level(JungleLevel::Easy);
//! ```

mod bot;
mod eval;
mod greedy;
mod ordering;
mod search;
mod tt;

pub use bot::{BotSpecError, JungleBot, JungleLevel, JunglePlayer, SearchConfig, choose_move};
pub use eval::Evaluator;
pub use search::{Analysis, Limits, SearchReport, Searcher, WIN, WIN_BOUND};
