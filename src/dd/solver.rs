//! One DDS solver context ([`Solver`]) and what it answers with: the 20-result [`DdTable`], single
//! results, threshold questions ("does declarer take at least N tricks?", DDS's much cheaper
//! target search), the defenders' tricks after each opening lead ([`LeadTricks`], one search
//! for all of them), [`DdError`]; the solves it made ([`SolveCounts`]); the context's
//! [`TableMemory`]; and the conversions from the dealer
//! language's orders to DDS's own (suits S, H, D, C; vulnerability none, both, NS, EW), which
//! live here and nowhere else.
//!
//! Solves through the session's [`DoubleDummy`] (DDS linked in, or the embedder's). Builds on
//! `entry_points`, `linked_dds` and `double_dummy`; it must not use the par, results, batch or
//! cache modules, which all build on it.

use std::fmt;
use std::sync::Arc;

use super::double_dummy::DoubleDummy;
use super::entry_points::{
    ContextId, DdsAnswer, DdsCards, DdsEntryPoints, DdsJob, DdsLeadScores, LEADS_NOT_AVAILABLE, UNKNOWN_CONTEXT,
};
use crate::cards::{Card, Deal, Seat, Strain, Suit};
use crate::script::ast::Vulnerability;

/// All 20 double-dummy results of a deal: tricks for each declarer (N, E, S, W) in each strain
/// (C, D, H, S, NT).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DdTable(pub [[u8; 5]; 4]);

impl DdTable {
    /// Tricks taken by `declarer` playing in `strain`.
    pub fn tricks(&self, declarer: Seat, strain: Strain) -> u8 {
        self.0[declarer.index()][strain.index()]
    }
}

/// A DDS failure, with the deal that caused it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DdError {
    /// The DDS return code (negative).
    pub code: i32,
    /// The deal being solved.
    pub deal: Deal,
}

impl fmt::Display for DdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut hands = Vec::new();
        self.deal.write_oneline(&mut hands);
        write!(
            f,
            "double-dummy solver error {} ({}) on deal {}",
            self.code,
            error_text(self.code),
            String::from_utf8_lossy(&hands).trim_end()
        )
    }
}

impl std::error::Error for DdError {}

impl From<DdError> for crate::error::Error {
    /// A solver failure stops the run; a build without DDS reports that it is not available.
    fn from(e: DdError) -> Self {
        if e.code == DD_NOT_AVAILABLE || e.code == LEADS_NOT_AVAILABLE {
            return crate::error::Error::new(crate::error::ErrorKind::NotAvailable, error_text(e.code));
        }
        crate::error::Error::new(crate::error::ErrorKind::Run, e.to_string())
    }
}

/// The text for a return code: ours, or DDS's own (from the DDS linked into this build; a
/// build without one names the code).
pub fn error_text(code: i32) -> String {
    match code {
        SCORE_OUT_OF_RANGE => "the solver answered a trick count outside 0..13".to_string(),
        DD_NOT_AVAILABLE => DD_NOT_AVAILABLE_TEXT.to_string(),
        NO_CONTEXT => "DDS could not allocate a solver context".to_string(),
        NO_ANSWER => "the solver workers gave no answer".to_string(),
        UNKNOWN_CONTEXT => "the solver context is unknown, freed or in use".to_string(),
        LEADS_NOT_AVAILABLE => "solving every opening lead at once (leads) is not available with this DDS".to_string(),
        _ => linked_error_message(code).unwrap_or_else(|| "DDS return code".to_string()),
    }
}

/// The text the DDS linked into this build has for a code.
#[cfg(feature = "dds")]
fn linked_error_message(code: i32) -> Option<String> {
    super::linked_dds::error_message(code)
}

/// No DDS is linked into this build: no text.
#[cfg(not(feature = "dds"))]
fn linked_error_message(_code: i32) -> Option<String> {
    None
}

/// Our own code, outside DDS's range, for a solve that reported success with an impossible
/// number of tricks.
pub const SCORE_OUT_OF_RANGE: i32 = -1000;

