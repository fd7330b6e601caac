//! Uniform hands from two random words: the hand's suit lengths from an alias table, then the
//! cards of each suit.
//!
//! Each seat the ChaCha dealer deals takes `k` cards from a set whose size is the same on
//! every deal: North from the free cards, by suit; South and East from the cards the seats
//! before them left, named by their positions in order and split into blocks of 13 that play
//! the part of suits ([`HandSampler::of_positions`]). Everything that depends on the set's
//! make-up is therefore computed once. A hand with `l_s` cards of
//! suit `s` (which has `n_s` free cards) is one of `C(n_0, l_0) · … · C(n_3, l_3)` hands of that
//! suit-length pattern (its *shape* here), and the shapes' counts add up to `C(n, k)`. So a
//! uniform hand is a shape drawn with probability proportional to its count, then a uniform
//! `l_s`-card subset of each suit:
//!
//! - the shape comes from Walker's alias table built with integers (exact): a uniform column
//!   `c` below the number of shapes `m` and a uniform height `h` below `C(n, k)` select shape
//!   `c` when `h < keep[c]`, else `alias[c]`; each shape's columns and heights add up to `m`
//!   times its count;
//! - the subsets are the digits of one word in the mixed radix `C(n_s, l_s)`, and each digit
//!   picks a subset from [`SUBSETS`] (every subset of up to thirteen positions, in order of
//!   size).
//!
//! Both words are drawn with Brackett-Rozinsky and Lemire's batched bounded draws (successive
//! 64×64→128 multiplications, one rejection test against the product of the bounds), so a
//! hand costs two words, six multiplications, two table look-ups and four subset look-ups,
//! with no division on the common path: shorter and, above all, far less sequential than
//! thirteen dependent bounded draws (Floyd's sampling).

use std::num::NonZeroU64;

/// Largest number of cards in a suit, and of cards a seat takes.
const SUIT_CARDS: usize = 13;

/// Every subset of thirteen positions as a 13-bit mask, by size (number of positions), and in
/// increasing order within a size; [`SUBSET_START`]`[l]` is where the subsets of size `l`
/// begin. The subsets of size `l` of the first `n` positions are the first `C(n, l)` of their
/// size: those are exactly the masks below `2^n`.
static SUBSETS: [u16; 1 << SUIT_CARDS] = subsets_by_size().0;
/// Where each size starts in [`SUBSETS`] (index 14: the end).
static SUBSET_START: [u16; 16] = subsets_by_size().1;

/// Builds [`SUBSETS`] and [`SUBSET_START`].
const fn subsets_by_size() -> ([u16; 1 << SUIT_CARDS], [u16; 16]) {
    let mut start = [0u16; 16];
    let mut mask = 0usize;
    while mask < 1 << SUIT_CARDS {
        start[(mask as u16).count_ones() as usize + 1] += 1;
        mask += 1;
    }
    let mut size = 0;
    while size <= SUIT_CARDS {
        start[size + 1] += start[size];
        size += 1;
    }
    let mut next = start;
    let mut table = [0u16; 1 << SUIT_CARDS];
    mask = 0;
    while mask < 1 << SUIT_CARDS {
        let size = (mask as u16).count_ones() as usize;
        table[next[size] as usize] = mask as u16;
        next[size] += 1;
        mask += 1;
    }
    (table, start)
}

/// `C(n, k)` for `n` up to 52 (0 when `k > n`).
pub(super) fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    // C(n, k) = C(n, k - 1) * (n - k + 1) / k, exact at every step.
    (1..=k.min(n - k)).fold(1u64, |c, i| c * (n + 1 - i) as u64 / i as u64)
}

/// The bits of `mask` selected by the low bits of `bits`, lowest first: bit `i` of `bits` says
/// whether the `i`-th lowest bit of `mask` is taken (a portable `pdep`).
#[inline(always)]
pub(super) fn deposit(mut bits: u64, mut mask: u64) -> u64 {
    let mut taken = 0;
    while bits != 0 {
        let lowest = mask & mask.wrapping_neg();
        if bits & 1 != 0 {
            taken |= lowest;
        }
        bits >>= 1;
        mask ^= lowest;
    }
    taken
}

