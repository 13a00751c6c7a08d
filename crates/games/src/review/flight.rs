//! Flight review (P-REVIEW): every option's win chance by the TD-trained value network, and
//! each seat's account of the game in points of win chance.
//!
//! The account follows one ledger `current` (each seat's win chance as judged so far), moved
//! step by step from the start to the result; every change is booked to exactly one heading,
//! so that for every seat
//!
//! `start + skill + bot_play + luck + others + residual = result` (up to rounding of `f32`).
//!
//! - A roll of seat `r` in position `s`: for each face `v`, `A_v` is the chances after `v`
//!   played well (the option the net rates best for `r`; the position itself if the roll
//!   leaves no choice); `E` their mean. `E − current` is the residual (the net's own
//!   inconsistency over one roll), `A_die − E` the die's luck: `r`'s own change is `r`'s
//!   luck, the others' changes are booked to their `others`.
//! - A decision of seat `r`: the chances after the chosen option minus those after the best
//!   option. `r`'s change (never positive) is its skill (its bot's play when the action was
//!   auto-play's or a bot's), the others' changes their `others`.
//! - Anything else that changes the chances (a chance draw of items or weather, an item
//!   used, a resignation, the end) is residual.

use hangar_bots::flight::eval::win_chance as hand_chance;
use hangar_bots::flight::snapshot::Snapshot;
use hangar_bots::flight::td::net_chance;
use hangar_bots::flight::{Net, Weights};
use hangar_flight::{Action, Colour, Game, NoEvents, Phase};
use serde::{Deserialize, Serialize};

use super::{Judgement, plural, signed_percent};
use crate::{Act, LoggedAct};

/// Win chance lost by a decision for an inaccuracy, a mistake and a blunder (docs/review.md).
pub const THRESHOLDS: [f64; 3] = [0.02, 0.05, 0.10];

/// A seat of the reviewed game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlightSeat {
    /// The seat.
    pub seat: usize,
    /// The player's name in the record.
    pub name: String,
    /// The colour the seat played.
    pub colour: Colour,
}

/// One legal option of a decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlightOption {
    /// The plane moved.
    pub plane: u8,
    /// Where it starts and ends (progress; 255 the hangar).
    pub from: u8,
    /// See `from`.
    pub to: u8,
    /// Enemy planes it sends back.
    pub captures: u32,
    /// Each seat's win chance after it.
    pub chances: Vec<f64>,
}

/// What a step of the game was.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FlightStepKind {
    /// A die thrown (a roll, or a booster's throw).
    Roll {
        /// The die.
        die: u8,
        /// The roller's win chance after each face 1–6, played well.
        faces: [f64; 6],
        /// Their mean: what the roll was worth on average.
        expected: f64,
        /// The roller's luck: `faces[die − 1] − expected`.
        luck: f64,
    },
    /// A choice of plane.
    Decision {
        /// The roll moved.
        die: u8,
        /// Every legal option.
        options: Vec<FlightOption>,
        /// The plane moved.
        chosen: u8,
        /// The plane of the option the net rates best for the mover.
        best: u8,
        /// The mover's chance after the chosen option minus after the best (never positive).
        skill: f64,
        /// Its class, if it lost enough.
        class: Option<Judgement>,
    },
    /// Anything else that changed the game: an item used, a resignation or leaving.
    Other {
        /// The action, as the record's `kind`.
        what: String,
    },
}

/// One step of the reviewed game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlightStep {
    /// The action's index in the record.
    pub index: usize,
    /// The seat that acted (or was acted for).
    pub seat: usize,
    /// Taken by a bot or auto-play.
    pub auto: bool,
    /// What it was.
    #[serde(flatten)]
    pub kind: FlightStepKind,
    /// Each seat's win chance after the step.
    pub chances: Vec<f64>,
}

