//! One pairing round of an arena of 5,000 free players (P-ARENA: well under 100 ms of CPU).
//! `cargo bench -p hangar-games --bench arena`

use criterion::{Criterion, criterion_group, criterion_main};
use hangar_games::arena::{Candidate, pair};
use hangar_protocol::GameKind;

const PLAYERS: usize = 5_000;

/// A player's id, points and rating.
type Player = (i64, u32, i32);

/// Players with spread points and ratings; each met one (Jungle) or three (flight) others last.
fn field(opponents: usize) -> (Vec<Player>, Vec<Vec<i64>>) {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |below: u64| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % below
    };
    let players = (0..PLAYERS)
        .map(|i| (i as i64 + 1, next(40) as u32, 1000 + next(1200) as i32))
        .collect();
    let last = (0..PLAYERS)
        .map(|_| {
            (0..opponents)
                .map(|_| next(PLAYERS as u64) as i64 + 1)
                .collect()
        })
        .collect();
    (players, last)
}

fn candidates<'a>(players: &[Player], last: &'a [Vec<i64>]) -> Vec<Candidate<'a>> {
    players
        .iter()
        .zip(last)
        .map(|(&(id, points, rating), last)| Candidate {
            id,
            points,
            rating,
            free_since: 0,
            last_opponents: last,
            capped_with: &[],
            blocked_with: &[],
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    for (game, opponents, name) in [
        (GameKind::Jungle, 1, "arena_pair_5000_jungle"),
        (GameKind::Flight, 3, "arena_pair_5000_flight"),
    ] {
        let (players, last) = field(opponents);
        let free = candidates(&players, &last);
        c.bench_function(name, |b| b.iter(|| pair(game, &free, 10_000, 5_000)));
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
