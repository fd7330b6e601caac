//! The native generator: ChaCha8 (`rand_chacha`) with exactly uniform dealing, where deal
//! number `i` depends only on the seed and `i`.
//!
//! **Streams.** The seed keys ChaCha8. Fresh deal `i` owns words `2i, 2i + 1` of each of
//! streams 0 to 3 (its words 0–1, 2–3, 4–5, 6–7: North's hand, South's, East's, spares),
//! each stream read through its own buffer, so a run computes only the ChaCha output of the
//! seats it deals (a quarter for North alone); in the rare case a deal needs more words
//! (rejections) they come from stream `i + 5`, whose second half also serves `rnd()` during
//! deal `i`. Any deal can therefore be dealt on its own ([`seek`]), which is what lets several
//! threads deal one run and still print the same deals.
//!
//! **Dealing.** Without bias predeal the free (non-predealt) cards are dealt seat by seat in
//! the order North, South, East, West: each seat takes a uniformly random subset of the cards
//! still undealt, from two words ([`HandSampler`]: a length pattern from an alias table, then
//! the cards of each part, with batched bounded draws). North's subset is of the free cards,
//! by suit; South's and East's are of the positions of the cards still undealt (taken in
//! order, in blocks of 13), mapped onto the cards with one bit deposit (`pdep` where the CPU
//! has a fast BMI2, a loop otherwise — same deals either way). West takes what is left, so
//! every deal is equally likely, and a whole deal costs six words. A caller that only reads
//! some seats ([`deal_seats`]) gets those seats dealt and may [`complete`] the deal later from
//! the same words: the deal is the same either way, so a condition on North alone costs two
//! words.
//!
//! Smart dealing's table of a pair's cards together (see [`FirstSeat::Pair`]) deals the first
//! two seats of the order at once: the pair's free cards from the table (one word, as a
//! single seat's hand would be), then the first seat's share of them as a uniform subset of
//! their positions (two words, as South's hand would be), the second seat taking the rest;
//! the other two seats are dealt from what is left as above. Every split of the pair's cards
//! is equally likely, so the deals are uniform among those whose pair holds cards the table
//! accepts.
//!
//! With bias predeal, a suit-length table is drawn from its exact distribution (see `bias`)
//! and each suit's free cards are then split uniformly, which makes every deal that meets the
//! card predeal and the bias lengths equally likely. Smart dealing under bias draws the first
//! seat's hand from its weighted table and the other seats' lengths in proportion to their
//! deals instead (see `biased_table`), then splits the suits' cards left the same way. Spot
//! holdings (`SQTxx`, see `spots`) deal this way too: each suit's `x`s are drawn first from
//! its free small cards, then the rest of the suit is split by the table, in which a spot
//! holding's seat takes no further card of it.
//!
//! Swapping (`-x 2`/`-x 3`) works as in DealerV2: a fresh deal, then cumulative exchanges of
//! the E/S/W hands; generated deal `i` is arrangement `i mod 2` (or `mod 6`) of fresh deal
//! `i / 2` (or `/ 6`).
//!
//! [`seek`]: ChaChaDealer::seek
//! [`deal_seats`]: ChaChaDealer::deal_seats
//! [`complete`]: ChaChaDealer::complete

// Index loops mirror the algorithms as specified (hand × suit tables, slot ranges).
#![allow(clippy::needless_range_loop)]

use super::bias::LengthSampler;
use super::biased_table::BiasedTable;
use super::hand_sampler::HandSampler;
use super::seat_table::SeatTable;
use super::spots::SpotDraw;
use crate::cards::{Card, Deal, Hand, Seat, SeatSet};
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// A fresh deal's words come two by two from four streams (lanes): words 0–1 (North's hand)
/// from stream 0, words 2–3 (South's) from stream 1, 4–5 (East's) from stream 2, 6–7 (spares
/// for redraws) from stream 3, so the ChaCha output computed follows the seats dealt.
const LANES: usize = 4;
/// Words each fresh deal owns in each lane.
const WORDS_PER_LANE: usize = 2;
/// Words a fresh deal owns in the lanes together.
const WORDS_PER_DEAL: usize = LANES * WORDS_PER_LANE;