/// Draws uniform digits below `bounds` (whose product is `product`, below 2^64) from the word
/// `word`, or from the words of `more` while Lemire's test rejects the word.
#[inline(always)]
fn digits<const N: usize>(
    word: u64,
    more: &mut impl FnMut() -> u64,
    bounds: [u64; N],
    product: NonZeroU64,
) -> [u64; N] {
    let mut word = word;
    loop {
        let mut r = word;
        let mut out = [0u64; N];
        for (digit, bound) in out.iter_mut().zip(bounds) {
            let m = u128::from(r) * u128::from(bound);
            *digit = (m >> 64) as u64;
            r = m as u64;
        }
        let product = product.get();
        if r < product && r < product.wrapping_neg() % product {
            word = more();
            continue;
        }
        return out;
    }
}

/// One suit-length pattern of the hand.
#[derive(Clone, Copy, Debug)]
struct Shape {
    /// Cards of each suit (lane order: clubs, diamonds, hearts, spades).
    lengths: [u8; 4],
    /// `C(n_s, l_s)`: the subsets of each suit.
    ways: [u64; 4],
    /// Their product: the hands of this shape.
    hands: NonZeroU64,
}

/// The uniform hands of `k` cards from a set of cards whose make-up is the same on every deal.
#[derive(Clone, Debug)]
pub(crate) struct HandSampler {
    /// The shapes with at least one hand.
    shapes: Vec<Shape>,
    /// The alias table: column `c` gives shape `c` below height `keep[c]`, else `alias[c]`.
    keep: Vec<u64>,
    alias: Vec<u16>,
    /// The number of hands, `C(n, k)`: the height of every column.
    count: NonZeroU64,
    /// Shapes times hands: the product of the first word's two bounds.
    columns_by_height: NonZeroU64,
    /// Where suit `s`'s subset mask goes in the result: its lane (`16 s`) when every card is
    /// free, else the position of its first free card among the free cards in order.
    shift: [u32; 4],
    /// Whether the result names free cards by their rank among the free cards (some card is
    /// not free) rather than being the hand itself.
    packed: bool,
}

impl HandSampler {
    /// The hands of `cards` cards (at most 13, at most the free cards) from the free cards
    /// `free` (a [`Hand`](crate::cards::Hand) bit mask: suit `s` in bits `16 s ..= 16 s + 12`).
    pub(crate) fn new(free: u64, cards: usize) -> HandSampler {
        let counts: [usize; 4] = std::array::from_fn(|s| ((free >> (16 * s)) & 0x1FFF).count_ones() as usize);
        HandSampler::with_counts(counts, cards, free != 0x1FFF_1FFF_1FFF_1FFF)
    }

    /// The hands of `cards` cards (at most 13, at most `n`) from `n` cards named by their
    /// positions `0..n` in any fixed order: [`draw`](Self::draw) gives the positions taken (a
    /// mask of `n` bits), which a deposit onto the cards turns into the hand. The positions
    /// are split into blocks of 13 that play the part of suits, so a later seat's hand from
    /// the cards the earlier seats left is drawn the same way as the first seat's.
    pub(crate) fn of_positions(n: usize, cards: usize) -> HandSampler {
        assert!(n <= 52, "at most 52 cards");
        let counts = std::array::from_fn(|block| n.saturating_sub(SUIT_CARDS * block).min(SUIT_CARDS));
        HandSampler::with_counts(counts, cards, true)
    }

