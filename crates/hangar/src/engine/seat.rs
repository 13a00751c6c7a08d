//! One game `hangar bot` plays in a hall room: the room's snapshot and events kept in step
//! with a local game, and the engine question of each of its turns (P-ENGINE).
//!
//! Jungle: a local `hangar_jungle::Game` follows the moves and passes from the start, so the
//! engine's legal actions honour J-REPEAT as the hall does (joined mid-game, it starts from
//! the view's position). Flight: the position is the room's typed game view (protocol §6,
//! [`FlightView::position`]) with the pending roll played on it by the rules engine.

use std::time::Duration;

use hangar_bots::flight::FlightLevel;
use hangar_bots::jungle::{JungleBot, JungleLevel, JunglePlayer};
use hangar_dice::{Dice, Seed};
use hangar_flight::{Item, Phase};
use hangar_games::engine_line::{
    FlightChoice, flight_choices, flight_question, jungle_choices, jungle_question,
};
use hangar_games::{GameView, RoomOptions, check_options};
use hangar_protocol::{GameKind, RoomAction, RoomState, TurnView};
use serde::Deserialize;
use serde_json::{Map, Value};

use super::supervisor::{Engine, EngineStats};

/// Time kept back from the turn's deadline for the network and the hall: the engine's answer
/// window ends this long before the hall's deadline, when auto-play's choice is sent instead.
pub const MARGIN_MS: i64 = 1500;

/// The least answer window worth asking for: with less time left before the margin,
/// auto-play chooses at once.
const LEAST_MS: i64 = 50;

/// What the bot does on its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Flight: roll.
    Roll,
    /// Flight: use an item.
    UseItem(Item),
    /// Flight: move a plane.
    Plane(u8),
    /// Jungle: a move in notation.
    Jungle(String),
    /// Give the game up.
    Resign,
}

impl Choice {
    /// The room command that carries it out.
    pub fn action(&self) -> RoomAction {
        let entropy = || Some(hangar_dice::Entropy::random().to_string());
        match self {
            Choice::Roll => RoomAction::Roll { entropy: entropy() },
            Choice::UseItem(item) => RoomAction::UseItem {
                item: item.name().to_owned(),
                entropy: entropy(),
            },
            Choice::Plane(plane) => RoomAction::Move {
                plane: Some(usize::from(*plane)),
                notation: None,
            },
            Choice::Jungle(m) => RoomAction::Move {
                plane: None,
                notation: Some(m.clone()),
            },
            Choice::Resign => RoomAction::Resign,
        }
    }
}

/// A decision to make: the question for the engine, the choice of each action id, and what
/// auto-play would do instead.
pub struct Decision {
    /// The line without `ask`; `None` when there is nothing to choose.
    pub question: Option<Map<String, Value>>,
    /// The choice of each action id.
    pub choices: Vec<Choice>,
    /// Auto-play's choice.
    pub fallback: Choice,
    /// The time the engine has: the answer window, ending [`MARGIN_MS`] before the turn's
    /// deadline.
    pub timeout: Duration,
    /// Whether a resignation is allowed now (P-RESIGN: flight after 15 turns).
    pub may_resign: bool,
}

/// A game the bot sits in.
pub struct Sitting {
    /// The room's code.
    pub room: String,
    /// The bot's seat.
    pub seat: usize,
    /// The last room version seen.
    pub v: u64,
    /// The engine playing this game; `None` while a decision task has it.
    pub engine: Option<Engine>,
    /// The engine's counts when it was last here.
    pub stats: EngineStats,
    /// Whether the engine was given up (when it was last here).
    pub given_up: bool,
    /// The room version of the turn last decided (or being decided).
    pub decided: Option<u64>,
    /// The room version the picture must reach before a decision: a rejoin's answer's `v`
    /// (protocol §5: nothing is played on a picture from before a reconnection).
    pub wait_for: u64,
    kind: Option<GameKind>,
    options: Option<RoomOptions>,
    view: Option<GameView<'static>>,
    roll: Option<u8>,
    jungle: Option<hangar_jungle::Game>,
    turn: Option<TurnView>,
    turn_v: u64,
    rng: Dice,
}

impl Sitting {
    /// A seat held in `room`, played by `engine`.
    pub fn new(room: &str, seat: usize, engine: Engine) -> Sitting {
        Sitting {
            room: room.to_owned(),
            seat,
            v: 0,
            engine: Some(engine),
            stats: EngineStats::default(),
            given_up: false,
            decided: None,
            wait_for: 0,
            kind: None,
            options: None,
            view: None,
            roll: None,
            jungle: None,
            turn: None,
            turn_v: 0,
            rng: Dice::new(Seed::random()),
        }
    }