/// 64-bit words a lane reads from ChaCha at once (rand_chacha computes four blocks at once).
const LANE_BUFFER: usize = 32;

/// Where `rnd()` starts reading in a deal's own stream: its second half, far from the words
/// dealing may take from the start.
const RND_WORD_POS: u128 = 1 << 67;

/// The stream of fresh deal `fresh`'s words beyond its first eight (from word 0), which is also
/// the stream of `rnd()` during generated deal `fresh` (from [`RND_WORD_POS`]).
fn own_stream(fresh: u64) -> u64 {
    fresh.wrapping_add(LANES as u64 + 1)
}

/// The order in which the seats' free slots are dealt when no seat is dealt first.
pub(crate) const DEALING_ORDER: [Seat; 4] = [Seat::North, Seat::South, Seat::East, Seat::West];

/// The dealing order with `first` first, the others as in [`DEALING_ORDER`].
pub(crate) fn order_from(first: Seat) -> [Seat; 4] {
    let mut order = [first; 4];
    for (slot, seat) in order[1..].iter_mut().zip(DEALING_ORDER.into_iter().filter(|&seat| seat != first)) {
        *slot = seat;
    }
    order
}

/// The dealing order with the pair `first`, `second` first, the others as in
/// [`DEALING_ORDER`].
pub(crate) fn pair_order(first: Seat, second: Seat) -> [Seat; 4] {
    let mut order = order_from(first);
    let at = order.iter().position(|&seat| seat == second).expect("a seat of the order");
    order[1..=at].rotate_right(1);
    order
}

/// How smart dealing deals the first seat's hands.
#[derive(Clone, Debug)]
pub(crate) enum FirstSeat {
    /// From the exact table of those that satisfy its part of the condition (no bias).
    Table(Arc<SeatTable>),
    /// The first two seats of the order: their cards together from the exact table of those
    /// that satisfy the pair's part of the condition (no bias), split between them uniformly.
    Pair(Arc<SeatTable>),
    /// From that table weighted by the other seats' deals under the bias (see
    /// [`BiasedTable`]).
    Biased(Arc<BiasedTable>),
}

/// Per-suit state of the uniform bias predeal.
#[derive(Clone, Debug)]
struct BiasState {
    sampler: LengthSampler,
    /// Smart dealing's first seat: its hand and the other seats' lengths come from this table
    /// instead of `sampler` (and `spots` then holds the other seats' `x`s only).
    first: Option<Arc<BiasedTable>>,
    /// Bit positions of each suit's free cards, in the order each deal's shuffle starts from.
    suit_cards: [[u8; 13]; 4],
    suit_count: [u8; 4],
    /// The spot holdings' `x`s, drawn from each suit's free small cards before the suit is
    /// split (the sampler's table counts the free cards without them).
    spots: Option<SpotDraw>,
}

/// One ChaCha stream read as 64-bit words by index, a buffer at a time; reading on from the
/// last buffer costs no seek.
#[derive(Clone, Debug)]
struct Lane {
    rng: ChaCha8Rng,
    buffer: [u64; LANE_BUFFER],
    /// Index of `buffer[0]` in the stream, when the buffer holds anything.
    start: Option<u64>,
    /// Index of the word the generator reads next.
    next: u64,
}

impl Lane {
    fn new(rng: ChaCha8Rng) -> Lane {
        Lane { rng, buffer: [0; LANE_BUFFER], start: None, next: 0 }
    }

    /// Word `index` of the stream.
    #[inline]
    fn word(&mut self, index: u64) -> u64 {
        match self.start {
            Some(start) if index.wrapping_sub(start) < LANE_BUFFER as u64 => self.buffer[(index - start) as usize],
            _ => self.fill(index),
        }
    }