/// A seat's account of the game in points of win chance (see the module's documentation):
/// `start + skill + bot_play + luck + others + residual = result`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlightAccount {
    /// The seat.
    pub seat: usize,
    /// The player's name.
    pub name: String,
    /// The colour.
    pub colour: Colour,
    /// The seat's win chance at the start.
    pub start: f64,
    /// 1 when the seat (its side, in a team game) won, else 0.
    pub result: f64,
    /// Its own decisions against the best option.
    pub skill: f64,
    /// The decisions auto-play or a bot took for the seat, against the best option.
    pub bot_play: f64,
    /// Its dice against the average die.
    pub luck: f64,
    /// The other seats' dice and decisions, as they moved this seat's chance.
    pub others: f64,
    /// What the judge's one-roll inconsistency, chance draws, items and resignations moved.
    pub residual: f64,
    /// Its own decisions with more than one option.
    pub decisions: usize,
    /// Decisions with more than one option taken for it by auto-play or a bot.
    pub bot_decisions: usize,
    /// Dice it threw.
    pub rolls: usize,
    /// Its own inaccuracies, mistakes and blunders.
    pub inaccuracies: usize,
    /// See `inaccuracies`.
    pub mistakes: usize,
    /// See `inaccuracies`.
    pub blunders: usize,
}

/// A flight game's review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlightReview {
    /// What judged the positions.
    pub judge: String,
    /// Win chance lost for an inaccuracy, a mistake, a blunder.
    pub thresholds: [f64; 3],
    /// The seats.
    pub seats: Vec<FlightSeat>,
    /// Each seat's win chance at the start.
    pub start: Vec<f64>,
    /// Every roll, decision and other step.
    pub steps: Vec<FlightStep>,
    /// Each seat's account.
    pub accounts: Vec<FlightAccount>,
}

/// What judges positions: the TD-trained net of the game's options and player count, or the
/// hand evaluation's softmax where none applies.
#[derive(Clone, Copy)]
pub struct Judge {
    net: Option<&'static Net>,
}

impl Judge {
    /// The judge of `game`.
    pub fn of(game: &Game) -> Judge {
        Judge {
            net: Net::for_game(game),
        }
    }

    /// Its name.
    pub fn name(&self, game: &Game) -> String {
        match self.net {
            Some(net) => format!(
                "the TD-trained value net ({} players{}, {} hidden units)",
                game.player_count(),
                if game.options().teams { ", teams" } else { "" },
                net.hidden()
            ),
            None => "the hand evaluation's softmax".to_owned(),
        }
    }

    /// `colour`'s win chance in `game` awaiting a roll (or a chance draw), or over.
    fn chance(&self, game: &Game, colour: Colour) -> f64 {
        let c = colour.index();
        f64::from(match self.net {
            Some(net) => net_chance(net, game, c),
            None => hand_chance(&Snapshot::of(game), c, &Weights::default(), 80.0),
        })
    }

    /// Each seat's win chance in `game` awaiting a roll, or over.
    pub fn chances(&self, game: &Game, colours: &[Colour]) -> Vec<f64> {
        colours.iter().map(|&c| self.chance(game, c)).collect()
    }

    /// Each legal option of `game` (awaiting a choice) with the chances after it, and the
    /// index of the best one for the mover (the first of equals).
    pub fn options(&self, game: &Game, colours: &[Colour]) -> (Vec<FlightOption>, usize) {
        let mover = colours.iter().position(|&c| c == game.turn());
        let mut options = Vec::new();
        let mut best = (f64::MIN, 0);
        for (i, m) in game.legal_moves().iter().enumerate() {
            let mut next = *game;
            next.play_unchecked(m, &mut NoEvents);
            let chances = self.chances(&next, colours);
            let mine = mover.map_or(0.0, |s| chances[s]);
            if mine > best.0 {
                best = (mine, i);
            }
            options.push(FlightOption {
                plane: m.plane,
                from: m.from.get(),
                to: m.to.get(),
                captures: m.capture_count(),
                chances,
            });
        }
        (options, best.1)
    }

    /// The chances of a position awaiting anything: a choice is played well (the best
    /// option for the mover), anything else is judged as it stands.
    pub fn settled(&self, game: &Game, colours: &[Colour]) -> Vec<f64> {
        if matches!(game.phase(), Phase::Move { .. }) {
            let (mut options, best) = self.options(game, colours);
            if !options.is_empty() {
                return options.swap_remove(best).chances;
            }
        }
        self.chances(game, colours)
    }

