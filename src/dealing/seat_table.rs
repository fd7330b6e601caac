//! Exact smart dealing of one seat: every hand a seat may hold that satisfies a condition on
//! that hand alone, counted suit by suit, and drawn exactly uniformly from one random number.
//! A pair of seats' cards together are counted the same way, as one hand of up to 26 cards.
//!
//! **Classes.** The condition reads the hand only through values that are either a suit's own
//! (its length, `hcp(north, spades)`, `hascard(north, AS)`: *kept* per suit) or sums over the
//! four suits (`hcp(north)`, `controls(north)`, `losers(north)`: *totals*); [`HandReading`]
//! names them, each as a function of one suit's holding. A value the condition only compares
//! with constants is read more coarsely (see [`ReadValue::cuts`]): a kept value as the range
//! of the comparisons it falls in, a total as its sum capped at the highest cut. Two hands
//! alike in every value so read are alike to the condition, so it is judged once per class,
//! on one representative hand. The caller guarantees that; this module never reads the
//! condition. (A suit's value the caller finds not read at some of the suit's lengths is not
//! told apart there: see [`super::suit_holdings`].)
//!
//! **Counting.** Each suit's possible holdings (the seat's predealt cards of the suit plus any
//! subset of the suit's free cards) are grouped by what the condition reads of them and by the
//! free cards they take. A class is a *key*: the free cards taken, the kept values of the suits
//! so far and the partial totals, packed in one mixed-radix `u64` whose digits never carry,
//! so adding a suit's group is adding its key delta (a capped total is capped again after
//! the addition). A forward pass over the suits (clubs, diamonds, hearts, spades) counts, for
//! every reachable key, the holdings of the suits so far that give it, and records each step
//! (key, group, next key); the keys after the fourth suit that take exactly the seat's free
//! slots are the classes. The condition judges each class's representative when the class is
//! first reached; the accepted classes' counts add up to the number of hands that satisfy it.
//!
//! **Drawing.** A backward pass over the recorded steps from the accepted classes keeps, for
//! each key that leads to one, its predecessors (the key one suit earlier and the group that
//! leads on) weighted by `count(predecessor) × holdings in the group`, in cumulative order. A
//! uniform `r` below the number of satisfying hands is then unranked: a binary search picks
//! the class (between two neighbouring entries of a guide table that the random word's top
//! bits select), and at each suit, from the last, a binary search picks the predecessor
//! (each predecessor edge names the predecessor's own edges, so the walk down reads nothing
//! else); the remainder split as `r mod |group|` (the holding in the group) and
//! `r div |group|` (the rank among the predecessor's hands). Every satisfying hand has exactly one `r`, so the draw is
//! exactly uniform; it costs one random word (rarely more) and about forty comparisons.
//!
//! **Pruning.** The caller may also answer, for bounds on part of a hand (see
//! [`PartialHand`](super::PartialHand)), whether a hand within them can satisfy the condition:
//! after each of the first two suits (and the third, while it pays), a key whose hands cannot
//! is kept (so that it is asked about once) but not carried on, so an opener's condition does
//! not carry the hands already past its range through the later suits. Dropping keys changes
//! neither the counts nor the draws: a key that leads to an accepted class is never dropped,
//! and such keys are met in the same order.
//!
//! **Limits.** Counting stops, and the table is refused (the caller deals as before), when the
//! keys would not fit in 64 bits or the work would exceed [`TableLimits`]: each pass's steps
//! are counted before it is made, and a count whose next passes would (at twice the steps of
//! the one before each) exceed them is refused before the pass; the answers' work (see
//! [`PartialJudge::work`]) counts against the same budget. Memory is at most about
//! `53 × max_steps + 88 × max_keys + 16 × max_edges` bytes (the defaults: ~50 MiB) while
//! building, and the kept table holds only the keys that lead to an accepted class.

use super::hand_reading::{HandReading, ValueScope};
use super::hand_sampler::binomial;
use super::key_map::KeyMap;
use super::key_summary::{KeySummaries, SummedTotal, MOST_SUMMED};
use super::partial_hand::PartialJudge;
use super::suit_holdings::{Holding, ReadValues, SuitHoldings, MOST_VALUES};
use crate::cards::{Hand, Suit, LANE_MASK};

/// Work and memory bounds of [`SeatTable::build`].
#[derive(Clone, Copy, Debug)]
pub struct TableLimits {
    /// Most keys in one pass of the forward count.
    pub max_keys: usize,
    /// Most (key, group) steps of the forward count.
    pub max_steps: u64,
    /// Most predecessor edges kept for drawing.
    pub max_edges: usize,
}

impl Default for TableLimits {
    /// About 50 MiB and (on the practice scripts, on a 2-core test machine) 40 ms of counting
    /// at most.
    fn default() -> TableLimits {
        TableLimits { max_keys: 1 << 18, max_steps: 400_000, max_edges: 1 << 19 }
    }
}

/// Why no table was built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableRefusal {
    /// What the condition reads spans more values than a 64-bit key holds.
    KeyTooWide,
    /// Counting would exceed [`TableLimits`]; it stopped after `spent` steps (the answers
    /// about partial hands counted in, see [`PartialJudge::work`]).
    OverBudget {
        /// The steps counted before stopping.
        spent: u64,
    },
    /// No hand satisfies the condition.
    NoHand,
}

/// One group of a suit's holdings: alike in everything the condition reads and in the number
/// of free cards they take.
#[derive(Clone, Copy, Debug)]
struct Group {
    /// Free cards each holding takes.
    taken: u8,
    /// What adding the group adds to a key (before capping the capped totals).
    delta: u64,
    /// The group's shares of the capped totals (see [`Capped`]).
    capped: [u32; MOST_CAPPED],
    /// What adding the group adds to a key's summary (see [`KeySummaries`]).
    summary: u128,
    /// The holdings (free cards of the suit), `holdings[start..start + len]`.
    start: u32,
    len: u32,
}

/// Suits after which counting always asks whether a key's hands can still satisfy the
/// condition. After the third it asks while it pays: when the answers' expected work fits the
/// budget, and while at least one key in [`PRUNING_PAYS`] asked about is dropped (on the
/// practice scripts, where they were, the last suit's steps fell by 3 to 5 times at less cost
/// than they saved; where they were not, the answers cost more than the steps they saved).
const PRUNED_SUITS: usize = 2;

/// After the third suit, asking goes on while at least one key in `PRUNING_PAYS` asked about
/// is dropped (judged once [`ASKS_BEFORE_JUDGING`] have been asked about).
const PRUNING_PAYS: u64 = 4;
/// Keys asked about after the third suit before judging whether asking pays.
const ASKS_BEFORE_JUDGING: u64 = 256;