    /// Words `index` and `index + 1` of the stream (`index` even).
    #[inline(always)]
    fn pair(&mut self, index: u64) -> [u64; 2] {
        match self.start {
            Some(start) if index.wrapping_sub(start) < LANE_BUFFER as u64 => {
                let at = (index - start) as usize & (LANE_BUFFER - 2);
                [self.buffer[at], self.buffer[at + 1]]
            }
            _ => [self.fill(index), self.word(index + 1)],
        }
    }

    /// Loads the buffer holding word `index` and returns the word.
    #[cold]
    fn fill(&mut self, index: u64) -> u64 {
        let start = index - index % LANE_BUFFER as u64;
        if self.next != start {
            // Two 32-bit ChaCha words per 64-bit word.
            self.rng.set_word_pos(u128::from(start) * 2);
        }
        let mut bytes = [0u8; LANE_BUFFER * 8];
        self.rng.fill_bytes(&mut bytes);
        for (word, chunk) in self.buffer.iter_mut().zip(bytes.chunks_exact(8)) {
            *word = u64::from_le_bytes(chunk.try_into().expect("8-byte chunk"));
        }
        self.start = Some(start);
        self.next = start + LANE_BUFFER as u64;
        self.buffer[(index - start) as usize]
    }
}

/// The random words of the fresh deal being dealt (see the module documentation).
#[derive(Clone, Debug)]
struct DealWords {
    /// The seed's generator at stream 0, word 0: the template of every per-deal stream.
    keyed: ChaCha8Rng,
    /// Streams 0 to 3.
    lanes: [Lane; LANES],
    /// The current fresh deal.
    fresh: u64,
    /// Words of the current deal used so far.
    used: usize,
    /// The deal's own stream, once it needed more than its eight words.
    overflow: Option<ChaCha8Rng>,
}

impl DealWords {
    fn new(seed: i64) -> DealWords {
        let keyed = ChaCha8Rng::seed_from_u64(seed as u64);
        let lanes = std::array::from_fn(|lane| {
            let mut rng = keyed.clone();
            rng.set_stream(lane as u64);
            Lane::new(rng)
        });
        DealWords { lanes, keyed, fresh: 0, used: WORDS_PER_DEAL, overflow: None }
    }

    /// Stream `stream` of the seed's generator from 32-bit word `word_pos`.
    fn stream(&self, stream: u64, word_pos: u128) -> ChaCha8Rng {
        let mut rng = self.keyed.clone();
        rng.set_stream(stream);
        rng.set_word_pos(word_pos);
        rng
    }

    /// Starts on the words of fresh deal `fresh`.
    #[inline]
    fn begin(&mut self, fresh: u64) {
        self.fresh = fresh;
        self.used = 0;
        self.overflow = None;
    }

    /// The deal's next word.
    #[inline]
    fn next(&mut self) -> u64 {
        let used = self.used;
        self.used += 1;
        if used < WORDS_PER_DEAL {
            let index = self.fresh * WORDS_PER_LANE as u64 + (used % WORDS_PER_LANE) as u64;
            self.lanes[used / WORDS_PER_LANE].word(index)
        } else {
            self.next_overflow()
        }
    }

    /// The deal's next two words: one buffer look-up for both when they are a lane's pair.
    #[inline(always)]
    fn next_pair(&mut self) -> [u64; 2] {
        let used = self.used;
        if used % WORDS_PER_LANE == 0 && used < WORDS_PER_DEAL {
            self.used = used + 2;
            self.lanes[used / WORDS_PER_LANE].pair(self.fresh * WORDS_PER_LANE as u64)
        } else {
            [self.next(), self.next()]
        }
    }

    #[cold]
    fn next_overflow(&mut self) -> u64 {
        if self.overflow.is_none() {
            self.overflow = Some(self.stream(own_stream(self.fresh), 0));
        }
        self.overflow.as_mut().expect("just set").next_u64()
    }
}