    /// The chances after each face 1–6 thrown in `game` (awaiting a roll), played well.
    pub fn faces(&self, game: &Game, colours: &[Colour]) -> [Vec<f64>; 6] {
        std::array::from_fn(|i| {
            let mut rolled = *game;
            match rolled.roll(i as u8 + 1, &mut NoEvents) {
                Ok(_) => self.settled(&rolled, colours),
                Err(_) => self.chances(game, colours),
            }
        })
    }
}

/// The running account.
struct Ledger {
    current: Vec<f64>,
    accounts: Vec<FlightAccount>,
}

impl Ledger {
    /// Books the change from `current` to `to`: the seat `actor`'s own change under `own`,
    /// the others' under `others`; with no actor everything is residual.
    fn book(&mut self, to: &[f64], actor: Option<usize>, own: fn(&mut FlightAccount) -> &mut f64) {
        for (seat, account) in self.accounts.iter_mut().enumerate() {
            let delta = to[seat] - self.current[seat];
            match actor {
                Some(a) if a == seat => *own(account) += delta,
                Some(_) => account.others += delta,
                None => account.residual += delta,
            }
        }
        self.current = to.to_vec();
    }

    /// Books the change to `to` as residual.
    fn residual(&mut self, to: &[f64]) {
        self.book(to, None, |a| &mut a.residual);
    }
}

/// Reviews a flight game from its steps: the position at the start (`None`) and after each
/// logged action; `colours[seat]` is each seat's colour, `names` their names.
pub fn review_steps(
    steps: &[(Option<(usize, LoggedAct)>, Game)],
    colours: &[Colour],
    names: &[String],
) -> FlightReview {
    review_steps_with_progress(steps, colours, names, &mut |_, _| {})
}

