//! P-ARENA's pairing against a brute-force reference: for every small set of free players
//! (2–9) and every history of who met whom last (every subset of pairs up to six players,
//! seeded random ones beyond; capped pairs as well), the seating found costs exactly the
//! least of all seatings, as this file counts it: the fewest capped pairs at a table, then
//! the fewest repeats of a last opponent, then the least sum of the tables' spans in the
//! ranking (best-ranked minus worst-ranked place).

use super::*;

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

/// What a pair of players is to each other.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bond {
    None,
    /// They met in the last game of either.
    Met,
    /// They played the arena's cap of games together.
    Capped,
}

/// `n` free players ranked in order 0..n (points n − place), with scrambled ids, given in a
/// scrambled order; `bonds[a][b]` for places a < b.
struct Field {
    ids: Vec<i64>,
    last: Vec<Vec<i64>>,
    capped: Vec<Vec<i64>>,
    /// The order in which the players are handed to `pair` (places).
    given: Vec<usize>,
}

impl Field {
    fn new(n: usize, bond: &dyn Fn(usize, usize) -> Bond) -> Field {
        let ids: Vec<i64> = (0..n).map(|p| (p as i64 * 37 + 11) % 101 + 1).collect();
        let mut last = vec![Vec::new(); n];
        let mut capped = vec![Vec::new(); n];
        for a in 0..n {
            for b in a + 1..n {
                match bond(a, b) {
                    Bond::None => {}
                    // Written on one side only: either side's last game counts.
                    Bond::Met if (a + b) % 2 == 0 => last[a].push(ids[b]),
                    Bond::Met => last[b].push(ids[a]),
                    Bond::Capped => capped[b].push(ids[a]),
                }
            }
        }
        // Handed over in a scrambled order: the ranking is the pairing's to find.
        let given = (0..n).map(|k| (k * 5 + 2) % n).collect::<Vec<_>>();
        let given = if is_permutation(&given, n) {
            given
        } else {
            (0..n).rev().collect()
        };
        Field {
            ids,
            last,
            capped,
            given,
        }
    }

    fn candidates(&self, free_since: i64) -> Vec<Candidate<'_>> {
        self.given
            .iter()
            .map(|&p| Candidate {
                id: self.ids[p],
                points: 1000 - p as u32,
                rating: 1500,
                free_since,
                last_opponents: &self.last[p],
                capped_with: &self.capped[p],
                blocked_with: &[],
            })
            .collect()
    }

    fn place(&self, id: i64) -> usize {
        self.ids
            .iter()
            .position(|&i| i == id)
            .expect("a free player")
    }
}

fn is_permutation(v: &[usize], n: usize) -> bool {
    let mut seen = vec![false; n];
    v.iter()
        .all(|&x| x < n && !std::mem::replace(&mut seen[x], true))
}

/// The reference cost of a seating (tables of places), from the bonds alone.
fn cost_of(tables: &[Vec<usize>], bond: &dyn Fn(usize, usize) -> Bond) -> (u32, u32, u32) {
    let (mut capped, mut repeats, mut span) = (0, 0, 0);
    for table in tables {
        for (k, &a) in table.iter().enumerate() {
            for &b in &table[k + 1..] {
                match bond(a.min(b), a.max(b)) {
                    Bond::None => {}
                    Bond::Met => repeats += 1,
                    Bond::Capped => capped += 1,
                }
            }
        }
        span += (table.iter().max().unwrap() - table.iter().min().unwrap()) as u32;
    }
    (capped, repeats, span)
}