/// The ChaCha dealer.
#[derive(Clone, Debug)]
pub(crate) struct ChaChaDealer {
    words: DealWords,
    /// The free (non-predealt) cards.
    free: u64,
    /// The predealt cards per seat.
    base: [u64; 4],
    /// The order in which the seats are dealt.
    order: [Seat; 4],
    /// The hands of the first three seats of `order`: the first seat's from the free cards,
    /// the others' from the positions of the cards still undealt.
    hands: Box<[HandSampler; 3]>,
    /// The first seat's hands when they are drawn from the exact table of those that satisfy
    /// its part of the condition (smart dealing), or the first two seats' cards together.
    first_table: Option<Arc<SeatTable>>,
    /// When `first_table` holds a pair's cards: the first seat's share of them, as positions
    /// among the pair's free cards (the second seat takes the others).
    pair_split: Option<HandSampler>,
    /// How many seats of `order` must be settled to read a set of seats.
    prefix_for_seats: [u8; 16],
    /// Progress of the current fresh deal: seats settled and the cards still undealt.
    settled: usize,
    undealt: u64,
    /// Whether the CPU has a fast BMI2 `pdep` (read on x86-64 only).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fast_pdep: bool,
    bias: Option<Box<BiasState>>,
    swap: u8,
    /// The fresh deal the swapped arrangements come from, and its number.
    swap_base: Option<(u64, Deal)>,
    /// Number of the next generated deal.
    generated: u64,
    /// `rnd()`'s stream and the deal number it belongs to.
    rnd: Option<(u64, ChaCha8Rng)>,
}

/// The bit position of a card in a [`Hand`] mask.
fn bit_position(card: Card) -> u8 {
    card.suit().index() as u8 * 16 + card.rank()
}

/// An unbiased integer in 0..n (n >= 1), Lemire's method on 32 bits.
#[inline]
fn below(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    let mut m = rng.next_u32() as u64 * n as u64;
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = rng.next_u32() as u64 * n as u64;
        }
    }
    (m >> 32) as u32
}

/// A uniform f64 in [0, 1) with 53 random bits.
fn uniform(rng: &mut ChaCha8Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Spreads the low bits of `bits` over the set bits of `mask`, lowest first: bit `i` of
/// `bits` says whether the `i`-th lowest card of `mask` is taken.
trait Deposit {
    /// The taken cards.
    fn deposit(bits: u64, mask: u64) -> u64;
}

/// Deposit in plain Rust, one card of the mask at a time.
struct PortableDeposit;

impl Deposit for PortableDeposit {
    #[inline(always)]
    fn deposit(bits: u64, mask: u64) -> u64 {
        super::hand_sampler::deposit(bits, mask)
    }
}

/// Deposit with BMI2's `pdep`.
#[cfg(target_arch = "x86_64")]
struct Pdep;

#[cfg(target_arch = "x86_64")]
impl Deposit for Pdep {
    #[inline(always)]
    fn deposit(bits: u64, mask: u64) -> u64 {
        // SAFETY: only reached through `deal_seats_bmi2`, which requires BMI2.
        unsafe { core::arch::x86_64::_pdep_u64(bits, mask) }
    }
}

/// Whether the CPU has BMI2 with a fast `pdep` (AMD before Zen 3 microcodes it: ~250 cycles).
fn has_fast_pdep() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if !std::is_x86_feature_detected!("bmi2") {
            return false;
        }
        let (vendor, signature) = (core::arch::x86_64::__cpuid(0), core::arch::x86_64::__cpuid(1).eax);
        let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6E65, 0x444D_4163);
        let family = match (signature >> 8) & 0xF {
            0xF => 0xF + ((signature >> 20) & 0xFF),
            base => base,
        };
        !(amd && family < 0x19)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

