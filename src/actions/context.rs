//! What the actions are given by whoever runs them (the job, src/job/dealing_loop.rs): the
//! settings they print with ([`ActionSettings`]), the values of a produced deal
//! ([`DealValues`]: its evaluation and its double-dummy results) and the buffers they write into
//! ([`ActionOutputs`]). The actions stage defines these, the job implements them, so the actions
//! never name the job's types. Reads only the program stage (`Evaluation`), the double-dummy
//! cache and the shared vocabulary.
//!
//! The traits are taken as generic parameters (static dispatch): the per-deal actions compile
//! to the same code as direct calls on the job's types.

use crate::actions::boards::BoardLabel;
use crate::cards::Deal;
use crate::dd::DdCache;
use crate::error::Result;
use crate::program::eval::Evaluation;
use crate::program::Program;

/// The settings a run's actions print with, taken from the session's options when the run starts.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ActionSettings<'o> {
    /// The title given for the run (`-T`), before the script's and the library file's.
    pub(crate) title: Option<&'o str>,
    /// The number of the first board (`start_board`), over the script's `startboard`.
    pub(crate) start_board: Option<i64>,
    /// Whether an output ceiling is in force (tallied values then wait for the deal's commit).
    pub(crate) output_ceiling: bool,
    /// Whether the end-of-run statistics are printed (`-v` toggles it off).
    pub(crate) statistics: bool,
    /// Whether the run prints LIN or JSON Lines records in place of the script's actions
    /// (`format` other than the script's): no text statistics then.
    pub(crate) records_format: bool,
    /// Whether each board's hands are turned to the script's dealer (`rotate`).
    pub(crate) rotate: bool,
    /// Whether `printpbn` is suppressed (`-q`).
    pub(crate) quiet: bool,
    /// The input file name as PBN `[Event]` shows it (`None`: standard input).
    pub(crate) input_name: Option<&'o str>,
    /// PBN's `[Date]` when given (`pbn_date`; `None`: today's local date).
    pub(crate) pbn_date: Option<&'o str>,
    /// Whether PBN records name libdealer as their generator (the ChaCha generator).
    pub(crate) names_libdealer: bool,
    /// Whether `printpbn` records carry the double-dummy tags (`pbn_dd`).
    pub(crate) pbn_dd: bool,
    /// Whether LIN records carry the board title (`board_title`).
    pub(crate) board_title: bool,
    /// Whether `printjson` objects carry the double-dummy table and par (`json_dd`).
    pub(crate) json_dd: bool,
    /// Whether the run ends with a JSON summary object instead of the text statistics.
    pub(crate) json_summary: bool,
    /// Whether the text statistics show their 95 % intervals (`intervals`).
    pub(crate) intervals: bool,
    /// The seed as the peers print it (PBN `[Event]`/`[Site]` notes).
    pub(crate) seed_printed: u64,
}

/// The values of the produced deal in hand: what the actions evaluate and solve on it.
pub(crate) trait DealValues {
    /// The number of deals produced so far, this one included.
    fn produced(&self) -> i64;

    /// An evaluation of `deal` (the produced deal) with the run's dealer, counters, solver and
    /// external metrics.
    fn evaluation<'a>(&'a mut self, program: &'a Program, deal: &'a Deal) -> Evaluation<'a>;

    /// The run's double-dummy results, solved on demand.
    fn dd(&mut self) -> &mut DdCache;

    /// What a practice run says of the produced deal's board (nothing in a plain run).
    fn board_label(&self) -> Option<&BoardLabel> {
        None
    }
}

/// The run's output buffers, as the actions write into them.
pub(crate) trait ActionOutputs {
    /// The output stream's buffer.
    fn out(&mut self) -> &mut Vec<u8>;

    /// The buffer `csvrpt` lines go to.
    fn csv_buffer(&mut self) -> &mut Vec<u8>;

    /// The buffer `export` lines go to.
    fn export_buffer(&mut self) -> &mut Vec<u8>;

    /// Whether produced deals are written to a ZRD file (`-Z`), and if so whether their tricks
    /// are left at zero.
    fn zrd_records(&self) -> Option<bool>;

    /// Whether produced deals are written as 52-byte records (`-l`).
    fn dl52_records(&self) -> bool;

    /// Writes one ZRD (`zrd`) or DL52 record and counts it.
    fn write_record(&mut self, zrd: bool, record: &[u8]) -> Result<()>;
}
