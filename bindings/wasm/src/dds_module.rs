//! DDS in the browser and in Node: the core's double-dummy calls ([`DdsEntryPoints`]) answered by
//! DDS compiled to a WebAssembly module of its own (`pkg/gen/dds.wasm`, loaded by `pkg/dds.js`),
//! whose host `DdsModule` (`pkg/dds-module.js`) copies each call's arguments into the module's
//! memory and its results back.

use dealer::dd::{
    ContextId, DdsAnswer, DdsCards, DdsEntryPoints, DdsJob, DdsLeadScores, DdsParContract, DdsParResult, DdsTable,
    LEADS_NOT_AVAILABLE, NO_ANSWER,
};
use wasm_bindgen::prelude::*;

/// DDS's return code for success (`RETURN_NO_FAULT`).
const RETURN_NO_FAULT: i32 = 1;

/// The 32-bit words of DDS's `parResultsMaster`: score, number and 10 contracts of 5 words.
const PAR_WORDS: usize = 2 + 10 * 5;

#[wasm_bindgen]
extern "C" {
    /// A loaded DDS module (`pkg/dds-module.js`'s `DdsModule`): DDS's calls over typed arrays, each
    /// returning DDS's return code.
    #[derive(Clone)]
    pub type DdsModule;

    /// A new solver context (the large transposition table, `start_mb` growing to `maximum_mb`);
    /// 0 when DDS cannot allocate one.
    #[wasm_bindgen(method, js_name = contextNew)]
    fn context_new(this: &DdsModule, start_mb: u32, maximum_mb: u32) -> u32;

    /// Frees a context.
    #[wasm_bindgen(method, js_name = contextFree)]
    fn context_free(this: &DdsModule, context: u32);

    /// `dds_calc_dd_table`: 16 card words in, 20 result words out.
    #[wasm_bindgen(method, js_name = calcDdTable)]
    fn calc_dd_table(this: &DdsModule, context: u32, cards: &[u32], table: &mut [i32]) -> i32;

    /// `dds_solve_board` (one solution, mode 1): the defenders' score out (with target -1 their
    /// best; with a target of 1 to 13 the target when they reach it, less when they do not).
    #[wasm_bindgen(method, js_name = solveBoard)]
    fn solve_board(
        this: &DdsModule,
        context: u32,
        trump: i32,
        first: i32,
        cards: &[u32],
        target: i32,
        score: &mut [i32],
    ) -> i32;

    /// `dds_solve_board` with target -1, all cards with their scores, mode 1: 53 words out
    /// (the number of entries, then 13 words each of suits, ranks, equal cards and scores).
    #[wasm_bindgen(method, js_name = solveLeads)]
    fn solve_leads(this: &DdsModule, context: u32, trump: i32, first: i32, cards: &[u32], out: &mut [i32]) -> i32;

    /// `SidesParBin`: 20 table words in, two `parResultsMaster` out.
    #[wasm_bindgen(method, js_name = sidesPar)]
    fn sides_par(this: &DdsModule, table: &[i32], vulnerability: i32, sides: &mut [i32]) -> i32;

    /// `DealerParBin`: 20 table words in, one `parResultsMaster` out.
    #[wasm_bindgen(method, js_name = dealerPar)]
    fn dealer_par(this: &DdsModule, table: &[i32], dealer: i32, vulnerability: i32, result: &mut [i32]) -> i32;

    /// `ErrorMessage`: DDS's text for a return code.
    #[wasm_bindgen(method, js_name = errorMessage)]
    fn error_message(this: &DdsModule, code: i32) -> String;

    /// How many jobs `solveJobs` solves at once (its solver workers, this one included).
    #[wasm_bindgen(method, js_name = parallelJobs)]
    fn parallel_jobs(this: &DdsModule) -> u32;

    /// Solves jobs across the solver workers: per job 4 words in `jobs` (0 table / 1 board,
    /// trump, first, target) and 16 in `cards`; out per job 21 words in `results` (DDS's return code,
    /// then the 20 table words or the score).
    #[wasm_bindgen(method, js_name = solveJobs)]
    fn solve_jobs(this: &DdsModule, jobs: &[i32], cards: &[u32], results: &mut [i32]);
}

/// Words of a job's answer in `solveJobs`'s results: the return code and 20 result words.
const ANSWER_WORDS: usize = 21;

/// The core's view of a loaded [`DdsModule`].
pub struct ModuleDds(pub DdsModule);

// SAFETY: the WebAssembly build has no threads (the core's `threads` feature is off): the
// module's JavaScript object is only ever used on the thread that created it.
unsafe impl Send for ModuleDds {}
// SAFETY: as above.
unsafe impl Sync for ModuleDds {}

/// The 16 card words of a deal, in DDS's order.
fn card_words(cards: &DdsCards) -> [u32; 16] {
    let mut words = [0; 16];
    for (hand, suits) in cards.iter().enumerate() {
        words[hand * 4..hand * 4 + 4].copy_from_slice(suits);
    }
    words
}

/// The 20 words of a table, in DDS's order.
fn table_words(table: &DdsTable) -> [i32; 20] {
    let mut words = [0; 20];
    for (strain, hands) in table.iter().enumerate() {
        words[strain * 4..strain * 4 + 4].copy_from_slice(hands);
    }
    words
}

