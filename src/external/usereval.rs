//! `usereval(tag, side|compass, [suit,] index)`: hand-evaluation metrics computed outside the
//! script language, either by a DealerServer process ([`crate::external::dealer_server`]) or by a metric
//! linked into the host program ([`Metric`] implemented over a C callback).
//!
//! As in DealerV2, a query names a tag and a side; the metric fills all 128 result slots of that
//! side, and the script's form of the call picks one slot. Results are cached per side, keyed by
//! the deal number and the tag, so a metric must fill every slot a tag can be asked for.

use crate::cards::{Deal, Seat, Suit};
use crate::error::{Error, ErrorKind, Result};
use crate::program::hand_stats::{self, CountTables, COUNT_TABLE_COUNT};

/// Result slots per side.
pub const SLOTS: usize = 128;

/// One question to a metric: DealerV2's query fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Query {
    /// The metric tag.
    pub tag: i32,
    /// 0 for North–South, 1 for East–West.
    pub side: usize,
    /// 1 when the call names a seat (`usereval(tag, south, …)`), else 0.
    pub hand_flag: i32,
    /// The seat named (0 North … 3 West), when `hand_flag` is 1.
    pub hand: i32,
    /// 1 when the call names a suit, else 0.
    pub suit_flag: i32,
    /// The suit named (0 clubs … 3 spades), when `suit_flag` is 1.
    pub suit: i32,
    /// The index argument of the call.
    pub index: i32,
}

/// Hand statistics of one seat, as DealerV2 passes them to its DealerServer (`HANDSTAT`); suit
/// arrays are indexed clubs 0 … spades 3, ranks deuce 0 … ace 12.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandStats {
    /// The seat: 0 North … 3 West.
    pub seat: i32,
    /// Cards in each suit.
    pub lengths: [i32; 4],
    /// High-card points (A4 K3 Q2 J1, or the script's `pointcount`) in each suit.
    pub hcp: [i32; 4],
    /// High-card points of the hand.
    pub total_hcp: i32,
    /// Losers in each suit (`loser()`).
    pub losers: [i32; 4],
    /// Losers of the hand.
    pub total_losers: i32,
    /// Controls in each suit (ace 2, king 1).
    pub controls: [i32; 4],
    /// Controls of the hand.
    pub total_controls: i32,
    /// `counts[t][suit]`: count table t (0..9 = `pt0`..`pt9`, 10 = `hcp`) for each suit.
    pub counts: [[i32; 4]; COUNT_TABLE_COUNT],
    /// Count table t for the whole hand.
    pub total_counts: [i32; COUNT_TABLE_COUNT],
    /// 1 when every suit has 3 or 4 cards.
    pub square_hand: i32,
    /// Losing-trick count ×100 in each suit (`ltc()`).
    pub ltc: [i32; 4],
    /// Losing-trick count ×100 of the hand.
    pub total_ltc: i32,
    /// The weights of the three highest cards of each suit (2–9 1, T 4, J 8, Q 16, K 32, A 64;
    /// 128 for a missing card), highest first.
    pub top_cards: [[i32; 3]; 4],
    /// `has_card[suit][rank]`: 1 when the seat holds the card.
    pub has_card: [[i32; 13]; 4],
}

impl HandStats {
    /// The statistics of the four seats of `deal` (North first), with the script's count tables.
    pub fn of_deal(deal: &Deal, counts: &CountTables) -> [HandStats; 4] {
        let mut all = [HandStats::default(); 4];
        for (stats, seat) in all.iter_mut().zip(Seat::ALL) {
            stats.fill(deal, seat, counts);
        }
        all
    }

    /// Fills in the statistics of `seat`'s hand (every field is written).
    fn fill(&mut self, deal: &Deal, seat: Seat, counts: &CountTables) {
        let hand = deal.hand(seat);
        let stats = self;
        stats.seat = seat.index() as i32;
        for suit in Suit::ALL {
            let s = suit.index();
            stats.lengths[s] = hand_stats::length(hand, suit);
            stats.hcp[s] = counts.count(hand_stats::HCP_TABLE, hand, Some(suit));
            stats.losers[s] = hand_stats::losers(hand, Some(suit));
            stats.controls[s] = hand_stats::controls(hand, Some(suit));
            stats.ltc[s] = hand_stats::ltc(hand, Some(suit));
            for t in 0..COUNT_TABLE_COUNT {
                stats.counts[t][s] = counts.count(t, hand, Some(suit));
            }
            // The three highest ranks held, from the suit's 13-bit lane.
            let bits = hand.suit_bits(suit);
            let mut top = [128; 3];
            let mut rest = bits;
            for slot in top.iter_mut() {
                if rest == 0 {
                    break;
                }
                let rank = 15 - rest.leading_zeros();
                rest &= !(1 << rank);
                *slot = match rank {
                    12 => 64,
                    11 => 32,
                    10 => 16,
                    9 => 8,
                    8 => 4,
                    _ => 1,
                };
            }
            stats.top_cards[s] = top;
            for (rank, has) in stats.has_card[s].iter_mut().enumerate() {
                *has = i32::from(bits >> rank & 1);
            }
        }
        stats.total_hcp = stats.hcp.iter().sum();
        stats.total_losers = stats.losers.iter().sum();
        stats.total_controls = stats.controls.iter().sum();
        stats.total_ltc = stats.ltc.iter().sum();
        for t in 0..COUNT_TABLE_COUNT {
            stats.total_counts[t] = stats.counts[t].iter().sum();
        }
        stats.square_hand = stats.lengths.iter().all(|&l| l == 3 || l == 4) as i32;
    }
}

