//! A statistic of the run (`Tally`): the accumulator each end-of-run action adds its deals' values
//! to (`average`, `frequency`, `bktfreq`, `evalcontract`, `leads`), and what it reports — the
//! peers' text, its 95 % intervals as text (`intervals`), one JSON object of the summary, the
//! widest interval the precision rule looks at.
//!
//! Reads the actions' own statistics and writers, the program stage (compiled actions) and the
//! shared vocabulary.

use std::io::Write;

use crate::actions::precision::{json_number, wilson, CellLabel};
use crate::actions::{
    self, Average, BucketFrequency1D, BucketFrequency2D, EvalContractTally, Frequency1D, Frequency2D, LeadTable,
};
use crate::cards::Seat;
use crate::dialect::Dialect;
use crate::program::CompiledAction;
use crate::script::ast::Vulnerability;

/// Per-action accumulators for the end-of-run statistics.
#[derive(Clone)]
pub(crate) enum Tally {
    None,
    Average(Average),
    Frequency(Frequency1D),
    Frequency2(Frequency2D),
    Buckets(BucketFrequency1D),
    Buckets2(BucketFrequency2D),
    EvalContract(EvalContractTally),
    Leads(LeadTable),
}

impl Tally {
    /// The accumulator an action needs (bounds were checked when the program was compiled);
    /// `script_vulnerability` is the script's `vulnerable`, which a `leads` action without a
    /// vulnerability of its own follows.
    pub(crate) fn for_action(action: &CompiledAction, script_vulnerability: Option<Vulnerability>) -> Tally {
        match action {
            CompiledAction::Average { .. } => Tally::Average(Average::new()),
            CompiledAction::Frequency { lo, hi, .. } => Tally::Frequency(Frequency1D::new(*lo, *hi)),
            CompiledAction::Frequency2 { rows, cols, .. } => {
                Tally::Frequency2(Frequency2D::new((rows.1, rows.2), (cols.1, cols.2)))
            }
            CompiledAction::BucketFrequency { lo, hi, size, .. } => {
                Tally::Buckets(BucketFrequency1D::new(*lo, *hi, *size).expect("checked by program"))
            }
            CompiledAction::BucketFrequency2 { rows, cols, .. } => Tally::Buckets2(
                BucketFrequency2D::new((rows.1, rows.2, rows.3), (cols.1, cols.2, cols.3)).expect("checked by program"),
            ),
            CompiledAction::EvalContract { side, contract, vulnerable } => {
                Tally::EvalContract(EvalContractTally::new(*side, *contract, *vulnerable))
            }
            CompiledAction::Leads(study) => {
                let declarer = study.declarer();
                let vulnerable = study.vulnerable.unwrap_or(match script_vulnerability {
                    None | Some(Vulnerability::None) => false,
                    Some(Vulnerability::All) => true,
                    Some(Vulnerability::NS) => matches!(declarer, Seat::North | Seat::South),
                    Some(Vulnerability::EW) => matches!(declarer, Seat::East | Seat::West),
                });
                Tally::Leads(LeadTable::new(*study, vulnerable))
            }
            _ => Tally::None,
        }
    }

    /// Counts one deal's value (`second` is the column value of 2-D tables).
    #[inline(always)]
    pub(crate) fn add(&mut self, value: i32, second: i32) {
        match self {
            Tally::None | Tally::Leads(_) => {}
            Tally::Average(a) => a.add(value),
            Tally::Frequency(f) => f.add(value),
            Tally::Frequency2(f) => f.add(value, second),
            Tally::Buckets(f) => f.add(value),
            Tally::Buckets2(f) => f.add(value, second),
            Tally::EvalContract(e) => e.add(value.clamp(0, 13) as u8),
        }
    }

    /// Adds what `other`, an accumulator of the same action, counted.
    pub(crate) fn merge(&mut self, other: &Tally) {
        match (self, other) {
            (Tally::Average(a), Tally::Average(b)) => a.merge(b),
            (Tally::Frequency(a), Tally::Frequency(b)) => a.merge(b),
            (Tally::Buckets(a), Tally::Buckets(b)) => a.merge(b),
            // Only the statistics above are added up by chunk (see `Statistics::for_run`).
            _ => debug_assert!(false, "tallies of other actions are not merged"),
        }
    }

