//! The games behind one interface: the room machinery is game-agnostic and reaches the rule
//! engines only through [`GameSession`]. Nothing here knows the rules: it translates between
//! the wire and the engines (`hangar-flight`, `hangar-jungle`) and draws dice from the seed.

mod act;
pub mod arena;
pub mod engine_line;
mod flight;
mod jungle;
mod levels;
mod log;
mod log_line;
mod options;
mod policy;
pub mod rating;
pub mod record;
pub mod replay;
pub mod review;
pub mod rules_json;
pub mod scoring;
mod stored;
pub mod view;

use hangar_bots::flight::FlightLevel;
use hangar_bots::jungle::JungleLevel;
use hangar_dice::{DiceScheme, Entropy, Seed};
use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use hangar_protocol::{Ack, BotLevel, EndReason, ProtoError, Rolled, TurnNeed};

pub use act::{Act, BadAct};
pub use flight::FlightSession;
pub use jungle::JungleSession;
pub use levels::{
    autoplay_level, check_bot_level, flight_level, jungle_level, of_flight, of_jungle,
    quick_bot_level, stored_bot_level,
};
pub use log::{CommandRef, JUNGLE_TIMEOUTS_ALLOWED, LoggedAct};
pub use log_line::{LineError, LineRoll};
pub use options::{
    DEFAULT_STAKE, DEFAULT_TURN_SECONDS, FlightRoom, JungleRoom, RoomOptions, TURN_SECONDS,
    catalogue, check_options, stored_options,
};
pub use policy::StandIn;
pub use scoring::SeatOutcome;
pub use stored::{NewGame, StoredGame};
pub use view::{FlightView, GameView, JungleView};

/// A room event (`{"kind": …}`), serialised once when it happens: the room writes the same
/// text into the frame every member gets (no `Value` tree built and walked per event).
pub type WireEvent = Box<RawValue>;

/// Serialises a room event.
pub fn wire(event: &impl Serialize) -> WireEvent {
    serde_json::value::to_raw_value(event).expect("room events serialise")
}

/// A serialised event read back as a value (records and replays, off the hot path).
pub fn event_value(event: &WireEvent) -> Value {
    serde_json::from_str(event.get()).expect("a serialised event is JSON")
}

/// What a game action did.
#[derive(Clone, Debug)]
pub struct Played {
    /// Room events (`{"kind": …}` objects) to broadcast, in order.
    pub events: Vec<WireEvent>,
    /// The die the server drew, if the action was a roll.
    pub roll: Option<u8>,
    /// The answer to the seat that acted.
    pub ack: Ack,
}

impl Played {
    /// What an action that answers nothing but "done" played: its events.
    fn done(events: Vec<WireEvent>) -> Played {
        Played {
            events,
            roll: None,
            ack: Ack::DONE,
        }
    }

    /// What a roll played: its events, and the die, drawn or not, in the ack.
    fn rolled(events: Vec<WireEvent>, value: u8, drawn: Option<u8>) -> Played {
        Played {
            events,
            roll: drawn,
            ack: Ack::Rolled(Rolled { value }),
        }
    }
}

/// How a game ended, by seat.
#[derive(Clone, Debug)]
pub struct Ending {
    /// Rank per seat (1 = best); `None` not ranked.
    pub ranks: Vec<Option<u32>>,
    /// Finished planes per seat (flight).
    pub finished: Vec<u32>,
    /// Enemy planes sent back per seat (flight).
    pub captures: Vec<u32>,
    /// Colour index per seat (flight: the order of an odd point).
    pub colours: Vec<usize>,
    /// The winning seat of a jungle game, `None` for a draw.
    pub jungle_winner: Option<usize>,
    /// Why it ended (the hall may name a player's leaving instead).
    pub reason: EndReason,
}

/// Where a running game stood (see [`GameSession::mark`]).
#[derive(Clone, Copy, Debug)]
pub enum SessionMark {
    /// A flight game's.
    Flight(flight::FlightMark),
    /// A jungle game's.
    Jungle(jungle::JungleMark),
}

/// A running game of either kind.
#[derive(Clone, Debug)]
pub enum GameSession {
    /// Aeroplane Chess, through `hangar-flight`'s table.
    Flight(FlightSession),
    /// Jungle, through `hangar-jungle`.
    Jungle(JungleSession),
}

