//! The per-run state of the actions (`ActionState`): printer flags, the statistics'
//! accumulators (`Tally`, src/actions/tally.rs), the deals kept for `print(compass…)`, and running every action on a
//! produced deal. It evaluates the actions' values through the `DealValues` and writes into the
//! `ActionOutputs` it is handed (src/actions/context.rs), with the `ActionSettings` of the
//! run; it never deals, never decides which deals are produced, and never writes to a sink
//! itself (the job's dealing loop, above it, does both).
//!
//! Reads the actions' own writers, the program stage (compiled actions, evaluation, tallied
//! values), the double-dummy results and the shared vocabulary; never the job.

use crate::actions::context::{ActionOutputs, ActionSettings, DealValues};
use crate::actions::tally::{label, Tally};
use crate::actions::{self, BoardPlan, EsItem, LeadReport, PbnInfo, PrintState, ReportCell, RunSummary};
use crate::cards::{Deal, Hand, Seat};
use crate::dd::{DdError, DdTable, LeadTricks, Par};
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::program::eval::Evaluation;
use crate::program::tallied_values::TalliedValues;
use crate::program::{CompiledAction, EsPart, Program, ReportPart};

/// The per-run state of the actions: printer flags, statistics, stored deals and the settings
/// they print with.
pub(crate) struct ActionState<'p> {
    pub(crate) program: &'p Program,
    pub(crate) settings: ActionSettings<'p>,
    pub(crate) title: Option<String>,
    pub(crate) board_offset: i64,
    pub(crate) date: String,
    pub(crate) printers: PrintState,
    /// Whether the end-of-run statistics are printed (classic `printpbn` toggles it).
    pub(crate) statistics: bool,
    pub(crate) tallies: Vec<Tally>,
    /// Produced deals, kept only for `print(compass…)`.
    pub(crate) kept: Option<Vec<Deal>>,
    /// Reused for every deal: no allocation per deal.
    pub(crate) es_items: Vec<EsItem<'p>>,
    /// The values the statistics (`average`, `frequency`, `bucketfrequency`) tally, as one
    /// program, for those that are deal expressions.
    pub(crate) tallied: TalliedValues,
    /// The values the deal in hand adds to the statistics: (action, value, column value), added
    /// when the deal is committed (see [`ActionState::commit`]). Only under an output ceiling,
    /// which may leave the deal out after its actions ran; otherwise they are added at once (a
    /// deal whose actions fail ends the run without statistics).
    pub(crate) pending: Vec<(usize, i32, i32)>,
    /// Whether tallied values wait in `pending` (under an output ceiling).
    pub(crate) defer_tallies: bool,
    /// The `leads` results of the deal in hand waiting for its commit, as `pending`: (action,
    /// the leader's hand, the defence's tricks after each lead).
    pub(crate) pending_leads: Vec<(usize, Hand, LeadTricks)>,
    /// Under an output ceiling: the length of each `print(compass…)` action's pages so far.
    pub(crate) pages: Vec<actions::HandPagesLength>,
    /// How produced deals become boards for `printlin`, `printjson` and (with `rotate`)
    /// `printpbn`.
    pub(crate) boards: BoardPlan,
    /// Reused for every deal: `printjson`'s named values.
    pub(crate) json_values: Vec<(&'p str, i32)>,
}

