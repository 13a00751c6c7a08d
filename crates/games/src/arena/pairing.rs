//! The pairing of an arena's free players (P-ARENA): Jungle by twos; flight at tables of
//! four, plus one of the three or two left over once a free player has waited
//! [`Arena::table_wait_ms`](super::Arena) (fewer than two left over wait for the next round).
//!
//! A round seats all the free players at once, choosing among every seating the one of the
//! least cost, compared in this order:
//!
//! 0. the fewest *blocked* pairs: two people one of whom blocked the other (P-CHALLENGE) —
//!    a table with one is not seated at all, its players wait for the next round;
//! 1. the fewest *capped* pairs at a table: two people who played the arena's cap of games
//!    together (3, P-ARENA: later games pay nothing) sit together only when no one else is
//!    free;
//! 2. the fewest *repeats*: two people at a table who met in the last game of either;
//! 3. the nearest ranks: the sum over the tables of their *span*, the distance in the ranking
//!    of the free players (points, then rating, best first) between the table's best- and
//!    worst-ranked player. Two players next to each other span 1.
//!
//! Ties go to the seating met first when the best-ranked players are seated first.
//!
//! The search is exact (dynamic programming over the subsets of players) for up to
//! [`EXACT_PLAYERS`] free players. Beyond, the ranking is cut into blocks of consecutive
//! ranks, each seated exactly: a block of [`BLOCK`] players, grown by a table at a time up to
//! [`EXACT_PLAYERS`] while that lowers its repeats, and the last block of the players left.
//! Each player's last opponents are few (one to three), so a block nearly always seats without
//! a repeat; thousands of players pair in a few milliseconds (`benches/arena.rs`).

use hangar_protocol::GameKind;

/// A free player as the pairing sees them.
#[derive(Clone, Copy, Debug)]
pub struct Candidate<'a> {
    /// The account id.
    pub id: i64,
    /// Arena points.
    pub points: u32,
    /// Rating in the arena's game (P-RATING).
    pub rating: i32,
    /// Since when the player is free (ms since the epoch).
    pub free_since: i64,
    /// The opponents of the player's last arena game.
    pub last_opponents: &'a [i64],
    /// The players with whom this one has played the arena's cap of games.
    pub capped_with: &'a [i64],
    /// The players this one blocked or was blocked by (P-CHALLENGE): never at one table.
    pub blocked_with: &'a [i64],
}

impl Candidate<'_> {
    /// Whether the two met in the last game of either.
    pub fn met(&self, other: &Candidate<'_>) -> bool {
        self.last_opponents.contains(&other.id) || other.last_opponents.contains(&self.id)
    }

    /// Whether the two have played the arena's cap of games together.
    pub fn capped(&self, other: &Candidate<'_>) -> bool {
        self.capped_with.contains(&other.id) || other.capped_with.contains(&self.id)
    }

    /// Whether one of the two blocked the other.
    pub fn blocks(&self, other: &Candidate<'_>) -> bool {
        self.blocked_with.contains(&other.id) || other.blocked_with.contains(&self.id)
    }
}

/// Most free players seated by one exact search.
pub const EXACT_PLAYERS: usize = 12;

/// Players of a block of the ranking when there are more than [`EXACT_PLAYERS`].
pub const BLOCK: usize = 8;

/// The cost of a seating (see the module's documentation), compared in field order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Cost {
    /// Pairs at a table one of whom blocked the other.
    pub blocked: u32,
    /// Pairs at a table who played the arena's cap of games together.
    pub capped: u32,
    /// Pairs at a table who met in the last game of either.
    pub repeats: u32,
    /// The sum of the tables' spans in the ranking.
    pub span: u32,
}

impl std::ops::Add for Cost {
    type Output = Cost;
    fn add(self, other: Cost) -> Cost {
        Cost {
            blocked: self.blocked + other.blocked,
            capped: self.capped + other.capped,
            repeats: self.repeats + other.repeats,
            span: self.span + other.span,
        }
    }
}