/// Every seating of players `0..n`: every partition into blocks, kept when its blocks are
/// full tables of `size` and at most one block of `left` players (with `small`, a table; else
/// those players are not seated, and a partition lists each of them as a block of one).
fn seatings(n: usize, size: usize, small: bool) -> Vec<Vec<Vec<usize>>> {
    fn partitions(
        n: usize,
        k: usize,
        blocks: &mut Vec<Vec<usize>>,
        out: &mut Vec<Vec<Vec<usize>>>,
    ) {
        if k == n {
            out.push(blocks.clone());
            return;
        }
        for b in 0..blocks.len() {
            blocks[b].push(k);
            partitions(n, k + 1, blocks, out);
            blocks[b].pop();
        }
        blocks.push(vec![k]);
        partitions(n, k + 1, blocks, out);
        blocks.pop();
    }
    let mut all = Vec::new();
    partitions(n, 0, &mut Vec::new(), &mut all);
    let left = n % size;
    all.into_iter()
        .filter_map(|blocks| {
            let full = blocks.iter().filter(|b| b.len() == size).count();
            if small && left >= 2 {
                let smalls = blocks.iter().filter(|b| b.len() == left).count();
                (full == n / size && smalls == 1 && blocks.len() == full + 1).then_some(blocks)
            } else {
                let alone = blocks.iter().filter(|b| b.len() == 1).count();
                let ok = full == n / size && alone == left && blocks.len() == full + left;
                ok.then(|| blocks.into_iter().filter(|b| b.len() == size).collect())
            }
        })
        .collect()
}

/// Checks `pair` on the field against the least cost of `all` seatings.
fn check(
    game: GameKind,
    n: usize,
    bond: &dyn Fn(usize, usize) -> Bond,
    waited: bool,
    all: &[Vec<Vec<usize>>],
) {
    let field = Field::new(n, bond);
    let free = field.candidates(0);
    let now = if waited { 5_000 } else { 0 };
    let tables = pair(game, &free, now, 5_000);
    let places: Vec<Vec<usize>> = tables
        .iter()
        .map(|t| t.iter().map(|&id| field.place(id)).collect())
        .collect();
    // A seating as asked: full tables, each player once, best-ranked first at each table.
    let size = if game == GameKind::Jungle { 2 } else { 4 };
    let seated: Vec<usize> = places.iter().flatten().copied().collect();
    let mut once = seated.clone();
    once.sort_unstable();
    once.dedup();
    assert_eq!(
        once.len(),
        seated.len(),
        "a player seated twice: {places:?}"
    );
    let small = game == GameKind::Flight && waited && n % 4 >= 2;
    let expected_seated = if small { n } else { n - n % size };
    assert_eq!(seated.len(), expected_seated, "{game:?} n {n}: {places:?}");
    for t in &places {
        assert!(t.len() == size || (small && t.len() == n % 4), "{places:?}");
        assert!(
            t.windows(2).all(|w| w[0] < w[1]),
            "best-ranked first: {places:?}"
        );
    }
    let got = cost_of(&places, bond);
    let best = all
        .iter()
        .map(|s| cost_of(s, bond))
        .min()
        .expect("a seating");
    assert_eq!(
        got, best,
        "{game:?} n {n} waited {waited}: seated {places:?} of cost {got:?}, the least is {best:?}"
    );
}

/// The pairs of `n` players, a < b.
fn pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .collect()
}

/// The shapes of a round: Jungle; flight before and after the wait.
const SHAPES: [(GameKind, bool); 3] = [
    (GameKind::Jungle, false),
    (GameKind::Flight, false),
    (GameKind::Flight, true),
];

fn seatings_of(game: GameKind, n: usize, waited: bool) -> Vec<Vec<Vec<usize>>> {
    match game {
        GameKind::Jungle => seatings(n, 2, false),
        GameKind::Flight => seatings(n, 4, waited && n % 4 >= 2),
    }
}

#[test]
fn p_arena_pairing_is_least_cost_for_every_history_of_up_to_six_free_players() {
    for n in 2..=6 {
        let pairs = pairs(n);
        for (game, waited) in SHAPES {
            let all = seatings_of(game, n, waited);
            for history in 0u32..1 << pairs.len() {
                let bond = |a: usize, b: usize| {
                    let k = pairs.iter().position(|&p| p == (a, b)).unwrap();
                    if history & (1 << k) != 0 {
                        Bond::Met
                    } else {
                        Bond::None
                    }
                };
                check(game, n, &bond, waited, &all);
            }
        }
    }
}

#[test]
fn p_arena_pairing_is_least_cost_for_every_history_with_capped_pairs_of_up_to_five() {
    for n in 2..=5 {
        let pairs = pairs(n);
        for (game, waited) in SHAPES {
            let all = seatings_of(game, n, waited);
            for history in 0..3u32.pow(pairs.len() as u32) {
                let bond = |a: usize, b: usize| {
                    let k = pairs.iter().position(|&p| p == (a, b)).unwrap();
                    match history / 3u32.pow(k as u32) % 3 {
                        0 => Bond::None,
                        1 => Bond::Met,
                        _ => Bond::Capped,
                    }
                };
                check(game, n, &bond, waited, &all);
            }
        }
    }
}