impl GameSession {
    /// Starts a game of the room's `options` for `seats` seats; every random draw comes from
    /// `seed` by the construction `dice` (P-FAIR-DICE: new games are
    /// [`DiceScheme::PerRoll`]; a stored game keeps the one it started with).
    pub fn start(
        options: &RoomOptions,
        seats: usize,
        seed: Seed,
        dice: DiceScheme,
    ) -> Result<Self, ProtoError> {
        Ok(match options {
            RoomOptions::Flight(flight) => {
                GameSession::Flight(FlightSession::start(flight.rules, seats, seed, dice)?)
            }
            RoomOptions::Jungle(jungle) => {
                GameSession::Jungle(JungleSession::start(jungle.rules()))
            }
        })
    }

    /// The whole visible game, for the wire (§6 of the protocol).
    pub fn view(&self) -> Value {
        match self {
            GameSession::Flight(s) => s.view(),
            GameSession::Jungle(s) => s.view(),
        }
    }

    /// The seat whose decision is awaited and what it is (`roll`, `move`); `None` when over.
    pub fn turn(&self) -> Option<(usize, TurnNeed)> {
        match self {
            GameSession::Flight(s) => s.turn(),
            GameSession::Jungle(s) => s.turn(),
        }
    }

    /// The colour of a seat, as a wire value.
    pub fn colour_name(&self, seat: usize) -> Value {
        match self {
            GameSession::Flight(s) => s.colour_name(seat).into(),
            GameSession::Jungle(s) => s.colour_name(seat).into(),
        }
    }

    /// The colours of every seat.
    pub fn colours(&self, seats: usize) -> Vec<Value> {
        (0..seats).map(|s| self.colour_name(s)).collect()
    }

    /// Plays a move-type action (roll, move, item) of the seat on turn. `entropy` is the
    /// roller's bytes of a person's roll or booster (P-FAIR-DICE); `None` for the hall's.
    pub fn play(
        &mut self,
        seat: usize,
        act: &Act,
        entropy: Option<&Entropy>,
    ) -> Result<Played, ProtoError> {
        match self {
            GameSession::Flight(s) => s.play(seat, act, entropy),
            GameSession::Jungle(s) => s.play(seat, act),
        }
    }

    /// The action a bot of `level` takes for the seat on turn; `None` when it has nothing to
    /// play (no seat on turn is left so). A level that is not this game's (the room refuses
    /// those) plays as auto-play does.
    pub fn bot_act(&mut self, seat: usize, level: BotLevel) -> Option<Act> {
        match self {
            GameSession::Flight(s) => {
                s.bot_act(seat, flight_level(level).unwrap_or(FlightLevel::AUTOPLAY))
            }
            GameSession::Jungle(s) => {
                s.bot_act(jungle_level(level).unwrap_or(JungleLevel::AUTOPLAY))
            }
        }
    }

    /// Whether a bot of this level thinks long enough to be run off the async runtime.
    pub fn bot_is_slow(&self, level: BotLevel) -> bool {
        match self {
            GameSession::Flight(_) => flight_level(level).is_some_and(FlightLevel::is_slow),
            GameSession::Jungle(_) => jungle_level(level).is_some_and(JungleLevel::is_slow),
        }
    }

    /// Jungle: the seat on turn passes (timeout). Flight has no passing.
    pub fn pass(&mut self) -> Result<Played, ProtoError> {
        match self {
            GameSession::Flight(_) => Ok(Played::done(Vec::new())),
            GameSession::Jungle(s) => s.pass(),
        }
    }

    /// A seat leaves the game (resignation, escape, disconnection, timeouts).
    pub fn remove(&mut self, seat: usize) -> Vec<WireEvent> {
        match self {
            GameSession::Flight(s) => s.remove(seat),
            GameSession::Jungle(s) => s.remove(seat),
        }
    }

    /// Jungle: both agreed to a draw.
    pub fn agree_draw(&mut self) {
        if let GameSession::Jungle(s) = self {
            s.agree_draw();
        }
    }

    /// Flight: the engine's record of the game so far (`None` in jungle).
    pub fn flight_record(&self) -> Option<&hangar_flight::Record> {
        match self {
            GameSession::Flight(s) => Some(s.record()),
            GameSession::Jungle(_) => None,
        }
    }

    /// Jungle: the rules engine's game (P-REVIEW reads its positions); `None` in flight.
    pub(crate) fn jungle_game(&self) -> Option<&hangar_jungle::Game> {
        match self {
            GameSession::Jungle(s) => Some(s.game()),
            GameSession::Flight(_) => None,
        }
    }

    /// Flight: the engine's game and each seat's colour (P-REVIEW); `None` in jungle.
    pub(crate) fn flight_game(&self) -> Option<(&hangar_flight::Game, &[hangar_flight::Colour])> {
        match self {
            GameSession::Flight(s) => Some(s.parts()),
            GameSession::Jungle(_) => None,
        }
    }