/// Our own code for a solve asked of a session without DDS (none linked in, as in the
/// WebAssembly build, and none provided).
pub const DD_NOT_AVAILABLE: i32 = -1001;

/// Our own code for a solver context DDS could not allocate.
pub const NO_CONTEXT: i32 = -1002;

/// Our own code for a job a DDS solving many at once left without an answer.
pub const NO_ANSWER: i32 = -1003;

/// What a script that needs double dummy is told by a session without DDS.
pub const DD_NOT_AVAILABLE_TEXT: &str =
    "double dummy (dds, tricks, par, --pbn-dd ...) is not available: no DDS was given (the WebAssembly package loads it with loadDoubleDummy())";

/// DDS's suit index (S, H, D, C = 0..3) of a dealer suit (C, D, H, S = 0..3); also its strain
/// index, with NT = 4 in both orders.
pub(super) fn dds_strain(strain: Strain) -> i32 {
    match strain {
        Strain::Suit(s) => 3 - s.index() as i32,
        Strain::Notrump => 4,
    }
}

/// DDS's vulnerability code (0 none, 1 both, 2 NS, 3 EW).
pub(super) fn dds_vulnerability(v: Vulnerability) -> i32 {
    match v {
        Vulnerability::None => 0,
        Vulnerability::All => 1,
        Vulnerability::NS => 2,
        Vulnerability::EW => 3,
    }
}

/// The deal in DDS's card layout: `[hand N..W][DDS suit]`, rank r (0 = deuce) as bit `r + 2`.
fn dds_cards(deal: &Deal) -> DdsCards {
    let mut cards = [[0u32; 4]; 4];
    for seat in Seat::ALL {
        for suit in Suit::ALL {
            cards[seat.index()][3 - suit.index()] = (deal.hand(seat).suit_bits(suit) as u32) << 2;
        }
    }
    cards
}

/// Transposition-table memory of a solver context at start, in MB (DDS 2.9's per-thread default),
/// or the context's maximum when that is smaller.
const TT_START_MB: u32 = 95;

/// How much transposition-table memory each solver context may use: DDS allocates its table in
/// pages of about 6.2 MB beside 6.4 MB of fixed hash roots, starts at 95 MB (or the maximum if
/// smaller) and, on reaching the maximum, reuses its oldest entries instead of growing. A smaller
/// table gives the same results, only more slowly on hard deals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableMemory {
    maximum_mb: u32,
}

impl TableMemory {
    /// DDS 2.9's per-thread limit: 160 MB.
    pub const DEFAULT: TableMemory = TableMemory { maximum_mb: 160 };
    /// The smallest maximum accepted, in MB: below two pages DDS would stop bounding the table.
    pub const LEAST_MB: u32 = 16;
    /// The largest maximum accepted, in MB.
    pub const MOST_MB: u32 = 4096;

    /// A maximum of `maximum_mb` MB per solver context, if within
    /// [`LEAST_MB`](Self::LEAST_MB)..=[`MOST_MB`](Self::MOST_MB).
    pub fn new(maximum_mb: u32) -> Option<TableMemory> {
        (Self::LEAST_MB..=Self::MOST_MB).contains(&maximum_mb).then_some(TableMemory { maximum_mb })
    }

    /// The most table memory a context uses, in MB.
    pub fn maximum_mb(self) -> u32 {
        self.maximum_mb
    }
}

impl Default for TableMemory {
    fn default() -> Self {
        TableMemory::DEFAULT
    }
}

/// How many solves of each kind were made (those that failed included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveCounts {
    /// Whole tables of 20 results.
    pub tables: u64,
    /// Single results solved exactly (the most tricks declarer takes).
    pub exact: u64,
    /// Threshold questions ("does declarer take at least N tricks?"), DDS's target search.
    pub thresholds: u64,
    /// Searches of every opening lead at once (DDS's all-cards search).
    pub leads: u64,
}

impl SolveCounts {
    /// Both counts added up.
    pub fn plus(self, other: SolveCounts) -> SolveCounts {
        SolveCounts {
            tables: self.tables + other.tables,
            exact: self.exact + other.exact,
            thresholds: self.thresholds + other.thresholds,
            leads: self.leads + other.leads,
        }
    }

