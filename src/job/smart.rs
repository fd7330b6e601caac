//! Smart dealing's choice for one job: which seat the ChaCha dealer deals first, and whether
//! it draws that seat's hands from the exact table of those that satisfy its part of the
//! condition (see [`crate::dealing::SeatTable`] and [`crate::program::seat_factors`]).
//!
//! The seat factors of the condition are measured on a fixed sample of plain deals; those
//! that keep at most half of the hands are counted exactly, most selective first (at most
//! [`MOST_COUNTED`] of the first [`MOST_TRIED`]), within [`TableLimits`], the partial hands
//! their bounds rule out dropped as they are counted and the values they do not read at some
//! suit lengths not told apart (see [`crate::program::factor_bounds`]). When the count that
//! keeps the fewest hands keeps at most [`SMART_AT_MOST`] of them, its seat is dealt first,
//! from its table (on the practice scripts a table paid up to about 1 hand in 2:
//! Weak_NT_11-16's opener, 1 hand in 5, deals 1.5 times faster from it, NT_Ladder's 2 times; at
//! 4 hands in 5 it cost more than plain dealing); otherwise the deals are plain ones. A
//! condition that reads one seat's hand alone deals that seat first (when it keeps at most half
//! of the sampled hands), so that most deals are rejected on that hand. Under bias predeal the
//! sample is of biased deals, the tables tell hands apart by their suit lengths, and the
//! table dealt from is weighted by the deals the other seats then have under the bias (see
//! [`BiasedTable`]); its share is that of the deals meeting the bias. Whatever is chosen,
//! every deal is judged by the whole condition, so the deals produced are exactly those plain
//! dealing would keep, equally likely. Spot cards are weighted the same way (their share not
//! counted: the sample's is used). Swapping deals plainly.
//!
//! Pair factors (a condition on the 26 cards two seats hold together, see
//! [`crate::program::pair_union`]) are sampled, ordered and counted with the seat factors,
//! their tables holding 26 cards; when one is dealt from, both seats of the pair are dealt
//! first (see [`SmartChoice::partner`]). Not under bias predeal or spot cards.

use std::sync::Arc;

use crate::actions::SmartCount;
use crate::cards::{Deal, Seat};
use crate::dealing::{BiasedTable, Dealer, DealingSetup, GeneratorKind, SeatTable, TableLimits, TableRefusal};
use crate::program::factor_bounds::FactorBounds;
use crate::program::seat_factors::FactorJudges;
use crate::program::Program;

/// Deals of the sample that picks the factors worth counting (the share a factor keeps is
/// then known within about 3 %, enough to order them; 4,096 cost 2 to 3 ms more where four
/// seats' factors are judged).
const SAMPLE_DEALS: usize = 1024;
/// Factors counted at most (counting one costs up to about 40 ms).
const MOST_COUNTED: usize = 1;
/// Factors tried at most: when the most selective is refused (most refusals cost a few ms),
/// the next is tried, within what is left of the budget (so that trying two costs no more
/// than counting one).
const MOST_TRIED: usize = 2;
/// A factor is counted when the sample kept at most this share of its hands.
const COUNT_AT_MOST: f64 = 0.5;
/// Without a table, a condition on one seat's hand deals that seat first when it keeps at most
/// this share of the sample's hands.
const FIRST_AT_MOST: f64 = 0.5;
/// A seat is dealt from its table when the table keeps at most this share of its hands (see
/// the module documentation).
pub const SMART_AT_MOST: f64 = 0.5;

/// The share of the seat's possible hands a count keeps (of the deals meeting the bias,
/// under bias predeal; the sampled share `sampled` with spot cards, whose counts give none).
fn share(count: &SmartCount, weighted: bool, sampled: f64) -> f64 {
    match (weighted, count.share_under_bias) {
        (false, _) => count.accepted as f64 / count.possible as f64,
        (true, Some(share)) => share,
        (true, None) => sampled,
    }
}

/// A count that may be dealt from: its position among the counts, the share it keeps, and its
/// table (weighted under bias predeal or spot cards).
struct Candidate {
    at: usize,
    share: f64,
    table: Arc<SeatTable>,
    biased: Option<Arc<BiasedTable>>,
}