    /// The running state of a statistic added up by chunk (see [`Tally::merge`]) as integers;
    /// `None` for the other actions.
    pub(crate) fn counts(&self) -> Option<Vec<i64>> {
        match self {
            Tally::Average(a) => Some(a.counts()),
            Tally::Frequency(f) => Some(f.counts()),
            Tally::Buckets(f) => Some(f.counts()),
            _ => None,
        }
    }

    /// Adds a running state [`counts`](Self::counts) gave, of the same action; `false`, and
    /// nothing added, when `counts` is not one.
    pub(crate) fn add_counts(&mut self, counts: &[i64]) -> bool {
        match self {
            Tally::Average(a) => a.add_counts(counts),
            Tally::Frequency(f) => f.add_counts(counts),
            Tally::Buckets(f) => f.add_counts(counts),
            _ => false,
        }
    }

    /// Writes the end-of-run report.
    pub(crate) fn write(&self, out: &mut Vec<u8>, dialect: Dialect, label: Option<&str>) {
        match self {
            Tally::None => {}
            Tally::Average(a) => a.write(out, dialect, label),
            Tally::Frequency(f) => f.write(out, dialect, label),
            Tally::Frequency2(f) => f.write(out, dialect, label),
            Tally::Buckets(f) => f.write(out, label),
            Tally::Buckets2(f) => f.write(out, label),
            Tally::EvalContract(e) => actions::write_evalcontract(out, &e.summary()),
            Tally::Leads(table) => table.report().write_text(out),
        }
    }
}

/// One statistic's cells as the JSON summary and the text intervals show them: the share of the
/// deals each count is, with its 95 % interval (Wilson's).
enum Cells {
    /// A one-value table's cells.
    One(Vec<(CellLabel, i64)>),
    /// A two-value table's cells, (row, column).
    Two(Vec<((CellLabel, CellLabel), i64)>),
}

impl Cells {
    /// The counts alone.
    fn counts(&self) -> Vec<i64> {
        match self {
            Cells::One(cells) => cells.iter().map(|c| c.1).collect(),
            Cells::Two(cells) => cells.iter().map(|c| c.1).collect(),
        }
    }
}

impl Tally {
    /// The statistic's name in the JSON summary, and its cells when it is a table.
    fn kind(&self) -> Option<(&'static str, Option<Cells>)> {
        Some(match self {
            Tally::Average(_) => ("average", None),
            Tally::Frequency(f) => ("frequency", Some(Cells::One(f.cells()))),
            Tally::Frequency2(f) => ("frequency", Some(Cells::Two(f.cells()))),
            Tally::Buckets(f) => ("bktfreq", Some(Cells::One(f.cells()))),
            Tally::Buckets2(f) => ("bktfreq", Some(Cells::Two(f.cells()))),
            Tally::None | Tally::EvalContract(_) | Tally::Leads(_) => return None,
        })
    }

    /// The widest 95 % interval of the statistic, in its own unit (a share for a table's cells,
    /// the value's unit for an average, see [`LeadTable::widest_interval`]); `None` for an
    /// action that is no statistic `--precision` looks at.
    pub(crate) fn widest_interval(&self) -> Option<f64> {
        if let Tally::Average(a) = self {
            return Some(a.estimate().width());
        }
        if let Tally::Leads(table) = self {
            return Some(table.widest_interval());
        }
        let (_, cells) = self.kind()?;
        let counts = cells?.counts();
        let n: i64 = counts.iter().sum();
        let widest = counts.iter().map(|&c| {
            let (low, high) = wilson(n as u64, c as u64);
            high - low
        });
        Some(widest.fold(0.0, f64::max))
    }

