//! Hand-pattern sets: what a `shape(…)` or `shape{…}` clause matches, as one bit per possible
//! suit-length pattern, so testing a hand's shape is a single bit lookup.
//!
//! Expansion of HvS shape lists follows both peers: terms apply in textual order (include sets
//! the bits, exclude clears them); a single `x` takes the remaining cards, several `x` enumerate
//! every split; `any` adds all 24 suit permutations.

use crate::cards::{Hand, Suit};
use crate::script::ast::ShapeTerm;

/// Number of pattern slots: spades, hearts and diamonds lengths 0..=13 each (clubs implied).
const SLOTS: usize = 14 * 14 * 14;

/// The index of a pattern given as spades, hearts, diamonds lengths (clubs implied).
fn slot(spades: u32, hearts: u32, diamonds: u32) -> usize {
    (spades as usize * 14 + hearts as usize) * 14 + diamonds as usize
}

/// Number of patterns (suit lengths summing to 13).
pub const PATTERNS: usize = 560;

/// Per slot: the pattern's position in [`all_patterns`] (slots of no pattern: 0).
const PATTERN_INDEX: [u16; SLOTS] = {
    let mut index = [0u16; SLOTS];
    let mut next = 0;
    let mut s = 0;
    while s <= 13 {
        let mut h = 0;
        while h <= 13 - s {
            let mut d = 0;
            while d <= 13 - s - h {
                index[(s * 14 + h) * 14 + d] = next;
                next += 1;
                d += 1;
            }
            h += 1;
        }
        s += 1;
    }
    index
};

/// The position of a 13-card hand's pattern in [`all_patterns`].
#[inline(always)]
pub fn pattern_index(hand: Hand) -> usize {
    PATTERN_INDEX[slot(hand.len(Suit::Spades), hand.len(Suit::Hearts), hand.len(Suit::Diamonds))] as usize
}

/// All 560 patterns [s, h, d, c] summing to 13, in ascending order.
pub fn all_patterns() -> Vec<[u8; 4]> {
    let mut patterns = Vec::with_capacity(560);
    for s in 0..=13u8 {
        for h in 0..=13 - s {
            for d in 0..=13 - s - h {
                patterns.push([s, h, d, 13 - s - h - d]);
            }
        }
    }
    patterns
}

/// A set of suit-length patterns (`[spades, hearts, diamonds, clubs]`, summing to 13).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeSet {
    bits: [u64; SLOTS.div_ceil(64)],
}

impl Default for ShapeSet {
    fn default() -> Self {
        ShapeSet { bits: [0; SLOTS.div_ceil(64)] }
    }
}

impl ShapeSet {
    /// The empty set.
    pub fn new() -> ShapeSet {
        ShapeSet::default()
    }

    /// Adds (`on`) or removes a pattern given in S, H, D, C order.
    pub fn set(&mut self, pattern: [u8; 4], on: bool) {
        let i = slot(pattern[0] as u32, pattern[1] as u32, pattern[2] as u32);
        if on {
            self.bits[i / 64] |= 1 << (i % 64);
        } else {
            self.bits[i / 64] &= !(1 << (i % 64));
        }
    }

    /// Whether a pattern (S, H, D, C order) is in the set.
    pub fn contains_pattern(&self, pattern: [u8; 4]) -> bool {
        let i = slot(pattern[0] as u32, pattern[1] as u32, pattern[2] as u32);
        self.bits[i / 64] & (1 << (i % 64)) != 0
    }

    /// Whether a 13-card hand's shape is in the set.
    #[inline(always)]
    pub fn matches(&self, hand: Hand) -> bool {
        let i = slot(hand.len(Suit::Spades), hand.len(Suit::Hearts), hand.len(Suit::Diamonds));
        self.bits[i / 64] & (1 << (i % 64)) != 0
    }

