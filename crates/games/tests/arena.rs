//! P-ARENA without I/O: points and streaks against a hand-computed arena of ten games, the
//! tie-break, escapes, games running at the end, and the pairing (nearby ranks, no rematch
//! when another player is free, flight tables of four, then three or two after a wait).

use hangar_games::arena::{Arena, Candidate, Finish, pair};
use hangar_protocol::GameKind;

const A: i64 = 1;
const B: i64 = 2;
const C: i64 = 3;
const D: i64 = 4;

fn win(winner: i64, loser: i64) -> Vec<Finish> {
    vec![
        Finish {
            player: winner,
            place: 1,
            escaped: false,
        },
        Finish {
            player: loser,
            place: 2,
            escaped: false,
        },
    ]
}

fn draw(p: i64, q: i64) -> Vec<Finish> {
    vec![
        Finish {
            player: p,
            place: 1,
            escaped: false,
        },
        Finish {
            player: q,
            place: 1,
            escaped: false,
        },
    ]
}

/// Seats `table` in room `code` and ends the game at `now`.
fn play(arena: &mut Arena, code: &str, table: Vec<Finish>, now: i64) -> bool {
    let players: Vec<i64> = table.iter().map(|f| f.player).collect();
    arena.seated(code, &players);
    arena.finished(code, &table, now)
}

fn jungle_arena() -> Arena {
    let mut arena = Arena::new(GameKind::Jungle, 0, 60_000, 5_000);
    for (id, name) in [(A, "a"), (B, "b"), (C, "c"), (D, "d")] {
        arena.join(id, name, false, 1500, 0).expect("open");
    }
    arena
}

#[test]
fn p_arena_points_and_streaks_of_ten_games() {
    let mut arena = jungle_arena();
    let games = [
        win(A, B),  // A 2 (1 in a row)
        draw(C, D), // C 1, D 1
        win(A, C),  // A 4 (2 in a row: on fire)
        win(A, D),  // A 4 doubled = 8
        draw(A, B), // A on fire: the draw's 1 doubled = 10; the streak ends. B 1
        win(A, C),  // A 12, not doubled
        win(B, D),  // B 3
        win(B, C),  // B 5 (on fire)
        win(B, A),  // B 4 doubled = 9
        win(D, B),  // B on fire but loses: 9; D 3
    ];
    for (n, table) in games.into_iter().enumerate() {
        assert!(play(&mut arena, &format!("R{n}"), table, 1000 + n as i64));
    }
    let points = |id| arena.player(id).expect("joined").points;
    assert_eq!([points(A), points(B), points(C), points(D)], [12, 9, 1, 3]);
    let a = arena.player(A).expect("joined");
    let marks: Vec<(u32, bool)> = a.recent.iter().map(|m| (m.points, m.doubled)).collect();
    assert_eq!(
        marks,
        [
            (2, false),
            (2, false),
            (4, true),
            (2, true),
            (2, false),
            (0, false)
        ]
    );
    assert!(a.recent[3].drawn);
    assert_eq!(a.wins_in_row, 0);
    assert_eq!(arena.player(B).expect("joined").wins_in_row, 0);
    assert_eq!(arena.player(D).expect("joined").wins_in_row, 1);
    let table: Vec<(u32, i64, u32)> = arena
        .standings()
        .iter()
        .map(|s| (s.rank, s.id, s.points))
        .collect();
    assert_eq!(table, [(1, A, 12), (2, B, 9), (3, D, 3), (4, C, 1)]);
    // The wire's table: the same order; B is no longer on fire, D has one win in a row.
    let (lines, total) = arena.lines(1, 2);
    assert_eq!(total, 4);
    let shown: Vec<(u32, &str, u32, bool)> = lines
        .iter()
        .map(|l| (l.rank, l.name.as_str(), l.points, l.fire))
        .collect();
    assert_eq!(shown, [(2, "b", 9, false), (3, "d", 3, false)]);
    assert_eq!(arena.leader(), Some("a"));
    let c = arena.line_of(C).expect("joined");
    assert_eq!((c.rank, c.games, c.recent.len()), (4, 4, 4));
    assert!(arena.line_of(99).is_none());
}