impl ChaChaDealer {
    /// Sets up from a validated predeal and, when `bias` is given, a validated and feasible
    /// bias table (`pinned[hand][suit]` = free cards of the suit the hand must receive, besides
    /// its `x`s). `spots` (`[hand][suit]`: the `x`s, −1 where none), which needs `pinned`, gives
    /// spot holdings. `order` is the dealing order; `first`, how smart dealing draws the first
    /// seat's hands (a table built for this predeal, with no spots or swapping; weighted by
    /// the bias exactly when there is one).
    pub(crate) fn new(
        seed: i64,
        predeal: &[(Seat, Card)],
        spots: Option<&[[i8; 4]; 4]>,
        pinned: Option<[[i8; 4]; 4]>,
        swap: u8,
        order: [Seat; 4],
        first: Option<FirstSeat>,
    ) -> ChaChaDealer {
        let (first_table, first_biased, pair) = match first {
            Some(FirstSeat::Table(table)) => (Some(table), None, false),
            Some(FirstSeat::Pair(table)) => (Some(table), None, true),
            Some(FirstSeat::Biased(biased)) => (None, Some(biased), false),
            None => (None, None, false),
        };
        let mut base = [0u64; 4];
        let mut taken = 0u64;
        for &(seat, card) in predeal {
            base[seat.index()] |= card.bit();
            taken |= card.bit();
        }
        let mut slots = [0usize; 4];
        for s in 0..4 {
            slots[s] = 13 - base[s].count_ones() as usize;
        }
        let mut free = 0u64;
        let mut suit_cards = [[0u8; 13]; 4];
        let mut suit_count = [0u8; 4];
        for o in 0..52 {
            let card = Card::from_ordinal(o);
            if taken & card.bit() == 0 {
                free |= card.bit();
                let s = card.suit().index();
                suit_cards[s][suit_count[s] as usize] = bit_position(card);
                suit_count[s] += 1;
            }
        }
        // Seat k of the order takes slots[k] of the cards the seats before it left.
        let first = slots[order[0].index()];
        let second = slots[order[1].index()];
        let after_first = free.count_ones() as usize - first;
        let hands = Box::new([
            HandSampler::new(free, first),
            HandSampler::of_positions(after_first, second),
            HandSampler::of_positions(after_first - second, slots[order[2].index()]),
        ]);
        let pair_split = pair.then(|| HandSampler::of_positions(first + second, first));
        let mut prefix_for_seats = [0u8; 16];
        for (mask, prefix) in prefix_for_seats.iter_mut().enumerate() {
            for (k, seat) in order.iter().enumerate() {
                if mask & (1 << seat.index()) != 0 && slots[seat.index()] > 0 {
                    *prefix = (*prefix).max(k as u8 + 1);
                }
            }
        }
        let bias = pinned.map(|pinned| {
            // The `x`s are dealt before the table: they leave their seats' slots and their suits'
            // free cards.
            let mut table_slots = slots.map(|s| s as u8);
            let mut table_cards = suit_count;
            if let Some(spots) = spots {
                for h in 0..4 {
                    for s in 0..4 {
                        let x = spots[h][s].max(0) as u8;
                        table_slots[h] -= x;
                        table_cards[s] -= x;
                    }
                }
            }
            Box::new(BiasState {
                sampler: LengthSampler::new(table_slots, table_cards, pinned),
                first: first_biased.clone(),
                suit_cards,
                suit_count,
                spots: spots.map(|spots| {
                    // Under smart dealing the first seat's `x`s are in its table's hands.
                    let mut others = *spots;
                    if let Some(first) = &first_biased {
                        others[first.order()[0].index()] = [-1; 4];
                    }
                    SpotDraw::new(&others, free)
                }),
            })
        });
        ChaChaDealer {
            words: DealWords::new(seed),
            free,
            base,
            order,
            hands,
            first_table,
            pair_split,
            prefix_for_seats,
            settled: 4,
            undealt: 0,
            fast_pdep: has_fast_pdep(),
            bias,
            swap,
            swap_base: None,
            generated: 0,
            rnd: None,
        }
    }

    /// Whether the bias (if any) admits at least one deal.
    pub(crate) fn bias_feasible(&self) -> bool {
        self.bias.as_ref().is_none_or(|b| b.sampler.feasible())
    }

    /// The order in which the seats are dealt.
    pub(crate) fn order(&self) -> [Seat; 4] {
        self.order
    }

    /// Makes generated deal number `index` (0-based) the next one dealt.
    pub(crate) fn seek(&mut self, index: u64) {
        self.generated = index;
    }