/// What smart dealing chose for a job.
#[derive(Clone, Debug, Default)]
pub struct SmartChoice {
    /// The seat dealt first (from [`table`](Self::table) when there is one).
    pub first_seat: Option<Seat>,
    /// The first seat's table, when it is dealt from one (no bias predeal).
    pub table: Option<Arc<SeatTable>>,
    /// When the table is a pair's: the other seat of the pair, dealt second (the table holds
    /// the pair's cards together, split between the two uniformly).
    pub partner: Option<Seat>,
    /// Under bias predeal: the first seat's table weighted by the other seats' deals, when
    /// it is dealt from one.
    pub biased: Option<Arc<BiasedTable>>,
    /// The factors counted, in the order counted (reported after the statistics).
    pub counted: Vec<SmartCount>,
}

impl SmartChoice {
    /// The choice for `program`'s condition dealt under `setup`: nothing unless the generator
    /// is ChaCha and there is no swapping. Under bias predeal or spot cards the tables hold the
    /// suit lengths and are weighted by the other seats' deals (see [`BiasedTable`]).
    pub fn new(program: &Program, setup: &DealingSetup) -> SmartChoice {
        let plain = setup.generator == GeneratorKind::ChaCha && setup.swap == 0;
        let weighted = setup.bias.iter().flatten().any(|&b| b >= 0) || !setup.spots.is_empty();
        let Some(condition) = program.condition.filter(|_| plain) else { return SmartChoice::default() };
        let (projected, factors) = program.seat_factors(condition);
        let program = &projected;
        if factors.is_empty() {
            return SmartChoice::default();
        }
        // The share of a fixed sample of deals each factor keeps.
        let sampling = DealingSetup {
            predeal: setup.predeal.clone(),
            bias: setup.bias,
            spots: setup.spots.clone(),
            ..DealingSetup::default()
        };
        let Ok(mut sampler) = Dealer::new(&sampling) else {
            return SmartChoice::default();
        };
        let mut judges = FactorJudges::new(program, &factors);
        let mut kept = vec![0usize; factors.len()];
        for _ in 0..SAMPLE_DEALS {
            let Some(deal): Option<Deal> = sampler.deal() else { continue };
            for (k, factor) in factors.iter().enumerate() {
                match judges.judge(k, factor.hand_in(&deal)) {
                    Some(true) => kept[k] += 1,
                    Some(false) => {}
                    None => return SmartChoice::default(),
                }
            }
        }
        // (A pair's cards are not weighted by the bias: pair factors count without one.)
        let mut order: Vec<usize> = (0..factors.len())
            .filter(|&k| (kept[k] as f64) <= COUNT_AT_MOST * SAMPLE_DEALS as f64)
            .filter(|&k| !(weighted && factors[k].partner.is_some()))
            .collect();
        order.sort_by_key(|&k| kept[k]);
        let mut choice = SmartChoice::default();
        // The most selective count so far.
        let mut best: Option<Candidate> = None;
        let mut limits = TableLimits::default();
        for k in order.into_iter().take(MOST_TRIED) {
            if choice.counted.len() == MOST_COUNTED {
                break;
            }
            let factor = &factors[k];
            let (free, own, slots) = match weighted {
                true => BiasedTable::seat_cards(setup, factor.seat),
                false => factor.cards(&setup.predeal),
            };
            // Under bias a hand's weight depends on its suit lengths: every class must have one.
            let with_lengths = weighted.then(|| factor.with_lengths());
            let factor = with_lengths.as_ref().unwrap_or(factor);
            let reading = factor.reading(program);
            let mut accept = |hand| judges.judge(k, hand).unwrap_or(false);
            let mut bounds = FactorBounds::new(program, factor);
            let table = match SeatTable::build(free, own, slots, &reading, &mut accept, Some(&mut bounds), limits) {
                Ok(table) => table,
                // The factors tried share one budget.
                Err(TableRefusal::OverBudget { spent }) => {
                    limits.max_steps = limits.max_steps.saturating_sub(spent);
                    continue;
                }
                Err(_) => continue,
            };
            let table = Arc::new(table);
            let biased = match weighted {
                // No deal meeting the bias and the spot holdings satisfies the factor: plain
                // dealing says so.
                true => match BiasedTable::new(table.clone(), setup, factor.seat) {
                    Some(biased) => Some(Arc::new(biased)),
                    None => continue,
                },
                false => None,
            };
            let counted = SmartCount {
                seat: factor.seat,
                partner: factor.partner,
                accepted: table.accepted(),
                possible: table.possible(),
                share_under_bias: biased.as_ref().and_then(|biased| biased.share()),
                dealt_from_table: false,
            };
            let kept_share = share(&counted, weighted, kept[k] as f64 / SAMPLE_DEALS as f64);
            if best.as_ref().is_none_or(|best| kept_share < best.share) {
                best = Some(Candidate { at: choice.counted.len(), share: kept_share, table, biased });
            }
            choice.counted.push(counted);
        }
        if let Some(Candidate { at, table, biased, .. }) = best.filter(|best| best.share <= SMART_AT_MOST) {
            choice.counted[at].dealt_from_table = true;
            choice.first_seat = Some(choice.counted[at].seat);
            choice.partner = choice.counted[at].partner;
            match biased {
                Some(biased) => choice.biased = Some(biased),
                None => choice.table = Some(table),
            }
        } else if let [factor] = factors.as_slice() {
            // No table for a condition on one seat's hand: plain dealing deals that seat first,
            // so that a deal is judged (and most often rejected) on one hand. (Where several
            // seats are read, the seat a projection finds selective need not be the one whose
            // clauses reject early: the dealing order stays.)
            if factor.root == condition
                && factor.partner.is_none()
                && (kept[0] as f64) <= FIRST_AT_MOST * SAMPLE_DEALS as f64
            {
                choice.first_seat = Some(factor.seat);
            }
        }
        choice
    }
}