/// [`review_steps`], telling `progress(done, of)` after each logged action judged.
pub fn review_steps_with_progress(
    steps: &[(Option<(usize, LoggedAct)>, Game)],
    colours: &[Colour],
    names: &[String],
    progress: &mut dyn FnMut(usize, usize),
) -> FlightReview {
    let of = steps.len().saturating_sub(1);
    let Some((_, first)) = steps.first() else {
        return FlightReview {
            judge: String::new(),
            thresholds: THRESHOLDS,
            seats: Vec::new(),
            start: Vec::new(),
            steps: Vec::new(),
            accounts: Vec::new(),
        };
    };
    let judge = Judge::of(first);
    let start = judge.settled(first, colours);
    let seats: Vec<FlightSeat> = colours
        .iter()
        .enumerate()
        .map(|(seat, &colour)| FlightSeat {
            seat,
            name: names.get(seat).cloned().unwrap_or_else(|| "?".to_owned()),
            colour,
        })
        .collect();
    let mut ledger = Ledger {
        current: start.clone(),
        accounts: seats
            .iter()
            .map(|s| FlightAccount {
                seat: s.seat,
                name: s.name.clone(),
                colour: s.colour,
                start: start[s.seat],
                result: 0.0,
                skill: 0.0,
                bot_play: 0.0,
                luck: 0.0,
                others: 0.0,
                residual: 0.0,
                decisions: 0,
                bot_decisions: 0,
                rolls: 0,
                inaccuracies: 0,
                mistakes: 0,
                blunders: 0,
            })
            .collect(),
    };
    let mut out = Vec::new();
    for (done, pair) in steps.windows(2).enumerate() {
        progress(done, of);
        let (_, before) = &pair[0];
        let (Some((index, logged)), after) = &pair[1] else {
            continue;
        };
        let (index, seat, auto) = (*index, logged.seat, logged.auto);
        let mut push = |kind, chances: &[f64]| {
            out.push(FlightStep {
                index,
                seat,
                auto,
                kind,
                chances: chances.to_vec(),
            })
        };
        match logged.action {
            Act::Roll => {
                if let Some(kind) = roll(&judge, &mut ledger, before, colours, seat, logged.roll) {
                    push(kind, &ledger.current.clone());
                }
            }
            Act::UseItem(item) => {
                // The item's own effect is not rated: residual. A booster's die is luck.
                let mut mid = *before;
                if mid.play(Action::UseItem { item }, &mut NoEvents).is_ok() {
                    ledger.residual(&judge.settled(&mid, colours));
                    push(
                        FlightStepKind::Other {
                            what: "use_item".to_owned(),
                        },
                        &ledger.current.clone(),
                    );
                    if matches!(mid.phase(), Phase::Roll)
                        && let Some(kind) =
                            roll(&judge, &mut ledger, &mid, colours, seat, logged.roll)
                    {
                        push(kind, &ledger.current.clone());
                    }
                }
            }
            Act::Plane(plane) => {
                if let Phase::Move { roll: die } = before.phase() {
                    let (options, best) = judge.options(before, colours);
                    let mut chosen = *before;
                    if chosen.choose(plane, &mut NoEvents).is_ok() && !options.is_empty() {
                        // From the best option's chances (the ledger's, when the roll was
                        // booked) to the chosen one's.
                        ledger.residual(&options[best].chances);
                        let chances = judge.chances(&chosen, colours);
                        let skill = chances[seat] - options[best].chances[seat];
                        let class = Judgement::of_loss(-skill, THRESHOLDS);
                        if options.len() > 1 {
                            let account = &mut ledger.accounts[seat];
                            if auto {
                                account.bot_decisions += 1;
                            } else {
                                account.decisions += 1;
                                match class {
                                    Some(Judgement::Inaccuracy) => account.inaccuracies += 1,
                                    Some(Judgement::Mistake) => account.mistakes += 1,
                                    Some(Judgement::Blunder) => account.blunders += 1,
                                    None => {}
                                }
                            }
                        }
                        if auto {
                            ledger.book(&chances, Some(seat), |a| &mut a.bot_play);
                        } else {
                            ledger.book(&chances, Some(seat), |a| &mut a.skill);
                        }
                        push(
                            FlightStepKind::Decision {
                                die,
                                chosen: plane,
                                best: options[best].plane,
                                options,
                                skill,
                                class,
                            },
                            &ledger.current.clone(),
                        );
                    }
                }
            }
            Act::Resign | Act::Escape | Act::Abandon => {
                ledger.residual(&judge.settled(after, colours));
                push(
                    FlightStepKind::Other {
                        what: logged.action.kind().to_owned(),
                    },
                    &ledger.current.clone(),
                );
            }
            _ => {}
        }
        // Whatever the step left unbooked (chance draws after it): residual.
        ledger.residual(&judge.settled(after, colours));
    }
    progress(of, of);
    if let Some((_, last)) = steps.last() {
        ledger.residual(&judge.settled(last, colours));
        for (seat, account) in ledger.accounts.iter_mut().enumerate() {
            account.result = ledger.current[seat];
        }
    }
    FlightReview {
        judge: judge.name(first),
        thresholds: THRESHOLDS,
        seats,
        start,
        steps: out,
        accounts: ledger.accounts,
    }
}

/// Books a die thrown by `seat` in `game` (awaiting a roll): the residual to the faces'
/// mean, then the die's luck. `None` (and nothing booked) without a die in 1–6.
fn roll(
    judge: &Judge,
    ledger: &mut Ledger,
    game: &Game,
    colours: &[Colour],
    seat: usize,
    die: Option<u8>,
) -> Option<FlightStepKind> {
    let die = die.filter(|d| (1..=6).contains(d))?;
    if !matches!(game.phase(), Phase::Roll) {
        return None;
    }
    ledger.residual(&judge.chances(game, colours));
    let faces = judge.faces(game, colours);
    let seats = colours.len();
    let expected: Vec<f64> = (0..seats)
        .map(|s| faces.iter().map(|f| f[s]).sum::<f64>() / 6.0)
        .collect();
    ledger.residual(&expected);
    let got = &faces[usize::from(die) - 1];
    ledger.book(got, Some(seat), |a| &mut a.luck);
    ledger.accounts[seat].rolls += 1;
    let mine: [f64; 6] = std::array::from_fn(|i| faces[i][seat]);
    Some(FlightStepKind::Roll {
        die,
        faces: mine,
        expected: expected[seat],
        luck: got[seat] - expected[seat],
    })
}