    /// Number of patterns in the set.
    pub fn len(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The patterns whose suit lengths fall within `bounds` (least and greatest, both included,
    /// in S, H, D, C order).
    pub fn within(bounds: [(i32, i32); 4]) -> ShapeSet {
        let mut set = ShapeSet::new();
        let [(s_lo, s_hi), (h_lo, h_hi), (d_lo, d_hi), (c_lo, c_hi)] = bounds.map(|(lo, hi)| (lo.max(0), hi.min(13)));
        for spades in s_lo..=s_hi {
            for hearts in h_lo..=h_hi.min(13 - spades) {
                // Clubs take the rest: 13 − spades − hearts − diamonds within clubs' bounds.
                let rest = 13 - spades - hearts;
                for diamonds in d_lo.max(rest - c_hi)..=d_hi.min(rest - c_lo) {
                    let i = slot(spades as u32, hearts as u32, diamonds as u32);
                    set.bits[i / 64] |= 1 << (i % 64);
                }
            }
        }
        set
    }

    /// Number of patterns in both sets.
    pub fn common(&self, other: &ShapeSet) -> usize {
        self.bits.iter().zip(&other.bits).map(|(a, b)| (a & b).count_ones() as usize).sum()
    }

    /// Builds the set of an HvS shape list, applying its terms in order. Errors carry the peers'
    /// messages (`wrong number of cards in shape`, `too many cards in ambiguous shape`).
    pub fn from_terms(terms: &[ShapeTerm]) -> Result<ShapeSet, &'static str> {
        let mut set = ShapeSet::new();
        for term in terms {
            let mut concrete = Vec::new();
            expand_pattern(term.pattern, &mut concrete)?;
            for p in concrete {
                if term.any {
                    for perm in permutations(p) {
                        set.set(perm, !term.exclude);
                    }
                } else {
                    set.set(p, !term.exclude);
                }
            }
        }
        Ok(set)
    }

    /// Builds the set of an explicit list of patterns (S, H, D, C order, each summing to 13).
    pub fn from_patterns(patterns: &[[u8; 4]]) -> ShapeSet {
        let mut set = ShapeSet::new();
        for p in patterns {
            set.set(*p, true);
        }
        set
    }
}

/// Expands the `x` positions of one pattern into concrete patterns summing to 13.
fn expand_pattern(pattern: [Option<u8>; 4], out: &mut Vec<[u8; 4]>) -> Result<(), &'static str> {
    let sum: u32 = pattern.iter().flatten().map(|&d| d as u32).sum();
    let wild = pattern.iter().filter(|p| p.is_none()).count();
    if wild == 0 {
        if sum != 13 {
            return Err("wrong number of cards in shape");
        }
        out.push(pattern.map(|d| d.unwrap_or(0)));
        return Ok(());
    }
    if sum > 13 {
        return Err("too many cards in ambiguous shape");
    }
    fill_wildcards(pattern, 13 - sum, out);
    Ok(())
}

/// Recursively assigns the remaining cards to the `x` positions: the last one takes the rest.
fn fill_wildcards(pattern: [Option<u8>; 4], remaining: u32, out: &mut Vec<[u8; 4]>) {
    let wild: Vec<usize> = (0..4).filter(|&i| pattern[i].is_none()).collect();
    match wild.as_slice() {
        [] => {
            if remaining == 0 {
                out.push(pattern.map(|d| d.unwrap_or(0)));
            }
        }
        [only] => {
            let mut p = pattern;
            p[*only] = Some(remaining as u8);
            out.push(p.map(|d| d.unwrap_or(0)));
        }
        [first, ..] => {
            for n in 0..=remaining {
                let mut p = pattern;
                p[*first] = Some(n as u8);
                fill_wildcards(p, remaining - n, out);
            }
        }
    }
}

