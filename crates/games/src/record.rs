//! Game records (P-RECORD): export from the database, fair-dice verification (P-FAIR-DICE)
//! and a move-by-move replay, shared by the HTTP API and `hangar verify` / `hangar replay`.
//!
//! The hall's record ([`GameRecord`]) is the room's log: who sat where, the seed and its
//! commitment, and every seat-level act (timeouts, resignations, auto-play, draw offers) with
//! the die drawn for each roll. Each rule in it has one owner, and this module only asks it:
//! the commitment is `hangar-dice`'s ([`Seed::matches`]); the options are the room's
//! ([`RoomOptions::stored`]); the acts replay through the game the room runs
//! ([`GameSession`]: `hangar_flight::Table` or `hangar_jungle`); a finished flight game's
//! `flight_record` is `hangar-flight`'s [`hangar_flight::Record`], which
//! [`hangar_flight::Record::replay`] checks on its own before it is compared with the log.

use hangar_dice::{DiceScheme, Seed};
use hangar_flight::NoEvents;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::StoredGame;
use crate::{Act, DEFAULT_TURN_SECONDS, GameSession, RoomOptions, event_value};
use crate::{JUNGLE_TIMEOUTS_ALLOWED, LoggedAct};
use hangar_protocol::{GameKind, ProtoError};

/// The record format tag.
pub const RECORD_FORMAT: &str = "hangar-record/1";

/// A game record (P-RECORD), as `GET /api/games/{id}` exports it and `hangar verify` reads
/// it back. The JSON is the one documented in docs/protocol.md §record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// [`RECORD_FORMAT`].
    pub format: String,
    /// The game's id in the database.
    pub game_id: i64,
    /// Which game.
    pub game: GameKind,
    /// The room's code.
    pub room: String,
    /// The room's options as stored; [`RoomOptions::stored`] reads them.
    pub options: Value,
    /// The seats in seat order, as the room stored them (`name`, `bot`, …).
    pub seats: Vec<Value>,
    /// sha256 of the seed, published when the game started (P-FAIR-DICE).
    pub commitment: String,
    /// The seed, revealed once the game has ended; `null` while it runs.
    pub seed: Option<Seed>,
    /// The construction the dice follow (protocol.md §10); records made before per-roll
    /// dice name none and are [`DiceScheme::SeedStream`], so they verify as they always did.
    #[serde(default)]
    pub dice: DiceScheme,
    /// The action log, without which client sent a command.
    pub actions: Vec<LoggedAct>,
    /// The result, once over.
    pub result: Option<Value>,
    /// Start time, Unix seconds.
    pub started_at: i64,
    /// End time, Unix seconds, once over.
    pub finished_at: Option<i64>,
    /// A finished flight game: the engine's own record, which the log replays into.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flight_record: Option<hangar_flight::Record>,
}

/// Why a record does not check out. The rules' own errors are wrapped, not repeated.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RecordError {
    /// Not a record: a field is missing or has the wrong shape.
    #[error("not a game record: {0}")]
    Format(String),
    /// The seed is not revealed (the game is still running).
    #[error("the seed is not revealed: the game has not ended")]
    NoSeed,
    /// sha256(seed) differs from the published commitment.
    #[error(
        "the seed does not match the commitment: sha256(seed) = {actual}, published {published}"
    )]
    Commitment {
        /// sha256 of the revealed seed.
        actual: String,
        /// The commitment published at the start.
        published: String,
    },
    /// A recorded roll differs from the one the seed (and, with per-roll dice, the
    /// recorded bytes) gives. The log's own rule: the engine's record keeps no values, the
    /// hall's log keeps the die it drew so that it can be checked.
    #[error(
        "action {index}: recorded roll {recorded}, the seed gives {drawn} (roll {k} of the game)"
    )]
    Roll {
        /// Index in the action list.
        index: usize,
        /// The roll's number k in the game (0 for the first die thrown).
        k: u64,
        /// The recorded value.
        recorded: u8,
        /// The value drawn from the seed.
        drawn: u8,
    },
    /// A person's roll of a per-roll game without the person's bytes: the hall could have
    /// chosen it (P-FAIR-DICE), so the record is refused.
    #[error("action {index}: a person's roll without the roller's entropy (roll {k} of the game)")]
    MissingEntropy {
        /// Index in the action list.
        index: usize,
        /// The roll's number k in the game.
        k: u64,
    },
    /// An action the game refuses: the engine's refusal as the room words it.
    #[error("action {index} is not legal: {}", refusal.message)]
    Illegal {
        /// Index in the action list.
        index: usize,
        /// The refusal.
        #[source]
        refusal: ProtoError,
    },
    /// The exported `flight_record` does not replay (`hangar-flight`'s check).
    #[error("flight_record: {0}")]
    Flight(#[from] hangar_flight::RecordError),
    /// The exported `flight_record` replays, but is not the game the log replays into.
    #[error("flight_record is not the game the actions replay into")]
    FlightRecordDiffers,
}