#[test]
fn p_arena_flight_places_and_fire_at_a_table_of_four() {
    let mut arena = Arena::new(GameKind::Flight, 0, 60_000, 5_000);
    for id in 1..=4 {
        arena.join(id, "p", false, 1500, 0).expect("open");
    }
    let table = |places: [u8; 4]| -> Vec<Finish> {
        (1..=4)
            .zip(places)
            .map(|(player, place)| Finish {
                player,
                place,
                escaped: false,
            })
            .collect()
    };
    play(&mut arena, "F1", table([1, 2, 3, 4]), 10);
    play(&mut arena, "F2", table([1, 3, 2, 4]), 20);
    // Player 1 has won twice: on fire, a second place brings 2 × 2.
    assert!(arena.line_of(1).expect("in").fire);
    play(&mut arena, "F3", table([2, 1, 4, 3]), 30);
    let points: Vec<u32> = (1..=4)
        .map(|id| arena.player(id).expect("in").points)
        .collect();
    assert_eq!(points, [3 + 3 + 4, 2 + 1 + 3, 1 + 2, 1]);
    // A table of three: 2/1/0.
    arena.seated("F4", &[1, 2, 3]);
    let three: Vec<Finish> = [(1, 3), (2, 1), (3, 2)]
        .map(|(player, place)| Finish {
            player,
            place,
            escaped: false,
        })
        .to_vec();
    arena.finished("F4", &three, 40);
    let points: Vec<u32> = (1..=3)
        .map(|id| arena.player(id).expect("in").points)
        .collect();
    assert_eq!(points, [10, 8, 4]);
}

#[test]
fn p_arena_ties_in_points_go_to_the_better_performance() {
    let mut arena = Arena::new(GameKind::Jungle, 0, 60_000, 5_000);
    arena.join(A, "a", false, 1500, 0).expect("open");
    arena.join(B, "b", false, 1500, 0).expect("open");
    arena.join(C, "c", false, 1900, 0).expect("open");
    arena.join(D, "d", false, 1100, 0).expect("open");
    // A and B both win once; A beat the stronger player.
    play(&mut arena, "R1", win(A, C), 1);
    play(&mut arena, "R2", win(B, D), 2);
    let top: Vec<i64> = arena.standings().iter().take(2).map(|s| s.id).collect();
    assert_eq!(top, [A, B]);
    assert!(
        arena.player(A).expect("in").performance() > arena.player(B).expect("in").performance()
    );
}

#[test]
fn p_arena_an_escaper_scores_nothing_and_is_withdrawn_until_back() {
    let mut arena = jungle_arena();
    let escaped = vec![
        Finish {
            player: A,
            place: 2,
            escaped: true,
        },
        Finish {
            player: B,
            place: 1,
            escaped: false,
        },
    ];
    play(&mut arena, "R1", escaped, 100);
    let a = arena.player(A).expect("in");
    assert_eq!((a.points, a.active), (0, false));
    assert_eq!(arena.player(B).expect("in").points, 2);
    let seated: Vec<i64> = arena.pair_round(200, |_| true).concat();
    assert!(!seated.contains(&A), "an escaper is not paired: {seated:?}");
    assert_eq!(seated.len(), 2, "B, C and D are free: one pair");
    arena.join(A, "a", false, 1500, 300).expect("open");
    assert!(arena.pair_round(300, |_| true).concat().contains(&A));
}

#[test]
fn p_arena_a_game_running_at_the_end_does_not_count() {
    let mut arena = jungle_arena();
    assert!(play(&mut arena, "R1", win(A, B), 59_999));
    arena.seated("R2", &[C, D]);
    assert!(!arena.finished("R2", &win(C, D), 60_000));
    assert_eq!(arena.player(C).expect("in").points, 0);
    assert_eq!(arena.player(A).expect("in").points, 2);
    assert!(arena.join(C, "c", false, 1500, 60_001).is_err());
    assert!(arena.pair_round(60_001, |_| true).is_empty());
}

