//! Jungle review (P-REVIEW): each position of a finished game searched by the alpha-beta bot
//! with a fixed node budget, its score from red's side and a win chance from the fitted
//! logistic curve, the best move and its line, each move classed by the win chance it gave
//! away.

use hangar_bots::jungle::{Limits, Searcher, WIN, WIN_BOUND};
use hangar_jungle::{Color, Game, Outcome, Ply};
use serde::{Deserialize, Serialize};

use super::{Judgement, plural};

/// The logistic curve's slope: a position scored `s` (the search's units, from the side to
/// move) is won with chance `1 / (1 + exp(-JUNGLE_SCALE * s))`, a draw counting half.
/// Fitted by `hangar review --calibrate` on self-play games (docs/review.md).
pub const JUNGLE_SCALE: f64 = 0.00163;

/// Win chance given away for an inaccuracy, a mistake and a blunder (docs/review.md).
pub const THRESHOLDS: [f64; 3] = [0.10, 0.20, 0.30];

/// The win chance (0..1, a draw counting half) of a score for the side it is scored for:
/// 1 or 0 for a forced result, else the fitted logistic curve ([`JUNGLE_SCALE`]).
pub fn win_chance(score: i32) -> f64 {
    if score > WIN_BOUND {
        1.0
    } else if score < -WIN_BOUND {
        0.0
    } else {
        1.0 / (1.0 + (-JUNGLE_SCALE * f64::from(score)).exp())
    }
}

/// Where a ply of the game came from in the record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlyInfo {
    /// The index of its action in the record.
    pub action: Option<usize>,
    /// Played by a bot or auto-play for the seat.
    pub auto: bool,
}

/// One position's evaluation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JunglePositionEval {
    /// Plies played before it (0: the start).
    pub ply: usize,
    /// The position (jungle.md §5 text).
    pub fen: String,
    /// The side to move (`red`, `yellow`).
    pub to_move: String,
    /// The score from red's side, in the search's units (a piece's worth is 250–1000): the
    /// mean of the search's last two depths (free of the side to move's tempo); a forced
    /// result is ±30,000 less the plies to it.
    pub score: i32,
    /// A forced result: plies to it, positive when red wins.
    pub mate: Option<i32>,
    /// Red's win chance (a draw counting half).
    pub red_win_chance: f64,
    /// The best move of the side to move, if the game goes on.
    pub best: Option<String>,
    /// The expected line from here, best move first.
    pub line: Vec<String>,
    /// The last fully searched depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// One move (or pass) of the game, judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JungleMoveReview {
    /// Its number: 1 for the first ply.
    pub ply: usize,
    /// Its action in the record.
    pub action: Option<usize>,
    /// The seat (0 red, 1 yellow).
    pub seat: usize,
    /// Played by a bot or auto-play.
    pub auto: bool,
    /// The move, or `pass` (a timeout).
    pub played: String,
    /// The best move the search found before it.
    pub best: Option<String>,
    /// The mover's win chance before the move (with the best move) and after it.
    pub before: f64,
    /// See `before`.
    pub after: f64,
    /// The win chance given away: `before − after`, at least 0; 0 for the best move itself.
    pub loss: f64,
    /// Its class, if it lost enough.
    pub judgement: Option<Judgement>,
}

/// One player's summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JunglePlayerSummary {
    /// The seat (0 red, 1 yellow).
    pub seat: usize,
    /// The player's name in the record.
    pub name: String,
    /// `red` or `yellow`.
    pub colour: String,
    /// Moves the player chose (auto-play's and bots' left out).
    pub moves: usize,
    /// Moves a bot or auto-play chose for the seat.
    pub auto_moves: usize,
    /// Inaccuracies among the player's own moves.
    pub inaccuracies: usize,
    /// Mistakes among them.
    pub mistakes: usize,
    /// Blunders among them.
    pub blunders: usize,
    /// The mean win chance given away per own move.
    pub average_loss: f64,
}