#[test]
fn p_arena_pairing_is_least_cost_for_random_histories_of_seven_to_nine_free_players() {
    let mut rng = Lcg(43);
    for n in 7..=9 {
        let pairs = pairs(n);
        for (game, waited) in SHAPES {
            let all = seatings_of(game, n, waited);
            for _ in 0..600 {
                // Sparse to dense histories, a few capped pairs.
                let density = 1 + rng.next(6);
                let bonds: Vec<Bond> = pairs
                    .iter()
                    .map(|_| match rng.next(12) {
                        x if x < density => Bond::Met,
                        11 => Bond::Capped,
                        _ => Bond::None,
                    })
                    .collect();
                let bond =
                    |a: usize, b: usize| bonds[pairs.iter().position(|&p| p == (a, b)).unwrap()];
                check(game, n, &bond, waited, &all);
            }
        }
    }
}

/// The case: X last played both Y and Z; Y and Z have not just met. Y and Z play,
/// X waits (however the three rank).
#[test]
fn p_arena_x_who_last_played_y_and_z_waits_while_y_and_z_play() {
    for x_place in 0..3 {
        let (x, y, z) = (10, 20, 30);
        let mut order = vec![y, z];
        order.insert(x_place, x);
        let last_x = [y];
        let last_z = [x];
        let free: Vec<Candidate<'_>> = order
            .iter()
            .enumerate()
            .map(|(place, &id)| Candidate {
                id,
                points: 10 - place as u32,
                rating: 1500,
                free_since: 0,
                last_opponents: match id {
                    10 => &last_x,
                    30 => &last_z,
                    _ => &[],
                },
                capped_with: &[],
                blocked_with: &[],
            })
            .collect();
        let tables = pair(GameKind::Jungle, &free, 0, 5_000);
        let mut table = tables.concat();
        table.sort_unstable();
        assert_eq!((tables.len(), table), (1, vec![y, z]), "X ranked {x_place}");
    }
}

/// P-ARENA's pair limit: a pair that played the arena's cap of games together sits together
/// again only when no one else is free, even rather than a repeat of a last opponent.
#[test]
fn p_arena_a_capped_pair_sits_together_only_when_no_one_else_is_free() {
    let (a, b, c, d) = (1, 2, 3, 4);
    static CAPPED_A: [i64; 1] = [2];
    static LAST_A: [i64; 1] = [3];
    static LAST_B: [i64; 1] = [4];
    let make = |ids: &[i64]| -> Vec<Candidate<'static>> {
        ids.iter()
            .map(|&id| Candidate {
                id,
                points: 10 - id as u32,
                rating: 1500,
                free_since: 0,
                last_opponents: match id {
                    1 => &LAST_A,
                    2 => &LAST_B,
                    _ => &[],
                },
                capped_with: if id == 1 { &CAPPED_A } else { &[] },
                blocked_with: &[],
            })
            .collect()
    };
    // Four free: A–B is capped, A–C and B–D repeats: A–D and B–C, no repeat.
    assert_eq!(
        pair(GameKind::Jungle, &make(&[a, b, c, d]), 0, 0),
        [vec![a, d], vec![b, c]]
    );
    // Three free, A, B and C: A–C repeats their last game, still better than the capped A–B;
    // B–C is clean and leaves A waiting.
    assert_eq!(
        pair(GameKind::Jungle, &make(&[a, b, c]), 0, 0),
        [vec![b, c]]
    );
    // A and B alone: they sit together.
    assert_eq!(pair(GameKind::Jungle, &make(&[a, b]), 0, 0), [vec![a, b]]);
}