    /// The hands of `cards` cards taking `l_s` of the `counts[s]` cards of each suit (block),
    /// the result packed (positions among the cards) or in suit lanes.
    fn with_counts(counts: [usize; 4], cards: usize, packed: bool) -> HandSampler {
        assert!(cards <= SUIT_CARDS && cards <= counts.iter().sum(), "a seat takes at most 13 of the free cards");
        let mut shapes = Vec::new();
        for c in 0..=counts[0].min(cards) {
            for d in 0..=counts[1].min(cards - c) {
                for h in 0..=counts[2].min(cards - c - d) {
                    let lengths = [c, d, h, cards - c - d - h];
                    let ways: [u64; 4] = std::array::from_fn(|s| binomial(counts[s], lengths[s]));
                    if let Some(hands) = NonZeroU64::new(ways.iter().product()) {
                        shapes.push(Shape { lengths: lengths.map(|l| l as u8), ways, hands });
                    }
                }
            }
        }
        let count = NonZeroU64::new(binomial(counts.iter().sum(), cards)).expect("at least the empty hand");
        debug_assert_eq!(shapes.iter().map(|s| s.hands.get()).sum::<u64>(), count.get());
        let (keep, alias) = alias_table(&shapes, count.get());
        let columns_by_height = NonZeroU64::new(shapes.len() as u64 * count.get()).expect("at least one shape");
        let shift =
            std::array::from_fn(|s| if packed { counts[..s].iter().sum::<usize>() as u32 } else { 16 * s as u32 });
        HandSampler { shapes, keep, alias, count, columns_by_height, shift, packed }
    }

    /// How many hands there are (at least 1).
    #[cfg(test)]
    fn count(&self) -> u64 {
        self.count.get()
    }

    /// Whether [`draw`](Self::draw) names the free cards by their rank among the free cards
    /// (deposit the result onto the free cards), rather than giving the hand itself.
    #[inline]
    pub(crate) fn packed(&self) -> bool {
        self.packed
    }

    /// The hand (see [`packed`](Self::packed)) when there is only one: no card, or every free
    /// card. [`draw`](Self::draw) is for the other cases.
    #[inline]
    pub(crate) fn only(&self) -> Option<u64> {
        (self.count == NonZeroU64::MIN).then(|| self.hand(&self.shapes[0], [0; 4]))
    }

    /// A uniform hand (see [`packed`](Self::packed)) from two words, or more from `more` when
    /// a rejection test fails (rarely: below 2^-15 per hand).
    #[inline(always)]
    pub(crate) fn draw(&self, words: [u64; 2], mut more: impl FnMut() -> u64) -> u64 {
        let [column, height] =
            digits(words[0], &mut more, [self.shapes.len() as u64, self.count.get()], self.columns_by_height);
        let shape = self.shape_at(column as usize, height);
        let subsets = digits(words[1], &mut more, shape.ways, shape.hands);
        self.hand(shape, subsets)
    }

    /// The shape of alias-table column `column` at height `height`.
    #[inline(always)]
    fn shape_at(&self, column: usize, height: u64) -> &Shape {
        let chosen = if height < self.keep[column] { column } else { usize::from(self.alias[column]) };
        &self.shapes[chosen]
    }

    /// The hand of `shape` whose subset of each suit has number `subsets[s]`.
    #[inline(always)]
    fn hand(&self, shape: &Shape, subsets: [u64; 4]) -> u64 {
        let mut hand = 0;
        for s in 0..4 {
            let index = usize::from(SUBSET_START[usize::from(shape.lengths[s]) & 15]) + subsets[s] as usize;
            hand |= u64::from(SUBSETS[index & ((1 << SUIT_CARDS) - 1)]) << self.shift[s];
        }
        hand
    }
}