    /// Counts one job.
    pub(super) fn count(&mut self, job: &DdsJob) {
        match job {
            DdsJob::Table { .. } => self.tables += 1,
            DdsJob::Board { target: -1, .. } => self.exact += 1,
            DdsJob::Board { .. } => self.thresholds += 1,
            DdsJob::Leads { .. } => self.leads += 1,
        }
    }
}

/// One DDS solver context (transposition table and search state), used by one thread at a time;
/// allocated at the first solve.
pub struct Solver {
    dds: Option<Arc<dyn DdsEntryPoints>>,
    context: Option<ContextId>,
    memory: TableMemory,
}

impl Solver {
    /// A solver of `dds` whose context uses at most `memory`, with the kind of transposition
    /// table DDS 2.9 gives each of its threads (the "large" kind). (With the crate's default, the
    /// smaller "pattern" table, whole tables take about 20 % longer on random deals.) Without a
    /// DDS every solve answers [`DD_NOT_AVAILABLE`].
    pub fn new(memory: TableMemory, dds: &DoubleDummy) -> Solver {
        Solver { dds: dds.entry_points().cloned(), context: None, memory }
    }

    /// The entry points and this solver's context (allocated now if need be).
    fn context(&mut self, deal: &Deal) -> Result<(&dyn DdsEntryPoints, ContextId), DdError> {
        let Some(dds) = self.dds.as_deref() else {
            return Err(DdError { code: DD_NOT_AVAILABLE, deal: *deal });
        };
        if self.context.is_none() {
            let maximum = self.memory.maximum_mb;
            self.context = dds.context_new(TT_START_MB.min(maximum), maximum);
        }
        match self.context {
            Some(context) => Ok((dds, context)),
            None => Err(DdError { code: NO_CONTEXT, deal: *deal }),
        }
    }

    /// What `dds` answers to a job, solved with this solver's context.
    pub fn answer(&mut self, deal: &Deal, job: &DdsJob) -> Result<DdsAnswer, DdError> {
        let (dds, context) = self.context(deal)?;
        let answer = match job {
            DdsJob::Table { cards } => dds.calc_dd_table(context, cards).map(DdsAnswer::Table),
            DdsJob::Board { trump, first, cards, target } => {
                dds.solve_board(context, *trump, *first, cards, *target).map(DdsAnswer::Score)
            }
            DdsJob::Leads { trump, first, cards } => {
                dds.solve_leads(context, *trump, *first, cards).map(DdsAnswer::Leads)
            }
        };
        answer.map_err(|code| DdError { code, deal: *deal })
    }

    /// All 20 results of a complete deal.
    pub fn table(&mut self, deal: &Deal) -> Result<DdTable, DdError> {
        let answer = self.answer(deal, &table_job(deal));
        table_of(deal, answer)
    }

    /// Tricks taken by `declarer` in `strain`, solving only that result (the opening lead is
    /// declarer's left-hand opponent's).
    pub fn tricks(&mut self, deal: &Deal, declarer: Seat, strain: Strain) -> Result<u8, DdError> {
        let answer = self.answer(deal, &tricks_job(deal, declarer, strain));
        tricks_of(deal, answer)
    }

    /// Whether `declarer` takes at least `tricks` (1 to 13) in `strain`: DDS's target search,
    /// which stops as soon as the answer is known (the opening lead is declarer's left-hand
    /// opponent's).
    pub fn at_least(&mut self, deal: &Deal, declarer: Seat, strain: Strain, tricks: u8) -> Result<bool, DdError> {
        let job = at_least_job(deal, declarer, strain, tricks);
        let answer = self.answer(deal, &job);
        at_least_of(deal, &job, answer)
    }

    /// The defenders' tricks after each card `leader` may lead to the first trick in `strain`
    /// (against the contract of `leader`'s right-hand opponent): one search for all the cards.
    pub fn leads(&mut self, deal: &Deal, leader: Seat, strain: Strain) -> Result<LeadTricks, DdError> {
        let job = leads_job(deal, leader, strain);
        let answer = self.answer(deal, &job);
        leads_of(deal, leader, answer)
    }
}

