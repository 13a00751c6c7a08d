//! Aeroplane Chess (飞行棋) rules, as specified in `shared/spec/flight.md` §1–9, §11.
//!
//! Pure: no I/O, no clock, no randomness — a die value is an input (see [`Table`] for a game
//! driven from a seed, the one place that uses `hangar-dice`).
//!
//! - [`Game`] is the position: a small `Copy` value built through [`Game::new`] or
//!   [`Game::from_setup`] (checked; [`Setup`] is the plain-data form and the JSON form).
//! - The turn model: [`Game::phase`] says whether a roll or a choice is awaited;
//!   [`Game::play`] takes an [`Action`], pushes [`Event`]s to an [`EventSink`] and refuses
//!   bad actions with a [`PlayError`], changing nothing.
//! - [`Game::legal_moves`] / [`Game::moves_for`] list the choices ([`Moves`], inline, no
//!   allocation); [`Game::play_unchecked`] and [`NoEvents`] are the fast path.
//! - [`Game::ranks`] and [`Game::scores`] give the result (F-RANK, F-SCORE).
//! - [`board`] maps progress to squares and drawing locations (F-BOARD).
//! - Items and weather (§7–8, options `items` and `weather`): [`Item`] and [`Weather`] are
//!   data; where and which appear are chance draws the game asks for ([`Phase::Draw`],
//!   [`Action::Draw`]; [`Game::draw_chances`] settles them from the dice).

mod action;
pub mod board;
mod colour;
mod event;
mod game;
mod items;
mod options;
mod record;
mod seating;
mod weather;

pub use action::{Action, PlayError};
pub use board::{Location, Progress, Square};
pub use colour::{Colour, UnknownColour};
pub use event::{Event, EventSink, NoEvents, ReturnReason};
pub use game::chance::Draw;
pub use game::moves::{Move, Moves};
pub use game::result::{CAPTURE_BONUS, Scores};
pub use game::setup::{PlayerSetup, Setup, SetupError};
pub use game::{Game, Phase};
pub use items::{Item, ItemBar, ItemEffect, ItemOnBoard, MAX_ITEMS_ON_BOARD, UnknownItem};
pub use options::{Finish, OptionError, Options, Preset, Stacks, TakeOff, ThreeSixes};
pub use record::{Record, RecordError, RecordedAction, Table};
pub use seating::Seating;
pub use weather::{WEATHER_ROUNDS, Weather, WeatherCell, WeatherEffect};