    /// Deals seats `settled..prefix` (`prefix` ≤ 3) of the order, depositing with `D`.
    #[inline(always)]
    fn deal_seats_with<D: Deposit>(&mut self, deal: &mut Deal, prefix: usize) {
        for k in self.settled..prefix {
            let hand = self.draw_hand(k);
            let cards = if self.hands[k].packed() { D::deposit(hand, self.undealt) } else { hand };
            self.take_hand(deal, k, cards);
        }
    }

    /// [`deal_seats_with`](Self::deal_seats_with) compiled for BMI2.
    ///
    /// # Safety
    /// The CPU must support BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2")]
    unsafe fn deal_seats_bmi2(&mut self, deal: &mut Deal, prefix: usize) {
        self.deal_seats_with::<Pdep>(deal, prefix);
    }

    /// Seat `k` of the order's hand from the deal's next words, in
    /// [`HandSampler::draw`]'s terms.
    #[inline(always)]
    fn draw_hand(&mut self, k: usize) -> u64 {
        let sampler = &self.hands[k];
        if let Some(hand) = sampler.only() {
            return hand;
        }
        let pair = self.words.next_pair();
        let words = &mut self.words;
        sampler.draw(pair, || words.next())
    }

    /// The first seat's hand from the deal's next words: from the exact table when there is
    /// one (one word, more only when the bounded draw rejects it), else as any other seat's.
    #[inline(always)]
    fn draw_first_hand(&mut self) -> u64 {
        match &self.first_table {
            Some(table) => {
                let [word, _] = self.words.next_pair();
                let words = &mut self.words;
                table.draw(word, &mut || words.next())
            }
            None => self.draw_hand(0),
        }
    }

    /// Gives seat `k` of the order its dealt `cards`.
    #[inline(always)]
    fn take_hand(&mut self, deal: &mut Deal, k: usize, cards: u64) {
        self.undealt ^= cards;
        let seat = self.order[k].index();
        deal.0[seat] = Hand(self.base[seat] | cards);
    }

    /// Settles the first `prefix` seats of the order of the current fresh deal.
    #[inline]
    fn settle(&mut self, deal: &mut Deal, prefix: usize) {
        if prefix <= self.settled {
            return;
        }
        if self.settled == 0 && (self.first_table.is_some() || !self.hands[0].packed()) {
            // The first hand is drawn from the free cards themselves: no deposit, no BMI2.
            let cards = self.draw_first_hand();
            match &self.pair_split {
                None => {
                    self.take_hand(deal, 0, cards);
                    self.settled = 1;
                }
                Some(split) => {
                    // A pair's cards: the first seat takes a uniform subset of their positions
                    // (from the next two words, as the second seat's hand would be), the
                    // second seat the rest.
                    let positions = match split.only() {
                        Some(positions) => positions,
                        None => {
                            let pair = self.words.next_pair();
                            let words = &mut self.words;
                            split.draw(pair, || words.next())
                        }
                    };
                    let first = super::hand_sampler::deposit(positions, cards);
                    self.take_hand(deal, 0, first);
                    self.take_hand(deal, 1, cards ^ first);
                    self.settled = 2;
                }
            }
            if prefix <= self.settled {
                return;
            }
        }
        let drawn = prefix.min(3);
        if self.settled < drawn {
            #[cfg(target_arch = "x86_64")]
            if self.fast_pdep {
                // SAFETY: `fast_pdep` is only set when the CPU has BMI2.
                unsafe { self.deal_seats_bmi2(deal, drawn) };
            } else {
                self.deal_seats_with::<PortableDeposit>(deal, drawn);
            }
            #[cfg(not(target_arch = "x86_64"))]
            self.deal_seats_with::<PortableDeposit>(deal, drawn);
        }
        if prefix == 4 {
            // The last seat takes the cards left over.
            let last = self.order[3].index();
            deal.0[last] = Hand(self.base[last] | self.undealt);
        }
        self.settled = prefix;
    }