    /// The room as a whole: the options, the game view, whose turn it is.
    pub fn snapshot(&mut self, v: u64, state: &RoomState) {
        self.v = v;
        self.kind = Some(state.game_kind);
        self.options = check_options(state.game_kind, &state.options, 60)
            .ok()
            .map(|(options, _, _)| options);
        self.view = state.game.as_ref().and_then(read_view);
        self.roll = None;
        self.turn = state.turn.clone();
        self.turn_v = v;
        self.jungle = None;
        if state.game_kind == GameKind::Jungle {
            self.resync_jungle();
        }
    }

    /// One room event. Returns the event's `kind`.
    pub fn event(&mut self, v: u64, event: &Value) -> String {
        self.v = v;
        let kind = event["kind"].as_str().unwrap_or_default().to_owned();
        match kind.as_str() {
            "game_started" => {
                self.view = read_view(&event["game"]);
                self.roll = None;
                if let Some(RoomOptions::Jungle(room)) = self.options {
                    self.jungle = Some(hangar_jungle::Game::new(room.rules()));
                }
            }
            "turn" => {
                self.turn = serde_json::from_value(event.clone()).ok();
                self.turn_v = v;
            }
            "rolled" => self.roll = event["value"].as_u64().map(|v| v as u8),
            "moved" => {
                self.view = read_view(&event["game"]);
                self.roll = None;
            }
            "jungle_moved" | "passed" => {
                let ply = event["move"].as_str().unwrap_or("pass");
                let played = self.jungle.as_mut().is_some_and(|game| {
                    match ply.parse::<hangar_jungle::Ply>() {
                        Ok(hangar_jungle::Ply::Move(m)) => game.play(m).is_ok(),
                        Ok(hangar_jungle::Ply::Pass) => game.pass().is_ok(),
                        Err(_) => false,
                    }
                });
                self.view = read_view(&event["game"]);
                if !played || !self.jungle_in_step() {
                    self.resync_jungle();
                }
            }
            "game_over" => self.turn = None,
            _ => {}
        }
        kind
    }

    fn jungle_in_step(&self) -> bool {
        let Some(GameView::Jungle(view)) = &self.view else {
            return false;
        };
        self.jungle
            .as_ref()
            .is_some_and(|g| g.position().to_string() == view.fen)
    }

    /// A local game from the view's position (its history unknown).
    fn resync_jungle(&mut self) {
        self.jungle = match &self.view {
            Some(GameView::Jungle(view)) => {
                view.position().ok().map(hangar_jungle::Game::from_position)
            }
            _ => None,
        };
    }

    /// Whether the game has started (a game view was seen).
    pub fn started(&self) -> bool {
        self.view.is_some()
    }

    /// Whether the bot must act now and has not decided this turn yet.
    pub fn to_decide(&self) -> bool {
        self.decided != Some(self.turn_v)
            && self.v >= self.wait_for
            && self.turn.as_ref().is_some_and(|t| t.seat == self.seat)
            && self.view.is_some()
    }

    /// The room version of the current turn.
    pub fn turn_version(&self) -> u64 {
        self.turn_v
    }

    /// The decision of the current turn, or why none can be made.
    pub fn decision(&mut self) -> Result<Decision, String> {
        let turn = self.turn.clone().ok_or("no turn")?;
        let left = turn.deadline - now_ms() - MARGIN_MS;
        // No time to ask: auto-play's choice is sent at once (`question` None, and no choice
        // but the fallback).
        let clock_ms = if left >= LEAST_MS { left as u64 } else { 0 };
        let timeout = Duration::from_millis(clock_ms);
        match self.kind {
            Some(GameKind::Flight) => self.flight_decision(clock_ms, timeout),
            Some(GameKind::Jungle) => self.jungle_decision(clock_ms, timeout),
            None => Err("no snapshot yet".into()),
        }
    }

