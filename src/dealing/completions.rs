//! Exact counts of the ways to deal the free cards one seat leaves to the three other seats
//! under their bias lengths, and a draw of those seats' suit lengths in proportion to them:
//! what smart dealing with bias predeal weighs the first seat's hands by (see
//! [`super::BiasedTable`]).
//!
//! With `r_s` free cards of suit `s` left and the other seats, in dealing order, taking
//! `t_1`, `t_2`, `t_3` of them (per suit; each seat's row adds up to its free slots and meets
//! its pinned lengths), a table of lengths is dealt in `Π_s r_s! / (t_1s! t_2s! t_3s!)` ways,
//! so the deals of the rest number
//! `N_1(r) = Σ_{t_1} Π_s C(r_s, t_1s) · N_2(r − t_1)`, with
//! `N_2(r) = Σ_{t_2} Π_s C(r_s, t_2s) · [r − t_2 is a row of the third seat]`.
//! Integers throughout: `N_1` is at most `39! / 13!^3`, below 2^57.

/// Remaining suit counts 0..=13 in each of four suits.
const STATES: usize = 14 * 14 * 14 * 14;

/// Not computed yet.
const UNKNOWN: u64 = u64::MAX;

/// `C(n, k)` for `n, k` up to 13.
static CHOOSE: [[u64; 14]; 14] = choose_table();

