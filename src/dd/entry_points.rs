//! DDS's entry points as the solver calls them ([`DdsEntryPoints`]), wherever DDS runs: linked
//! into this library (`linked_dds`, the native build) or provided by the embedder (the
//! WebAssembly build's DDS module, which runs in a memory of its own: bindings/wasm). The
//! arguments and results are in DDS's own layouts and orders, its return codes unchanged; the
//! conversions from the dealer language's orders stay in `solver`.
//!
//! The bottom layer of `dd`: it uses no other module of `dd`.

/// Our return code for a call with a context an implementation does not know (never given out,
/// freed, or in use by another call).
pub const UNKNOWN_CONTEXT: i32 = -1004;

/// Our return code for a search of every opening lead asked of an implementation that does not
/// offer one ([`DdsEntryPoints::solve_leads`]'s default).
pub const LEADS_NOT_AVAILABLE: i32 = -1005;

/// A deal in DDS's layout: `[hand N, E, S, W][DDS suit S, H, D, C]`, rank r (0 = deuce) as bit
/// `r + 2`.
pub type DdsCards = [[u32; 4]; 4];

/// A table of 20 results in DDS's layout: `[DDS strain S, H, D, C, NT][hand N, E, S, W]`.
pub type DdsTable = [[i32; 4]; 5];

/// What every card the opening leader may lead gives the defenders (DDS's `futureTricks` of a
/// search for all cards with their scores): `cards` entries, each a card the leader may lead
/// (DDS suit S, H, D, C = 0..3; rank 2..14), the lower cards equal to it in this deal (`equals`:
/// bit r for rank r), and the most tricks the defenders take after that lead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DdsLeadScores {
    /// How many entries are filled in.
    pub cards: i32,
    /// Each entry's DDS suit.
    pub suit: [i32; 13],
    /// Each entry's rank, 2 to 14.
    pub rank: [i32; 13],
    /// Each entry's equal lower cards of the same suit, bit r for rank r.
    pub equals: [i32; 13],
    /// The defenders' tricks after each entry's lead.
    pub score: [i32; 13],
}

/// One contract of DDS's par results (its `contractType`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DdsParContract {
    /// Tricks short of the contract (0 when it makes).
    pub under_tricks: i32,
    /// Tricks over the contract.
    pub over_tricks: i32,
    /// The level, 1 to 7 (0: passed out).
    pub level: i32,
    /// The denomination: 0 NT, 1 S, 2 H, 3 D, 4 C.
    pub denom: i32,
    /// Who declares: 0–3 N, E, S, W; 4 NS; 5 EW.
    pub seats: i32,
}

/// DDS's par result for one side (its `parResultsMaster`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DdsParResult {
    /// The par score.
    pub score: i32,
    /// How many of `contracts` are filled in.
    pub number: i32,
    /// The par contracts.
    pub contracts: [DdsParContract; 10],
}

/// One solver context of an implementation (its transposition table and search state), as the
/// implementation names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContextId(pub usize);

/// One solve of a batch handed to a DDS that solves many at once ([`DdsEntryPoints::solve_jobs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DdsJob {
    /// The 20 results of a deal (as [`DdsEntryPoints::calc_dd_table`]).
    Table {
        /// The deal.
        cards: DdsCards,
    },
    /// With `first` on lead in `trump`, the defenders' best score, or whether they reach a
    /// target (as [`DdsEntryPoints::solve_board`]).
    Board {
        /// DDS's strain.
        trump: i32,
        /// The opening leader.
        first: i32,
        /// The deal.
        cards: DdsCards,
        /// -1 for the best score; 1 to 13 for the question "do the defenders take this many?".
        target: i32,
    },
    /// With `first` on lead in `trump`, the defenders' tricks after each card `first` may lead,
    /// in one search (as [`DdsEntryPoints::solve_leads`]).
    Leads {
        /// DDS's strain.
        trump: i32,
        /// The opening leader.
        first: i32,
        /// The deal.
        cards: DdsCards,
    },
}

/// What a job answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DdsAnswer {
    /// A [`DdsJob::Table`]'s results.
    Table(DdsTable),
    /// A [`DdsJob::Board`]'s score: the defenders' best, or for a target question the target
    /// when they reach it (less when they do not).
    Score(i32),
    /// A [`DdsJob::Leads`]'s scores.
    Leads(DdsLeadScores),
}

/// DDS's calls the solver makes. Each returns DDS's result or its (negative) return code. A
/// context serves one call at a time (a call with a context that is unknown or busy answers
/// [`UNKNOWN_CONTEXT`]); the par calls hold no state.
pub trait DdsEntryPoints: Send + Sync {
    /// A new context with DDS 2.9's kind of transposition table (the "large" kind), starting at
    /// `start_mb` and growing to at most `maximum_mb`; `None` when DDS cannot allocate one.
    fn context_new(&self, start_mb: u32, maximum_mb: u32) -> Option<ContextId>;

    /// Frees a context made by [`context_new`](Self::context_new) (once).
    fn context_free(&self, context: ContextId);

    /// The 20 results of a complete deal (DDS's `dds_calc_dd_table`).
    fn calc_dd_table(&self, context: ContextId, cards: &DdsCards) -> Result<DdsTable, i32>;

    /// When `first` leads to the first trick in strain `trump` (DDS's `dds_solve_board` with
    /// one solution, mode 1): with `target` -1 the defenders' best score; with a target from 1
    /// to 13 (a much cheaper search) the target itself when the defenders can take that many
    /// tricks, and less (DDS answers -1, or 0 for target 1) when they cannot.
    fn solve_board(
        &self,
        context: ContextId,
        trump: i32,
        first: i32,
        cards: &DdsCards,
        target: i32,
    ) -> Result<i32, i32>;

    /// When `first` leads to the first trick in strain `trump`: the defenders' tricks after each
    /// card they may lead, in one search that shares its transposition table between the cards
    /// (DDS's `dds_solve_board` with target -1, all solutions with their scores, mode 1). The
    /// default answers [`LEADS_NOT_AVAILABLE`].
    fn solve_leads(&self, context: ContextId, trump: i32, first: i32, cards: &DdsCards) -> Result<DdsLeadScores, i32> {
        let _ = (context, trump, first, cards);
        Err(LEADS_NOT_AVAILABLE)
    }

    /// Par from a table with North–South first to bid, for both sides (DDS's `SidesParBin`).
    fn sides_par(&self, table: &DdsTable, vulnerability: i32) -> Result<[DdsParResult; 2], i32>;

    /// Par from a table for the board's dealer (DDS's `DealerParBin`).
    fn dealer_par(&self, table: &DdsTable, dealer: i32, vulnerability: i32) -> Result<DdsParResult, i32>;

    /// DDS's text for one of its return codes, when it has one.
    fn error_message(&self, code: i32) -> Option<String>;

    /// How many jobs [`solve_jobs`](Self::solve_jobs) solves at once: more than 1 where the
    /// implementation solves in parallel itself (the WebAssembly build's solver workers), which
    /// a batch then uses instead of threads of its own; 1 (the default) where it does not.
    fn parallel_jobs(&self) -> usize {
        1
    }

    /// Solves independent jobs, in parallel as [`parallel_jobs`](Self::parallel_jobs) says:
    /// one answer or DDS return code per job, in order. Called only when `parallel_jobs() > 1`;
    /// the default answers none (an empty list).
    fn solve_jobs(&self, jobs: &[DdsJob]) -> Vec<Result<DdsAnswer, i32>> {
        let _ = jobs;
        Vec::new()
    }
}