/// A Jungle game's review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JungleReview {
    /// The search's node budget per position.
    pub nodes: u64,
    /// The logistic curve's slope ([`JUNGLE_SCALE`]).
    pub scale: f64,
    /// Win chance lost for an inaccuracy, a mistake, a blunder.
    pub thresholds: [f64; 3],
    /// Every position, from the start to the last.
    pub positions: Vec<JunglePositionEval>,
    /// Every ply, judged.
    pub moves: Vec<JungleMoveReview>,
    /// Red's and yellow's summaries.
    pub players: Vec<JunglePlayerSummary>,
    /// The result (`{"result": "win", …}` or a draw), as the engine states it; `None` when
    /// the game ended off the board (resignation, agreement, forfeit).
    pub outcome: Option<Outcome>,
}

/// The evaluation of the game's current position with a fresh search of `nodes` nodes.
pub fn evaluate(searcher: &mut Searcher, game: &Game, nodes: u64) -> JunglePositionEval {
    let pos = game.position();
    let turn = pos.turn();
    let red = |score: i32| if turn == Color::Red { score } else { -score };
    let mut eval = JunglePositionEval {
        ply: game.plies().len(),
        fen: pos.to_string(),
        to_move: turn.to_string(),
        score: 0,
        mate: None,
        red_win_chance: 0.5,
        best: None,
        line: Vec::new(),
        depth: 0,
        nodes: 0,
    };
    if let Some(outcome) = game.outcome() {
        match outcome.winner() {
            Some(winner) => {
                let score = if winner == Color::Red { WIN } else { -WIN };
                eval.score = score;
                eval.red_win_chance = if winner == Color::Red { 1.0 } else { 0.0 };
            }
            None => eval.red_win_chance = 0.5,
        }
        return eval;
    }
    searcher.new_game();
    let limits = Limits {
        nodes: Some(nodes.max(1)),
        ..Limits::default()
    };
    let Some(analysis) = searcher.analyse(game, limits) else {
        return eval;
    };
    // The mean of the last two iterations, free of the side to move's tempo (the
    // evaluation counts its mobility): a forced result as found.
    let last = analysis.report.score;
    let score = match analysis.previous {
        Some(previous) if last.abs() <= WIN_BOUND && previous.abs() <= WIN_BOUND => {
            (last + previous) / 2
        }
        _ => last,
    };
    eval.score = red(score);
    if score.abs() > WIN_BOUND {
        eval.mate = Some(red(score.signum() * (WIN - score.abs())));
    }
    eval.red_win_chance = win_chance(eval.score);
    eval.best = Some(analysis.report.best.to_string());
    eval.line = analysis.pv.iter().map(ToString::to_string).collect();
    eval.depth = analysis.report.depth;
    eval.nodes = analysis.report.nodes;
    eval
}

/// Reviews a finished game (its start and plies; `infos[i]` says where ply `i` came from)
/// with `nodes` nodes per position. `names` are the seats' names.
pub fn review_game(game: &Game, infos: &[PlyInfo], names: &[String], nodes: u64) -> JungleReview {
    review_game_with_progress(game, infos, names, nodes, &mut |_, _| {})
}