#[test]
fn p_arena_an_arena_round_trips_through_json_with_its_standings() {
    let mut arena = jungle_arena();
    play(&mut arena, "R1", win(A, B), 10);
    arena.seated("R2", &[C, D]);
    let text = serde_json::to_string(&arena).expect("serialises");
    let mut back: Arena = serde_json::from_str(&text).expect("reads");
    back.reindex();
    assert_eq!(back, arena);
    assert_eq!(back.standings(), arena.standings());
    assert!(back.finished("R2", &win(C, D), 20));
    assert_eq!(back.player(C).expect("in").points, 2);
}

fn candidates<'a>(ids: &[i64], points: &[u32], last: &'a [Vec<i64>]) -> Vec<Candidate<'a>> {
    ids.iter()
        .zip(points)
        .zip(last)
        .map(|((&id, &points), last)| Candidate {
            id,
            points,
            rating: 1500,
            free_since: 0,
            last_opponents: last,
            capped_with: &[],
            blocked_with: &[],
        })
        .collect()
}

#[test]
fn p_arena_pairing_seats_nearby_ranks() {
    let ids: Vec<i64> = (1..=8).collect();
    let points = [1, 9, 3, 7, 5, 8, 2, 6];
    let last = vec![Vec::new(); 8];
    let tables = pair(GameKind::Jungle, &candidates(&ids, &points, &last), 0, 0);
    // By points: 2 (9), 6 (8), 4 (7), 8 (6), 5 (5), 3 (3), 7 (2), 1 (1).
    assert_eq!(tables, [vec![2, 6], vec![4, 8], vec![5, 3], vec![7, 1]]);
}

/// A small deterministic generator (the tests repeat exactly).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % below
    }
}

/// Whether the players `left` can all be paired without a rematch (brute force).
fn rematch_free_pairing_exists(left: &[usize], met: &dyn Fn(usize, usize) -> bool) -> bool {
    if left.len() < 2 {
        return true;
    }
    let first = left[0];
    (1..left.len()).any(|k| {
        !met(first, left[k]) && {
            let rest: Vec<usize> = left[1..]
                .iter()
                .enumerate()
                .filter(|&(j, _)| j + 1 != k)
                .map(|(_, &x)| x)
                .collect();
            rematch_free_pairing_exists(&rest, met)
        }
    })
}

#[test]
fn p_arena_pairing_never_repeats_an_opponent_when_another_is_free() {
    let mut rng = Lcg(7);
    for _ in 0..2000 {
        let n = 2 + 2 * rng.next(4) as usize; // 2, 4, 6 or 8 free players
        let ids: Vec<i64> = (1..=n as i64).collect();
        let points: Vec<u32> = (0..n).map(|_| rng.next(6) as u32).collect();
        // Each player's last opponent: anyone else (or nobody).
        let last: Vec<Vec<i64>> = (0..n)
            .map(|i| {
                let o = rng.next(n as u64 + 1) as i64;
                if o == 0 || o == i as i64 + 1 {
                    Vec::new()
                } else {
                    vec![o]
                }
            })
            .collect();
        let free = candidates(&ids, &points, &last);
        let tables = pair(GameKind::Jungle, &free, 0, 0);
        assert_eq!(tables.len(), n / 2, "everyone is seated");
        let met = |a: usize, b: usize| {
            last[a].contains(&(b as i64 + 1)) || last[b].contains(&(a as i64 + 1))
        };
        let all: Vec<usize> = (0..n).collect();
        let avoidable = rematch_free_pairing_exists(&all, &met);
        // A rematch only when another is free: with four or more free players, a pairing
        // without rematches is found whenever one exists.
        if n >= 4 && avoidable {
            for t in &tables {
                let (a, b) = (t[0] as usize - 1, t[1] as usize - 1);
                assert!(
                    !met(a, b),
                    "rematch {t:?} of {last:?} points {points:?}: {tables:?}"
                );
            }
        }
    }
}