/// All orderings of a pattern's four lengths.
fn permutations(p: [u8; 4]) -> impl Iterator<Item = [u8; 4]> {
    const ORDERS: [[usize; 4]; 24] = [
        [0, 1, 2, 3],
        [0, 1, 3, 2],
        [0, 2, 1, 3],
        [0, 2, 3, 1],
        [0, 3, 1, 2],
        [0, 3, 2, 1],
        [1, 0, 2, 3],
        [1, 0, 3, 2],
        [1, 2, 0, 3],
        [1, 2, 3, 0],
        [1, 3, 0, 2],
        [1, 3, 2, 0],
        [2, 0, 1, 3],
        [2, 0, 3, 1],
        [2, 1, 0, 3],
        [2, 1, 3, 0],
        [2, 3, 0, 1],
        [2, 3, 1, 0],
        [3, 0, 1, 2],
        [3, 0, 2, 1],
        [3, 1, 0, 2],
        [3, 1, 2, 0],
        [3, 2, 0, 1],
        [3, 2, 1, 0],
    ];
    ORDERS.into_iter().map(move |o| [p[o[0]], p[o[1]], p[o[2]], p[o[3]]])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(exclude: bool, any: bool, text: &str) -> ShapeTerm {
        let mut pattern = [None; 4];
        for (i, c) in text.bytes().enumerate() {
            pattern[i] = if c == b'x' { None } else { Some(c - b'0') };
        }
        ShapeTerm { exclude, any, pattern }
    }

    #[test]
    fn balanced_patterns() {
        let set =
            ShapeSet::from_terms(&[term(false, true, "4333"), term(false, true, "4432"), term(false, true, "5332")])
                .unwrap();
        assert_eq!(set.len(), 4 + 12 + 12);
        assert!(set.contains_pattern([3, 3, 4, 3]));
        assert!(!set.contains_pattern([5, 4, 3, 1]));
    }

    #[test]
    fn wildcards_and_order() {
        // 5xxx: spades exactly 5, the other 8 cards split every way: C(8+2, 2) = 45 patterns.
        assert_eq!(ShapeSet::from_terms(&[term(false, false, "5xxx")]).unwrap().len(), 45);
        // Exclude then include re-adds; include then exclude removes.
        let a = ShapeSet::from_terms(&[term(true, false, "4333"), term(false, false, "4333")]).unwrap();
        assert!(a.contains_pattern([4, 3, 3, 3]));
        let b = ShapeSet::from_terms(&[term(false, false, "4333"), term(true, false, "4333")]).unwrap();
        assert!(b.is_empty());
        // A single x takes the rest, which may exceed 9.
        let c = ShapeSet::from_terms(&[term(false, false, "x100")]).unwrap();
        assert!(c.contains_pattern([12, 1, 0, 0]));
    }

    #[test]
    fn the_patterns_within_length_bounds_are_those_each_of_whose_lengths_is_within() {
        let all = all_patterns();
        let mut seed = 7u64;
        for _ in 0..2000 {
            let bounds: [(i32, i32); 4] = std::array::from_fn(|_| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let (a, b) = ((seed >> 33) % 16, (seed >> 45) % 16);
                (a.min(b) as i32 - 1, a.max(b) as i32 - 1)
            });
            let within = ShapeSet::within(bounds);
            let expected: Vec<_> = all
                .iter()
                .filter(|p| (0..4).all(|s| bounds[s].0 <= i32::from(p[s]) && i32::from(p[s]) <= bounds[s].1))
                .collect();
            assert_eq!(within.len(), expected.len(), "{bounds:?}");
            assert!(expected.iter().all(|&&p| within.contains_pattern(p)), "{bounds:?}");
            assert_eq!(within.common(&ShapeSet::from_patterns(&all)), expected.len());
        }
    }

    #[test]
    fn errors() {
        assert_eq!(ShapeSet::from_terms(&[term(false, false, "5441")]), Err("wrong number of cards in shape"));
        assert_eq!(ShapeSet::from_terms(&[term(false, false, "77xx")]), Err("too many cards in ambiguous shape"));
    }
}