/// [`review_game`], telling `progress(done, of)` after each position searched.
pub fn review_game_with_progress(
    game: &Game,
    infos: &[PlyInfo],
    names: &[String],
    nodes: u64,
    progress: &mut dyn FnMut(usize, usize),
) -> JungleReview {
    let mut searcher = Searcher::default();
    let mut replay = Game::from_position(*game.start());
    let of = game.plies().len() + 1;
    let mut positions = vec![evaluate(&mut searcher, &replay, nodes)];
    progress(positions.len(), of);
    for ply in game.plies() {
        let played = match *ply {
            Ply::Move(m) => replay.play(m).map(|_| ()),
            Ply::Pass => replay.pass().map(|_| ()),
        };
        if played.is_err() {
            break; // not reached: the plies come from a game that played them
        }
        positions.push(evaluate(&mut searcher, &replay, nodes));
        progress(positions.len(), of);
    }
    // A game ended off the board (resignation, agreement) ends with the position as it was.
    let mut moves = Vec::new();
    for (i, ply) in game.plies().iter().enumerate() {
        let (Some(before), Some(after)) = (positions.get(i), positions.get(i + 1)) else {
            break;
        };
        let seat = usize::from(before.to_move != Color::Red.to_string());
        let mine = |red: f64| if seat == 0 { red } else { 1.0 - red };
        let info = infos.get(i).copied().unwrap_or_default();
        let played = ply.to_string();
        let (before_chance, after_chance) =
            (mine(before.red_win_chance), mine(after.red_win_chance));
        let is_best = before.best.as_deref() == Some(played.as_str());
        let loss = if is_best || matches!(ply, Ply::Pass) {
            0.0
        } else {
            (before_chance - after_chance).max(0.0)
        };
        moves.push(JungleMoveReview {
            ply: i + 1,
            action: info.action,
            seat,
            auto: info.auto,
            played,
            best: before.best.clone(),
            before: before_chance,
            after: after_chance,
            loss,
            judgement: Judgement::of_loss(loss, THRESHOLDS),
        });
    }
    let players = (0..2)
        .map(|seat| {
            let own: Vec<&JungleMoveReview> = moves
                .iter()
                .filter(|m| m.seat == seat && !m.auto && m.played != "pass")
                .collect();
            let count = |j: Judgement| own.iter().filter(|m| m.judgement == Some(j)).count();
            JunglePlayerSummary {
                seat,
                name: names.get(seat).cloned().unwrap_or_else(|| "?".to_owned()),
                colour: if seat == 0 { "red" } else { "yellow" }.to_owned(),
                moves: own.len(),
                auto_moves: moves.iter().filter(|m| m.seat == seat && m.auto).count(),
                inaccuracies: count(Judgement::Inaccuracy),
                mistakes: count(Judgement::Mistake),
                blunders: count(Judgement::Blunder),
                average_loss: if own.is_empty() {
                    0.0
                } else {
                    own.iter().map(|m| m.loss).sum::<f64>() / own.len() as f64
                },
            }
        })
        .collect();
    JungleReview {
        nodes,
        scale: JUNGLE_SCALE,
        thresholds: THRESHOLDS,
        positions,
        moves,
        players,
        outcome: game.outcome(),
    }
}

impl JunglePlayerSummary {
    /// "3 mistakes, 1 blunder" (or "no inaccuracy, mistake or blunder").
    pub fn marks(&self) -> String {
        let parts: Vec<String> = [
            (self.inaccuracies, "inaccuracy"),
            (self.mistakes, "mistake"),
            (self.blunders, "blunder"),
        ]
        .into_iter()
        .filter(|&(n, _)| n > 0)
        .map(|(n, noun)| plural(n, noun))
        .collect();
        if parts.is_empty() {
            "no inaccuracy, mistake or blunder".to_owned()
        } else {
            parts.join(", ")
        }
    }
}

impl JungleReview {
    /// The readable review.
    pub fn to_text(&self, game_id: i64) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Jungle game {game_id}: {} plies, {} nodes searched per position; red's win chance = 1/(1+exp(-{}·score))",
            self.moves.len(),
            self.nodes,
            self.scale
        );
        let _ = writeln!(
            out,
            "{:>4}  {:<7} {:<6} {:>6} {:>6}  {:<11} {:<6} line",
            "ply", "side", "played", "red%", "loss", "mark", "best"
        );
        for m in &self.moves {
            let after = &self.positions[m.ply];
            let before = &self.positions[m.ply - 1];
            let side = if m.seat == 0 { "red" } else { "yellow" };
            let auto = if m.auto { "*" } else { "" };
            let mark = m.judgement.map_or("", Judgement::name);
            let (best, line) = if m.judgement.is_some() {
                (
                    before.best.clone().unwrap_or_default(),
                    before.line.join(" "),
                )
            } else {
                (String::new(), String::new())
            };
            let _ = writeln!(
                out,
                "{:>4}  {:<7} {:<6} {:>6.1} {:>6.1}  {:<11} {:<6} {}",
                m.ply,
                format!("{side}{auto}"),
                m.played,
                after.red_win_chance * 100.0,
                m.loss * 100.0,
                mark,
                best,
                line
            );
        }
        if self.moves.iter().any(|m| m.auto) {
            let _ = writeln!(out, "* played by a bot or auto-play for the seat");
        }
        if let Some(outcome) = self.outcome {
            let _ = writeln!(out, "result: {outcome}");
        }
        for p in &self.players {
            let _ = writeln!(
                out,
                "{} ({}): {}; {} own moves, average loss {:.1} % of win chance{}",
                p.colour,
                p.name,
                p.marks(),
                p.moves,
                p.average_loss * 100.0,
                if p.auto_moves > 0 {
                    format!(", {} moves by auto-play or a bot", p.auto_moves)
                } else {
                    String::new()
                }
            );
        }
        out
    }
}
