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
//!
//! Drawing the lengths: the first of the three seats' row by a binary search in the
//! cumulative weights `Π_s C(r_s, t_1s) · N_2(r − t_1)` kept for every `r` counted; then the
//! second's, which is fixed in every suit that either of the last two seats has pinned (the
//! third seat takes the rest), and in the other suits split as a multivariate hypergeometric
//! draw (weights `Π C(r_s, t_2s)` with a fixed sum: a uniform subset of their cards), one suit
//! at a time by inverting its exact integer distribution.

/// Remaining suit counts 0..=13 in each of four suits.
const STATES: usize = 14 * 14 * 14 * 14;

/// Not computed yet.
const UNKNOWN: u64 = u64::MAX;

/// `C(n, k)` for `n` up to 52 and `k` up to 13.
static CHOOSE: [[u64; 14]; 53] = choose_table();

/// Builds [`CHOOSE`] by Pascal's rule.
const fn choose_table() -> [[u64; 14]; 53] {
    let mut table = [[0u64; 14]; 53];
    let mut n = 0;
    while n < 53 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= n && k < 14 {
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
    /// For every state whose `N_1` is counted: where its first seat's rows are in `firsts`.
    first_rows: Vec<(u32, u32)>,
    /// The first seat's rows from each counted state, each with the cumulative weight of the
    /// rows up to it.
    firsts: Vec<([u8; 4], u64)>,
}

impl Completions {
    /// The completions for three seats with free `slots` and `pinned` free cards per suit
    /// (−1: not pinned), in the order they are dealt.
    pub(crate) fn new(slots: [u8; 3], pinned: [[i8; 4]; 3]) -> Completions {
        Completions {
            slots,
            pinned,
            memo: [vec![UNKNOWN; STATES], vec![UNKNOWN; STATES]],
            first_rows: vec![(0, 0); STATES],
            firsts: Vec::new(),
        }
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
            let start = self.firsts.len() as u32;
            let mut total = 0u64;
            for row in rows {
                let rest = std::array::from_fn(|s| r[s] - row[s]);
                let weight = ways_of(r, row) * self.ways(level + 1, rest);
                total += weight;
                if level == 0 && weight > 0 {
                    self.firsts.push((row, total));
                }
            }
            if level == 0 {
                self.first_rows[at] = (start, self.firsts.len() as u32);
            }
            self.memo[level][at] = total;
        }
        self.memo[level][at]
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
        // (Pins past the cards left or past the seat's slots leave no row.)
        if (0..4).any(|s| ranges[s].0 > r[s])
            || ranges.iter().map(|range| u32::from(range.0)).sum::<u32>() > u32::from(need)
        {
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

    /// The three seats' free cards per suit, drawn from `r` (counted by [`count`](Self::count),
    /// and not 0) with probability proportional to the deals each gives; `below(n)` is a
    /// uniform integer in `0..n`.
    pub(crate) fn draw(&self, r: [u8; 4], below: &mut impl FnMut(u64) -> u64) -> [[u8; 4]; 3] {
        // The first seat's row: the first whose cumulative weight exceeds a uniform number.
        let (start, end) = self.first_rows[state(r)];
        let rows = &self.firsts[start as usize..end as usize];
        let total = rows.last().expect("a state with deals").1;
        let u = below(total);
        let first = rows[rows.partition_point(|&(_, end)| end <= u)].0;
        let left: [u8; 4] = std::array::from_fn(|s| r[s] - first[s]);
        // The second seat's: fixed where the last two seats are pinned, a uniform subset of
        // the other suits' cards.
        let mut second = [0u8; 4];
        let (mut open, mut opened) = ([0usize; 4], 0);
        let mut fixed = 0u8;
        for s in 0..4 {
            match (self.pinned[1][s], self.pinned[2][s]) {
                (p, _) if p >= 0 => second[s] = p as u8,
                (_, q) if q >= 0 => second[s] = left[s] - q as u8,
                _ => {
                    open[opened] = s;
                    opened += 1;
                    continue;
                }
            }
            fixed += second[s];
        }
        let open = &open[..opened];
        let mut take = self.slots[1] - fixed;
        let mut cards: u8 = open.iter().map(|&s| left[s]).sum();
        for (i, &s) in open.iter().enumerate() {
            if i + 1 == open.len() {
                second[s] = take;
                break;
            }
            // Hypergeometric: t of this suit's left[s] cards among `take` of `cards`.
            let (n, k, here) = (usize::from(cards), usize::from(take), usize::from(left[s]));
            let mut u = below(CHOOSE[n][k]);
            let mut t = 0;
            loop {
                let weight = CHOOSE[here][t] * CHOOSE[n - here][k - t];
                if u < weight {
                    break;
                }
                u -= weight;
                t += 1;
            }
            second[s] = t as u8;
            take -= t as u8;
            cards -= left[s];
        }
        let third = std::array::from_fn(|s| left[s] - second[s]);
        debug_assert!(self.is_row(1, second) && self.is_row(2, third), "{second:?} {third:?}");
        [first, second, third]
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
    fn pins_past_the_slots_leave_no_completion() {
        let mut pinned = [[-1i8; 4]; 3];
        pinned[0][3] = 5;
        let mut c = Completions::new([3, 13, 13], pinned);
        assert_eq!(c.count([10, 10, 4, 5]), 0);
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

    /// Every sequence of numbers `draw` may be given, with its probability: the rows each
    /// sequence gives, summed by rows.
    fn exact_draws(c: &Completions, r: [u8; 4]) -> std::collections::HashMap<[[u8; 4]; 3], f64> {
        let mut out = std::collections::HashMap::new();
        let mut prefix: Vec<u64> = Vec::new();
        loop {
            // Draw with the prefix's numbers, then 0s; record each number's bound.
            let mut drawn: Vec<(u64, u64)> = Vec::new();
            let rows = c.draw(r, &mut |n| {
                let value = prefix.get(drawn.len()).copied().unwrap_or(0);
                drawn.push((value, n));
                value
            });
            *out.entry(rows).or_insert(0.0) += drawn.iter().map(|&(_, n)| 1.0 / n as f64).product::<f64>();
            // The next sequence, as an odometer over the numbers drawn.
            let Some(last) = drawn.iter().rposition(|&(value, n)| value + 1 < n) else { return out };
            prefix = drawn[..last].iter().map(|&(value, _)| value).collect();
            prefix.push(drawn[last].0 + 1);
        }
    }

    #[test]
    fn rows_are_drawn_in_proportion_to_their_deals() {
        // Eight cards, 3-3-2 to the seats: every table of lengths is drawn with probability
        // its deals over all the deals, with pins on the first seat, on the second, on the
        // third, and none.
        let r = [2, 2, 1, 3];
        let slots = [3, 3, 2];
        for (seat, suit, count) in [(0usize, 3usize, 1i8), (1, 0, 1), (2, 3, 2), (0, 0, -1)] {
            let mut pinned = [[-1i8; 4]; 3];
            pinned[seat][suit] = count;
            let mut c = Completions::new(slots, pinned);
            let total = c.count(r);
            assert_eq!(total, brute_force(slots, pinned, r));
            let draws = exact_draws(&c, r);
            let mut seen = 0.0;
            for (rows, p) in draws {
                let after: [u8; 4] = std::array::from_fn(|s| r[s] - rows[0][s]);
                assert!(c.is_row(0, rows[0]) && c.is_row(1, rows[1]) && c.is_row(2, rows[2]), "{rows:?}");
                let deals = ways_of(r, rows[0]) * ways_of(after, rows[1]);
                assert!((p - deals as f64 / total as f64).abs() < 1e-12, "{rows:?}: {p} against {deals}/{total}");
                seen += deals as f64;
            }
            // Every table with deals is drawn.
            assert_eq!(seen, total as f64);
        }
    }
}
