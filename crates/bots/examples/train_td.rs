//! Trains the flight win-chance net (`hangar_bots::flight::net`) by TD(λ) self-play,
//! TD-Gammon style, and writes it as `crates/bots/data/td{2,3,4,4t}.bin`.
//!
//! Every game is played by the net's own greedy 1-ply policy (a move's worth is the net's
//! chance for the mover after it), with a little exploration (`eps`) and, if asked, some
//! seats played by the heuristic (`mix`, the share of seats). Every position awaiting a roll
//! is recorded; when the game ends each position's estimate is moved towards its λ-return
//! (the mix of the later estimates and the result), newest first, by one gradient step of
//! the cross-entropy. Every `every` games the greedy net plays `eval` games as seat 1 against
//! `heuristic` bots on fixed seeds, and the best net so far is written to `OUT`.
//!
//! ```sh
//! nice -n 19 cargo run --release -p hangar-bots --example train_td -- \
//!     PLAYERS GAMES HIDDEN SEED OUT [key=value...]
//! nice -n 19 cargo run --release -p hangar-bots --example train_td -- \
//!     2 200000 64 1 crates/bots/data/td2.bin lambda=0.7 rate=0.01 every=20000 eval=500
//! ```
//! Keys: `lambda` (0.7), `rate` (learning rate, 0.01), `eps` (exploration, 0.02), `mix`
//! (0.0), `every` (games between evaluations, 20000), `eval` (games per evaluation, 500),
//! `init` (a net file to start from), `minutes` (stop after this long, 0 = no limit),
//! `view` (`roller`, self-play, the default; or `player`: player 0 learns, greedy on the net,
//! against heuristic bots in every other seat, and positions are seen from player 0 — a net
//! for exactly that match-up, `crates/bots/data/td2h.bin`), `rules` (`traditional`, the
//! default, or `improved`: the preset every game is played under — the nets
//! `crates/bots/data/td{2,3,4}i.bin`), `teams` (`false`, or `true`: 2-vs-2 team games, 4
//! players, partners opposite — `td4t.bin`, `td4ti.bin`; the side that wins shares the result
//! between its two seats).

#![allow(clippy::unwrap_used, clippy::expect_used)] // An example: fail loudly.

use std::time::Instant;

use hangar_bots::flight::encode::{Encoded, SEATS, encode, encode_for};
use hangar_bots::flight::search::greedy_index;
use hangar_bots::flight::snapshot::Snapshot;
use hangar_bots::flight::td::{net_chance, td_index};
use hangar_bots::flight::{FlightBot, HeuristicBot, Net, View, Weights, play_game};
use hangar_dice::{Dice, Seed};
use hangar_flight::{Game, Moves, NoEvents, Options, Preset, Seating};

struct Settings {
    lambda: f32,
    rate: f32,
    eps: f32,
    mix: f32,
    every: u64,
    eval: u64,
    minutes: f64,
    /// `player`: one learner (player 0) against heuristic bots, positions seen from it.
    view: View,
    /// The rules every training and evaluation game is played under.
    options: Options,
}

/// The greedy net as a bot, for the evaluation matches.
struct Greedy<'a>(&'a Net);

impl FlightBot for Greedy<'_> {
    fn name(&self) -> String {
        "td".to_owned()
    }

    fn pick(&self, game: &Game, moves: &Moves, _rng: &mut Dice) -> usize {
        td_index(game, moves, self.0)
    }
}

/// Plays one training game and learns from it.
fn train_game(net: &mut Net, players: usize, seed: Seed, settings: &Settings) {
    let options = settings.options;
    let mut dice = Dice::new(seed);
    let seating = Seating::draw(players, options.teams, |n| dice.roll_below(n)).unwrap();
    let mut game = Game::new(options, &seating.seated(), seating.first).unwrap();
    let mut heuristic_seat = [false; SEATS];
    for seat in heuristic_seat.iter_mut() {
        *seat = (dice.roll_below(1000) as f32) < settings.mix * 1000.0;
    }
    // A player's-view net learns the game of one learner against heuristic bots.
    let learner = seating.colours[0].index();
    if settings.view == View::Player {
        for (colour, seat) in heuristic_seat.iter_mut().enumerate() {
            *seat = colour != learner;
        }
    }
    let weights = Weights::default();
    let mut positions: Vec<Encoded> = Vec::with_capacity(512);
    while !game.is_over() && positions.len() < 20_000 {
        let roller = game.turn().index();
        let snapshot = Snapshot::of(&game);
        positions.push(match settings.view {
            View::Roller => encode(&snapshot, roller),
            View::Player => encode_for(&snapshot, learner),
        });
        let moves = game.roll(dice.roll(), &mut NoEvents).unwrap();
        if moves.is_empty() {
            continue;
        }
        let index = if moves.len() == 1 {
            0
        } else if heuristic_seat[roller] {
            greedy_index(&game, &moves, &weights)
        } else if (dice.roll_below(10_000) as f32) < settings.eps * 10_000.0 {
            dice.roll_below(moves.len() as u32) as usize
        } else {
            td_index(&game, &moves, net)
        };
        game.play_unchecked(&moves[index], &mut NoEvents);
    }
    // The result, by colour; then λ-returns backwards. In a team game both winners have 1
    // (their side's chance): the seats' share is half each, as the net's seats split it.
    let mut target = [0f32; SEATS];
    for (colour, t) in target.iter_mut().enumerate() {
        *t = net_chance(net, &game, colour);
    }
    let total: f32 = target.iter().sum();
    if total > 0.0 {
        target.iter_mut().for_each(|t| *t /= total);
    }
    for input in positions.iter().rev() {
        let mut rotated = [0f32; SEATS];
        for (seat, r) in rotated.iter_mut().enumerate() {
            *r = target[input.colour(seat)];
        }
        let estimate = net.learn(input, &rotated, settings.rate);
        for (seat, seat_estimate) in estimate.iter().enumerate() {
            let colour = input.colour(seat);
            target[colour] =
                (1.0 - settings.lambda) * seat_estimate + settings.lambda * target[colour];
        }
    }
}