impl From<serde_json::Error> for RecordError {
    fn from(error: serde_json::Error) -> Self {
        RecordError::Format(error.to_string())
    }
}

impl GameRecord {
    /// A stored game as a record; the seed only once the game has ended. A log entry that
    /// is not a [`LoggedAct`] makes the stored game no record (the hall writes only those).
    pub fn from_stored(game: &StoredGame) -> Result<GameRecord, RecordError> {
        let actions = game
            .actions
            .iter()
            .enumerate()
            .map(|(index, text)| {
                let mut act = LoggedAct::from_line(text)
                    .map_err(|e| RecordError::Format(format!("action {index}: {e}")))?;
                // Which client sent a command is the server's business, not the record's.
                act.cmd = None;
                Ok(act)
            })
            .collect::<Result<Vec<_>, RecordError>>()?;
        let finished = game.status == "finished";
        let game_kind = GameKind::from_name(&game.start.game)
            .ok_or_else(|| RecordError::Format(format!("game {:?}", game.start.game)))?;
        let seed = if finished {
            let seed = game
                .start
                .seed
                .parse()
                .map_err(|e: hangar_dice::SeedError| RecordError::Format(format!("seed: {e}")))?;
            Some(seed)
        } else {
            None
        };
        let mut record = GameRecord {
            format: RECORD_FORMAT.to_owned(),
            game_id: game.id,
            game: game_kind,
            room: game.start.room.clone(),
            options: serde_json::from_str(&game.start.options)?,
            seats: serde_json::from_str(&game.start.seats)?,
            commitment: game.start.commitment.clone(),
            seed,
            actions,
            result: game
                .result
                .as_deref()
                .map(serde_json::from_str)
                .transpose()?,
            started_at: game.started_at,
            finished_at: game.finished_at,
            flight_record: None,
            dice: game.start.dice,
        };
        if finished && game_kind == GameKind::Flight {
            // The engine's record follows from the log by a replay; a log that does not
            // replay is exported as it is, and `verify` says why.
            if let Ok(session) = record.walk_to_end() {
                record.flight_record = session.flight_record().cloned();
            }
        }
        Ok(record)
    }

    /// Reads a record from its JSON.
    pub fn from_value(value: &Value) -> Result<GameRecord, RecordError> {
        Ok(GameRecord::deserialize(value)?)
    }
}

/// A stored game as the record's JSON (for the HTTP API).
pub fn record_json(game: &StoredGame) -> Result<Value, RecordError> {
    Ok(serde_json::to_value(GameRecord::from_stored(game)?)?)
}

/// What `verify` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// Rolls checked against the seed.
    pub rolls: usize,
    /// The construction the dice were checked by.
    pub dice: DiceScheme,
    /// Every die thrown, in order: who threw it and with whose bytes.
    pub dice_rolls: Vec<CheckedRoll>,
    /// Actions replayed.
    pub actions: usize,
    /// Whether the replayed game is over.
    pub over: bool,
}

