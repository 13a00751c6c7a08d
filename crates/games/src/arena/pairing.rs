//! The pairing of an arena's free players (P-ARENA): players of nearby arena rank (points,
//! then rating) sit together — Jungle by twos; flight at tables of four, or of three or two
//! once the free players have waited [`Arena::table_wait_ms`](super::Arena) for a fourth —
//! and nobody meets an opponent of their last game again when another free player would do.
//!
//! One round is a sort and a walk down the sorted players: each table takes the best-ranked
//! player left and the nearest players below who played none of the table's last games.
//! Each player's last opponents are few (one to three), so the walk looks at a handful of
//! players per seat: thousands of players pair in a few milliseconds (`benches/arena.rs`).

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
}

impl Candidate<'_> {
    /// Whether the two met in the last game of either.
    fn met(&self, other: &Candidate<'_>) -> bool {
        self.last_opponents.contains(&other.id) || other.last_opponents.contains(&self.id)
    }
}

/// The tables of one round, each a list of player ids best-ranked first. Players left out
/// wait for the next round.
pub fn pair(game: GameKind, free: &[Candidate<'_>], now: i64, table_wait_ms: i64) -> Vec<Vec<i64>> {
    let mut order: Vec<usize> = (0..free.len()).collect();
    order.sort_unstable_by(|&a, &b| {
        let (a, b) = (&free[a], &free[b]);
        b.points
            .cmp(&a.points)
            .then(b.rating.cmp(&a.rating))
            .then(a.id.cmp(&b.id))
    });
    let size = match game {
        GameKind::Jungle => 2,
        GameKind::Flight => 4,
    };
    let mut tables = group(free, &order, size);
    if game == GameKind::Flight {
        let seated: std::collections::HashSet<usize> = tables.iter().flatten().copied().collect();
        let rest: Vec<usize> = order.into_iter().filter(|i| !seated.contains(i)).collect();
        let waited = rest
            .iter()
            .map(|&i| now - free[i].free_since)
            .max()
            .unwrap_or(0);
        if rest.len() >= 2 && waited >= table_wait_ms {
            // Not enough for four: one table of the three or two left.
            tables.push(rest);
        }
    }
    tables
        .into_iter()
        .map(|t| t.into_iter().map(|i| free[i].id).collect())
        .collect()
}

/// How far down the ranks a forced seat looks for the player who met the fewest at the table.
const FALLBACK_WINDOW: usize = 64;

/// How many earlier pairs are paired again when a Jungle pair would be a rematch.
const REPAIR_PAIRS: usize = 5;

/// Full tables of `size` down the ranked `order` (indexes into `free`).
fn group(free: &[Candidate<'_>], order: &[usize], size: usize) -> Vec<Vec<usize>> {
    let mut taken = vec![false; free.len()];
    // The first position in `order` that may still be free.
    let mut head = 0;
    let mut left = order.len();
    let mut tables: Vec<Vec<usize>> = Vec::with_capacity(order.len() / size);
    while left >= size {
        while taken[order[head]] {
            head += 1;
        }
        let first = order[head];
        taken[first] = true;
        left -= 1;
        let mut table = vec![first];
        while table.len() < size {
            let met = |i: usize| table.iter().filter(|&&t| free[t].met(&free[i])).count();
            // The nearest below who met nobody at the table, else (nobody such is free) the
            // nearest of those who met the fewest.
            let pick = order[head..]
                .iter()
                .copied()
                .find(|&i| !taken[i] && met(i) == 0)
                .or_else(|| {
                    order[head..]
                        .iter()
                        .copied()
                        .filter(|&i| !taken[i])
                        .take(FALLBACK_WINDOW)
                        .min_by_key(|&i| met(i))
                })
                .expect("enough players are left");
            taken[pick] = true;
            left -= 1;
            table.push(pick);
        }
        let rematch = size == 2 && free[table[0]].met(&free[table[1]]);
        tables.push(table);
        if rematch {
            repair(free, &mut tables);
        }
    }
    tables
}

/// Pairs the players of the last few pairs (the last one a rematch) again, in rank order,
/// without a rematch if there is such a pairing of them.
fn repair(free: &[Candidate<'_>], tables: &mut Vec<Vec<usize>>) {
    let from = tables.len().saturating_sub(REPAIR_PAIRS + 1);
    // In the order they were seated: the better-ranked first, so the search keeps ranks near.
    let players: Vec<usize> = tables[from..].iter().flatten().copied().collect();
    let mut out = Vec::with_capacity(players.len());
    if pair_without_rematch(free, &players, &mut out) {
        tables.truncate(from);
        tables.extend(out.chunks(2).map(<[usize]>::to_vec));
    }
}

/// Depth-first: the first player with the nearest partner that leaves the rest pairable.
fn pair_without_rematch(free: &[Candidate<'_>], left: &[usize], out: &mut Vec<usize>) -> bool {
    let Some((&first, rest)) = left.split_first() else {
        return true;
    };
    for k in 0..rest.len() {
        if free[first].met(&free[rest[k]]) {
            continue;
        }
        let others: Vec<usize> = rest
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != k)
            .map(|(_, &x)| x)
            .collect();
        out.push(first);
        out.push(rest[k]);
        if pair_without_rematch(free, &others, out) {
            return true;
        }
        out.truncate(out.len() - 2);
    }
    false
}