    /// Fresh deal number `fresh` with at least `seats` settled (no bias).
    #[inline]
    fn fresh_deal(&mut self, fresh: u64, seats: SeatSet) -> Deal {
        self.words.begin(fresh);
        self.undealt = self.free;
        self.settled = 0;
        let mut deal = Deal(self.base.map(Hand));
        self.settle(&mut deal, self.prefix_for_seats[seats.0 as usize & 15] as usize);
        deal
    }

    /// Fresh deal number `fresh`, meeting the predeal and the bias lengths, from its own stream.
    fn fresh_biased_deal(&self, state: &BiasState, fresh: u64) -> Option<Deal> {
        let mut rng = self.words.stream(own_stream(fresh), 0);
        let mut hands = self.base;
        // The free cards each seat takes of each suit (and, from smart dealing's table, the
        // first seat's cards themselves).
        let (table, dealt) = match &state.first {
            Some(first) => {
                // The other seats' `x`s, then the first seat's hand: no deal when the hand holds
                // one of the `x`s (see `biased_table`).
                let mut with_spots = self.base;
                let mut spotted = 0u64;
                if let Some(spots) = &state.spots {
                    for s in (0..4).filter(|&s| spots.has(s)) {
                        spotted |= spots.draw(s, &mut with_spots, |m| below(&mut rng, m));
                    }
                }
                let (cards, rows) = first.draw(&mut || rng.next_u64());
                if cards & spotted != 0 {
                    return None;
                }
                let order = first.order();
                hands = with_spots;
                hands[order[0].index()] |= cards;
                let mut table = [[0u8; 4]; 4];
                for (seat, row) in order[1..].iter().zip(rows) {
                    table[seat.index()] = row;
                }
                (table, cards | spotted)
            }
            None => (state.sampler.sample(|| uniform(&mut rng))?, 0),
        };
        // Each deal shuffles from the same starting order, so it depends only on its number.
        let mut suit_cards = state.suit_cards;
        for s in 0..4 {
            let mut n = state.suit_count[s] as usize;
            let cards = &mut suit_cards[s];
            // (Smart dealing drew the `x`s already.)
            let spots = state.spots.as_ref().filter(|spots| state.first.is_none() && spots.has(s));
            if spots.is_some() || dealt != 0 {
                let taken = match spots {
                    Some(spots) => spots.draw(s, &mut hands, |m| below(&mut rng, m)),
                    None => dealt,
                };
                // The rest of the suit's free cards, in their starting order.
                let mut kept = 0;
                for i in 0..n {
                    if taken >> cards[i] & 1 == 0 {
                        cards[kept] = cards[i];
                        kept += 1;
                    }
                }
                n = kept;
            }
            for i in (1..n).rev() {
                let j = below(&mut rng, i as u32 + 1) as usize;
                cards.swap(i, j);
            }
            let mut pos = 0;
            for (h, hand) in hands.iter_mut().enumerate() {
                for _ in 0..table[h][s] {
                    *hand |= 1u64 << cards[pos];
                    pos += 1;
                }
            }
        }
        Some(Deal(hands.map(Hand)))
    }

    /// A fresh deal, biased or not.
    #[inline]
    fn next_fresh(&mut self, fresh: u64, seats: SeatSet) -> Option<Deal> {
        match &self.bias {
            None => Some(self.fresh_deal(fresh, seats)),
            Some(state) => {
                self.settled = 4;
                self.fresh_biased_deal(state, fresh)
            }
        }
    }