/// The exact number of hands that satisfy a condition reading one seat's hand alone (or one
/// pair's cards together).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExactCount {
    /// The seat whose hand the condition reads (the first of the pair).
    pub seat: Seat,
    /// When the condition reads a pair's cards together: the other seat of the pair.
    pub partner: Option<Seat>,
    /// The hands of that seat (the pair's card sets) that satisfy it.
    pub accepted: u64,
    /// The hands that seat may hold at all (its predealt cards fixed; the pair's sets of
    /// cards).
    pub possible: u64,
}

/// The exact count of the hands that satisfy `program`'s condition, when the condition reads
/// one seat's hand alone, or one pair's cards together, in terms a [`SeatTable`] counts,
/// without bias predeal, spot cards or swapping (`None` otherwise, or when the count is over
/// four times smart dealing's budget). The share of the deals that satisfy such a condition
/// is `accepted / possible`, exactly.
pub fn exact_count(program: &Program, setup: &DealingSetup) -> Option<ExactCount> {
    let plain = setup.bias.iter().flatten().all(|&b| b < 0) && setup.spots.is_empty() && setup.swap == 0;
    let condition = program.condition.filter(|_| plain)?;
    let (projected, factors) = program.seat_factors(condition);
    let k = factors.iter().position(|factor| factor.whole)?;
    let factor = &factors[k];
    let (seat, partner) = (factor.seat, factor.partner);
    let (free, own, slots) = factor.cards(&setup.predeal);
    let mut judges = FactorJudges::new(&projected, &factors);
    let reading = factor.reading(&projected);
    let mut accept = |hand| judges.judge(k, hand).unwrap_or(false);
    let mut bounds = FactorBounds::new(&projected, factor);
    let base = TableLimits::default();
    let limits =
        TableLimits { max_keys: base.max_keys * 4, max_steps: base.max_steps * 4, max_edges: base.max_edges * 4 };
    let possible = crate::dealing::hand_count(u64::from(free.count_ones()), u64::from(slots));
    match SeatTable::build(free, own, slots, &reading, &mut accept, Some(&mut bounds), limits) {
        Ok(table) => Some(ExactCount { seat, partner, accepted: table.accepted(), possible: table.possible() }),
        Err(TableRefusal::NoHand) => Some(ExactCount { seat, partner, accepted: 0, possible }),
        Err(_) => None,
    }
}