/// What a metric sees besides the query: the deal and its numbers, and every seat's statistics.
pub struct QueryContext<'a> {
    /// The deal being judged.
    pub deal: &'a Deal,
    /// Hand statistics of North, East, South and West.
    pub stats: &'a [HandStats; 4],
    /// The deal's number among the deals generated (1 for the first).
    pub generated: i64,
    /// Deals produced so far.
    pub produced: i64,
    /// The deal's double-dummy tricks `[declarer N..W][strain C, D, H, S, NT]`, when they are
    /// already known (they are never solved for a query).
    pub tricks: Option<[[u8; 5]; 4]>,
}

/// A source of `usereval` results: fills the 128 slots of the queried side.
pub trait Metric: Send {
    /// Answers one query into `slots`; an error stops the run.
    fn evaluate(&mut self, query: &Query, context: &QueryContext, slots: &mut [i32; SLOTS]) -> Result<()>;
}

/// The results of one side for one deal and tag.
#[derive(Clone)]
struct CachedSide {
    deal: i64,
    tag: i32,
    slots: [i32; SLOTS],
}

/// A metric with DealerV2's per-side cache (keyed by deal number and tag).
pub struct UserEval {
    metric: Box<dyn Metric>,
    cache: [Option<CachedSide>; 2],
    /// Queries answered by the metric (not from the cache).
    pub queries: u64,
}

/// The external evaluators of one job: the `usereval` metric (a DealerServer or an in-process
/// callback) and the `opc` program, each present when the job set one up.
#[derive(Default)]
pub struct ExternalMetrics {
    /// The `usereval` metric with its cache.
    pub usereval: Option<UserEval>,
    /// The `opc` runner with its cache.
    pub opc: Option<crate::external::opc::Opc>,
}

/// Where a `usereval` call reads its value: the form of the call, decided when it is compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotForm {
    /// The side asked about: 0 NS, 1 EW.
    pub side: usize,
    /// The seat named, for the compass forms.
    pub seat: Option<Seat>,
    /// The suit named, for the suit forms.
    pub suit: Option<Suit>,
}

impl SlotForm {
    /// The slot a call of this form with `index` reads: `index` (side), `32 + 8·suit + index`
    /// (side and suit), `64 + 16·h + index` (seat; h = 1 for South or West) or
    /// `96 + 16·h + 4·suit + index` (seat and suit). An error when it falls outside 0..127.
    pub fn slot(&self, index: i32) -> Result<usize> {
        let h = self.seat.map_or(0, |s| (s == Seat::South || s == Seat::West) as i64);
        let index = i64::from(index);
        let slot = match (self.seat, self.suit) {
            (None, None) => index,
            (None, Some(suit)) => 32 + 8 * suit.index() as i64 + index,
            (Some(_), None) => 64 + 16 * h + index,
            (Some(_), Some(suit)) => 96 + 16 * h + 4 * suit.index() as i64 + index,
        };
        if (0..SLOTS as i64).contains(&slot) {
            Ok(slot as usize)
        } else {
            Err(Error::new(ErrorKind::Run, format!("usereval: index {index} selects slot {slot}, outside 0..127")))
        }
    }

    /// The query a call of this form sends.
    pub fn query(&self, tag: i32, index: i32) -> Query {
        Query {
            tag,
            side: self.side,
            hand_flag: self.seat.is_some() as i32,
            hand: self.seat.map_or(0, |s| s.index() as i32),
            suit_flag: self.suit.is_some() as i32,
            suit: self.suit.map_or(0, |s| s.index() as i32),
            index,
        }
    }
}

impl UserEval {
    /// Wraps a metric with an empty cache.
    pub fn new(metric: Box<dyn Metric>) -> UserEval {
        UserEval { metric, cache: [None, None], queries: 0 }
    }

    /// The value of `usereval(tag, …, index)` in `form` for deal number `generated` if the side
    /// was asked the same tag about that deal already (DealerV2's cache).
    pub fn cached(&self, form: SlotForm, tag: i32, index: i32, generated: i64) -> Result<Option<i32>> {
        let slot = form.slot(index)?;
        Ok(self.cache[form.side].as_ref().filter(|c| c.deal == generated && c.tag == tag).map(|c| c.slots[slot]))
    }

    /// The value of `usereval(tag, …, index)` in `form` for the deal in `context`: from the
    /// cache when the side was asked the same tag about the same deal, else from the metric.
    pub fn value(&mut self, form: SlotForm, tag: i32, index: i32, context: &QueryContext) -> Result<i32> {
        match self.cached(form, tag, index, context.generated)? {
            Some(value) => Ok(value),
            None => self.ask(form, tag, index, context),
        }
    }