/// The defenders' tricks after each card the opening leader may lead: for every card of the
/// leader's hand, the most tricks the leader's side takes when it is led (equal cards, such as
/// touching honours, have equal counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeadTricks {
    /// By card ordinal (C2 = 0 … SA = 51); [`LeadTricks::NOT_HELD`] for cards the leader lacks.
    tricks: [u8; 52],
}

impl LeadTricks {
    /// The count of a card the leader does not hold.
    const NOT_HELD: u8 = u8::MAX;

    /// Counts for the cards of `hand` from `count` (for tests of what is made of them).
    #[cfg(test)]
    pub(crate) fn from_counts(hand: crate::cards::Hand, count: impl Fn(Card) -> u8) -> LeadTricks {
        let mut tricks = [Self::NOT_HELD; 52];
        for card in hand.cards_descending() {
            tricks[card.ordinal()] = count(card);
        }
        LeadTricks { tricks }
    }

    /// The defenders' tricks after `card` is led; `None` when the leader does not hold it.
    pub fn after(&self, card: Card) -> Option<u8> {
        let tricks = self.tricks[card.ordinal()];
        (tricks != Self::NOT_HELD).then_some(tricks)
    }
}

/// The job that searches every lead of `leader` in `strain`.
pub(super) fn leads_job(deal: &Deal, leader: Seat, strain: Strain) -> DdsJob {
    DdsJob::Leads { trump: dds_strain(strain), first: leader.index() as i32, cards: dds_cards(deal) }
}

/// The tricks after each lead from a leads job's answer: every entry's card and its equal cards
/// get its score; every card of the leader's hand must get one, from 0 to 13.
pub(super) fn leads_of(deal: &Deal, leader: Seat, answer: Result<DdsAnswer, DdError>) -> Result<LeadTricks, DdError> {
    let out_of_range = DdError { code: SCORE_OUT_OF_RANGE, deal: *deal };
    let DdsAnswer::Leads(scores) = answer? else {
        return Err(out_of_range);
    };
    let tricks = lead_tricks_of(&scores, deal.hand(leader)).ok_or(out_of_range)?;
    Ok(LeadTricks { tricks })
}

/// Each card of `hand`'s tricks from DDS's entries, or `None` when an entry is no card of the
/// hand, a score is out of range, or a card of the hand is left without a score.
fn lead_tricks_of(scores: &DdsLeadScores, hand: crate::cards::Hand) -> Option<[u8; 52]> {
    let mut tricks = [LeadTricks::NOT_HELD; 52];
    let entries = usize::try_from(scores.cards).ok().filter(|&n| n <= 13)?;
    for i in 0..entries {
        let score = u8::try_from(scores.score[i]).ok().filter(|&s| s <= 13)?;
        let suit = Suit::from_index(usize::try_from(3 - scores.suit[i]).ok().filter(|&s| s < 4)?);
        let ranks = (scores.equals[i] as u32 >> 2 & 0x1FFF)
            | 1 << scores.rank[i].checked_sub(2).filter(|r| (0..13).contains(r))?;
        for rank in (0..13u8).filter(|r| ranks & 1 << r != 0) {
            let card = Card::new(suit, rank);
            if !hand.contains(card) {
                return None;
            }
            tricks[card.ordinal()] = score;
        }
    }
    let all_scored = hand.cards_descending().all(|card| tricks[card.ordinal()] != LeadTricks::NOT_HELD);
    all_scored.then_some(tricks)
}

/// The job that asks whether `declarer` takes at least `tricks` (1 to 13) in `strain`: whether
/// the defenders, on lead, can take `14 - tricks` (DDS's target).
pub(super) fn at_least_job(deal: &Deal, declarer: Seat, strain: Strain, tricks: u8) -> DdsJob {
    debug_assert!((1..=13).contains(&tricks));
    DdsJob::Board {
        trump: dds_strain(strain),
        first: declarer.left().index() as i32,
        cards: dds_cards(deal),
        target: 14 - tricks as i32,
    }
}