/// P-CHALLENGE's block in an arena: two players one of whom blocked the other are never at
/// one table — not even when they are the only two free, nor in a flight table of four — and
/// the others are seated around them.
#[test]
fn p_challenge_blocked_players_are_never_seated_together_in_an_arena() {
    static BLOCKS_A: [i64; 1] = [2];
    let make = |ids: &[i64]| -> Vec<Candidate<'static>> {
        ids.iter()
            .map(|&id| Candidate {
                id,
                points: 100 - id as u32,
                rating: 1500,
                free_since: 0,
                last_opponents: &[],
                capped_with: &[],
                blocked_with: if id == 1 { &BLOCKS_A } else { &[] },
            })
            .collect()
    };
    // A and B alone: nobody is seated (a capped pair would be).
    assert!(pair(GameKind::Jungle, &make(&[1, 2]), 0, 0).is_empty());
    // Four free: the nearest ranks would seat A–B; A–C and B–D instead.
    assert_eq!(
        pair(GameKind::Jungle, &make(&[1, 2, 3, 4]), 0, 0),
        [vec![1, 3], vec![2, 4]]
    );
    // Flight, four free: the only table of four holds A and B, so it waits; with five free
    // and a small table allowed (everyone waited long enough), A and B sit apart.
    assert!(pair(GameKind::Flight, &make(&[1, 2, 3, 4]), 0, 0).is_empty());
    for table in pair(GameKind::Flight, &make(&[1, 2, 3, 4, 5, 6]), 0, 0) {
        assert!(
            !(table.contains(&1) && table.contains(&2)),
            "A and B at one table: {table:?}"
        );
    }
    // Many free players (blocks of the ranking beyond one exact search): still apart.
    let many: Vec<i64> = (1..=40).collect();
    for table in pair(GameKind::Jungle, &make(&many), 0, 0) {
        assert_ne!(table, [1, 2]);
    }
}

/// Beyond one exact search (blocks of the ranking): every player seated once at full tables,
/// by nearby ranks, and no repeat where the blocks leave room to avoid it.
#[test]
fn p_arena_pairing_of_many_free_players_seats_everyone_without_repeats() {
    let mut rng = Lcg(5);
    for (game, size, opponents, sizes) in [
        (GameKind::Jungle, 2, 1, &[13, 40, 501, 2000][..]),
        // Fewer than a few dozen flight players each with three random last opponents may
        // leave no seating without a repeat at all.
        (GameKind::Flight, 4, 3, &[101, 501, 2000][..]),
    ] {
        for &n in sizes {
            let ids: Vec<i64> = (1..=n as i64).collect();
            // Jungle: the last opponent among nearby ranks, where it hurts most; flight: three
            // anywhere (three nearby each can leave no seating of a block without a repeat).
            let last: Vec<Vec<i64>> = (0..n)
                .map(|i| {
                    (0..opponents)
                        .map(|_| {
                            let near = if size == 2 {
                                i as i64 + 1 + rng.next(9) as i64 - 4
                            } else {
                                rng.next(n as u64) as i64 + 1
                            };
                            near.clamp(1, n as i64)
                        })
                        .filter(|&o| o != i as i64 + 1)
                        .collect()
                })
                .collect();
            let free: Vec<Candidate<'_>> = (0..n)
                .map(|i| Candidate {
                    id: ids[i],
                    points: (n - i) as u32,
                    rating: 1500,
                    free_since: 0,
                    last_opponents: &last[i],
                    capped_with: &[],
                    blocked_with: &[],
                })
                .collect();
            let tables = pair(game, &free, 0, 5_000);
            let mut seated: Vec<i64> = tables.concat();
            assert_eq!(seated.len(), n - n % size, "{game:?} {n}");
            seated.sort_unstable();
            seated.dedup();
            assert_eq!(seated.len(), n - n % size, "each once: {game:?} {n}");
            let met = |a: i64, b: i64| {
                last[a as usize - 1].contains(&b) || last[b as usize - 1].contains(&a)
            };
            for t in &tables {
                assert_eq!(t.len(), size);
                for (k, &a) in t.iter().enumerate() {
                    for &b in &t[k + 1..] {
                        assert!(!met(a, b), "{game:?} {n}: repeat at {t:?}");
                    }
                }
                // Nearby ranks: a table spans at most a block grown to its largest.
                let span = t.iter().max().unwrap() - t.iter().min().unwrap();
                assert!(span < EXACT_PLAYERS as i64 + 4, "{game:?} {n}: {t:?}");
            }
        }
    }
}