/// One die of a verified game (P-FAIR-DICE): its number, where it is in the log, the value
/// re-derived, and whether the roller's own bytes went into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedRoll {
    /// The roll's number k (0 for the game's first die).
    pub k: u64,
    /// Index in the action list.
    pub index: usize,
    /// The seat that rolled.
    pub seat: usize,
    /// The die.
    pub value: u8,
    /// Whether the roller's own bytes went into it (a person's roll); otherwise the hall
    /// rolled it (a bot, auto-play or the timer) and the commitment alone fixed it.
    pub own: bool,
}

/// One step of a walk: `None` for the start, else the index and the logged act.
pub(crate) type Step<'a> = Option<(usize, &'a LoggedAct)>;

impl GameRecord {
    /// Walks the record through the game: first the start (`None`), then every step with
    /// the room events the engine produced for it and the session after it.
    pub(crate) fn walk(
        &self,
        each: impl FnMut(Step<'_>, &[Value], &GameSession),
    ) -> Result<Verified, RecordError> {
        self.walk_session(each).map(|(verified, _)| verified)
    }

    /// The game at the end of the record.
    fn walk_to_end(&self) -> Result<GameSession, RecordError> {
        self.walk_session(|_, _, _| {}).map(|(_, session)| session)
    }

    /// [`GameRecord::walk`], also returning the session at the end.
    fn walk_session(
        &self,
        mut each: impl FnMut(Step<'_>, &[Value], &GameSession),
    ) -> Result<(Verified, GameSession), RecordError> {
        let seed = self.seed.ok_or(RecordError::NoSeed)?;
        if !seed.matches(&self.commitment) {
            return Err(RecordError::Commitment {
                actual: seed.commitment(),
                published: self.commitment.clone(),
            });
        }
        let seats = self.seats.len();
        let options = RoomOptions::stored(self.game, &self.options, DEFAULT_TURN_SECONDS)
            .map_err(|e| RecordError::Format(e.to_string()))?;
        let mut session = GameSession::start(&options, seats, seed, self.dice)
            .map_err(|e| RecordError::Format(e.message))?;
        each(None, &[], &session);
        let mut timeouts = vec![0u32; seats];
        let mut rolls = 0;
        let mut dice_rolls = Vec::new();
        for (index, logged) in self.actions.iter().enumerate() {
            let illegal = |refusal: ProtoError| RecordError::Illegal { index, refusal };
            if logged.seat >= seats {
                return Err(RecordError::Format(format!(
                    "action {index}: seat {} of {seats}",
                    logged.seat
                )));
            }
            let mut events = Vec::new();
            match &logged.action {
                act if act.is_play() => {
                    if session.turn().map(|(seat, _)| seat) != Some(logged.seat) {
                        return Err(illegal(ProtoError::new(
                            hangar_protocol::ErrorCode::NotYourTurn,
                            format!("not seat {}'s turn", logged.seat),
                        )));
                    }
                    let played = session
                        .play(logged.seat, &logged.action, logged.entropy.as_ref())
                        .map_err(illegal)?;
                    if let Some(drawn) = played.roll {
                        let k = dice_rolls.len() as u64;
                        // Under per-roll dice a person's die needs the person's bytes: one
                        // without them is a die the hall could have chosen.
                        if self.dice == DiceScheme::PerRoll
                            && !logged.auto
                            && logged.entropy.is_none()
                        {
                            return Err(RecordError::MissingEntropy { index, k });
                        }
                        if let Some(recorded) = logged.roll {
                            if drawn != recorded {
                                return Err(RecordError::Roll {
                                    index,
                                    k,
                                    recorded,
                                    drawn,
                                });
                            }
                            rolls += 1;
                        }
                        dice_rolls.push(CheckedRoll {
                            k,
                            index,
                            seat: logged.seat,
                            value: drawn,
                            own: logged.entropy.is_some(),
                        });
                    }
                    events = played.events;
                }
                Act::Timeout if self.game == GameKind::Jungle => {
                    timeouts[logged.seat] += 1;
                    if timeouts[logged.seat] > JUNGLE_TIMEOUTS_ALLOWED {
                        events = session.remove(logged.seat);
                    } else {
                        events = session.pass().map_err(illegal)?.events;
                    }
                }
                Act::Resign | Act::Escape | Act::Abandon => {
                    events = session.remove(logged.seat);
                }
                Act::DrawAnswer { accept: true } => session.agree_draw(),
                _ => {}
            }
            let events: Vec<Value> = events.iter().map(event_value).collect();
            each(Some((index, logged)), &events, &session);
        }
        let verified = Verified {
            rolls,
            dice: self.dice,
            dice_rolls,
            actions: self.actions.len(),
            over: session.is_over(),
        };
        Ok((verified, session))
    }

    /// Checks the record's fair dice: the seed matches the commitment and every recorded
    /// roll is the one the seed gives, the game replaying legally (P-FAIR-DICE). A flight
    /// record's `flight_record` must replay through `hangar-flight` and be the game the log
    /// replays into.
    pub fn verify(&self) -> Result<Verified, RecordError> {
        let (verified, session) = self.walk_session(|_, _, _| {})?;
        if let Some(exported) = &self.flight_record {
            exported.replay(&mut NoEvents)?;
            if session.flight_record() != Some(exported) {
                return Err(RecordError::FlightRecordDiffers);
            }
        }
        Ok(verified)
    }
}

/// [`GameRecord::verify`] of a record's JSON.
pub fn verify(record: &Value) -> Result<Verified, RecordError> {
    GameRecord::from_value(record)?.verify()
}

/// [`GameRecord::replay_lines`] of a record's JSON.
pub fn replay_lines(record: &Value) -> Result<Vec<String>, RecordError> {
    GameRecord::from_value(record)?.replay_lines()
}

impl GameRecord {
    /// The game move by move, one line per action (for `hangar replay`).
    pub fn replay_lines(&self) -> Result<Vec<String>, RecordError> {
        let name = |seat: usize| {
            self.seats
                .get(seat)
                .and_then(|s| s["name"].as_str())
                .unwrap_or("?")
                .to_owned()
        };
        let mut lines = vec![format!(
            "{} game {} in room {} — commitment {}",
            self.game.name(),
            self.game_id,
            self.room,
            self.commitment,
        )];
        self.walk(|step, _, session| {
            let Some((index, logged)) = step else {
                return;
            };
            let who = format!("seat {} ({})", logged.seat, name(logged.seat));
            let what = match &logged.action {
                Act::Roll => format!(
                    "rolls {}{}",
                    logged.roll.map_or("?".into(), |r| r.to_string()),
                    logged
                        .entropy
                        .as_ref()
                        .map_or(String::new(), |e| format!(" (own bytes {e})"))
                ),
                Act::Plane(plane) => format!("moves plane {plane}"),
                Act::Step(m) => format!("plays {m}"),
                other => other.kind().to_owned(),
            };
            let auto = if logged.auto { " [auto]" } else { "" };
            let view = session.view();
            let state = match view["kind"].as_str() {
                Some("flight") => format!("planes {}", view["planes"]),
                _ => view["fen"].as_str().unwrap_or_default().to_owned(),
            };
            lines.push(format!("{:>4}. {who} {what}{auto}   → {state}", index + 1));
        })?;
        if let Some(result) = self.result.as_ref().filter(|r| r.is_object()) {
            lines.push(format!("result: {result}"));
        }
        Ok(lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use crate::NewGame;
    use hangar_dice::Entropy;

    /// A running flight game as stored, with one roll sent by a client.
    fn stored_flight_game() -> StoredGame {
        StoredGame {
            id: 1,
            start: NewGame {
                room: "ROOM01".into(),
                game: "flight".into(),
                private: false,
                options: "{}".into(),
                seats: "[]".into(),
                seed: "00".into(),
                commitment: "00".into(),
                dice: DiceScheme::PerRoll,
            },
            status: "running".into(),
            result: None,
            started_at: 0,
            finished_at: None,
            actions: vec![
                r#"{"seat":0,"action":{"kind":"roll"},"roll":6,"cmd":{"client":"tab-1","id":5}}"#
                    .into(),
            ],
        }
    }

    #[test]
    fn records_leave_out_which_client_sent_a_command() {
        let record = record_json(&stored_flight_game()).unwrap();
        assert_eq!(
            record["actions"][0],
            json!({"seat": 0, "action": {"kind": "roll"}, "roll": 6})
        );
        assert_eq!(
            record["seed"],
            Value::Null,
            "the seed stays secret while it runs"
        );
    }

    /// A finished two-seat flight game played by bots, as the hall records it.
    fn bot_flight_record() -> GameRecord {
        let seed = Seed::from_u64(5);
        let options = RoomOptions::stored(GameKind::Flight, &json!({}), DEFAULT_TURN_SECONDS)
            .expect("default options");
        let mut session =
            GameSession::start(&options, 2, seed, DiceScheme::PerRoll).expect("a game");
        let mut actions = Vec::new();
        while let Some((seat, _)) = session.turn() {
            let action = session
                .bot_act(seat, hangar_protocol::BotLevel::Heuristic)
                .expect("a bot has a move");
            // The second seat rolls as a person, with bytes of its own.
            let entropy = (seat == 1).then(Entropy::random);
            let played = session
                .play(seat, &action, entropy.as_ref())
                .expect("a bot plays legally");
            let entropy = played.roll.and(entropy);
            actions.push(LoggedAct {
                seat,
                action,
                roll: played.roll,
                entropy,
                auto: seat == 0,
                cmd: None,
            });
        }
        GameRecord {
            format: RECORD_FORMAT.to_owned(),
            game_id: 1,
            game: GameKind::Flight,
            room: "ROOM01".into(),
            options: json!({}),
            seats: vec![json!({"name": "a"}), json!({"name": "b"})],
            commitment: seed.commitment(),
            seed: Some(seed),
            actions,
            result: None,
            started_at: 0,
            finished_at: Some(1),
            flight_record: session.flight_record().cloned(),
            dice: DiceScheme::PerRoll,
        }
    }

    /// P-FAIR-DICE, P-RECORD: the exported engine record is checked by `hangar-flight` and
    /// against the log; a forged one is refused with the engine's own error.
    #[test]
    fn p_fair_dice_a_forged_flight_record_is_refused() {
        let record = bot_flight_record();
        let verified = record.verify().expect("the bots' game verifies");
        assert!(verified.over && verified.rolls > 20);
        let through_json = serde_json::to_value(&record).expect("serialises");
        assert_eq!(verify(&through_json), Ok(verified));

        // A move that is no move at all: hangar-flight's replay refuses it.
        let mut forged = record.clone();
        let exported = forged.flight_record.as_mut().expect("a flight record");
        let at = exported
            .actions
            .iter()
            .position(|a| matches!(a, hangar_flight::RecordedAction::Move(_)))
            .expect("a move");
        exported.actions[at] = hangar_flight::RecordedAction::Move(9);
        assert!(matches!(
            forged.verify(),
            Err(RecordError::Flight(hangar_flight::RecordError::Action { index, .. })) if index == at
        ));

        // A legal game, but not this one: the last action cut off.
        let mut forged = record.clone();
        forged
            .flight_record
            .as_mut()
            .expect("a flight record")
            .actions
            .pop();
        assert_eq!(forged.verify(), Err(RecordError::FlightRecordDiffers));
    }

    /// P-FAIR-DICE: a per-roll record's dice are re-derived from the seed and each person's
    /// bytes; one byte of one roll's entropy changed (so that its die changes), or one die
    /// changed, fails verification naming that roll; a person's roll stripped of its bytes
    /// is refused; the verification says which rolls were the players' own.
    #[test]
    fn p_fair_dice_a_forged_per_roll_record_fails_naming_the_roll() {
        let record = bot_flight_record();
        let verified = record.verify().expect("the game verifies");
        assert_eq!(verified.dice, DiceScheme::PerRoll);
        let own = verified.dice_rolls.iter().filter(|r| r.own).count();
        assert!(
            own > 5 && own < verified.dice_rolls.len(),
            "{own} own rolls"
        );
        assert!(verified.dice_rolls.iter().all(|r| r.own == (r.seat == 1)));
        let mine = verified
            .dice_rolls
            .iter()
            .find(|r| r.own)
            .expect("an own roll");
        let (index, k) = (mine.index, mine.k);

        // One byte of the roll's entropy changed: some value of that byte changes the die.
        let original = record.actions[index].entropy.expect("bytes");
        let forged_die = (1..=255u8).find_map(|x| {
            let mut bytes = original.as_bytes().to_vec();
            bytes[0] ^= x;
            let mut forged = record.clone();
            forged.actions[index].entropy = Some(Entropy::from_bytes(&bytes).expect("16 bytes"));
            match forged.verify() {
                Err(RecordError::Roll {
                    index: at, k: kk, ..
                }) => Some((at, kk)),
                _ => None,
            }
        });
        assert_eq!(forged_die, Some((index, k)));

        // One die changed.
        let mut forged = record.clone();
        let die = forged.actions[index].roll.expect("a die");
        forged.actions[index].roll = Some(die % 6 + 1);
        assert!(matches!(
            forged.verify(),
            Err(RecordError::Roll { index: at, k: kk, .. }) if at == index && kk == k
        ));

        // A person's roll without its bytes: the hall could have chosen it.
        let mut forged = record.clone();
        forged.actions[index].entropy = None;
        assert_eq!(
            forged.verify(),
            Err(RecordError::MissingEntropy { index, k })
        );
    }

    /// P-FAIR-DICE: a record made before per-roll dice (no `dice` field, no bytes) reads as
    /// seed-stream and verifies as it always did.
    #[test]
    fn p_fair_dice_an_old_record_verifies_by_the_seed_stream() {
        let seed = Seed::from_u64(6);
        let options = RoomOptions::stored(GameKind::Flight, &json!({}), DEFAULT_TURN_SECONDS)
            .expect("default options");
        let mut session =
            GameSession::start(&options, 2, seed, DiceScheme::SeedStream).expect("a game");
        let mut actions = Vec::new();
        while let Some((seat, _)) = session.turn() {
            let action = session
                .bot_act(seat, hangar_protocol::BotLevel::Heuristic)
                .expect("a bot has a move");
            let played = session.play(seat, &action, None).expect("legal");
            actions
                .push(json!({"seat": seat, "action": action, "roll": played.roll, "auto": true}));
        }
        let old = json!({
            "format": RECORD_FORMAT, "game_id": 1, "game": "flight", "room": "R", "options": {},
            "seats": [{"name": "a"}, {"name": "b"}], "commitment": seed.commitment(),
            "seed": seed, "actions": actions, "result": null, "started_at": 0, "finished_at": 1
        });
        let verified = verify(&old).expect("an old record verifies");
        assert_eq!(verified.dice, DiceScheme::SeedStream);
        assert!(verified.over && verified.dice_rolls.iter().all(|r| !r.own));
    }

    /// A log entry naming a seat the record does not have is refused, not replayed.
    #[test]
    fn p_record_an_action_of_a_missing_seat_is_refused() {
        let mut record = bot_flight_record();
        record.actions.push(LoggedAct {
            seat: 2,
            action: Act::Resign,
            roll: None,
            entropy: None,
            auto: false,
            cmd: None,
        });
        assert!(matches!(record.verify(), Err(RecordError::Format(m)) if m.contains("seat 2")));
    }

    /// A stored log entry that is not a logged act makes the export fail, not drop it.
    #[test]
    fn p_record_a_corrupt_log_entry_is_no_record() {
        let mut game = stored_flight_game();
        game.actions.push("{\"seat\":0}".into());
        assert!(matches!(
            GameRecord::from_stored(&game),
            Err(RecordError::Format(m)) if m.starts_with("action 1")
        ));
    }
}