/// The steps of a condition's expression evaluated on intervals (see
/// [`PartialJudge::work`]) that cost about as much as one counting step (measured: about
/// 10 ns against 60 to 80 ns).
const WORK_PER_STEP: u64 = 8;

/// The caller's answers about partial hands (see [`KeySummaries`]), when it gives them.
type Pruning<'j> = Option<(KeySummaries, &'j mut dyn PartialJudge)>;

/// The work of the caller's answers so far, in counting steps.
fn answered_steps(pruning: &Pruning) -> u64 {
    pruning.as_ref().map_or(0, |(_, judge)| judge.work() / WORK_PER_STEP)
}

/// Capped totals at most (the others are read exactly).
const MOST_CAPPED: usize = 4;

/// A total read through its cuts whose shares are never negative: its digit holds the partial
/// sum capped at the highest cut (which tells apart every range the comparisons can), so its
/// keys stop growing there. The digit's radix is `2 × cap + 1`: adding a share (itself capped)
/// to a capped digit never carries, and the result is then capped again.
#[derive(Clone, Copy, Debug)]
struct Capped {
    stride: u64,
    radix: u64,
    cap: u32,
}

impl Capped {
    fn digit(&self, key: u64) -> u32 {
        (key / self.stride % self.radix) as u32
    }
}

/// `key` after a group adds `delta` and the capped shares `shares` to it (`digits`: the
/// key's capped digits).
#[inline]
fn advance(key: u64, delta: u64, shares: &[u32; MOST_CAPPED], capped: &[Capped], digits: &[u32; MOST_CAPPED]) -> u64 {
    let mut next = key + delta;
    for (t, c) in capped.iter().enumerate() {
        let sum = digits[t] + shares[t];
        if sum > c.cap {
            next -= u64::from(sum - c.cap) * c.stride;
        }
    }
    next
}

/// The capped digits of `key`.
fn capped_digits(key: u64, capped: &[Capped]) -> [u32; MOST_CAPPED] {
    let mut digits = [0; MOST_CAPPED];
    for (t, c) in capped.iter().enumerate() {
        digits[t] = c.digit(key);
    }
    digits
}

/// One slot of a stage's look-up: a key, the holdings that give it so far (0: an empty slot;
/// up to C(52, 26), a partnership's hands counted as one) and the key's position. A step
/// reads and writes one.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    count: u64,
    position: u32,
}

/// The keys one pass of the forward count reached, in the order first reached.
#[derive(Default)]
struct Stage {
    /// The keys by position, once the pass is over (see [`settle`](Self::settle)).
    keys: Vec<u64>,
    /// Holdings of the suits so far that give each key, once the pass is over.
    counts: Vec<u64>,
    /// Free cards taken by each key's first-reached holdings (its representative).
    reps: Vec<u64>,
    /// Whether each key's hands can still satisfy the condition (those that cannot are kept
    /// so as to be met once, but not counted on).
    live: Vec<bool>,
    /// Each key's summary, when counting asks the condition about partial hands.
    summaries: Vec<u128>,
    /// Open addressing over the keys, while the pass is made.
    slots: Vec<Slot>,
}

impl Stage {
    /// An empty stage whose look-up is sized for about `keys` keys.
    fn with_room(keys: usize) -> Stage {
        let slots = (keys + keys / 2).next_power_of_two().max(64);
        Stage {
            slots: vec![Slot::default(); slots],
            reps: Vec::with_capacity(keys),
            live: Vec::with_capacity(keys),
            ..Stage::default()
        }
    }

    /// Keys reached so far.
    fn len(&self) -> usize {
        self.reps.len()
    }

    /// Where `key` is looked for first among `slots` slots (a power of two).
    #[inline]
    fn home(key: u64, slots: usize) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & (slots - 1)
    }

    /// Adds `count` (at least 1) holdings that give `key` (`rep`: the free cards of one,
    /// should the key be new); the key's position.
    #[inline]
    fn add(&mut self, key: u64, count: u64, rep: u64) -> u32 {
        let mask = self.slots.len() - 1;
        let mut at = Stage::home(key, self.slots.len());
        loop {
            let slot = &mut self.slots[at];
            if slot.count == 0 {
                break;
            }
            if slot.key == key {
                slot.count += count;
                return slot.position;
            }
            at = (at + 1) & mask;
        }
        let position = self.reps.len() as u32;
        self.slots[at] = Slot { key, count, position };
        self.reps.push(rep);
        // At most two slots in three are taken.
        if 3 * self.reps.len() > 2 * self.slots.len() {
            self.grow();
        }
        position
    }

    /// Doubles the look-up.
    fn grow(&mut self) {
        let mut slots = vec![Slot::default(); self.slots.len() * 2];
        let mask = slots.len() - 1;
        for slot in self.slots.iter().filter(|slot| slot.count != 0) {
            let mut at = Stage::home(slot.key, slots.len());
            while slots[at].count != 0 {
                at = (at + 1) & mask;
            }
            slots[at] = *slot;
        }
        self.slots = slots;
    }

    /// Ends the pass: the keys and counts by position; the look-up is dropped.
    fn settle(&mut self) {
        let n = self.len();
        self.keys = vec![0; n];
        self.counts = vec![0; n];
        for slot in std::mem::take(&mut self.slots).iter().filter(|slot| slot.count != 0) {
            self.keys[slot.position as usize] = slot.key;
            self.counts[slot.position as usize] = slot.count;
        }
    }
}

/// Bits of [`Edge::group_and_count`] that hold the group (a suit has at most 2^13 holdings,
/// so at most 2^13 groups).
const GROUP_BITS: u32 = 13;

/// A predecessor of a key one suit earlier, in cumulative weight order.
#[derive(Clone, Copy, Debug)]
struct Edge {
    /// Cumulative weight up to and including this edge.
    end: u64,
    /// Where the predecessor's own edges start one level down (so that unranking reads no
    /// other array on its way down).
    pred_start: u32,
    /// The group of the level's suit that leads from the predecessor to the key (low
    /// [`GROUP_BITS`] bits) and the number of the predecessor's own edges (the rest).
    group_and_count: u32,
}

impl Edge {
    /// The group of the level's suit that leads from the predecessor to the key.
    #[inline]
    fn group(self) -> usize {
        (self.group_and_count & ((1 << GROUP_BITS) - 1)) as usize
    }