    fn flight_decision(&mut self, clock_ms: u64, timeout: Duration) -> Result<Decision, String> {
        let Some(RoomOptions::Flight(room)) = self.options else {
            return Err("the room's options are not a flight room's".into());
        };
        let Some(GameView::Flight(view)) = &self.view else {
            return Err("no flight game view".into());
        };
        let game = view.position(room.rules, self.roll)?;
        let choices = flight_choices(&game);
        if choices.is_empty() {
            return Err(format!("nothing to do in phase {:?}", game.phase()));
        }
        let fallback = match game.phase() {
            Phase::Move { .. } => FlightLevel::AUTOPLAY
                .bot()
                .choose(&game, &mut self.rng)
                .map_or(Choice::Roll, Choice::Plane),
            _ => Choice::Roll,
        };
        let may_resign = view.turns >= 15;
        let question =
            (choices.len() > 1).then(|| flight_question(&game, self.seat, &choices, clock_ms));
        let choices = choices
            .into_iter()
            .map(|c| match c {
                FlightChoice::Roll => Choice::Roll,
                FlightChoice::UseItem(item) => Choice::UseItem(item),
                FlightChoice::Move(m) => Choice::Plane(m.plane),
            })
            .collect();
        Ok(Decision {
            question,
            choices,
            fallback,
            timeout,
            may_resign,
        })
    }

    fn jungle_decision(&mut self, clock_ms: u64, timeout: Duration) -> Result<Decision, String> {
        let game = self.jungle.as_ref().ok_or("no jungle position")?;
        let moves = jungle_choices(game);
        let fallback = JunglePlayer::new(JungleBot::level(JungleLevel::AUTOPLAY))
            .choose(game, &mut self.rng)
            .ok_or("no move to play")?;
        let question =
            (moves.len() > 1).then(|| jungle_question(game, self.seat, &moves, clock_ms));
        Ok(Decision {
            question,
            choices: moves
                .iter()
                .map(|m| Choice::Jungle(m.to_string()))
                .collect(),
            fallback: Choice::Jungle(fallback.to_string()),
            timeout,
            may_resign: true,
        })
    }
}

/// The typed game view of a snapshot or event (`None` if it is none).
fn read_view(value: &Value) -> Option<GameView<'static>> {
    GameView::deserialize(value).ok()
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

#[cfg(test)]
mod tests {
    use hangar_dice::DiceScheme;
    use hangar_games::{FlightView, GameSession};
    use hangar_protocol::TurnNeed;
    use serde_json::json;

    use super::*;

    /// P-ENGINE: at every decision of a hall game (items and weather on), the position the
    /// bot rebuilds from the room's view offers exactly the choices the hall's game has.
    #[test]
    fn p_engine_the_flight_view_rebuilds_the_halls_position() {
        for (seed, given) in [
            (
                4,
                json!({"seats": 4, "preset": "improved", "items": true, "weather": true}),
            ),
            (
                5,
                json!({"seats": 3, "three_sixes": "moved-to-hangar", "items": true}),
            ),
            (6, json!({"seats": 2, "planes": 2})),
        ] {
            every_decision_rebuilds(seed, &given);
        }
    }

    fn every_decision_rebuilds(seed: u64, given: &Value) {
        let (options, seats, _) = check_options(GameKind::Flight, given, 60).expect("options");
        let RoomOptions::Flight(room) = options else {
            panic!("a flight room")
        };
        let mut session =
            GameSession::start(&options, seats, Seed::from_u64(seed), DiceScheme::PerRoll)
                .expect("starts");
        let mut checked = 0;
        while let Some((seat, _)) = session.turn() {
            let view: FlightView = serde_json::from_value(session.view()).expect("a flight view");
            let game = view
                .position(room.rules, None)
                .unwrap_or_else(|e| panic!("decision {checked}: {e}\n{view:?}"));
            let planes: Vec<u8> = flight_choices(&game)
                .iter()
                .filter_map(|c| match c {
                    FlightChoice::Move(m) => Some(m.plane),
                    _ => None,
                })
                .collect();
            let hall: Vec<u8> = view.moves.iter().map(|m| m.plane).collect();
            assert_eq!(planes, hall, "decision {checked}: {view:?}");
            let act = session
                .bot_act(seat, hangar_protocol::BotLevel::Heuristic)
                .expect("a bot has a move");
            let played = session.play(seat, &act, None).expect("a bot plays legally");
            // The bot sees a roll as a `rolled` event on the view before it.
            if let (Some(value), Some((_, TurnNeed::Move))) = (played.roll, session.turn()) {
                let game = view.position(room.rules, Some(value)).expect("rolled");
                let after = session.view();
                assert_eq!(
                    flight_choices(&game).len(),
                    after["moves"].as_array().map_or(0, Vec::len),
                    "{view:?} rolled {value}: {after}"
                );
            }
            checked += 1;
        }
        assert!(checked > 50, "{given}: {checked} decisions");
    }
}
