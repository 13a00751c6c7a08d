//! Game review (P-REVIEW): what each move and each die of a finished game was worth, by the
//! engines' judgement. docs/review.md gives the method, the budgets, the thresholds and the
//! calibration figures.
//!
//! - Jungle ([`jungle`]): every position searched by the alpha-beta bot with a fixed node
//!   budget (the same review on any machine), its score from red's side, a win chance from a
//!   logistic curve fitted on self-play games ([`JUNGLE_SCALE`], [`calibrate`]), the best move
//!   and its line, and each move classed by the win chance it gave away.
//! - Flight ([`flight`]): before each decision, every legal option's win chance per seat by
//!   the TD-trained value network, the option it prefers; and for each seat an account in
//!   points of win chance — skill (its decisions against the best option), luck (its dice
//!   against the average die, as GNU Backgammon rates luck), the others' dice and decisions,
//!   and the judge's own residual — that adds up to the result.
//!
//! The review is a typed serde structure ([`Review`]): `hangar review --json` prints it and
//! the hall can serve the same JSON; [`Review::to_text`] is the readable form the command
//! prints without `--json`.

pub mod calibrate;
pub mod flight;
pub mod jungle;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::record::{GameRecord, RecordError, Step};
use crate::{GameSession, LoggedAct};

pub use flight::{
    FlightAccount, FlightOption, FlightReview, FlightSeat, FlightStep, FlightStepKind,
};
pub use jungle::{
    JUNGLE_SCALE, JungleMoveReview, JunglePlayerSummary, JunglePositionEval, JungleReview, PlyInfo,
    win_chance,
};

/// The node budget of a Jungle position when none is given (`hangar review --nodes`).
pub const DEFAULT_NODES: u64 = 100_000;

/// The review format tag.
pub const REVIEW_FORMAT: &str = "hangar-review/1";

/// How much a review may search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewSettings {
    /// Jungle: the alpha-beta search's node budget per position.
    pub nodes: u64,
}

impl Default for ReviewSettings {
    fn default() -> Self {
        ReviewSettings {
            nodes: DEFAULT_NODES,
        }
    }
}

/// A finished game's review, as `hangar review --json` prints it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// [`REVIEW_FORMAT`].
    pub format: String,
    /// The reviewed game's id in the hall's database (the record's `game_id`).
    pub game_id: i64,
    /// The review of either game.
    #[serde(flatten)]
    pub game: GameReview,
}

/// The review of a Jungle or a flight game, tagged `"game": "jungle" | "flight"`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "game", rename_all = "snake_case")]
pub enum GameReview {
    /// Jungle: evaluations, best moves and marked moves.
    Jungle(JungleReview),
    /// Aeroplane Chess: options' win chances, and each seat's skill and luck.
    Flight(FlightReview),
}

/// How bad a move or a decision was, by the win chance it gave away against the best one:
/// each game has its own three thresholds (`jungle::THRESHOLDS`, `flight::THRESHOLDS`;
/// docs/review.md), the classes and their names are the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Judgement {
    /// At least the first threshold of win chance lost.
    Inaccuracy,
    /// At least the second.
    Mistake,
    /// At least the third.
    Blunder,
}