    /// The statistic as one JSON object (`type`, `label`, `count`; an average's `mean`, `se`,
    /// `low`, `high`; a table's `cells`, each with where it stands, its `count`, `share`, `low`
    /// and `high`); nothing for the other actions.
    pub(crate) fn write_json(&self, out: &mut Vec<u8>, label: Option<&str>) -> bool {
        let Some((kind, cells)) = self.kind() else { return false };
        let _ = write!(out, "{{\"type\":\"{kind}\",\"label\":");
        match label {
            Some(label) => actions::jsonl::write_json_string(out, label),
            None => out.extend_from_slice(b"null"),
        }
        match (self, cells) {
            (Tally::Average(a), _) => {
                let e = a.estimate();
                let (low, high) = e.interval();
                let _ = write!(
                    out,
                    ",\"count\":{},\"mean\":{},\"se\":{},\"low\":{},\"high\":{}}}",
                    a.count(),
                    json_number(e.mean),
                    json_number(e.error),
                    json_number(low),
                    json_number(high)
                );
            }
            (_, Some(cells)) => {
                let n: i64 = cells.counts().iter().sum();
                let _ = write!(out, ",\"count\":{n},\"cells\":[");
                let share = |out: &mut Vec<u8>, count: i64| {
                    let (low, high) = wilson(n as u64, count as u64);
                    let share = if n > 0 { count as f64 / n as f64 } else { f64::NAN };
                    let _ = write!(
                        out,
                        ",\"count\":{count},\"share\":{},\"low\":{},\"high\":{}}}",
                        json_number(share),
                        json_number(low),
                        json_number(high)
                    );
                };
                match cells {
                    Cells::One(cells) => {
                        for (i, (at, count)) in cells.into_iter().enumerate() {
                            out.extend_from_slice(if i > 0 { b",{\"value\":" } else { b"{\"value\":" });
                            at.write_json(out);
                            share(out, count);
                        }
                    }
                    Cells::Two(cells) => {
                        for (i, ((row, column), count)) in cells.into_iter().enumerate() {
                            out.extend_from_slice(if i > 0 { b",{\"row\":" } else { b"{\"row\":" });
                            row.write_json(out);
                            out.extend_from_slice(b",\"column\":");
                            column.write_json(out);
                            share(out, count);
                        }
                    }
                }
                out.extend_from_slice(b"]}");
            }
            _ => out.extend_from_slice(b"}"),
        }
        true
    }

    /// The statistic's 95 % intervals as text, after its table (the `intervals` option): an
    /// average's interval and standard error; each counted cell's share with Wilson's interval.
    pub(crate) fn write_intervals(&self, out: &mut Vec<u8>) {
        let percent = |v: f64| format!("{:.2}", 100.0 * v);
        if let Tally::Average(a) = self {
            let e = a.estimate();
            let (low, high) = e.interval();
            let known = |v: f64| if v.is_finite() { format!("{v:.4}") } else { "-".to_string() };
            let _ =
                writeln!(out, "95 % interval {} to {} (standard error {})", known(low), known(high), known(e.error));
            return;
        }
        let Some((_, Some(cells))) = self.kind() else { return };
        let n: i64 = cells.counts().iter().sum();
        let name = |at: CellLabel| match at {
            CellLabel::Low => "Low".to_string(),
            CellLabel::Value(v) => v.to_string(),
            CellLabel::High => "High".to_string(),
        };
        let mut lines: Vec<(String, i64)> = match cells {
            Cells::One(cells) => cells.into_iter().map(|(at, c)| (name(at), c)).collect(),
            Cells::Two(cells) => {
                cells.into_iter().map(|((r, c), count)| (format!("{} {}", name(r), name(c)), count)).collect()
            }
        };
        lines.retain(|(_, count)| *count > 0);
        let _ = writeln!(out, "95 % intervals of the shares (Wilson), in % of {n} deals:");
        for (at, count) in lines {
            let (low, high) = wilson(n as u64, count as u64);
            let _ = writeln!(out, "{at}\t{}\t{} to {}", percent(count as f64 / n as f64), percent(low), percent(high));
        }
    }
}

/// The label of a statistics action.
pub(crate) fn label(action: &CompiledAction) -> Option<&str> {
    match action {
        CompiledAction::Average { label, .. }
        | CompiledAction::Frequency { label, .. }
        | CompiledAction::Frequency2 { label, .. }
        | CompiledAction::BucketFrequency { label, .. }
        | CompiledAction::BucketFrequency2 { label, .. } => label.as_deref(),
        _ => None,
    }
}