/// Walker's alias table for shapes drawn in proportion to their hands, in integers: every
/// column has height `count` (the total of the hands), and shape `i` owns `m · hands_i` of the
/// `m · count` column-heights.
fn alias_table(shapes: &[Shape], count: u64) -> (Vec<u64>, Vec<u16>) {
    let m = shapes.len() as u64;
    let mut left: Vec<u64> = shapes.iter().map(|s| s.hands.get() * m).collect();
    let mut keep = vec![count; shapes.len()];
    let mut alias: Vec<u16> = (0..shapes.len() as u16).collect();
    let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..shapes.len()).partition(|&i| left[i] < count);
    while let (Some(&lower), Some(&higher)) = (small.last(), large.last()) {
        small.pop();
        keep[lower] = left[lower];
        alias[lower] = higher as u16;
        left[higher] -= count - left[lower];
        if left[higher] < count {
            large.pop();
            small.push(higher);
        }
    }
    // Exact arithmetic leaves every remaining shape with exactly one full column.
    debug_assert!(small.iter().chain(&large).all(|&i| left[i] == count));
    (keep, alias)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The `i`-th lowest set bit of `free`, for each set bit `i` of `packed`.
    fn deposit(packed: u64, free: u64) -> u64 {
        let mut cards = 0;
        let mut rest = free;
        for i in 0..64 {
            let lowest = rest & rest.wrapping_neg();
            if packed >> i & 1 != 0 {
                cards |= lowest;
            }
            rest ^= lowest;
        }
        cards
    }

    #[test]
    fn subsets_are_listed_by_size_then_value() {
        assert_eq!(SUBSET_START[0], 0);
        assert_eq!(SUBSET_START[SUIT_CARDS + 1] as usize, 1 << SUIT_CARDS);
        for size in 0..=SUIT_CARDS {
            let class = &SUBSETS[SUBSET_START[size] as usize..SUBSET_START[size + 1] as usize];
            assert_eq!(class.len() as u64, binomial(SUIT_CARDS, size));
            assert!(class.iter().all(|m| m.count_ones() as usize == size));
            assert!(class.windows(2).all(|w| w[0] < w[1]));
        }
    }

    #[test]
    fn binomials_are_exact() {
        assert_eq!(binomial(52, 13), 635_013_559_600);
        assert_eq!(binomial(39, 13), 8_122_425_444);
        assert_eq!(binomial(52, 26), 495_918_532_948_104);
        assert_eq!(binomial(5, 7), 0);
        for n in 1..=52 {
            for k in 1..n {
                assert_eq!(binomial(n, k), binomial(n - 1, k - 1) + binomial(n - 1, k), "C({n}, {k})");
            }
        }
    }

    /// The alias table gives shape `i` exactly `m · hands_i` of its `m · count` column-heights.
    fn assert_alias_exact(sampler: &HandSampler) {
        let m = sampler.shapes.len() as u64;
        let mut owned = vec![0u64; sampler.shapes.len()];
        for column in 0..sampler.shapes.len() {
            owned[column] += sampler.keep[column];
            owned[usize::from(sampler.alias[column])] += sampler.count() - sampler.keep[column];
        }
        for (shape, owned) in sampler.shapes.iter().zip(owned) {
            assert_eq!(owned, m * shape.hands.get(), "{:?}", shape.lengths);
        }
    }

    /// Every subset-digit tuple of every shape gives a different valid hand of that shape, and
    /// the shapes' hands add up to all `C(n, k)` hands: with the exact alias table, every hand
    /// is equally likely.
    fn assert_uniform(free: u64, cards: usize) {
        let sampler = HandSampler::new(free, cards);
        assert_eq!(sampler.count(), binomial(free.count_ones() as usize, cards), "{free:#x} {cards}");
        assert_alias_exact(&sampler);
        let mut seen = HashMap::new();
        for shape in &sampler.shapes {
            let [a, b, c, d] = shape.ways;
            for subsets in (0..a)
                .flat_map(|i| (0..b).flat_map(move |j| (0..c).flat_map(move |k| (0..d).map(move |l| [i, j, k, l]))))
            {
                let raw = sampler.hand(shape, subsets);
                let hand = if sampler.packed() { deposit(raw, free) } else { raw };
                assert_eq!(hand & !free, 0, "{free:#x} {cards}");
                for s in 0..4 {
                    assert_eq!((hand >> (16 * s) & 0x1FFF).count_ones(), u32::from(shape.lengths[s]), "{free:#x}");
                }
                assert!(seen.insert(hand, subsets).is_none(), "{free:#x} {cards}: {hand:#x} twice");
            }
        }
        assert_eq!(seen.len() as u64, sampler.count());
    }

    #[test]
    fn every_hand_is_equally_likely() {
        // Free cards spread unevenly over the suits (as predeal leaves them), every hand size.
        for free in [0x0007_0003_001F_0001u64, 0x0000_01FF_0003_000F, 0x1FFF_0000_0000_0000, 0x0101_0000_0FFF_0003] {
            for cards in 0..=free.count_ones().min(13) as usize {
                assert_uniform(free, cards);
            }
        }
        assert_uniform(0x0000_0000_1FFF_1FFF, 4);
    }

    #[test]
    fn positions_are_taken_uniformly() {
        // Positions 0..n in blocks of 13: every hand of `cards` positions exactly once.
        for n in [0usize, 1, 5, 13, 14, 20] {
            for cards in 0..=n.min(13) {
                let sampler = HandSampler::of_positions(n, cards);
                assert!(sampler.packed());
                assert_eq!(sampler.count(), binomial(n, cards), "{n} {cards}");
                assert_alias_exact(&sampler);
                let mut seen = HashMap::new();
                for shape in &sampler.shapes {
                    let [a, b, c, d] = shape.ways;
                    for subsets in (0..a).flat_map(|i| {
                        (0..b).flat_map(move |j| (0..c).flat_map(move |k| (0..d).map(move |l| [i, j, k, l])))
                    }) {
                        let hand = sampler.hand(shape, subsets);
                        assert_eq!(hand.count_ones() as usize, cards);
                        assert!(hand < 1 << n, "{n} {cards}: {hand:#x}");
                        assert!(seen.insert(hand, subsets).is_none(), "{n} {cards}: {hand:#x} twice");
                    }
                }
                assert_eq!(seen.len() as u64, sampler.count());
            }
        }
        // South's and East's samplers without predeal: exact alias tables over their blocks.
        for (n, blocks) in [(39usize, 105usize), (26, 14)] {
            let sampler = HandSampler::of_positions(n, 13);
            assert_eq!(sampler.count(), binomial(n, 13));
            assert_eq!(sampler.shapes.len(), blocks);
            assert_alias_exact(&sampler);
        }
    }

    #[test]
    fn the_full_deck_has_every_shape_with_its_exact_share() {
        let sampler = HandSampler::new(0x1FFF_1FFF_1FFF_1FFF, 13);
        assert!(!sampler.packed());
        assert_eq!(sampler.count(), 635_013_559_600);
        assert_eq!(sampler.shapes.len(), 560);
        assert_alias_exact(&sampler);
        // Each shape's subsets: the last digit tuple is still a valid hand of that shape.
        for shape in &sampler.shapes {
            for subsets in [[0; 4], shape.ways.map(|w| w - 1)] {
                let hand = sampler.hand(shape, subsets);
                assert_eq!(hand.count_ones(), 13);
                assert_eq!(hand & !0x1FFF_1FFF_1FFF_1FFF, 0);
            }
        }
    }

    #[test]
    fn draws_take_two_words_and_draw_again_on_rejection() {
        let sampler = HandSampler::new(0x1FFF_1FFF_1FFF_1FFF, 13);
        // The only hand (here: no card, or every free card) needs no draw.
        assert_eq!(HandSampler::new(0x1FFF_1FFF_1FFF_1FFF, 0).only(), Some(0));
        assert_eq!(HandSampler::new(0x0003_0000_0101_0000, 4).only(), Some(0b1111));
        assert_eq!(sampler.only(), None);
        let words = [u64::MAX / 3, 12_345_678_901_234_567];
        let hand = sampler.draw(words, || unreachable!("no rejection"));
        assert_eq!(hand.count_ones(), 13);
        // A first word whose product's low part falls below 2^64 mod (shapes × hands) is
        // rejected (word 0 gives low part 0) and the next word takes its place; the second
        // word still picks the cards.
        let mut more = [u64::MAX / 3].into_iter();
        assert_eq!(sampler.draw([0, words[1]], || more.next().expect("one more word")), hand);
    }
}