impl Judgement {
    /// The class of a move that lost `loss` of win chance against `thresholds` (inaccuracy,
    /// mistake, blunder); `None` below the first.
    pub fn of_loss(loss: f64, thresholds: [f64; 3]) -> Option<Judgement> {
        if loss >= thresholds[2] {
            Some(Judgement::Blunder)
        } else if loss >= thresholds[1] {
            Some(Judgement::Mistake)
        } else if loss >= thresholds[0] {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    /// The class's name, as the JSON writes it.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// Why a record cannot be reviewed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ReviewError {
    /// The record does not replay, or its seed is not revealed (a running game: no help
    /// while playing).
    #[error(transparent)]
    Record(#[from] RecordError),
    /// The record replays but the game is not over.
    #[error("the game is not over: only a finished game can be reviewed")]
    NotOver,
}

/// The seat names of a record (`?` for a seat without one).
fn seat_names(record: &GameRecord) -> Vec<String> {
    record
        .seats
        .iter()
        .map(|s| s["name"].as_str().unwrap_or("?").to_owned())
        .collect()
}

/// Reviews a finished game's record (P-REVIEW).
pub fn review_record(
    record: &GameRecord,
    settings: &ReviewSettings,
) -> Result<Review, ReviewError> {
    review_record_with_progress(record, settings, &mut |_, _| {})
}

/// [`review_record`], telling `progress(done, of)` after each unit of work: a Jungle
/// position searched, a flight action judged (the hall shows it while a review runs). The
/// review is the same as without.
pub fn review_record_with_progress(
    record: &GameRecord,
    settings: &ReviewSettings,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Review, ReviewError> {
    let names = seat_names(record);
    let game = match record.game {
        hangar_protocol::GameKind::Jungle => {
            let mut infos = Vec::new();
            let mut last: Option<hangar_jungle::Game> = None;
            let verified = record.walk(|step: Step<'_>, _, session: &GameSession| {
                let Some(game) = session.jungle_game() else {
                    return;
                };
                let before = last.as_ref().map_or(0, |g| g.plies().len());
                if let Some((index, logged)) = step
                    && game.plies().len() > before
                {
                    infos.push(PlyInfo {
                        action: Some(index),
                        auto: logged.auto,
                    });
                }
                last = Some(game.clone());
            })?;
            if !verified.over {
                return Err(ReviewError::NotOver);
            }
            let game = last.ok_or(ReviewError::NotOver)?;
            GameReview::Jungle(jungle::review_game_with_progress(
                &game,
                &infos,
                &names,
                settings.nodes,
                progress,
            ))
        }
        hangar_protocol::GameKind::Flight => {
            let mut steps: Vec<(Option<(usize, LoggedAct)>, hangar_flight::Game)> = Vec::new();
            let mut colours = Vec::new();
            let verified = record.walk(|step: Step<'_>, _, session: &GameSession| {
                if let Some((game, seated)) = session.flight_game() {
                    colours = seated.to_vec();
                    steps.push((step.map(|(i, l)| (i, l.clone())), *game));
                }
            })?;
            if !verified.over {
                return Err(ReviewError::NotOver);
            }
            GameReview::Flight(flight::review_steps_with_progress(
                &steps, &colours, &names, progress,
            ))
        }
    };
    Ok(Review {
        format: REVIEW_FORMAT.to_owned(),
        game_id: record.game_id,
        game,
    })
}

/// [`review_record`] of a record's JSON.
pub fn review_json(record: &Value, settings: &ReviewSettings) -> Result<Review, ReviewError> {
    review_record(&GameRecord::from_value(record)?, settings)
}

impl Review {
    /// The review as text: a table of the moves, then a summary line per player (what
    /// `hangar review` prints).
    pub fn to_text(&self) -> String {
        match &self.game {
            GameReview::Jungle(review) => review.to_text(self.game_id),
            GameReview::Flight(review) => review.to_text(self.game_id),
        }
    }
}

/// A share (0..1) as a signed percentage: `+18 %`, `−6 %` (a true minus sign).
pub(crate) fn signed_percent(x: f64) -> String {
    let rounded = (x * 100.0).round();
    if rounded > 0.0 {
        format!("+{rounded:.0} %")
    } else if rounded < 0.0 {
        format!("\u{2212}{:.0} %", -rounded)
    } else {
        "0 %".to_owned()
    }
}

/// `n` with the noun, in the singular for one: `1 blunder`, `3 mistakes`.
pub(crate) fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else if let Some(stem) = noun.strip_suffix('y') {
        format!("{n} {stem}ies")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests;