    /// The predecessor's own edges one level down.
    #[inline]
    fn pred_edges(self) -> std::ops::Range<usize> {
        let start = self.pred_start as usize;
        start..start + (self.group_and_count >> GROUP_BITS) as usize
    }
}

/// The kept keys after one more suit, with their predecessors.
#[derive(Clone, Debug, Default)]
struct Level {
    edges: Vec<Edge>,
    /// Each kept key's edges, `edges[start..end]` (kept for the accepted classes' level only;
    /// the edges of the levels above hold their predecessors' ranges themselves).
    ranges: Vec<(u32, u32)>,
}

/// The exact table of one seat's hands that satisfy a condition on that hand: counts and a
/// uniform draw. Built once per run; drawing only reads it, so threads share it.
#[derive(Clone, Debug)]
pub struct SeatTable {
    /// Free cards the seat takes.
    slots: u32,
    /// Each suit's groups (suit index order) and their holdings.
    groups: [Vec<Group>; 4],
    /// The capped totals' digits.
    capped: Vec<Capped>,
    holdings: Vec<u64>,
    /// Each suit's group of every holding, by the 13-bit lane of the free cards it takes
    /// (`u32::MAX`: not a holding of the seat).
    group_of_lane: [Vec<u32>; 4],
    /// The accepted classes' keys, sorted.
    accepted_keys: Vec<u64>,
    /// Levels 1..=4 (after clubs … after spades).
    levels: [Level; 4],
    /// Cumulative counts of the accepted classes.
    finals: Vec<u64>,
    /// For a random word's top [`guide_bits`](Self::guide_bits) bits `j`: the class of hand
    /// number `⌊j · accepted / 2^bits⌋` (and the last class at `j = 2^bits`), so that a draw
    /// searches only between two neighbouring entries (a guide table).
    guide: Vec<u32>,
    /// The guide's bits.
    guide_bits: u32,
    /// The free cards every hand of each accepted class takes in each suit, when the keys
    /// hold the suit lengths (the reading reads them; empty otherwise).
    class_lengths: Vec<[u8; 4]>,
    /// Hands that satisfy the condition.
    accepted: u64,
    /// Hands the seat may hold at all (its free slots from the free cards).
    possible: u64,
}