    /// The next generated deal with at least `seats` settled; the other hands hold only their
    /// predealt cards until [`complete`](Self::complete) settles them. `None` = the bias
    /// sampler rejected this attempt, or smart dealing's hand held a spot holding's `x`.
    #[inline(always)]
    pub(crate) fn deal_seats(&mut self, seats: SeatSet) -> Option<Deal> {
        let index = self.generated;
        self.generated = index.wrapping_add(1);
        if self.swap == 0 {
            return self.next_fresh(index, seats);
        }
        let group = if self.swap == 2 { 2 } else { 6 };
        let (fresh, arrangement) = (index / group, index % group);
        let base = match self.swap_base {
            Some((number, deal)) if number == fresh => deal,
            _ => {
                let deal = self.next_fresh(fresh, SeatSet::ALL)?;
                self.swap_base = Some((fresh, deal));
                deal
            }
        };
        let mut hands = base.0;
        let (east, south, west) = (Seat::East.index(), Seat::South.index(), Seat::West.index());
        for step in 1..=arrangement {
            match step {
                1 | 4 => hands.swap(east, west),
                2 | 5 => hands.swap(south, west),
                _ => hands.swap(east, south),
            }
        }
        Some(Deal(hands))
    }

    /// Deals the hands of `seats` (and the seats before them in the order) that
    /// [`deal_seats`](Self::deal_seats) left out of `deal`, the last deal it returned.
    #[inline]
    pub(crate) fn extend(&mut self, deal: &mut Deal, seats: SeatSet) {
        self.settle(deal, self.prefix_for_seats[seats.0 as usize & 15] as usize);
    }

    /// Settles the seats [`deal_seats`](Self::deal_seats) left out of `deal`, the last deal it
    /// returned, from the same words: the result is the deal a full deal would have given.
    #[inline]
    pub(crate) fn complete(&mut self, deal: &mut Deal) {
        self.settle(deal, 4);
    }

    /// `rnd(n)`: uniform in 0..n for n >= 1; 0 without a draw for n <= 0. Reads the current
    /// deal's own stream, so the values depend only on the seed and the deal's number.
    pub(crate) fn rnd(&mut self, n: i32) -> i32 {
        if n <= 0 {
            return 0;
        }
        // Deal `g - 1` is current (before the first deal, "deal −1": stream 4, used by nothing else).
        let stream = own_stream(self.generated.wrapping_sub(1));
        if self.rnd.as_ref().is_none_or(|(owner, _)| *owner != stream) {
            self.rnd = Some((stream, self.words.stream(stream, RND_WORD_POS)));
        }
        let (_, rng) = self.rnd.as_mut().expect("just set");
        below(rng, n as u32) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deposit_takes_the_cards_the_bits_name() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..20_000 {
            let mask = rng.next_u64() & 0x1FFF_1FFF_1FFF_1FFF;
            let bits = rng.next_u64() & ((1u64 << mask.count_ones()) - 1);
            // The i-th lowest card of the mask, for each bit i of `bits`.
            let mut expected = 0u64;
            let mut rest = mask;
            for i in 0..mask.count_ones() {
                let lowest = rest & rest.wrapping_neg();
                if bits >> i & 1 != 0 {
                    expected |= lowest;
                }
                rest ^= lowest;
            }
            assert_eq!(PortableDeposit::deposit(bits, mask), expected, "{bits:#x} {mask:#x}");
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("bmi2") {
                assert_eq!(Pdep::deposit(bits, mask), expected, "{bits:#x} {mask:#x}");
            }
        }
    }

    #[test]
    fn deals_do_not_depend_on_the_cpu() {
        let mut fast = ChaChaDealer::new(5, &[], None, None, 0, DEALING_ORDER, None);
        let mut portable = fast.clone();
        portable.fast_pdep = false;
        for _ in 0..2000 {
            assert_eq!(fast.deal_seats(SeatSet::ALL), portable.deal_seats(SeatSet::ALL));
        }
    }

    #[test]
    fn rejections_draw_again_from_the_deal_s_own_words() {
        let mut dealer = ChaChaDealer::new(11, &[], None, None, 0, DEALING_ORDER, None);
        let mut overflowed = 0;
        for _ in 0..100_000 {
            let deal = dealer.deal_seats(SeatSet::ALL).expect("no bias");
            assert!(deal.is_complete());
            overflowed += usize::from(dealer.words.overflow.is_some());
        }
        // A deal takes 6 words and may lose 2 to rejections (each < 2^-15 likely) first.
        assert!(overflowed < 5, "{overflowed} deals needed more than their block");
    }
}
