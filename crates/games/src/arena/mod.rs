//! Arena tournaments (P-ARENA), with no I/O: the arena's players, their points and streaks
//! ([`points`]), the table ([`Arena::standings`]) and the pairing of free players
//! ([`pairing`]). The hall owns an [`Arena`], seats the tables it hands out into rooms and
//! feeds back the results of finished games.

pub mod pairing;
pub mod points;
mod state;

pub use pairing::{Candidate, pair};
pub use points::{Finish, game_points, is_draw, is_win};
pub use state::{Arena, ArenaError, Entry, Standing};