impl SeatTable {
    /// Counts the hands of a seat holding the cards `own` and `slots` more from `free`
    /// (the cards no seat has been given; `own` is not in it) that satisfy `accept`, which
    /// reads a hand only through `reading` and is called once per class with a representative
    /// hand (own cards included). `judge`, when given, answers for bounds on part of a hand
    /// whether a hand within them may satisfy `accept` (`false` only when none does), and
    /// whether `accept` reads a suit's value when the suit has a given length: counting then
    /// drops the partial hands it rules out and does not tell holdings apart by a value not
    /// read, which changes no count. Deterministic: the same arguments build the same table.
    pub fn build(
        free: u64,
        own: u64,
        slots: u32,
        reading: &HandReading,
        accept: &mut dyn FnMut(Hand) -> bool,
        mut judge: Option<&mut dyn PartialJudge>,
        limits: TableLimits,
    ) -> Result<SeatTable, TableRefusal> {
        debug_assert_eq!(free & own, 0);
        let kept_scopes: Vec<Vec<usize>> = (0..4)
            .map(|s| {
                let suit = Suit::from_index(s);
                (0..reading.values.len()).filter(|&v| reading.values[v].scope == ValueScope::Suit(suit)).collect()
            })
            .collect();
        let totals: Vec<usize> =
            (0..reading.values.len()).filter(|&v| reading.values[v].scope == ValueScope::Total).collect();
        if kept_scopes.iter().any(|kept| usize::from(reading.lengths) + kept.len() + totals.len() > MOST_VALUES) {
            return Err(TableRefusal::KeyTooWide);
        }

        // Every holding of every suit, with what the condition reads of it; a suit's value not
        // read at some of the suit's lengths is given one class there.
        let values = ReadValues { reading, kept_scopes: &kept_scopes, totals: &totals };
        let mut holdings = SuitHoldings::enumerate(free, own, slots, &values);
        if let Some(judge) = judge.as_mut() {
            holdings.forget_unread(free, own, slots, &values, &mut **judge);
        }
        let SuitHoldings { per_suit, ranges, classes, .. } = holdings;
        // (The work of the answers about partial hands starts here.)
        let work_before_answers = judge.as_ref().map_or(0, |judge| judge.work());

        // The key's digits: taken cards, each suit's kept values, the totals.
        let mut radices: Vec<u64> = vec![u64::from(slots) + 1];
        let mut kept_min: [Vec<i64>; 4] = Default::default();
        let kept_width = |s: usize| usize::from(reading.lengths) + kept_scopes[s].len();
        for s in 0..4 {
            for &(lo, hi) in &classes[s][..kept_width(s)] {
                kept_min[s].push(i64::from(lo));
                radices.push((i64::from(hi) - i64::from(lo)) as u64 + 1);
            }
        }
        // A total's least and greatest share in each suit.
        let share_range = |s: usize, t: usize| {
            let (lo, hi) = classes[s][kept_width(s) + t];
            (i64::from(lo), i64::from(hi))
        };
        // Totals compared only with constants, with shares never negative, are capped (the
        // first MOST_CAPPED of them): their shares too, which changes no capped sum.
        let mut caps: Vec<Option<u32>> = Vec::with_capacity(totals.len());
        for (t, &v) in totals.iter().enumerate() {
            let non_negative = (0..4).all(|s| share_range(s, t).0 >= 0);
            let cap = match &reading.values[v].cuts {
                Some(cuts) if non_negative && caps.iter().flatten().count() < MOST_CAPPED => {
                    Some(cuts.iter().copied().max().unwrap_or(0).clamp(0, 1 << 20) as u32)
                }
                _ => None,
            };
            caps.push(cap);
        }
        // A holding's share of total `t` as the key holds it (capped for a capped total).
        let share_of = |h: &Holding, t: usize| -> i64 {
            let share = i64::from(h.shares()[t]);
            caps[t].map_or(share, |cap| share.min(i64::from(cap)))
        };
        let mut share_min: [Vec<i64>; 4] = Default::default();
        for (t, cap) in caps.iter().enumerate() {
            let mut span = 0i64;
            for (s, least) in share_min.iter_mut().enumerate() {
                let (lo, hi) = share_range(s, t);
                least.push(if cap.is_some() { 0 } else { lo });
                span += hi - lo;
            }
            radices.push(match cap {
                Some(cap) => 2 * u64::from(*cap) + 1,
                None => span as u64 + 1,
            });
        }
        let mut strides = Vec::with_capacity(radices.len());
        let mut stride: u64 = 1;
        for &radix in &radices {
            strides.push(stride);
            stride = stride.checked_mul(radix).ok_or(TableRefusal::KeyTooWide)?;
        }
        let first_total = radices.len() - totals.len();
        let capped_totals: Vec<usize> = (0..totals.len()).filter(|&t| caps[t].is_some()).collect();
        // What counting knows of a key's hands: the totals whose digits fit a summary.
        let summed: Vec<usize> =
            (0..totals.len()).filter(|&t| radices[first_total + t] <= 1 << 16).take(MOST_SUMMED).collect();
        // With the caller's answers: the keys' summaries, and the answers.
        let mut pruning: Pruning = judge.map(|judge| {
            let lane = |cards: u64, s: usize| (cards >> (16 * s) & LANE_MASK).count_ones();
            let mut is_total = vec![false; reading.values.len()];
            totals.iter().for_each(|&v| is_total[v] = true);
            let summaries = KeySummaries {
                lengths_known: reading.lengths,
                own: std::array::from_fn(|s| lane(own, s)),
                free: std::array::from_fn(|s| lane(free, s)),
                slots,
                totals: summed
                    .iter()
                    .map(|&t| SummedTotal {
                        value: totals[t],
                        cap: caps[t],
                        least: std::array::from_fn(|s| share_min[s][t]),
                    })
                    .collect(),
                ranges,
                is_total,
                answers: KeyMap::default(),
            };
            (summaries, judge)
        });
        let capped: Vec<Capped> = capped_totals
            .iter()
            .map(|&t| Capped {
                stride: strides[first_total + t],
                radix: radices[first_total + t],
                cap: caps[t].unwrap_or(0),
            })
            .collect();

        // Group each suit's holdings by key delta and taken cards, in the order first met.
        let mut groups: [Vec<Group>; 4] = Default::default();
        let mut group_of_lane: [Vec<u32>; 4] = std::array::from_fn(|_| vec![u32::MAX; 1 << 13]);
        let mut holdings_out: Vec<u64> = Vec::new();
        let mut digit = 1;
        for s in 0..4 {
            let width = kept_min[s].len();
            let mut by_delta: KeyMap<u64, Vec<u64>> = KeyMap::default();
            let mut order: Vec<(u64, u8, [u32; MOST_CAPPED], u128)> = Vec::new();
            for h in &per_suit[s] {
                let mut delta = u64::from(h.taken) * strides[0];
                for d in 0..width {
                    delta += (i64::from(h.kept()[d]) - kept_min[s][d]) as u64 * strides[digit + d];
                }
                for (t, &least) in share_min[s].iter().enumerate() {
                    delta += (share_of(h, t) - least) as u64 * strides[first_total + t];
                }
                let entry = by_delta.entry(delta).or_default();
                if entry.is_empty() {
                    let mut shares = [0; MOST_CAPPED];
                    for (c, &t) in capped_totals.iter().enumerate() {
                        shares[c] = share_of(h, t) as u32;
                    }
                    let summary = pruning.as_ref().map_or(0, |(summaries, _)| {
                        let digits: Vec<u32> =
                            summed.iter().map(|&t| (share_of(h, t) - share_min[s][t]) as u32).collect();
                        summaries.group_delta(s, u32::from(h.taken), &digits)
                    });
                    order.push((delta, h.taken, shares, summary));
                }
                entry.push(h.cards);
            }
            digit += width;
            // By free cards taken, so that the counting passes skip whole runs of groups.
            order.sort_by_key(|&(_, taken, _, _)| taken);
            for (delta, taken, shares, summary) in order {
                let cards = &by_delta[&delta];
                for &c in cards {
                    group_of_lane[s][(c >> (16 * s) & LANE_MASK) as usize] = groups[s].len() as u32;
                }
                groups[s].push(Group {
                    taken,
                    delta,
                    capped: shares,
                    summary,
                    start: holdings_out.len() as u32,
                    len: cards.len() as u32,
                });
                holdings_out.extend_from_slice(cards);
            }
        }

        // Forward count, suit by suit. Each pass's steps are counted before it is made (each
        // live key meets the groups whose cards it can still take, and no others): a pass that
        // would take the count past `max_steps` is not made.
        let most = |s: usize| (free >> (16 * s) & LANE_MASK).count_ones().min(slots);
        let mut stages: Vec<Stage> = Vec::with_capacity(5);
        let mut first = Stage::with_room(1);
        first.add(0, 1, 0);
        first.settle();
        first.live.push(true);
        first.summaries.push(0);
        stages.push(first);
        let mut steps = 0u64;
        // Every step of each pass: (key before, group, key after), by position.
        let mut moves: [Vec<(u32, u32, u32)>; 4] = Default::default();
        for s in 0..4 {
            let still: u32 = (s + 1..4).map(most).sum();
            let prev = &stages[s];
            // The groups are in order of free cards taken: the first that takes at least t.
            let first_taking: [usize; 15] =
                std::array::from_fn(|t| groups[s].partition_point(|g| usize::from(g.taken) < t));
            // Each live key's groups (those whose cards keep it within reach of the seat's
            // slots), and the pass's steps.
            let spans: Vec<(usize, usize)> = (0..prev.keys.len())
                .map(|i| {
                    if !prev.live[i] {
                        return (0, 0);
                    }
                    let taken = (prev.keys[i] % radices[0]) as u32;
                    let from = first_taking[slots.saturating_sub(taken + still) as usize];
                    (from, first_taking[(slots - taken + 1).min(14) as usize].max(from))
                })
                .collect();
            let pass_steps: u64 = spans.iter().map(|&(from, until)| (until - from) as u64).sum();
            steps += pass_steps;
            // The answers' work so far, in counting steps, and per key asked about.
            let answered = answered_steps(&pruning);
            let per_answer = pruning.as_ref().map_or(0, |(summaries, judge)| {
                (judge.work() - work_before_answers) / WORK_PER_STEP / summaries.answers.len().max(1) as u64
            });
            // Each later pass is expected to take at least twice this one's steps (on the
            // practice scripts the last took 2 to 7 times the one before): a count that would
            // then exceed the limit is refused now, at a fraction of the cost. This decides
            // only whether to count, never what is counted.
            let expected = steps + answered + 2 * (3 - s as u64) * pass_steps;
            if expected > limits.max_steps {
                return Err(TableRefusal::OverBudget { spent: steps - pass_steps + answered });
            }
            // Whether this pass asks about its new keys (see PRUNED_SUITS): after the third
            // suit, when the answers (at most one a new key, a third of the steps) fit too.
            let mut asking = pruning.is_some()
                && (s < PRUNED_SUITS
                    || (s == PRUNED_SUITS && expected + pass_steps / 3 * per_answer <= limits.max_steps));
            let (mut asked, mut dropped) = (0u64, 0u64);
            moves[s].reserve_exact(pass_steps as usize);
            // (Passes reached a third to a half as many keys as they made steps: the look-up is
            // sized for a third, and grows should it be more; a smaller look-up is touched by
            // fewer pages and cache lines.)
            let mut next = Stage::with_room((pass_steps as usize / 3).min(limits.max_keys));
            for (i, &(from, until)) in spans.iter().enumerate() {
                if from == until {
                    continue;
                }
                let key = prev.keys[i];
                let digits = capped_digits(key, &capped);
                for (gi, g) in groups[s].iter().enumerate().take(until).skip(from) {
                    let rep = prev.reps[i] | holdings_out[g.start as usize];
                    let to = advance(key, g.delta, &g.capped, &capped, &digits);
                    let j = next.add(to, prev.counts[i] * u64::from(g.len), rep);
                    if j as usize == next.live.len() {
                        // A new key: can its hands still satisfy the condition?
                        let live = match pruning.as_mut() {
                            // A class: the condition judges its representative.
                            _ if s == 3 => accept(Hand(own | rep)),
                            Some((summaries, judge)) => {
                                let summary = summaries.advance(prev.summaries[i], g.summary);
                                next.summaries.push(summary);
                                if asking {
                                    let live = summaries.can_satisfy(s + 1, summary, &mut **judge);
                                    asked += 1;
                                    dropped += u64::from(!live);
                                    live
                                } else {
                                    true
                                }
                            }
                            None => true,
                        };
                        next.live.push(live);
                    }
                    if next.live[j as usize] {
                        moves[s].push((i as u32, gi as u32, j));
                    }
                }
                if next.len() > limits.max_keys {
                    return Err(TableRefusal::OverBudget { spent: steps + answered_steps(&pruning) });
                }
                // After the third suit, asking stops when it drops too few keys, or its work
                // would take the count past the budget.
                if asking && s >= PRUNED_SUITS {
                    let pays = asked < ASKS_BEFORE_JUDGING || PRUNING_PAYS * dropped >= asked;
                    asking =
                        pays && steps + answered_steps(&pruning) + 2 * (3 - s as u64) * pass_steps <= limits.max_steps;
                }
            }
            next.settle();
            stages.push(next);
        }

        let answered = answered_steps(&pruning);

        // The accepted classes (the condition judged each class when first reached).
        let last = &stages[4];
        let mut accepted_keys: Vec<u32> = Vec::new();
        let mut finals = Vec::new();
        let mut class_lengths = Vec::new();
        let mut accepted = 0u64;
        for i in (0..last.keys.len()).filter(|&i| last.live[i]) {
            accepted += last.counts[i];
            accepted_keys.push(i as u32);
            finals.push(accepted);
            if reading.lengths {
                // (Those of the class's representative.)
                class_lengths.push(std::array::from_fn(|s| (last.reps[i] >> (16 * s) & LANE_MASK).count_ones() as u8));
            }
        }
        let possible = binomial(free.count_ones() as usize, slots as usize);
        // (Partial hands ruled out are not among the classes.)
        debug_assert!(pruning.is_some() || last.counts.iter().sum::<u64>() == possible);
        if accepted == 0 {
            return Err(TableRefusal::NoHand);
        }

        // Backward: the predecessors of every key that leads to an accepted class.
        let finals_keys: Vec<u64> = accepted_keys.iter().map(|&i| last.keys[i as usize]).collect();
        let mut levels: [Level; 4] = Default::default();
        let mut alive = accepted_keys;
        let mut edges_total = 0usize;
        for s in (0..4).rev() {
            let (below, above) = (&stages[s], &stages[s + 1]);
            // The steps into each live key, in the order they were taken.
            let mut live_at = vec![u32::MAX; above.keys.len()];
            for (at, &a) in alive.iter().enumerate() {
                live_at[a as usize] = at as u32;
            }
            let mut starts = vec![0u32; alive.len() + 1];
            for &(_, _, j) in &moves[s] {
                if live_at[j as usize] != u32::MAX {
                    starts[live_at[j as usize] as usize + 1] += 1;
                }
            }
            for at in 0..alive.len() {
                starts[at + 1] += starts[at];
            }
            let mut into = vec![(0u32, 0u32); starts[alive.len()] as usize];
            let mut fill = starts.clone();
            for &(i, g, j) in &moves[s] {
                let at = live_at[j as usize];
                if at != u32::MAX {
                    into[fill[at as usize] as usize] = (i, g);
                    fill[at as usize] += 1;
                }
            }
            moves[s] = Vec::new();
            // Each live key's predecessors, weighted, cumulative; the live keys one suit
            // earlier in the order first met.
            let mut position = vec![u32::MAX; below.keys.len()];
            let mut alive_below: Vec<u32> = Vec::new();
            let level = &mut levels[s];
            level.edges.reserve(into.len());
            for (at, &a) in alive.iter().enumerate() {
                let start = level.edges.len() as u32;
                let mut end = 0u64;
                for &(p, g) in &into[starts[at] as usize..starts[at + 1] as usize] {
                    end += below.counts[p as usize] * u64::from(groups[s][g as usize].len);
                    if position[p as usize] == u32::MAX {
                        position[p as usize] = alive_below.len() as u32;
                        alive_below.push(p);
                    }
                    // (The predecessor's edges are found once the level below is built.)
                    level.edges.push(Edge { end, pred_start: position[p as usize], group_and_count: g });
                }
                debug_assert_eq!(end, above.counts[a as usize]);
                level.ranges.push((start, level.edges.len() as u32));
            }
            edges_total += level.edges.len();
            if edges_total > limits.max_edges {
                return Err(TableRefusal::OverBudget { spent: steps + answered });
            }
            alive = alive_below;
        }
        // Each edge names its predecessor's edges one level down, and keeps its group beside
        // their number.
        for s in 1..4 {
            let (below, above) = levels.split_at_mut(s);
            let ranges = std::mem::take(&mut below[s - 1].ranges);
            for edge in &mut above[0].edges {
                let (start, end) = ranges[edge.pred_start as usize];
                let (group, count) = (edge.group_and_count, end - start);
                assert!(group < 1 << GROUP_BITS && count < 1 << (32 - GROUP_BITS), "edge fields fit");
                *edge = Edge { end: edge.end, pred_start: start, group_and_count: group | count << GROUP_BITS };
            }
        }
        let (guide, guide_bits) = guide_table(&finals);
        let mut accepted_keys = finals_keys;
        accepted_keys.sort_unstable();
        Ok(SeatTable {
            slots,
            groups,
            capped,
            holdings: holdings_out,
            group_of_lane,
            accepted_keys,
            levels,
            finals,
            guide,
            guide_bits,
            class_lengths,
            accepted,
            possible,
        })
    }