/// Whether declarer takes the tricks an [`at_least_job`] asks about, from its answer: the
/// defenders fall short of the target (DDS answers the target when they reach it, -1 or 0 when
/// they do not).
pub(super) fn at_least_of(deal: &Deal, job: &DdsJob, answer: Result<DdsAnswer, DdError>) -> Result<bool, DdError> {
    let DdsJob::Board { target, .. } = *job else { unreachable!("threshold questions are board jobs") };
    match answer? {
        DdsAnswer::Score(score) if score == target => Ok(false),
        DdsAnswer::Score(-1 | 0) => Ok(true),
        _ => Err(DdError { code: SCORE_OUT_OF_RANGE, deal: *deal }),
    }
}

/// The job that solves a deal's whole table.
pub(super) fn table_job(deal: &Deal) -> DdsJob {
    DdsJob::Table { cards: dds_cards(deal) }
}

/// The job that solves the tricks `declarer` takes in `strain` (declarer's left-hand opponent
/// leads).
pub(super) fn tricks_job(deal: &Deal, declarer: Seat, strain: Strain) -> DdsJob {
    DdsJob::Board {
        trump: dds_strain(strain),
        first: declarer.left().index() as i32,
        cards: dds_cards(deal),
        target: -1,
    }
}

/// Our table from a table job's answer.
pub(super) fn table_of(deal: &Deal, answer: Result<DdsAnswer, DdError>) -> Result<DdTable, DdError> {
    let DdsAnswer::Table(output) = answer? else {
        return Err(DdError { code: SCORE_OUT_OF_RANGE, deal: *deal });
    };
    let mut table = DdTable::default();
    for (seat, row) in table.0.iter_mut().enumerate() {
        for (strain, tricks) in row.iter_mut().enumerate() {
            *tricks = output[dds_strain(Strain::from_index(strain)) as usize][seat] as u8;
        }
    }
    Ok(table)
}

/// Declarer's tricks from a tricks job's answer: the defenders' best score (always searched:
/// DDS's mode 0 does not search when the leader has only one distinct card to play, say all 13
/// cards of one suit, and answers with the score -2).
pub(super) fn tricks_of(deal: &Deal, answer: Result<DdsAnswer, DdError>) -> Result<u8, DdError> {
    match answer? {
        DdsAnswer::Score(defenders) if (0..=13).contains(&defenders) => Ok(13 - defenders as u8),
        _ => Err(DdError { code: SCORE_OUT_OF_RANGE, deal: *deal }),
    }
}

impl Default for Solver {
    /// A solver of this build's DDS using at most [`TableMemory::DEFAULT`].
    fn default() -> Self {
        Solver::new(TableMemory::DEFAULT, &DoubleDummy::of_this_build())
    }
}

impl Drop for Solver {
    fn drop(&mut self) {
        if let (Some(dds), Some(context)) = (&self.dds, self.context.take()) {
            dds.context_free(context);
        }
    }
}

#[cfg(test)]
mod without_dds_tests {
    use super::*;
    use crate::dd::test_deals::{deal, KNOWN};

    #[test]
    fn without_a_dds_every_solve_is_not_available() {
        let mut solver = Solver::new(TableMemory::DEFAULT, &DoubleDummy::none());
        let d = deal(KNOWN[0].0);
        assert_eq!(solver.table(&d).unwrap_err().code, DD_NOT_AVAILABLE);
        assert_eq!(solver.tricks(&d, Seat::North, Strain::Notrump).unwrap_err().code, DD_NOT_AVAILABLE);
        let e: crate::error::Error = solver.table(&d).unwrap_err().into();
        assert_eq!(e.kind, crate::error::ErrorKind::NotAvailable);
    }
}

#[cfg(all(test, feature = "dds"))]
mod tests {
    use super::*;
    use crate::dd::test_deals::{deal, flat, KNOWN};
    use std::sync::atomic::Ordering;