/// The greedy net's wins as seat 1 against heuristic bots, on fixed seeds (in a team game: its
/// side's, with a heuristic partner).
fn evaluate(net: &Net, players: usize, games: u64, options: Options) -> f64 {
    let greedy = Greedy(net);
    let heuristic = HeuristicBot::default();
    let mut bots: Vec<&dyn FlightBot> = vec![&greedy];
    bots.extend(std::iter::repeat_n(
        &heuristic as &dyn FlightBot,
        players - 1,
    ));
    let master = Seed::from_u64(0xE7A1);
    let wins = (0..games)
        .filter(|&g| play_game(options, &bots, master.derive(g)).unwrap().ranks[0] == 1)
        .count();
    wins as f64 / games as f64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    assert!(
        args.len() >= 5,
        "usage: PLAYERS GAMES HIDDEN SEED OUT [lambda=… rate=… eps=… mix=… every=… eval=… init=… minutes=… view=… rules=… teams=…]"
    );
    let players: usize = args[0].parse().unwrap();
    assert!((2..=4).contains(&players), "2, 3 or 4 players");
    let games: u64 = args[1].parse().unwrap();
    let hidden: usize = args[2].parse().unwrap();
    let seed: u64 = args[3].parse().unwrap();
    let out = &args[4];
    let mut settings = Settings {
        lambda: 0.7,
        rate: 0.01,
        eps: 0.02,
        mix: 0.0,
        every: 20_000,
        eval: 500,
        minutes: 0.0,
        view: View::Roller,
        options: Options::traditional(),
    };
    let master = Seed::from_u64(seed);
    let mut init = None;
    for pair in &args[5..] {
        let (key, value) = pair.split_once('=').expect("key=value");
        match key {
            "lambda" => settings.lambda = value.parse().unwrap(),
            "rate" => settings.rate = value.parse().unwrap(),
            "eps" => settings.eps = value.parse().unwrap(),
            "mix" => settings.mix = value.parse().unwrap(),
            "every" => settings.every = value.parse().unwrap(),
            "eval" => settings.eval = value.parse().unwrap(),
            "minutes" => settings.minutes = value.parse().unwrap(),
            "init" => init = Some(Net::from_bytes(&std::fs::read(value).unwrap()).unwrap()),
            "rules" => {
                let teams = settings.options.teams;
                settings.options = Options {
                    teams,
                    ..value.parse::<Preset>().unwrap().options()
                };
            }
            "teams" => settings.options.teams = value.parse().unwrap(),
            "view" => {
                settings.view = match value {
                    "roller" => View::Roller,
                    "player" => View::Player,
                    _ => panic!("view=roller|player"),
                }
            }
            _ => panic!("unknown key {key}"),
        }
    }
    let mut net =
        init.unwrap_or_else(|| Net::random_view(hidden, settings.view, master.derive(u64::MAX)));
    if settings.view == View::Player {
        // A self-play net is a warm start: its weights, and zero for the turn flags.
        net = net.to_player_view();
    }
    assert_eq!(net.view(), settings.view, "init net of another view");
    let start = Instant::now();
    let mut best = evaluate(&net, players, settings.eval, settings.options);
    eprintln!("games 0: greedy net vs heuristic {:.1}%", 100.0 * best);
    std::fs::write(out, net.to_bytes()).unwrap();
    for g in 0..games {
        train_game(&mut net, players, master.derive(g), &settings);
        let done = g + 1;
        if done % settings.every == 0 || done == games {
            let score = evaluate(&net, players, settings.eval, settings.options);
            let elapsed = start.elapsed().as_secs_f64();
            let mut note = "";
            if score > best {
                best = score;
                std::fs::write(out, net.to_bytes()).unwrap();
                note = " (best, written)";
            }
            eprintln!(
                "games {done}: greedy net vs heuristic {:.1}%{note}; {:.0} s, {:.0} games/s",
                100.0 * score,
                elapsed,
                done as f64 / elapsed
            );
            if settings.minutes > 0.0 && elapsed > settings.minutes * 60.0 {
                break;
            }
        }
    }
    std::fs::write(format!("{out}.last"), net.to_bytes()).unwrap();
}