    /// Whether the table counts the hand taking the free cards `cards` among those that
    /// satisfy the condition (false for a hand the seat cannot hold). Checks a reading: a
    /// condition judged on any hand must agree.
    pub fn satisfies(&self, cards: u64) -> bool {
        if cards.count_ones() != self.slots {
            return false;
        }
        let mut key = 0u64;
        for s in 0..4 {
            let group = self.group_of_lane[s][(cards >> (16 * s) & LANE_MASK) as usize];
            let Some(group) = self.groups[s].get(group as usize) else { return false };
            key = advance(key, group.delta, &group.capped, &self.capped, &capped_digits(key, &self.capped));
        }
        self.accepted_keys.binary_search(&key).is_ok()
    }

    /// Hands that satisfy the condition.
    pub fn accepted(&self) -> u64 {
        self.accepted
    }

    /// Hands the seat may hold at all: `C(free cards, slots)`.
    pub fn possible(&self) -> u64 {
        self.possible
    }

    /// The accepted classes (hands alike in everything the condition reads).
    pub fn classes(&self) -> usize {
        self.finals.len()
    }

    /// The hands of accepted class `class`.
    pub fn class_count(&self, class: usize) -> u64 {
        self.finals[class] - class.checked_sub(1).map_or(0, |before| self.finals[before])
    }