    #[test]
    fn tables_match_known_results() {
        let mut solver = Solver::default();
        for (text, want) in KNOWN {
            assert_eq!(flat(&solver.table(&deal(text)).unwrap()), want, "{text}");
        }
    }

    #[test]
    fn the_smallest_table_gives_the_same_results() {
        assert_eq!(TableMemory::new(TableMemory::LEAST_MB - 1), None);
        assert_eq!(TableMemory::new(TableMemory::MOST_MB + 1), None);
        let least = TableMemory::new(TableMemory::LEAST_MB).unwrap();
        let mut solver = Solver::new(least, &DoubleDummy::of_this_build());
        for (text, want) in KNOWN {
            let d = deal(text);
            assert_eq!(flat(&solver.table(&d).unwrap()), want, "{text}");
            for seat in Seat::ALL {
                let strain = Strain::Notrump;
                assert_eq!(solver.tricks(&d, seat, strain).unwrap(), want[seat.index() * 5 + 4], "{text}");
            }
        }
    }

    #[test]
    fn single_results_match_the_table() {
        let mut solver = Solver::default();
        let (text, want) = KNOWN[0];
        let d = deal(text);
        for seat in Seat::ALL {
            for strain in 0..5 {
                let got = solver.tricks(&d, seat, Strain::from_index(strain)).unwrap();
                assert_eq!(got, want[seat.index() * 5 + strain], "{seat:?} {strain}");
            }
        }
    }

    #[test]
    fn a_leader_with_one_distinct_card_is_still_solved() {
        // Fuzzer finding: East (North's opening leader) holds all 13 spades, so every lead is
        // the same card to DDS; a single result must still be the table's.
        let d = deal("n .AKQJ2.K65.A7432 e AKQJT98765432... s .T987.QJT9.KQJT9 w .6543.A87432.865");
        let want = Solver::default().table(&d).unwrap();
        let mut solver = Solver::default();
        for seat in Seat::ALL {
            for strain in 0..5 {
                let strain = Strain::from_index(strain);
                assert_eq!(solver.tricks(&d, seat, strain).unwrap(), want.tricks(seat, strain), "{seat:?} {strain:?}");
            }
        }
    }

    #[test]
    fn errors_name_the_code_and_the_deal() {
        let mut d = deal(KNOWN[0].0);
        d.0[0] = d.0[1]; // North holds East's cards too: duplicated cards.
        let e = Solver::default().table(&d).unwrap_err();
        assert!(e.code < 0);
        let text = e.to_string();
        assert!(text.contains("double-dummy solver error") && text.contains("n AT652"), "{text}");
    }

    #[test]
    fn a_provided_dds_is_the_one_asked_and_its_context_is_freed() {
        let counting = Arc::new(crate::dd::test_deals::CountingDds::default());
        let dds = DoubleDummy::provided(counting.clone());
        {
            let mut solver = Solver::new(TableMemory::DEFAULT, &dds);
            assert_eq!(counting.contexts.load(Ordering::Relaxed), 0, "no context before the first solve");
            let (text, want) = KNOWN[1];
            assert_eq!(flat(&solver.table(&deal(text)).unwrap()), want);
            assert_eq!(solver.tricks(&deal(text), Seat::South, Strain::Notrump).unwrap(), want[14]);
        }
        assert_eq!(counting.contexts.load(Ordering::Relaxed), 1);
        assert_eq!(counting.freed.load(Ordering::Relaxed), 1);
        assert_eq!(counting.solves.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn a_context_never_given_out_or_freed_is_refused_not_used() {
        let dds = crate::dd::linked_dds::LinkedDds::default();
        let cards = dds_cards(&deal(KNOWN[0].0));
        assert_eq!(dds.calc_dd_table(ContextId(12345), &cards).unwrap_err(), UNKNOWN_CONTEXT);
        let context = dds.context_new(16, 32).unwrap();
        assert!(dds.calc_dd_table(context, &cards).is_ok());
        dds.context_free(context);
        dds.context_free(context);
        assert_eq!(dds.solve_board(context, 4, 1, &cards, -1).unwrap_err(), UNKNOWN_CONTEXT);
    }
}