    /// Asks the metric (no cache look-up) and caches the side's answer; for callers that have
    /// just found [`cached`](Self::cached) empty and built the context only then.
    pub fn ask(&mut self, form: SlotForm, tag: i32, index: i32, context: &QueryContext) -> Result<i32> {
        let slot = form.slot(index)?;
        // The side's entry is filled in place; it only counts once the metric has answered.
        let entry = self.cache[form.side].get_or_insert(CachedSide { deal: -1, tag: -1, slots: [0; SLOTS] });
        entry.deal = -1;
        entry.slots.fill(0);
        self.metric.evaluate(&form.query(tag, index), context, &mut entry.slots)?;
        self.queries += 1;
        entry.deal = context.generated;
        entry.tag = tag;
        Ok(entry.slots[slot])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Hand;

    #[test]
    fn slots_follow_dealerv2() {
        let side = SlotForm { side: 1, seat: None, suit: None };
        assert_eq!(side.slot(127).unwrap(), 127);
        assert!(side.slot(128).is_err() && side.slot(-1).is_err());
        let suit = SlotForm { side: 0, seat: None, suit: Some(Suit::Hearts) };
        assert_eq!(suit.slot(3).unwrap(), 32 + 16 + 3);
        let north = SlotForm { side: 0, seat: Some(Seat::North), suit: None };
        let west = SlotForm { side: 1, seat: Some(Seat::West), suit: None };
        assert_eq!((north.slot(2).unwrap(), west.slot(2).unwrap()), (66, 82));
        let south_spades = SlotForm { side: 0, seat: Some(Seat::South), suit: Some(Suit::Spades) };
        assert_eq!(south_spades.slot(1).unwrap(), 96 + 16 + 12 + 1);
        assert_eq!(
            south_spades.query(7, 1),
            Query { tag: 7, side: 0, hand_flag: 1, hand: 2, suit_flag: 1, suit: 3, index: 1 }
        );
    }

    #[test]
    fn hand_statistics() {
        // North: AKQ2 of spades, JT9 of hearts, A432 of diamonds, 32 of clubs.
        let mut north = Hand::EMPTY;
        for (suit, ranks) in
            [(Suit::Spades, "AKQ2"), (Suit::Hearts, "JT9"), (Suit::Diamonds, "A432"), (Suit::Clubs, "32")]
        {
            for r in ranks.chars() {
                let rank = crate::cards::RANK_LETTERS.iter().position(|&l| l as char == r).unwrap();
                north.insert(crate::cards::Card::new(suit, rank as u8));
            }
        }
        let deal = Deal([north, Hand::EMPTY, Hand::EMPTY, Hand::EMPTY]);
        let s = HandStats::of_deal(&deal, &CountTables::new())[0];
        assert_eq!(s.lengths, [2, 4, 3, 4]);
        assert_eq!((s.hcp, s.total_hcp), ([0, 4, 1, 9], 14));
        assert_eq!((s.controls, s.total_controls), ([0, 2, 0, 3], 5));
        assert_eq!(s.square_hand, 0);
        assert_eq!(s.top_cards[3], [64, 32, 16]);
        assert_eq!(s.top_cards[0], [1, 1, 128]);
        assert_eq!(s.top_cards[2], [8, 4, 1]);
        assert_eq!(s.has_card[3][12] + s.has_card[3][0] + s.has_card[3][1], 2);
        assert_eq!(s.counts[hand_stats::HCP_TABLE], s.hcp);
        assert_eq!(s.total_ltc, s.ltc.iter().sum::<i32>());
    }

    /// A metric that counts its calls in slot 0 and puts the tag in slot 1.
    struct Counter(i32);

    impl Metric for Counter {
        fn evaluate(&mut self, query: &Query, _: &QueryContext, slots: &mut [i32; SLOTS]) -> Result<()> {
            self.0 += 1;
            slots[0] = self.0;
            slots[1] = query.tag;
            Ok(())
        }
    }

    #[test]
    fn cache_is_keyed_by_deal_and_tag_per_side() {
        let deal = Deal([Hand::EMPTY; 4]);
        let stats = [HandStats::default(); 4];
        let context = |generated| QueryContext { deal: &deal, stats: &stats, generated, produced: 0, tricks: None };
        let mut u = UserEval::new(Box::new(Counter(0)));
        let ns = SlotForm { side: 0, seat: None, suit: None };
        let ew = SlotForm { side: 1, seat: None, suit: None };
        assert_eq!(u.value(ns, 5, 0, &context(1)).unwrap(), 1);
        assert_eq!(u.value(ns, 5, 1, &context(1)).unwrap(), 5, "same deal and tag: cached");
        assert_eq!(u.value(ns, 5, 0, &context(1)).unwrap(), 1);
        assert_eq!(u.value(ew, 5, 0, &context(1)).unwrap(), 2, "the other side asks");
        assert_eq!(u.value(ns, 6, 0, &context(1)).unwrap(), 3, "another tag asks");
        assert_eq!(u.value(ns, 6, 0, &context(2)).unwrap(), 4, "another deal asks");
        assert_eq!(u.queries, 4);
    }
}