    /// The free cards every hand of accepted class `class` takes in each suit (suit index
    /// order), when the table was counted with a reading that reads the suit lengths.
    pub fn class_lengths(&self, class: usize) -> Option<[u8; 4]> {
        self.class_lengths.get(class).copied()
    }

    /// The free cards of hand number `r` (below [`accepted`](Self::accepted)) among those
    /// that satisfy the condition; every number gives a different hand.
    pub fn unrank(&self, mut r: u64) -> u64 {
        debug_assert!(r < self.accepted);
        let class = self.finals.partition_point(|&end| end <= r);
        if class > 0 {
            r -= self.finals[class - 1];
        }
        self.unrank_in_class(class, r)
    }

    /// The free cards of hand number `r` (below [`class_count`](Self::class_count)) of
    /// accepted class `class`; every number gives a different hand of the class.
    pub fn unrank_in_class(&self, class: usize, mut r: u64) -> u64 {
        debug_assert!(r < self.class_count(class));
        let (start, end) = self.levels[3].ranges[class];
        let mut range = start as usize..end as usize;
        let mut cards = 0u64;
        for s in (0..4).rev() {
            let edges = &self.levels[s].edges[range];
            let j = edges.partition_point(|e| e.end <= r);
            if j > 0 {
                r -= edges[j - 1].end;
            }
            let edge = edges[j];
            let group = self.groups[s][edge.group()];
            let len = u64::from(group.len);
            cards |= self.holdings[(group.start as u64 + r % len) as usize];
            r /= len;
            range = edge.pred_edges();
        }
        cards
    }

    /// A uniform satisfying hand's free cards from the random word `word`, or from the words
    /// of `more` while Lemire's bounded draw rejects it.
    #[inline]
    pub fn draw(&self, word: u64, more: &mut impl FnMut() -> u64) -> u64 {
        let n = self.accepted;
        let mut word = word;
        let mut m = u128::from(word) * u128::from(n);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                word = more();
                m = u128::from(word) * u128::from(n);
            }
        }
        let mut r = (m >> 64) as u64;
        // The word's top bits `j` put `r` between hand numbers ⌊j n / 2^bits⌋ and
        // ⌊(j + 1) n / 2^bits⌋: its class is between their classes.
        let j = (word >> 1 >> (63 - self.guide_bits)) as usize;
        let (low, high) = (self.guide[j] as usize, self.guide[j + 1] as usize);
        let class = low + self.finals[low..=high].partition_point(|&end| end <= r);
        if class > 0 {
            r -= self.finals[class - 1];
        }
        self.unrank_in_class(class, r)
    }
}

