//! Every fuzz target's body over a fixed corpus: hand-written seeds, seeded mutations of them
//! and seeded random bytes. Each body asserts its own invariants (see its module), so a panic
//! here is a found fault; the seeds are also checked to reach the paths they were written for,
//! so the corpus cannot silently test only the refusals.

use arbitrary::Unstructured;
use hangar_flight::{Colour, Game, Options, Phase};
use hangar_fuzz::{flight_setup, jungle_games, jungle_position, protocol, rules_json};

/// A small, seeded generator (SplitMix64): the same corpus on every machine and every run.
struct Bytes(u64);

impl Bytes {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn fill(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }

    /// `seed` with a few bytes replaced, inserted or removed, as a fuzzer's mutator would.
    fn mutate(&mut self, seed: &[u8]) -> Vec<u8> {
        let mut out = seed.to_vec();
        for _ in 0..1 + self.below(4) {
            let at = self.below(out.len() + 1);
            match self.below(3) {
                0 if at < out.len() => out[at] = self.next() as u8,
                1 => out.insert(at, *b"{}[]\":,0-9az\\".get(self.below(14)).unwrap_or(&b'x')),
                _ if at < out.len() => {
                    out.remove(at);
                }
                _ => {}
            }
        }
        out
    }
}

/// Runs `body` on every seed, on `mutants` mutations of each, and on `random` random inputs.
fn run_corpus(name: u64, seeds: &[&str], mutants: usize, random: usize, body: fn(&[u8])) {
    let mut bytes = Bytes(name);
    for seed in seeds {
        body(seed.as_bytes());
        for _ in 0..mutants {
            body(&bytes.mutate(seed.as_bytes()));
        }
    }
    for _ in 0..random {
        let len = bytes.below(300);
        body(&bytes.fill(len));
    }
}

const COMMANDS: &[&str] = &[
    r#"{"id":1,"type":"ping"}"#,
    r#"{"id":2,"type":"guest","name":"ana"}"#,
    r#"{"id":3,"type":"create_room","game":"flight","options":{"preset":"improved","players":4}}"#,
    r#"{"id":4,"type":"join_room","room":"K7QX2M"}"#,
    r#"{"id":5,"type":"roll","room":"K7QX2M"}"#,
    r#"{"id":6,"type":"move","room":"K7QX2M","plane":2}"#,
    r#"{"id":7,"type":"chat","room":"K7QX2M","text":"好"}"#,
];

const RULES_REQUESTS: &[&str] = &[
    r#"{"request":"new","players":["red","blue"],"first":"red"}"#,
    r#"{"request":"new","preset":"improved","options":{"planes":2,"items":true},"players":["red","yellow","blue","green"],"first":"blue"}"#,
    r#"{"request":"moves","position":{"players":[{"colour":"red","planes":[3,15,-1,-1]},{"colour":"blue","planes":[53,-1,-1,-1]}],"turn":"red"},"roll":3}"#,
    r#"{"request":"play","position":{"players":[{"colour":"red","planes":[3,15,-1,-1]},{"colour":"blue","planes":[53,-1,-1,-1]}],"turn":"red"},"actions":[{"type":"roll","value":3},{"type":"move","plane":1}],"stake":10}"#,
    r#"{"type":"legal_moves"}"#,
    r#"{"type":"play","move":"e3e2"}"#,
    r#"{"type":"play","position":"7/7/7/7/7/7/c6/D6/l6 r","move":"a2a3"}"#,
    r#"{"type":"legal_moves","options":{"leopard-leaps":true},"position":"l6/7/7/7/P6/7/7/7/7 r"}"#,
    r#"{"type":"legal_moves","moves":["a1a2","g9g8","a2a1","g8g9","a1a2","g9g8","a2a1"]}"#,
    r#"{"type":"perft","depth":2}"#,
    r#"{"type":"bot","level":"greedy","position":"7/7/7/7/7/7/c6/D6/l6 r","seed":1}"#,
    r#"{"request":"bot","level":"heuristic","position":{"players":[{"colour":"red","planes":[3,15,-1,-1]},{"colour":"blue","planes":[53,-1,-1,-1]}],"turn":"red","roll":3},"seed":7}"#,
];

const POSITIONS: &[&str] = &[
    "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L r",
    "7/7/7/7/7/7/c6/D6/l6 r",
    "l6/7/7/7/P6/7/7/7/7 r leopard-leaps=true",
];

#[test]
fn protocol_parsing_names_every_refusal() {
    for seed in COMMANDS {
        let (id, command) = hangar_protocol::parse_command(seed);
        assert!(
            command.is_ok() && id.is_some(),
            "seed {seed} is a valid command"
        );
    }
    run_corpus(1, COMMANDS, 300, 2_000, protocol::run);
}

#[test]
fn rules_json_answers_every_request() {
    for seed in RULES_REQUESTS {
        let flight = hangar_games::rules_json::flight::answer(seed).is_ok();
        let (_, jungle) = hangar_games::rules_json::jungle::respond(seed);
        assert!(
            flight || jungle,
            "seed {seed} is a valid request of one engine"
        );
    }
    run_corpus(2, RULES_REQUESTS, 200, 1_000, rules_json::run);
}

#[test]
fn jungle_positions_print_back() {
    for seed in POSITIONS {
        assert!(
            seed.parse::<hangar_jungle::Position>().is_ok(),
            "seed {seed} parses"
        );
    }
    run_corpus(3, POSITIONS, 300, 500, jungle_position::run);
}

#[test]
fn jungle_games_stay_valid() {
    run_corpus(4, &[], 0, 60, jungle_games::run);
}

#[test]
fn flight_setups_are_refused_by_name_or_play_on() {
    run_corpus(5, &[], 0, 3_000, flight_setup::run);
}

#[test]
fn flight_walks_from_every_kind_of_table_reach_the_end() {
    let mut bytes = Bytes(6);
    let mut finished = 0;
    for preset in [Options::traditional(), Options::improved()] {
        for switches in 0..8u8 {
            let mut options = preset;
            options.play_on = switches & 1 != 0;
            options.items = switches & 2 != 0;
            options.weather = switches & 4 != 0;
            for seats in [
                &[Colour::Red, Colour::Blue][..],
                &[Colour::Red, Colour::Yellow, Colour::Blue],
                &Colour::ALL,
            ] {
                let game = Game::new(options, seats, seats[0]).expect("a valid table");
                let data = bytes.fill(4_000);
                let end = flight_setup::walk(game, &mut Unstructured::new(&data));
                finished += usize::from(end.phase() == Phase::Over);
            }
        }
    }
    // The walks are long enough to cross whole games, not only their openings.
    assert!(
        finished >= 10,
        "only {finished} of 48 walks reached the end of their game"
    );
}