/// The ranking of the free players, best first: indexes into `free`.
pub fn ranking(free: &[Candidate<'_>]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..free.len()).collect();
    order.sort_unstable_by(|&a, &b| {
        let (a, b) = (&free[a], &free[b]);
        b.points
            .cmp(&a.points)
            .then(b.rating.cmp(&a.rating))
            .then(a.id.cmp(&b.id))
    });
    order
}

/// The cost of one table of players given by their places in the ranking (`ranked[place]` is
/// an index into `free`).
pub fn table_cost(free: &[Candidate<'_>], ranked: &[usize], places: &[usize]) -> Cost {
    let mut cost = Cost::default();
    for (k, &a) in places.iter().enumerate() {
        for &b in &places[k + 1..] {
            let (a, b) = (&free[ranked[a]], &free[ranked[b]]);
            cost.blocked += u32::from(a.blocks(b));
            cost.capped += u32::from(a.capped(b));
            cost.repeats += u32::from(a.met(b));
        }
    }
    let (low, high) = places
        .iter()
        .fold((usize::MAX, 0), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    cost.span = u32::try_from(high.saturating_sub(low)).unwrap_or(u32::MAX);
    cost
}

/// What a round seats: full tables of `size`, and (`small`) whether the players left over
/// beyond them sit at a smaller table of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Players at a full table.
    pub size: usize,
    /// Whether the players left over (two or three, flight) sit together.
    pub small: bool,
}

impl Shape {
    /// The shape of a round of `game` for `free`: flight's small table once a free player
    /// has waited `table_wait_ms`.
    pub fn of(game: GameKind, free: &[Candidate<'_>], now: i64, table_wait_ms: i64) -> Shape {
        match game {
            GameKind::Jungle => Shape {
                size: 2,
                small: false,
            },
            GameKind::Flight => {
                let waited = free.iter().map(|c| now - c.free_since).max().unwrap_or(0);
                Shape {
                    size: 4,
                    small: free.len() % 4 >= 2 && waited >= table_wait_ms,
                }
            }
        }
    }
}

/// The tables of one round, each a list of player ids best-ranked first. Players left out
/// wait for the next round.
pub fn pair(game: GameKind, free: &[Candidate<'_>], now: i64, table_wait_ms: i64) -> Vec<Vec<i64>> {
    let shape = Shape::of(game, free, now, table_wait_ms);
    let ranked = ranking(free);
    seat(free, &ranked, shape)
        .into_iter()
        // Never seated together: the least blocked seating may still hold such a table when
        // the free players allow no other; its players wait for the next round.
        .filter(|table| table_cost(free, &ranked, table).blocked == 0)
        .map(|table| table.into_iter().map(|p| free[ranked[p]].id).collect())
        .collect()
}

/// The tables of a round as places in the ranking, each best-ranked first.
pub fn seat(free: &[Candidate<'_>], ranked: &[usize], shape: Shape) -> Vec<Vec<usize>> {
    let n = ranked.len();
    let mut tables = Vec::with_capacity(n / shape.size + 1);
    let mut from = 0;
    while n - from > EXACT_PLAYERS {
        // A block of whole tables, grown while that lowers its repeats, leaving enough
        // players for the last block to be one exact search at most.
        let mut best: Option<(Cost, Vec<Vec<usize>>)> = None;
        let mut len = BLOCK;
        while len <= EXACT_PLAYERS && from + len <= n {
            let places: Vec<usize> = (from..from + len).collect();
            let (cost, block) = exact(free, ranked, &places, shape.size, 0, false);
            let better = best.as_ref().is_none_or(|(b, _)| {
                (cost.blocked, cost.capped, cost.repeats) < (b.blocked, b.capped, b.repeats)
            });
            if better {
                let clean = cost.blocked == 0 && cost.capped == 0 && cost.repeats == 0;
                best = Some((cost, block));
                if clean {
                    break;
                }
            }
            len += shape.size;
        }
        let (_, block) = best.expect("a block fits");
        from += block.iter().map(Vec::len).sum::<usize>();
        tables.extend(block);
    }
    let places: Vec<usize> = (from..n).collect();
    let left = places.len() % shape.size;
    let (_, last) = exact(free, ranked, &places, shape.size, left, shape.small);
    tables.extend(last);
    tables
}

/// The seating of least cost of `places` (places in the ranking, at most [`EXACT_PLAYERS`]
/// of them, best first) at tables of `size`, `left` of them left over; with `small` those
/// left over sit at a table of their own. Its cost and its tables.
pub fn exact(
    free: &[Candidate<'_>],
    ranked: &[usize],
    places: &[usize],
    size: usize,
    left: usize,
    small: bool,
) -> (Cost, Vec<Vec<usize>>) {
    let m = places.len();
    assert!(m <= EXACT_PLAYERS, "an exact search of {m} players");
    debug_assert!(left < size && (m - left).is_multiple_of(size));
    // Who met whom, and who played the cap with whom, as masks of the block's players.
    let mut met = [0u16; EXACT_PLAYERS];
    let mut capped = [0u16; EXACT_PLAYERS];
    let mut blocked = [0u16; EXACT_PLAYERS];
    for a in 0..m {
        for b in a + 1..m {
            let (x, y) = (&free[ranked[places[a]]], &free[ranked[places[b]]]);
            if x.met(y) {
                met[a] |= 1 << b;
                met[b] |= 1 << a;
            }
            if x.capped(y) {
                capped[a] |= 1 << b;
                capped[b] |= 1 << a;
            }
            if x.blocks(y) {
                blocked[a] |= 1 << b;
                blocked[b] |= 1 << a;
            }
        }
    }
    let search = Search {
        places,
        met,
        capped,
        blocked,
        size,
        left,
        small,
        m,
    };
    let full = (1usize << m) - 1;
    let mut memo: Vec<Option<Step>> = vec![None; 1 << m];
    let cost = solve(&search, full, &mut memo);
    let mut tables = Vec::with_capacity(m / size + 1);
    let mut mask = full;
    while mask != 0 {
        let step = memo[mask].expect("solved");
        if step.seated {
            tables.push(
                (0..m)
                    .filter(|k| step.first & (1 << k) != 0)
                    .map(|k| places[k])
                    .collect(),
            );
        }
        mask &= !step.first;
    }
    (cost, tables)
}

/// The fixed inputs of one exact search; players are bits `0..m`, best-ranked first.
struct Search<'s> {
    places: &'s [usize],
    met: [u16; EXACT_PLAYERS],
    capped: [u16; EXACT_PLAYERS],
    blocked: [u16; EXACT_PLAYERS],
    size: usize,
    left: usize,
    small: bool,
    m: usize,
}

impl Search<'_> {
    /// The cost of the table of the players of `table`.
    fn cost(&self, table: usize) -> Cost {
        let (mut blocked, mut capped, mut repeats) = (0, 0, 0);
        let mut bits = table;
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            blocked += (usize::from(self.blocked[k]) & table).count_ones();
            capped += (usize::from(self.capped[k]) & table).count_ones();
            repeats += (usize::from(self.met[k]) & table).count_ones();
        }
        let low = table.trailing_zeros() as usize;
        let high = usize::BITS as usize - 1 - table.leading_zeros() as usize;
        Cost {
            blocked: blocked / 2,
            capped: capped / 2,
            repeats: repeats / 2,
            span: u32::try_from(self.places[high] - self.places[low]).unwrap_or(u32::MAX),
        }
    }
}

/// The best first step of seating a set of players: the table (or the one player left over)
/// of its best-ranked player, and the cost of the whole set.
#[derive(Clone, Copy, Debug)]
struct Step {
    cost: Cost,
    first: usize,
    seated: bool,
}

/// The cost of a set that cannot be seated as asked (more than any seating costs).
const IMPOSSIBLE: Cost = Cost {
    blocked: u32::MAX / 4,
    capped: 0,
    repeats: 0,
    span: 0,
};

/// The least cost of seating the players of `mask` (memoised): its best-ranked player sits
/// at a full table, at the small one, or is left over, whichever costs least (ties: the first
/// in that order, the table with the best-ranked others).
fn solve(s: &Search<'_>, mask: usize, memo: &mut [Option<Step>]) -> Cost {
    if mask == 0 {
        return Cost::default();
    }
    if let Some(step) = memo[mask] {
        return step.cost;
    }
    let first = mask & mask.wrapping_neg();
    let rest = mask & !first;
    // Players already dealt with beyond full tables: those left over, or the small table
    // (`left` players, fewer than a full table).
    let done = (s.m - mask.count_ones() as usize) % s.size;
    let mut best = Step {
        cost: IMPOSSIBLE,
        first,
        seated: false,
    };
    let mut sizes = [s.size, 0];
    if s.small && done == 0 && s.left >= 2 {
        sizes[1] = s.left;
    }
    for size in sizes.into_iter().filter(|&n| n > 0) {
        subsets(rest, size - 1, 0, &mut |others| {
            let table = others | first;
            let cost = s.cost(table) + solve(s, mask & !table, memo);
            if cost < best.cost {
                best = Step {
                    cost,
                    first: table,
                    seated: true,
                };
            }
        });
    }
    if !s.small && done < s.left {
        let cost = solve(s, rest, memo);
        if cost < best.cost {
            best = Step {
                cost,
                first,
                seated: false,
            };
        }
    }
    memo[mask] = Some(best);
    best.cost
}

/// Calls `f` with every set of `k` bits of `pool` added to `picked` (as masks), the lowest
/// bits first.
fn subsets(pool: usize, k: usize, picked: usize, f: &mut dyn FnMut(usize)) {
    if k == 0 {
        f(picked);
        return;
    }
    let mut rest = pool;
    while rest.count_ones() as usize >= k {
        let bit = rest & rest.wrapping_neg();
        rest &= !bit;
        subsets(rest, k - 1, picked | bit, f);
    }
}

#[cfg(test)]
mod tests;