    /// Where the game stands now, to come back to with [`GameSession::undo`] (an action
    /// whose write failed): taken before every action, so it copies nothing.
    pub fn mark(&self) -> SessionMark {
        match self {
            GameSession::Flight(s) => SessionMark::Flight(s.mark()),
            GameSession::Jungle(s) => SessionMark::Jungle(s.mark()),
        }
    }

    /// Back to exactly where `mark` was taken (rules state, dice stream, turns), by replaying
    /// the game's own record up to there: costs a replay, but only when a write failed.
    pub fn undo(&mut self, mark: SessionMark) {
        match (self, mark) {
            (GameSession::Flight(s), SessionMark::Flight(mark)) => s.undo(mark),
            (GameSession::Jungle(s), SessionMark::Jungle(mark)) => s.undo(mark),
            _ => unreachable!("a mark is taken from the session it undoes"),
        }
    }

    /// Completed turns (P-RESIGN needs 15 in flight).
    pub fn turns(&self) -> u32 {
        match self {
            GameSession::Flight(s) => s.turns(),
            GameSession::Jungle(s) => s.turns(),
        }
    }

    /// Finished planes of a seat (flight; 0 in jungle).
    pub fn finished(&self, seat: usize) -> u32 {
        match self {
            GameSession::Flight(s) => s.finished(seat),
            GameSession::Jungle(_) => 0,
        }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.turn().is_none()
    }

    /// How it ended (call once over).
    pub fn ending(&self) -> Ending {
        match self {
            GameSession::Flight(s) => s.ending(),
            GameSession::Jungle(s) => s.ending(),
        }
    }

    /// Whether a resignation is allowed now (flight: after 15 turns).
    pub fn may_resign(&self) -> Result<(), ProtoError> {
        match self {
            GameSession::Flight(s) if s.turns() < 15 => Err(ProtoError::new(
                hangar_protocol::ErrorCode::TooEarly,
                format!("resignation is allowed after 15 turns (now {})", s.turns()),
            )),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hangar_protocol::GameKind;
    use serde_json::json;

    /// Plays `session` to its end (or `limit` actions) by bot, checking before each action
    /// that the action undone leaves the session exactly as it was (rules state, dice stream,
    /// turns), then playing it for good.
    fn every_action_undoes_exactly(mut session: GameSession, seats: usize, limit: usize) {
        let mut played = 0;
        while let Some((seat, _)) = session.turn() {
            if played == limit {
                break;
            }
            let act = session
                .bot_act(seat, autoplay_level_of(&session))
                .expect("a bot has a move");
            let before = format!("{session:?}");
            let mark = session.mark();
            // Every other roll as a person's, so that undoing drops the bytes too.
            let entropy = played.is_multiple_of(2).then(Entropy::random);
            session
                .play(seat, &act, entropy.as_ref())
                .expect("a bot plays legally");
            session.undo(mark);
            assert_eq!(format!("{session:?}"), before, "action {played}: {act:?}");
            session
                .play(seat, &act, entropy.as_ref())
                .expect("the same action plays again");
            played += 1;
        }
        // Leaving and an agreed draw are undone too.
        for seat in 0..seats {
            let before = format!("{session:?}");
            let mark = session.mark();
            session.remove(seat);
            session.agree_draw();
            session.undo(mark);
            assert_eq!(format!("{session:?}"), before, "seat {seat} left");
        }
        assert!(played > 10, "only {played} actions");
    }

    fn autoplay_level_of(session: &GameSession) -> BotLevel {
        match session {
            GameSession::Flight(_) => autoplay_level(GameKind::Flight),
            GameSession::Jungle(_) => autoplay_level(GameKind::Jungle),
        }
    }

    #[test]
    fn p_durable_a_flight_action_undone_leaves_the_game_and_dice_as_they_were() {
        let given = json!({"seats": 4, "items": true, "weather": true});
        let (options, seats, _) = check_options(GameKind::Flight, &given, 20).expect("options");
        let session = GameSession::start(&options, seats, Seed::random(), DiceScheme::PerRoll)
            .expect("starts");
        every_action_undoes_exactly(session, seats, 400);
    }

    #[test]
    fn p_durable_a_jungle_action_undone_leaves_the_game_as_it_was() {
        let (options, seats, _) = check_options(GameKind::Jungle, &json!({}), 20).expect("options");
        let mut session = GameSession::start(&options, seats, Seed::random(), DiceScheme::PerRoll)
            .expect("starts");
        // A pass (timeout) is undone like a move.
        let before = format!("{session:?}");
        let mark = session.mark();
        session.pass().expect("the side to move may pass");
        session.undo(mark);
        assert_eq!(format!("{session:?}"), before);
        every_action_undoes_exactly(session, seats, 200);
    }
}