/// A table from its 20 words, in DDS's order.
fn table_of_words(words: &[i32]) -> DdsTable {
    let mut table = DdsTable::default();
    for (strain, hands) in table.iter_mut().enumerate() {
        hands.copy_from_slice(&words[strain * 4..strain * 4 + 4]);
    }
    table
}

/// A `parResultsMaster` from its 52 words.
fn par_result(words: &[i32]) -> DdsParResult {
    let mut result = DdsParResult { score: words[0], number: words[1], ..Default::default() };
    for (contract, w) in result.contracts.iter_mut().zip(words[2..].chunks_exact(5)) {
        *contract =
            DdsParContract { under_tricks: w[0], over_tricks: w[1], level: w[2], denom: w[3], seats: w[4] };
    }
    result
}

/// `Ok(value)` when DDS answered success, else its code.
fn checked<T>(code: i32, value: T) -> Result<T, i32> {
    if code == RETURN_NO_FAULT {
        Ok(value)
    } else {
        Err(code)
    }
}

impl DdsEntryPoints for ModuleDds {
    fn context_new(&self, start_mb: u32, maximum_mb: u32) -> Option<ContextId> {
        match self.0.context_new(start_mb, maximum_mb) {
            0 => None,
            context => Some(ContextId(context as usize)),
        }
    }

    fn context_free(&self, context: ContextId) {
        self.0.context_free(context.0 as u32);
    }

    fn calc_dd_table(&self, context: ContextId, cards: &DdsCards) -> Result<DdsTable, i32> {
        let mut words = [0i32; 20];
        let code = self.0.calc_dd_table(context.0 as u32, &card_words(cards), &mut words);
        checked(code, table_of_words(&words))
    }

    fn solve_board(&self, context: ContextId, trump: i32, first: i32, cards: &DdsCards, target: i32) -> Result<i32, i32> {
        let mut score = [0i32; 1];
        let code = self.0.solve_board(context.0 as u32, trump, first, &card_words(cards), target, &mut score);
        checked(code, score[0])
    }

    fn solve_leads(&self, context: ContextId, trump: i32, first: i32, cards: &DdsCards) -> Result<DdsLeadScores, i32> {
        let mut words = [0i32; 1 + 4 * 13];
        let code = self.0.solve_leads(context.0 as u32, trump, first, &card_words(cards), &mut words);
        let mut scores = DdsLeadScores { cards: words[0], ..Default::default() };
        for (field, at) in [(&mut scores.suit, 1), (&mut scores.rank, 14), (&mut scores.equals, 27), (&mut scores.score, 40)] {
            field.copy_from_slice(&words[at..at + 13]);
        }
        checked(code, scores)
    }

    fn sides_par(&self, table: &DdsTable, vulnerability: i32) -> Result<[DdsParResult; 2], i32> {
        let mut words = [0i32; 2 * PAR_WORDS];
        let code = self.0.sides_par(&table_words(table), vulnerability, &mut words);
        checked(code, [par_result(&words[..PAR_WORDS]), par_result(&words[PAR_WORDS..])])
    }

    fn dealer_par(&self, table: &DdsTable, dealer: i32, vulnerability: i32) -> Result<DdsParResult, i32> {
        let mut words = [0i32; PAR_WORDS];
        let code = self.0.dealer_par(&table_words(table), dealer, vulnerability, &mut words);
        checked(code, par_result(&words))
    }

    fn error_message(&self, code: i32) -> Option<String> {
        Some(self.0.error_message(code)).filter(|text| !text.is_empty())
    }

    fn parallel_jobs(&self) -> usize {
        self.0.parallel_jobs().max(1) as usize
    }

    fn solve_jobs(&self, jobs: &[DdsJob]) -> Vec<Result<DdsAnswer, i32>> {
        // The module's workers solve tables and single results; a search of every lead (which
        // the core asks of a context, `solve_leads`, not in batches) is not sent to them.
        let mut kinds = Vec::with_capacity(4 * jobs.len());
        let mut cards = Vec::with_capacity(16 * jobs.len());
        for job in jobs {
            let (kind, c) = match job {
                DdsJob::Table { cards: c } => ([0, 0, 0, 0], c),
                DdsJob::Board { trump, first, cards: c, target } => ([1, *trump, *first, *target], c),
                DdsJob::Leads { .. } => continue,
            };
            kinds.extend(kind);
            cards.extend(card_words(c));
        }
        let mut results = vec![0i32; ANSWER_WORDS * (kinds.len() / 4)];
        self.0.solve_jobs(&kinds, &cards, &mut results);
        let mut solved = results.chunks_exact(ANSWER_WORDS);
        jobs.iter()
            .map(|job| {
                if let DdsJob::Leads { .. } = job {
                    return Err(LEADS_NOT_AVAILABLE);
                }
                let Some(words) = solved.next() else { return Err(NO_ANSWER) };
                match job {
                    DdsJob::Table { .. } => checked(words[0], DdsAnswer::Table(table_of_words(&words[1..]))),
                    _ => checked(words[0], DdsAnswer::Score(words[1])),
                }
            })
            .collect()
    }

}