/// Builds [`CHOOSE`] by Pascal's rule.
const fn choose_table() -> [[u64; 14]; 14] {
    let mut table = [[0u64; 14]; 14];
    let mut n = 0;
    while n < 14 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + table[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    table
}

/// The memo index of remaining suit counts.
fn state(r: [u8; 4]) -> usize {
    r.iter().fold(0, |index, &count| index * 14 + usize::from(count))
}

/// The ways of dealing the free cards left to three seats under their bias lengths.
#[derive(Clone, Debug)]
pub(crate) struct Completions {
    /// Free slots of each of the three seats, in dealing order.
    slots: [u8; 3],
    /// Their pinned free cards per suit, −1 where the length is free.
    pinned: [[i8; 4]; 3],
    /// `N_1` and `N_2` by state, once computed.
    memo: [Vec<u64>; 2],
}

impl Completions {
    /// The completions for three seats with free `slots` and `pinned` free cards per suit
    /// (−1: not pinned), in the order they are dealt.
    pub(crate) fn new(slots: [u8; 3], pinned: [[i8; 4]; 3]) -> Completions {
        Completions { slots, pinned, memo: [vec![UNKNOWN; STATES], vec![UNKNOWN; STATES]] }
    }

    /// The ways of dealing `r` free cards of each suit to the three seats (computed and kept,
    /// with every count a [`draw`](Self::draw) from `r` reads).
    pub(crate) fn count(&mut self, r: [u8; 4]) -> u64 {
        self.ways(0, r)
    }

    /// `N_{level + 1}(r)`, computed when needed.
    fn ways(&mut self, level: usize, r: [u8; 4]) -> u64 {
        if level == 2 {
            return u64::from(self.is_row(2, r));
        }
        let at = state(r);
        if self.memo[level][at] == UNKNOWN {
            let mut rows = Vec::new();
            self.for_each_row(level, r, |row| {
                rows.push(row);
                true
            });
            let mut total = 0u64;
            for row in rows {
                let rest = std::array::from_fn(|s| r[s] - row[s]);
                total += ways_of(r, row) * self.ways(level + 1, rest);
            }
            self.memo[level][at] = total;
        }
        self.memo[level][at]
    }

    /// The count kept for `level` (`N_3` is whether `r` is the third seat's row).
    fn kept(&self, level: usize, r: [u8; 4]) -> u64 {
        if level == 2 {
            return u64::from(self.is_row(2, r));
        }
        let kept = self.memo[level][state(r)];
        debug_assert_ne!(kept, UNKNOWN, "counted before drawing");
        kept
    }

    /// Whether seat `k` may take `row` free cards of each suit.
    fn is_row(&self, k: usize, row: [u8; 4]) -> bool {
        row.iter().map(|&c| u32::from(c)).sum::<u32>() == u32::from(self.slots[k])
            && (0..4).all(|s| self.pinned[k][s] < 0 || self.pinned[k][s] as u8 == row[s])
    }

    /// Calls `visit` with every row seat `k` may take from `r` (its slots, its pins), in a
    /// fixed order, while `visit` returns true.
    fn for_each_row(&self, k: usize, r: [u8; 4], mut visit: impl FnMut([u8; 4]) -> bool) {
        let need = self.slots[k];
        let range = |s: usize| match self.pinned[k][s] {
            p if p >= 0 => (p as u8, p as u8),
            _ => (0, r[s].min(need)),
        };
        let ranges: [(u8, u8); 4] = std::array::from_fn(range);
        if (0..4).any(|s| ranges[s].0 > r[s]) {
            return;
        }
        for c in ranges[0].0..=ranges[0].1 {
            for d in ranges[1].0..=ranges[1].1.min(need - c) {
                for h in ranges[2].0..=ranges[2].1.min(need - c - d) {
                    let s = need - c - d - h;
                    if s < ranges[3].0 || s > ranges[3].1 {
                        continue;
                    }
                    if !visit([c, d, h, s]) {
                        return;
                    }
                }
            }
        }
    }

    /// The three seats' free cards per suit, drawn from `r` (counted by [`count`](Self::count))
    /// with probability proportional to the deals each gives; `below(n)` is a uniform integer
    /// in `0..n`.
    pub(crate) fn draw(&self, r: [u8; 4], below: &mut impl FnMut(u64) -> u64) -> [[u8; 4]; 3] {
        let mut rows = [[0u8; 4]; 3];
        let mut left = r;
        for (level, drawn) in rows.iter_mut().enumerate().take(2) {
            let mut u = below(self.kept(level, left));
            let mut chosen = None;
            self.for_each_row(level, left, |row| {
                let rest = std::array::from_fn(|s| left[s] - row[s]);
                let weight = ways_of(left, row) * self.kept(level + 1, rest);
                if u < weight {
                    chosen = Some(row);
                    return false;
                }
                u -= weight;
                true
            });
            let row = chosen.expect("the rows' weights add up to the count");
            *drawn = row;
            left = std::array::from_fn(|s| left[s] - row[s]);
        }
        rows[2] = left;
        rows
    }
}

/// `Π_s C(r_s, row_s)`: the ways a seat takes `row` of the free cards `r` by suit.
fn ways_of(r: [u8; 4], row: [u8; 4]) -> u64 {
    (0..4).map(|s| CHOOSE[usize::from(r[s])][usize::from(row[s])]).product()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The deals of `r` to three seats by brute force over their rows.
    fn brute_force(slots: [u8; 3], pinned: [[i8; 4]; 3], r: [u8; 4]) -> u64 {
        let c = Completions::new(slots, pinned);
        let mut total = 0;
        c.for_each_row(0, r, |first| {
            let after: [u8; 4] = std::array::from_fn(|s| r[s] - first[s]);
            c.for_each_row(1, after, |second| {
                let last: [u8; 4] = std::array::from_fn(|s| after[s] - second[s]);
                if c.is_row(2, last) {
                    // r! / (first! second! last!) per suit.
                    total += ways_of(r, first) * ways_of(after, second);
                }
                true
            });
            true
        });
        total
    }

    #[test]
    fn unpinned_completions_are_multinomials() {
        let mut c = Completions::new([13; 3], [[-1; 4]; 3]);
        // 39! / 13!^3 deals of three full hands.
        assert_eq!(c.count([13, 13, 13, 0]), 84_478_098_072_866_400);
        assert_eq!(c.count([10, 10, 10, 9]), 84_478_098_072_866_400);
        // Slots that the cards do not fill: none.
        assert_eq!(c.count([13, 13, 12, 0]), 0);
        let mut c = Completions::new([1, 1, 1], [[-1; 4]; 3]);
        assert_eq!(c.count([1, 1, 1, 0]), 6);
    }

    #[test]
    fn pinned_completions_match_brute_force() {
        let mut pinned = [[-1i8; 4]; 3];
        pinned[0][3] = 6;
        pinned[2][0] = 0;
        pinned[1][2] = 3;
        let slots = [13, 12, 13];
        let mut c = Completions::new(slots, pinned);
        for r in [[13u8, 13, 12, 0], [10, 12, 8, 8], [6, 13, 13, 6], [13, 5, 9, 11]] {
            assert_eq!(c.count(r), brute_force(slots, pinned, r), "{r:?}");
        }
    }

    #[test]
    fn rows_are_drawn_in_proportion_to_their_deals() {
        // Twelve cards, four to a seat, the first seat holding exactly one spade: each number
        // below a level's count names one row, and each row is named by as many numbers as
        // the deals it leads to.
        let mut pinned = [[-1i8; 4]; 3];
        pinned[0][3] = 1;
        let slots = [4, 4, 4];
        let mut c = Completions::new(slots, pinned);
        let r = [3, 3, 2, 4];
        let total = c.count(r);
        assert_eq!(total, brute_force(slots, pinned, r));
        let mut firsts = std::collections::HashMap::new();
        for u in 0..total {
            let mut numbers = [u, 0].into_iter();
            let rows = c.draw(r, &mut |_| numbers.next().expect("two levels"));
            assert_eq!(rows[0][3], 1);
            *firsts.entry(rows[0]).or_insert(0u64) += 1;
        }
        for (first, hits) in firsts {
            let after: [u8; 4] = std::array::from_fn(|s| r[s] - first[s]);
            assert_eq!(hits, ways_of(r, first) * c.kept(1, after), "{first:?}");
            // The second seat's rows from what the first left, likewise.
            let mut seconds = std::collections::HashMap::new();
            let mut level = 0;
            for u in 0..c.kept(1, after) {
                level = 0;
                let rows = c.draw(r, &mut |_| {
                    level += 1;
                    if level == 1 {
                        // The first number that gives `first`: the rows before it, summed.
                        let mut before = 0;
                        c.for_each_row(0, r, |row| {
                            if row == first {
                                return false;
                            }
                            let rest = std::array::from_fn(|s| r[s] - row[s]);
                            before += ways_of(r, row) * c.kept(1, rest);
                            true
                        });
                        before
                    } else {
                        u
                    }
                });
                assert_eq!(rows[0], first);
                *seconds.entry(rows[1]).or_insert(0u64) += 1;
            }
            assert_eq!(level, 2);
            for (second, hits) in seconds {
                let last: [u8; 4] = std::array::from_fn(|s| after[s] - second[s]);
                assert!(c.is_row(2, last));
                assert_eq!(hits, ways_of(after, second), "{first:?} {second:?}");
            }
        }
    }
}