#[test]
fn p_arena_flight_tables_of_four_then_smaller_after_a_wait() {
    let ids: Vec<i64> = (1..=7).collect();
    let points = [0; 7];
    let last = vec![Vec::new(); 7];
    let free = candidates(&ids, &points, &last);
    // Seven free for less than the wait: one table of four, three wait.
    let tables = pair(GameKind::Flight, &free, 1_000, 5_000);
    assert_eq!(tables.iter().map(Vec::len).collect::<Vec<_>>(), [4]);
    // After the wait the three sit together.
    let tables = pair(GameKind::Flight, &free, 5_000, 5_000);
    assert_eq!(tables.iter().map(Vec::len).collect::<Vec<_>>(), [4, 3]);
    // One left alone waits; two sit at a table of two.
    let tables = pair(GameKind::Flight, &free[..5], 5_000, 5_000);
    assert_eq!(tables.iter().map(Vec::len).collect::<Vec<_>>(), [4]);
    let tables = pair(GameKind::Flight, &free[..6], 5_000, 5_000);
    assert_eq!(tables.iter().map(Vec::len).collect::<Vec<_>>(), [4, 2]);
}

#[test]
fn p_arena_flight_tables_avoid_the_last_table_when_others_are_free() {
    // Players 1–4 just played together, as did 5–8; all have equal points.
    let ids: Vec<i64> = (1..=8).collect();
    let points = [0; 8];
    let last: Vec<Vec<i64>> = (1..=8i64)
        .map(|i| {
            let base = if i <= 4 { 1 } else { 5 };
            (base..base + 4).filter(|&o| o != i).collect()
        })
        .collect();
    let tables = pair(
        GameKind::Flight,
        &candidates(&ids, &points, &last),
        0,
        5_000,
    );
    assert_eq!(tables.len(), 2);
    for t in &tables {
        // Rematches cannot all be avoided (eight players, two old tables): each new table
        // takes two of each old one, the fewest possible.
        let low = t.iter().filter(|&&id| id <= 4).count();
        assert_eq!(low, 2, "two of each previous table at each new one: {t:?}");
    }
}

/// P-ARENA's pair limit in the arena itself: games seated per pair are counted and stored
/// (an arena stored before the count loads with none), and once a pair reached the cap the
/// arena seats them apart whenever someone else is free.
#[test]
fn p_arena_counts_games_per_pair_and_seats_a_capped_pair_apart() {
    let mut arena = jungle_arena();
    arena.set_pair_cap(3);
    for n in 0..3 {
        assert!(play(&mut arena, &format!("R{n}"), win(A, B), 10 + n));
    }
    play(&mut arena, "R3", win(C, D), 20);
    assert_eq!(arena.games_of_pair(B, A), 3);
    assert_eq!(arena.games_of_pair(C, D), 1);
    let text = serde_json::to_string(&arena).expect("serialises");
    let mut back: Arena = serde_json::from_str(&text).expect("reads");
    back.reindex();
    assert_eq!(back.games_of_pair(A, B), 3, "stored with the arena");
    // Stored before the count: none.
    let mut old: serde_json::Value = serde_json::from_str(&text).expect("json");
    old.as_object_mut().expect("an object").remove("pair_games");
    let old: Arena = serde_json::from_value(old).expect("an old arena loads");
    assert_eq!(old.games_of_pair(A, B), 0);
    // A and B are capped, C and D just met: A–C and B–D (or A–D, B–C) rather than A–B.
    back.set_pair_cap(3);
    let tables = back.pair_round(30, |_| true);
    assert_eq!(tables.len(), 2);
    for t in &tables {
        assert!(
            !(t.contains(&A) && t.contains(&B)),
            "capped pair together: {tables:?}"
        );
        assert!(!(t.contains(&C) && t.contains(&D)), "repeat: {tables:?}");
    }
}