impl FlightAccount {
    /// "luck +18 %, skill −6 %; 1 mistake".
    pub fn summary(&self) -> String {
        let marks: Vec<String> = [
            (self.inaccuracies, "inaccuracy"),
            (self.mistakes, "mistake"),
            (self.blunders, "blunder"),
        ]
        .into_iter()
        .filter(|&(n, _)| n > 0)
        .map(|(n, noun)| plural(n, noun))
        .collect();
        let mut text = format!(
            "luck {}, skill {}",
            signed_percent(self.luck),
            signed_percent(self.skill)
        );
        if self.bot_decisions > 0 {
            text.push_str(&format!(
                ", auto-play/bot {} ({} decisions)",
                signed_percent(self.bot_play),
                self.bot_decisions
            ));
        }
        if !marks.is_empty() {
            text.push_str("; ");
            text.push_str(&marks.join(", "));
        }
        text
    }
}

impl FlightReview {
    /// The readable review.
    pub fn to_text(&self, game_id: i64) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let percent = |chances: &[f64]| {
            chances
                .iter()
                .map(|c| format!("{:>3.0}", c * 100.0))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let header: Vec<String> = self
            .seats
            .iter()
            .map(|s| format!("{:>3}", &s.colour.name()[..3.min(s.colour.name().len())]))
            .collect();
        let _ = writeln!(
            out,
            "Aeroplane Chess game {game_id}: {} seats, judged by {}",
            self.seats.len(),
            self.judge
        );
        let _ = writeln!(
            out,
            "{:>5}  {:<14} {:<22} {}  note",
            "act",
            "seat",
            "what",
            header.join(" ")
        );
        let _ = writeln!(
            out,
            "{:>5}  {:<14} {:<22} {}",
            "",
            "",
            "start",
            percent(&self.start)
        );
        for step in &self.steps {
            let seat = &self.seats[step.seat];
            let who = format!(
                "{} {}{}",
                step.seat,
                seat.colour.name(),
                if step.auto { "*" } else { "" }
            );
            let (what, note) = match &step.kind {
                FlightStepKind::Roll { die, luck, .. } => (
                    format!("rolls {die}"),
                    format!("luck {}", signed_percent(*luck)),
                ),
                FlightStepKind::Decision {
                    chosen,
                    best,
                    options,
                    skill,
                    class,
                    ..
                } => {
                    let note = if options.len() < 2 {
                        "only move".to_owned()
                    } else if let Some(class) = class {
                        format!(
                            "{}: best plane {best} ({})",
                            class.name(),
                            signed_percent(*skill)
                        )
                    } else if chosen == best {
                        format!("best of {}", options.len())
                    } else {
                        format!("best plane {best} ({})", signed_percent(*skill))
                    };
                    (format!("moves plane {chosen}"), note)
                }
                FlightStepKind::Other { what } => (what.clone(), String::new()),
            };
            let _ = writeln!(
                out,
                "{:>5}  {:<14} {:<22} {}  {}",
                step.index,
                who,
                what,
                percent(&step.chances),
                note
            );
        }
        if self.steps.iter().any(|s| s.auto) {
            let _ = writeln!(out, "* taken by a bot or auto-play for the seat");
        }
        for a in &self.accounts {
            let _ = writeln!(
                out,
                "seat {} {} ({}): {}",
                a.seat,
                a.colour.name(),
                a.name,
                a.summary()
            );
            let _ = writeln!(
                out,
                "    start {:.0} % + skill {} + auto-play/bot {} + luck {} + others {} + residual {} = result {:.0} %",
                a.start * 100.0,
                signed_percent(a.skill),
                signed_percent(a.bot_play),
                signed_percent(a.luck),
                signed_percent(a.others),
                signed_percent(a.residual),
                a.result * 100.0
            );
        }
        out
    }
}