/// The guide of [`SeatTable::draw`] for the cumulative counts `finals`: about one entry per
/// class, entry `j` the class of hand number `⌊j · n / 2^bits⌋` (`n` the last count), and a
/// last entry for the last class; with the number of bits.
fn guide_table(finals: &[u64]) -> (Vec<u32>, u32) {
    let n = *finals.last().expect("at least one class");
    let bits = finals.len().next_power_of_two().trailing_zeros().min(24);
    let mut guide = Vec::with_capacity((1 << bits) + 1);
    for j in 0..1u64 << bits {
        let r = ((u128::from(j) * u128::from(n)) >> bits) as u64;
        guide.push(finals.partition_point(|&end| end <= r) as u32);
    }
    guide.push(finals.len() as u32 - 1);
    (guide, bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Suit;
    use crate::dealing::hand_reading::ReadValue;
    use std::collections::BTreeSet;

    /// High-card points of a hand (4-3-2-1).
    fn hcp(hand: Hand) -> i32 {
        (0..4).map(|s| (0..4).map(|r| (hand.0 >> (16 * s + 9 + r) & 1) as i32 * (r + 1)).sum::<i32>()).sum()
    }

    /// Every subset of `free` with `k` cards.
    fn subsets(free: u64, k: u32) -> Vec<u64> {
        let cards: Vec<u64> = (0..64).filter(|b| free >> b & 1 != 0).map(|b| 1u64 << b).collect();
        let mut out = Vec::new();
        let n = cards.len();
        let mut idx: Vec<usize> = (0..k as usize).collect();
        if k as usize > n {
            return out;
        }
        loop {
            out.push(idx.iter().fold(0, |acc, &i| acc | cards[i]));
            let mut i = k as usize;
            loop {
                if i == 0 {
                    return out;
                }
                i -= 1;
                if idx[i] != i + n - k as usize {
                    break;
                }
            }
            idx[i] += 1;
            for j in i + 1..k as usize {
                idx[j] = idx[j - 1] + 1;
            }
        }
    }

    fn reading_hcp_and_lengths() -> HandReading<'static> {
        HandReading { lengths: true, values: vec![ReadValue::exact(ValueScope::Total, Box::new(hcp))] }
    }

    /// Unranking is a bijection from 0..accepted onto exactly the hands that satisfy the
    /// condition, found by enumerating every hand.
    fn check_bijection(free: u64, own: u64, slots: u32, reading: &HandReading, accept: &dyn Fn(Hand) -> bool) {
        let table =
            SeatTable::build(free, own, slots, reading, &mut |h| accept(h), None, TableLimits::default()).unwrap();
        let all = subsets(free, slots);
        assert_eq!(table.possible(), all.len() as u64);
        let wanted: BTreeSet<u64> = all.into_iter().filter(|&c| accept(Hand(own | c))).collect();
        assert_eq!(table.accepted(), wanted.len() as u64);
        let got: BTreeSet<u64> = (0..table.accepted()).map(|r| table.unrank(r)).collect();
        assert_eq!(got, wanted);
        for c in subsets(free, slots) {
            assert_eq!(table.satisfies(c), wanted.contains(&c));
        }
    }

    #[test]
    fn unranking_is_a_bijection_onto_the_satisfying_hands() {
        // 21 free cards (spades A–8, hearts A–J, diamonds T–6, clubs 6–2), the seat holding
        // the spade deuce and the minor aces and taking ten more.
        let free = 0x1FC0_1E00_01F0_001Fu64;
        let own = 0x0001_0000_1000_1000u64;
        let slots = 13 - own.count_ones();
        let n = free.count_ones();
        assert!(n >= slots && n <= 26, "{n}");
        let reading = reading_hcp_and_lengths();
        check_bijection(free, own, slots, &reading, &|h| (8..=11).contains(&hcp(h)));
        check_bijection(free, own, slots, &reading, &|h| {
            let l = |s: usize| (h.0 >> (16 * s) & LANE_MASK).count_ones();
            l(3) >= 4 && hcp(h) >= 10 || l(0) <= 1
        });
        // A suit's own value with a total.
        let spade_hcp = |h: Hand| hcp(Hand(h.0 & (LANE_MASK << 48)));
        let reading = HandReading {
            lengths: false,
            values: vec![
                ReadValue::exact(ValueScope::Suit(Suit::Spades), Box::new(spade_hcp)),
                ReadValue::exact(ValueScope::Total, Box::new(hcp)),
            ],
        };
        check_bijection(free, own, slots, &reading, &|h| spade_hcp(h) >= 3 && hcp(h) <= 12);
        // The same with the suit's value only compared (cut at 3 and at 5, 6 for `== 5`), and
        // a suit length read by cuts alone.
        let spade_length = |h: Hand| (h.0 >> 48 & LANE_MASK).count_ones() as i32;
        let reading = HandReading {
            lengths: false,
            values: vec![
                ReadValue {
                    scope: ValueScope::Suit(Suit::Spades),
                    value: Box::new(spade_hcp),
                    cuts: Some(vec![3, 5, 6]),
                },
                ReadValue { scope: ValueScope::Suit(Suit::Spades), value: Box::new(spade_length), cuts: Some(vec![5]) },
                ReadValue::exact(ValueScope::Total, Box::new(hcp)),
            ],
        };
        check_bijection(free, own, slots, &reading, &|h| {
            (spade_hcp(h) >= 3 || spade_hcp(h) == 5) && spade_length(h) >= 5 && hcp(h) <= 12
        });
        // Totals read through cuts are capped: one compared with 8 and 12, one (controls) with
        // 3, with an exact total beside them.
        let controls = |h: Hand| {
            (0..4).map(|s| 2 * (h.0 >> (16 * s + 12) & 1) as i32 + (h.0 >> (16 * s + 11) & 1) as i32).sum::<i32>()
        };
        let reading = HandReading {
            lengths: true,
            values: vec![
                ReadValue { scope: ValueScope::Total, value: Box::new(hcp), cuts: Some(vec![8, 12, 13]) },
                ReadValue { scope: ValueScope::Total, value: Box::new(controls), cuts: Some(vec![3]) },
                ReadValue::exact(ValueScope::Total, Box::new(|h: Hand| (h.0 >> 48 & 0x7).count_ones() as i32)),
            ],
        };
        check_bijection(free, own, slots, &reading, &|h| (8..12).contains(&hcp(h)) && controls(h) >= 3);
        check_bijection(free, own, slots, &reading, &|h| {
            hcp(h) == 12 || controls(h) < 3 && (h.0 >> 48 & 0x7).count_ones() == 1
        });
    }

    #[test]
    fn a_whole_hand_counts_like_a_convolution_by_shape() {
        // Balanced 22–24 from the full pack, counted independently: per shape, the number of
        // holdings of each suit length by points, convolved.
        let reading = reading_hcp_and_lengths();
        let balanced = |h: Hand| {
            let mut l: Vec<u32> = (0..4).map(|s| (h.0 >> (16 * s) & LANE_MASK).count_ones()).collect();
            l.sort_unstable();
            l == [3, 3, 3, 4] || l == [2, 3, 4, 4] || l == [2, 3, 3, 5]
        };
        let full = 0x1FFF_1FFF_1FFF_1FFFu64;
        let accept = |h: Hand| balanced(h) && (22..=24).contains(&hcp(h));
        let table = SeatTable::build(full, 0, 13, &reading, &mut |h| accept(h), None, TableLimits::default()).unwrap();
        assert_eq!(table.possible(), 635_013_559_600);
        // by_length[l][p]: holdings of l cards of one suit with p points.
        let mut by_length = [[0u64; 11]; 14];
        for bits in 0u64..1 << 13 {
            let p = hcp(Hand(bits));
            by_length[bits.count_ones() as usize][p as usize] += 1;
        }
        let mut expected = 0u64;
        for a in 0..=13usize {
            for b in 0..=13 - a {
                for c in 0..=13 - a - b {
                    let d = 13 - a - b - c;
                    let mut l = [a, b, c, d];
                    l.sort_unstable();
                    if !(l == [3, 3, 3, 4] || l == [2, 3, 4, 4] || l == [2, 3, 3, 5]) {
                        continue;
                    }
                    let mut dist = vec![1u64];
                    for len in [a, b, c, d] {
                        let mut next = vec![0u64; dist.len() + 10];
                        for (p, &n) in dist.iter().enumerate() {
                            for (q, &m) in by_length[len].iter().enumerate() {
                                next[p + q] += n * m;
                            }
                        }
                        dist = next;
                    }
                    expected += dist[22..=24].iter().sum::<u64>();
                }
            }
        }
        assert_eq!(table.accepted(), expected);
        for r in [0, 1, expected / 3, expected / 2, expected - 1] {
            assert!(accept(Hand(table.unrank(r))));
        }
    }

    #[test]
    fn a_partnership_counts_as_one_hand_of_26_cards() {
        // Two hands together holding 36 points or more: counted independently by the honours
        // of each rank held (the 36 other cards make up the 26).
        let reading = HandReading {
            lengths: false,
            values: vec![ReadValue { scope: ValueScope::Total, value: Box::new(hcp), cuts: Some(vec![36]) }],
        };
        let full = 0x1FFF_1FFF_1FFF_1FFFu64;
        let table =
            SeatTable::build(full, 0, 26, &reading, &mut |h| hcp(h) >= 36, None, TableLimits::default()).unwrap();
        assert_eq!(table.possible(), 495_918_532_948_104);
        let c = |n: u64, k: u64| binomial(n as usize, k as usize);
        let mut expected = 0u64;
        for held in 0..625u64 {
            let [aces, kings, queens, jacks] = [held % 5, held / 5 % 5, held / 25 % 5, held / 125];
            let honours = aces + kings + queens + jacks;
            if 4 * aces + 3 * kings + 2 * queens + jacks >= 36 && honours <= 26 {
                expected += c(4, aces) * c(4, kings) * c(4, queens) * c(4, jacks) * c(36, 26 - honours);
            }
        }
        assert_eq!(table.accepted(), expected);
        let mut seen = BTreeSet::new();
        for r in [0, 1, expected / 3, expected / 2, expected - 1] {
            let cards = table.unrank(r);
            assert!(cards.count_ones() == 26 && hcp(Hand(cards)) >= 36 && table.satisfies(cards));
            seen.insert(cards);
        }
        assert_eq!(seen.len(), 5);
        // A class of more than 2^40 hands (26 to 29 points, each sum a class) is counted too.
        let reading = HandReading {
            lengths: false,
            values: vec![ReadValue { scope: ValueScope::Total, value: Box::new(hcp), cuts: Some(vec![26, 30]) }],
        };
        let table =
            SeatTable::build(full, 0, 26, &reading, &mut |h| (26..30).contains(&hcp(h)), None, TableLimits::default())
                .unwrap();
        let mut expected = 0u64;
        for held in 0..625u64 {
            let [aces, kings, queens, jacks] = [held % 5, held / 5 % 5, held / 25 % 5, held / 125];
            let honours = aces + kings + queens + jacks;
            if (26..30).contains(&(4 * aces + 3 * kings + 2 * queens + jacks)) && honours <= 26 {
                expected += c(4, aces) * c(4, kings) * c(4, queens) * c(4, jacks) * c(36, 26 - honours);
            }
        }
        assert!(expected > 1 << 40);
        assert_eq!(table.accepted(), expected);
    }

    #[test]
    fn drawing_is_uniform_over_the_satisfying_hands() {
        // 14 free cards, a seat taking 5 of them: a chi-square test over every satisfying hand.
        let free = 0x0000_0000_1FFF_0001u64 | 0x0001_0000_0000_0000;
        let reading = reading_hcp_and_lengths();
        let accept = |h: Hand| hcp(h) >= 3;
        let table = SeatTable::build(free, 0, 5, &reading, &mut |h| accept(h), None, TableLimits::default()).unwrap();
        let hands: Vec<u64> = (0..table.accepted()).map(|r| table.unrank(r)).collect();
        let cell: std::collections::HashMap<u64, usize> = hands.iter().enumerate().map(|(i, &h)| (h, i)).collect();
        let mut counts = vec![0u64; hands.len()];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let draws = 200 * hands.len() as u64;
        for _ in 0..draws {
            let w = next();
            counts[cell[&table.draw(w, &mut next)]] += 1;
        }
        let e = draws as f64 / hands.len() as f64;
        let chi2: f64 = counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum();
        let dof = hands.len() as f64 - 1.0;
        // 5 standard deviations above the mean of a chi-square with `dof` degrees of freedom.
        assert!(chi2 < dof + 5.0 * (2.0 * dof).sqrt(), "chi2 {chi2} for {dof} degrees of freedom");
    }

    #[test]
    fn a_draw_is_the_hand_its_number_unranks_to() {
        // The guide only narrows the search: a word gives the hand of the number Lemire's
        // method makes of it, on a full-pack table of many classes and on one of a single class.
        let full = 0x1FFF_1FFF_1FFF_1FFFu64;
        let reading = reading_hcp_and_lengths();
        for accept in [|h: Hand| (12..=14).contains(&hcp(h)), |h: Hand| hcp(h) == 37] {
            let table =
                SeatTable::build(full, 0, 13, &reading, &mut |h| accept(h), None, TableLimits::default()).unwrap();
            let n = u128::from(table.accepted());
            let mut word = 0x9E37_79B9_7F4A_7C15u64;
            for i in 0..200_000u64 {
                word = word.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                // The least and greatest words too.
                let w = match i {
                    0 => u64::MAX / n as u64,
                    1 => u64::MAX,
                    _ => word,
                };
                if ((u128::from(w) * n) as u64) < (n as u64).wrapping_neg() % n as u64 {
                    continue; // (a word Lemire's method rejects)
                }
                let r = ((u128::from(w) * n) >> 64) as u64;
                let drawn = table.draw(w, &mut || unreachable!("no rejection at these words"));
                assert_eq!(drawn, table.unrank(r), "word {w:#x}");
            }
        }
    }

    #[test]
    fn refusals() {
        let reading = reading_hcp_and_lengths();
        let full = 0x1FFF_1FFF_1FFF_1FFFu64;
        let none = SeatTable::build(full, 0, 13, &reading, &mut |h| hcp(h) > 37, None, TableLimits::default());
        assert_eq!(none.unwrap_err(), TableRefusal::NoHand);
        let tight = TableLimits { max_keys: 100, ..TableLimits::default() };
        let over = SeatTable::build(full, 0, 13, &reading, &mut |h| hcp(h) > 30, None, tight);
        assert!(matches!(over.unwrap_err(), TableRefusal::OverBudget { .. }));
        let wide = HandReading {
            lengths: false,
            values: (0..5)
                .map(|_| ReadValue::exact(ValueScope::Total, Box::new(|h: Hand| (h.0 as i32).wrapping_mul(1 << 30))))
                .collect(),
        };
        let wide = SeatTable::build(full, 0, 13, &wide, &mut |_| true, None, TableLimits::default());
        assert_eq!(wide.unwrap_err(), TableRefusal::KeyTooWide);
    }
}