impl<'p> ActionState<'p> {
    /// The state of a run of `program` before its first deal (`library_title`: the title a library
    /// file gives).
    pub(crate) fn new(
        program: &'p Program,
        settings: ActionSettings<'p>,
        library_title: Option<&str>,
    ) -> ActionState<'p> {
        let title = settings
            .title
            .map(str::to_string)
            .or_else(|| program.settings.title.clone())
            .or_else(|| library_title.map(str::to_string))
            .filter(|t| !t.is_empty());
        let board_offset = match (settings.start_board, program.dialect) {
            (Some(n), _) => n - 1,
            (None, Dialect::V2) => program.settings.startboard.map(|n| n - 1).unwrap_or(0),
            (None, Dialect::Classic) => 0,
        };
        let pages = if settings.output_ceiling {
            let measure = |seats: &[Seat]| {
                actions::HandPagesLength::new(program.dialect, seats, title.as_deref(), board_offset + 1)
            };
            let pages = program.actions.iter().filter_map(|action| match action {
                CompiledAction::PrintPages(seats) => Some(measure(seats)),
                _ => None,
            });
            pages.collect()
        } else {
            Vec::new()
        };
        ActionState {
            program,
            settings,
            board_offset,
            date: match settings.pbn_date {
                _ if !program.actions.contains(&CompiledAction::PrintPbn) => String::new(),
                Some(date) => date.to_string(),
                None => local_date(),
            },
            printers: PrintState::new(program.dialect, title.clone()),
            title,
            // Under `format` lin or jsonl the text statistics would break the records.
            statistics: settings.statistics && !settings.records_format,
            tallies: program.actions.iter().map(|a| Tally::for_action(a, program.settings.vulnerable)).collect(),
            kept: program.actions.iter().any(|a| matches!(a, CompiledAction::PrintPages(_))).then(Vec::new),
            es_items: Vec::new(),
            tallied: TalliedValues::new(program),
            pending: Vec::new(),
            defer_tallies: settings.output_ceiling,
            pending_leads: Vec::new(),
            pages,
            boards: BoardPlan {
                script_dealer: program.settings.dealer,
                script_vulnerability: program.settings.vulnerable,
                rotate: settings.rotate,
            },
            json_values: Vec::new(),
        }
    }

    /// Runs every action on a produced deal: what they print goes into the output buffers, what
    /// they tally waits in `pending` until [`commit`](Self::commit). Inlined into the dealing
    /// loop, its one caller (as a generic function it would otherwise stay a call of its own,
    /// which costs the loop a few percent when every deal is printed).
    #[inline(always)]
    pub(crate) fn on_deal(
        &mut self,
        deal: &Deal,
        job: &mut impl DealValues,
        outputs: &mut impl ActionOutputs,
    ) -> Result<()> {
        let program = self.program;
        let produced = job.produced();
        // A deal read from a record keeps the record's board number, dealer and vulnerability.
        let record = job.board_label().and_then(|label| label.record.clone());
        let record = record.as_deref();
        let board = record.and_then(|r| r.number).unwrap_or(produced + self.board_offset);
        // A mixed board set's board follows its own scenario's plan.
        let boards = job.board_label().and_then(|label| label.plan).unwrap_or(self.boards);
        self.pending.clear();
        self.pending_leads.clear();
        self.tallied.next_deal();
        for (index, action) in program.actions.iter().enumerate() {
            // The general evaluator (`job.evaluation()`) is set up only by the actions that need it.
            match action {
                CompiledAction::PrintAll => self.printers.print_all(outputs.out(), deal, produced, board),
                CompiledAction::PrintSide(side) => {
                    self.printers.print_side(outputs.out(), deal, *side, produced, board)
                }
                CompiledAction::PrintCompact(v) => {
                    let v = v.map(|v| job.evaluation(program, deal).value(v)).transpose()?;
                    actions::print_compact(outputs.out(), deal, v)
                }
                CompiledAction::PrintOneline(v) => {
                    let v = v.map(|v| job.evaluation(program, deal).value(v)).transpose()?;
                    actions::print_oneline(outputs.out(), deal, v)
                }
                CompiledAction::PrintPbn => {
                    if !self.settings.quiet {
                        // Rotated, the board's own dealer and vulnerability replace the script's.
                        let shown = boards.recorded_board(board, deal, record);
                        let (dealer, vulnerability) = match shown.rotated || record.is_some() {
                            true => (Some(shown.dealer), Some(shown.vulnerability)),
                            false => (boards.script_dealer, boards.script_vulnerability),
                        };
                        let info = PbnInfo {
                            dialect: program.dialect,
                            label: job.board_label(),
                            input_name: self.settings.input_name,
                            seed: self.settings.seed_printed,
                            title: self.title.as_deref(),
                            board,
                            dealer,
                            vulnerability,
                            date: &self.date,
                            names_libdealer: self.settings.names_libdealer,
                        };
                        if actions::print_pbn(outputs.out(), &shown.deal, &info) {
                            self.statistics = !self.statistics;
                        }
                        if self.settings.pbn_dd {
                            // The tags go before the record's closing blank line.
                            let (table, par) = board_dd(job, deal, &shown, shown_turn(&boards, &shown))?;
                            outputs.out().pop();
                            actions::write_pbn_dd(outputs.out(), &table, &par);
                            outputs.out().push(b'\n');
                        }
                    }
                }
                CompiledAction::PrintLin => {
                    let scenario = job.board_label().and_then(|label| label.scenario.as_deref());
                    let shown = boards.recorded_board(board, deal, record);
                    actions::print_lin(outputs.out(), &shown, self.settings.board_title, scenario, record)
                }
                CompiledAction::PrintJson(values) => {
                    self.json_values.clear();
                    if !values.is_empty() {
                        // The values are the script's: evaluated on the deal as dealt.
                        let mut ev = job.evaluation(program, deal);
                        for (name, value) in values {
                            self.json_values.push((name, ev.value(*value)?));
                        }
                    }
                    let shown = boards.recorded_board(board, deal, record);
                    let dd = match self.settings.json_dd {
                        true => Some(board_dd(job, deal, &shown, shown_turn(&boards, &shown))?),
                        false => None,
                    };
                    let dd = dd.as_ref().map(|(table, par)| (table, par));
                    actions::print_json(outputs.out(), &shown, job.board_label(), &self.json_values, dd)
                }
                CompiledAction::PrintEs(parts) => {
                    self.es_items.clear();
                    let mut ev = job.evaluation(program, deal);
                    for part in parts {
                        self.es_items.push(match part {
                            EsPart::Value(v) => EsItem::Number(ev.value(*v)?),
                            EsPart::Text(t) => EsItem::Text(t),
                        });
                    }
                    actions::print_es(outputs.out(), &self.es_items);
                }
                CompiledAction::PrintPages(_) => {}
                CompiledAction::Average { value, .. }
                | CompiledAction::Frequency { value, .. }
                | CompiledAction::BucketFrequency { value, .. } => {
                    let v = match self.tallied.value(index, program, deal) {
                        Some(v) => v,
                        None => job.evaluation(program, deal).value(*value)?,
                    };
                    tally(&mut self.tallies, &mut self.pending, self.defer_tallies, (index, v, 0))
                }
                CompiledAction::Frequency2 { rows, cols, .. } => {
                    let mut ev = job.evaluation(program, deal);
                    let row = ev.value(rows.0)?;
                    tally(&mut self.tallies, &mut self.pending, self.defer_tallies, (index, row, ev.value(cols.0)?))
                }
                CompiledAction::BucketFrequency2 { rows, cols, .. } => {
                    let mut ev = job.evaluation(program, deal);
                    let row = ev.value(rows.0)?;
                    tally(&mut self.tallies, &mut self.pending, self.defer_tallies, (index, row, ev.value(cols.0)?))
                }
                CompiledAction::Report { parts, to_csv } => {
                    let buffer = if *to_csv { outputs.csv_buffer() } else { outputs.out() };
                    let start = buffer.len();
                    if let Err(e) = write_report(buffer, deal, parts, &mut job.evaluation(program, deal)) {
                        // No partial record: what was written before stays whole.
                        buffer.truncate(start);
                        return Err(e);
                    }
                }
                CompiledAction::EvalContract { side, contract, .. } => {
                    let declarer = crate::program::evalcontract_declarer(*side);
                    let tricks = job.dd().tricks(deal, declarer, contract.strain)?;
                    tally(&mut self.tallies, &mut self.pending, self.defer_tallies, (index, i32::from(tricks), 0));
                }
                CompiledAction::Export(target) => actions::export(outputs.export_buffer(), deal, *target),
                CompiledAction::Leads(study) => {
                    let tricks = job.dd().leads(deal, study.leader, study.strain)?;
                    let hand = deal.hand(study.leader);
                    if self.defer_tallies {
                        self.pending_leads.push((index, hand, tricks));
                    } else {
                        add_leads(&mut self.tallies[index], hand, &tricks)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The bytes a deal whose actions have run will still add when committed: its ZRD and DL52
    /// records, and what the `print(compass…)` pages grow by (all of their bytes are counted).
    pub(crate) fn bytes_to_come(&mut self, deal: &Deal, outputs: &impl ActionOutputs) -> u64 {
        let records = if outputs.zrd_records().is_some() { crate::dd::zrd::RECORD_LEN } else { 0 }
            + if outputs.dl52_records() { 52 } else { 0 };
        let pages: usize = self.pages.iter_mut().map(|p| p.bytes_with(Some(deal))).sum();
        (records + pages) as u64
    }

    /// Completes a produced deal whose actions have run: adds its statistics, writes its ZRD
    /// and DL52 records and keeps it for `print(compass…)`. Inlined into the dealing loop, as
    /// [`on_deal`](Self::on_deal).
    #[inline(always)]
    pub(crate) fn commit(
        &mut self,
        deal: &Deal,
        job: &mut impl DealValues,
        outputs: &mut impl ActionOutputs,
    ) -> Result<()> {
        for &(index, value, second) in &self.pending {
            self.tallies[index].add(value, second);
        }
        self.pending.clear();
        for (index, hand, tricks) in std::mem::take(&mut self.pending_leads) {
            add_leads(&mut self.tallies[index], hand, &tricks)?;
        }
        if let Some(no_tricks) = outputs.zrd_records() {
            let tricks = if no_tricks { DdTable::default() } else { job.dd().table(deal)? };
            outputs.write_record(true, &crate::dd::zrd::encode_record(deal, &tricks.0))?;
        }
        if outputs.dl52_records() {
            outputs.write_record(false, &crate::dd::zrd::encode_dl52(deal))?;
        }
        if let Some(kept) = &mut self.kept {
            kept.push(*deal);
        }
        for pages in &mut self.pages {
            pages.add(deal);
        }
        Ok(())
    }

    /// The widest 95 % interval of the run's statistics (`average`, `frequency`, `bktfreq`,
    /// `leads`), each in its own unit; `None` when the script has none.
    pub(crate) fn widest_interval(&self) -> Option<f64> {
        self.tallies.iter().filter_map(Tally::widest_interval).reduce(f64::max)
    }

    /// Adds statistics the dealing threads added up (one accumulator for every action, in order).
    pub(crate) fn merge(&mut self, tallies: &[Tally]) {
        for (tally, part) in self.tallies.iter_mut().zip(tallies) {
            tally.merge(part);
        }
    }

    /// The JSON summary object of the run, one line: `summary` with the statistics' intervals
    /// and the `leads` tables.
    pub(crate) fn summary_json(&self, summary: RunSummary) -> Vec<u8> {
        let leads: Vec<LeadReport> = self
            .tallies
            .iter()
            .filter_map(|t| match t {
                Tally::Leads(table) => Some(table.report()),
                _ => None,
            })
            .collect();
        let mut statistics = Vec::new();
        for (action, tally) in self.program.actions.iter().zip(&self.tallies) {
            statistics.push(if statistics.is_empty() { b'[' } else { b',' });
            if !tally.write_json(&mut statistics, label(action)) {
                statistics.pop();
            }
        }
        if !statistics.is_empty() {
            statistics.push(b']');
        }
        let statistics = String::from_utf8_lossy(&statistics);
        let mut out = Vec::new();
        actions::write_json_summary(&mut out, &RunSummary { leads: &leads, statistics: &statistics, ..summary });
        out
    }

    /// Writes the end-of-run actions, in list order, and the statistics footer (or the JSON
    /// summary, `summary_json`, made by [`summary_json`](Self::summary_json)); stops after the
    /// action that writes more than `room` bytes, if given.
    pub(crate) fn finish(&self, out: &mut Vec<u8>, summary: RunSummary, summary_json: &[u8], room: Option<u64>) {
        let dialect = self.program.dialect;
        let start = out.len();
        let full = |out: &Vec<u8>| room.is_some_and(|room| (out.len() - start) as u64 > room);
        for (action, tally) in self.program.actions.iter().zip(self.tallies.iter()) {
            if full(out) {
                return;
            }
            match action {
                CompiledAction::PrintPages(seats) => actions::print_hand_pages(
                    out,
                    dialect,
                    self.kept.as_deref().unwrap_or_default(),
                    seats,
                    self.title.as_deref(),
                    self.board_offset + 1,
                ),
                _ => {
                    tally.write(out, dialect, label(action));
                    if self.settings.intervals {
                        tally.write_intervals(out);
                    }
                }
            }
        }
        if full(out) {
            return;
        }
        if self.settings.json_summary {
            // In place of the text statistics; asked for, it is written under `format` too.
            if self.statistics || self.settings.records_format {
                out.extend_from_slice(summary_json);
            }
        } else if self.statistics {
            actions::write_footer(out, dialect, &RunSummary { title: self.title.as_deref(), ..summary });
        }
    }
}

/// Appends one `printrpt`/`csvrpt` record, evaluating its terms in order.
fn write_report(out: &mut Vec<u8>, deal: &Deal, parts: &[ReportPart], ev: &mut Evaluation) -> Result<()> {
    for (i, part) in parts.iter().enumerate() {
        let first = i == 0;
        match part {
            ReportPart::Value(v) => actions::report_cell(out, deal, first, &ReportCell::Number(ev.value(*v)?)),
            ReportPart::Text(t) => actions::report_cell(out, deal, first, &ReportCell::Text(t)),
            ReportPart::Hands(seats) => actions::report_cell(out, deal, first, &ReportCell::Hands(seats)),
            ReportPart::Tricks(seat) => {
                let table = ev.dd.table(deal)?;
                let seats = match seat {
                    Some(seat) => std::slice::from_ref(seat),
                    None => &Seat::ALL[..],
                };
                let mut values = [0i32; 20];
                for (value, tricks) in values.iter_mut().zip(seats.iter().flat_map(|s| table.0[s.index()])) {
                    *value = i32::from(tricks);
                }
                actions::report_cell(out, deal, first, &ReportCell::Tricks(&values[..5 * seats.len()]));
            }
            ReportPart::ParContract(vulnerability) => {
                let par = ev.dd.par(deal, *vulnerability)?;
                actions::report_cell(out, deal, first, &ReportCell::ParContract(&par.contract));
            }
        }
    }
    out.push(b'\n');
    Ok(())
}

/// Today's local date as `YYYY.MM.DD` (PBN `[Date]`); without the `os` feature there is no
/// clock to read and the date is PBN's unknown one, `????.??.??` (the WebAssembly package
/// gives the browser's date as the `pbn_date` option instead).
#[cfg(not(feature = "os"))]
fn local_date() -> String {
    "????.??.??".to_string()
}

/// Today's local date as `YYYY.MM.DD` (PBN `[Date]`).
#[cfg(feature = "os")]
fn local_date() -> String {
    // SAFETY: localtime_r / localtime_s write into the provided struct; time(NULL) has no
    // preconditions.
    unsafe {
        let now = libc::time(std::ptr::null_mut());
        let mut tm: libc::tm = std::mem::zeroed();
        #[cfg(unix)]
        let failed = libc::localtime_r(&now, &mut tm).is_null();
        #[cfg(windows)]
        let failed = libc::localtime_s(&mut tm, &now) != 0;
        if failed {
            return "0000.00.00".to_string();
        }
        format!("{:04}.{:02}.{:02}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday)
    }
}

/// Adds a value of the deal in hand, `(action, value, column value)`, to that action's statistic,
/// or keeps it in `pending` for [`ActionState::commit`] when `defer` (under an output ceiling).
/// (A function of the fields, not a method: `on_deal` holds other fields borrowed meanwhile.)
#[inline]
fn tally(tallies: &mut [Tally], pending: &mut Vec<(usize, i32, i32)>, defer: bool, value: (usize, i32, i32)) {
    if defer {
        pending.push(value);
    } else {
        tallies[value.0].add(value.1, value.2);
    }
}

/// Adds a deal's opening leads to a `leads` action's table; an error, where the action stands,
/// when the leader's hand is not the one of the deals before.
fn add_leads(tally: &mut Tally, hand: Hand, tricks: &LeadTricks) -> Result<()> {
    let Tally::Leads(table) = tally else { return Ok(()) };
    table.add(hand, tricks).map_err(|why| {
        let pos = table.study().pos;
        Error::new(ErrorKind::Run, why).at(pos.line, pos.col)
    })
}

/// How many seats a shown board's hands were turned (0 unless rotated).
fn shown_turn(boards: &BoardPlan, shown: &actions::Board) -> usize {
    if shown.rotated {
        boards.turn(shown.number)
    } else {
        0
    }
}

/// The double-dummy table and par of a board as its record shows it: the produced deal's table
/// (solved ahead in a batch when the job deals ahead, read from its input record, else solved
/// now), turned with the hands by `turn` seats, and par for the board's dealer and vulnerability.
fn board_dd(job: &mut impl DealValues, deal: &Deal, board: &actions::Board, turn: usize) -> Result<(DdTable, Par)> {
    let table = actions::boards::rotate_table(&job.dd().table(deal)?, turn);
    let par =
        job.dd().board_par(&table, board.vulnerability, board.dealer).map_err(|e| DdError { deal: board.deal, ..e })?;
    Ok((table, par))
}
