//! End-of-run statistics: `average`, `frequency` (1-D and 2-D) and DealerV2's `bktfreq` (1-D and
//! 2-D). Each accumulator takes one evaluated value (or pair) per produced deal and writes the
//! peer's exact table at the end.
//!
//! Accumulation emulates the peers' C integer types: classic's average sum is a wrapping 32-bit
//! `int`; DealerV2's sum and square sum are `long`s, the square being a wrapping `int` product.
//! Degenerate ranges (bounds inverted) never panic: values outside the table are dropped, and
//! rows/columns with a negative count print nothing, which is what the peers print.

use std::io::Write;

use super::cformat::{format_g, write_fixed};
use super::precision::{CellLabel, Estimate};
use crate::dialect::Dialect;
use crate::program::table_limits::bucket_count;
pub use crate::program::table_limits::{
    classic_frequency2d_allocation_fails, classic_frequency_allocation_fails, TableError,
};

/// Appends `"%s: "` for a present label (an empty label still gives `": "`).
fn write_label_prefix(out: &mut Vec<u8>, label: Option<&str>) {
    if let Some(l) = label {
        out.extend_from_slice(l.as_bytes());
        out.extend_from_slice(b": ");
    }
}

/// `average ["label"] expr`.
#[derive(Clone, Debug, Default)]
pub struct Average {
    /// DealerV2's `long` sum.
    sum: i64,
    /// Classic's `int` sum, wrapping at 2³¹.
    classic_sum: i32,
    /// DealerV2's `long` sum of `int` squares.
    square_sum: i64,
    /// Number of values added.
    count: i64,
}

impl Average {
    /// An empty accumulator.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one produced deal's value.
    pub fn add(&mut self, v: i32) {
        self.sum = self.sum.wrapping_add(v as i64);
        self.classic_sum = self.classic_sum.wrapping_add(v);
        self.square_sum = self.square_sum.wrapping_add(v.wrapping_mul(v) as i64);
        self.count += 1;
    }

    /// Adds the values another accumulator counted: the same as adding them one by one (the
    /// sums wrap, so the order does not matter).
    pub fn merge(&mut self, other: &Average) {
        self.sum = self.sum.wrapping_add(other.sum);
        self.classic_sum = self.classic_sum.wrapping_add(other.classic_sum);
        self.square_sum = self.square_sum.wrapping_add(other.square_sum);
        self.count += other.count;
    }

    /// Number of values added.
    pub fn count(&self) -> i64 {
        self.count
    }

    /// The mean with its standard error (from DealerV2's sums).
    pub fn estimate(&self) -> Estimate {
        Estimate::of_sums(self.count.max(0) as u64, self.sum as f64, self.square_sum as f64)
    }

    /// The running state as integers: the sums and the count.
    pub fn counts(&self) -> Vec<i64> {
        vec![self.sum, i64::from(self.classic_sum), self.square_sum, self.count]
    }

    /// Adds a running state [`counts`](Self::counts) gave (of another accumulator); `false`, and
    /// nothing added, when `counts` is not one.
    pub fn add_counts(&mut self, counts: &[i64]) -> bool {
        let &[sum, classic_sum, square_sum, count] = counts else { return false };
        let Ok(classic_sum) = i32::try_from(classic_sum) else { return false };
        if count < 0 {
            return false;
        }
        self.merge(&Average { sum, classic_sum, square_sum, count });
        true
    }

    /// Writes the end-of-run line: classic `[label: ]%g\n`; DealerV2
    /// `[label: ]Mean=%10.4f, Std Dev=%10.4f, Var=%10.4f, Sample Size=%ld \n`.
    pub fn write(&self, out: &mut Vec<u8>, dialect: Dialect, label: Option<&str>) {
        write_label_prefix(out, label);
        let n = self.count as f64;
        match dialect {
            Dialect::Classic => {
                let mean = self.classic_sum as f64 / n;
                out.extend_from_slice(format_g(mean, 6).as_bytes());
                out.push(b'\n');
            }
            Dialect::V2 => {
                let sum = self.sum as f64;
                let mean = sum / n;
                let divisor = if self.count > 1 { (self.count - 1) as f64 } else { 1.0 };
                let var = (self.square_sum as f64 - sum * sum / n) / divisor;
                let std_dev = var.sqrt();
                out.extend_from_slice(b"Mean=");
                write_fixed(out, mean, 10, 4);
                out.extend_from_slice(b", Std Dev=");
                write_fixed(out, std_dev, 10, 4);
                out.extend_from_slice(b", Var=");
                write_fixed(out, var, 10, 4);
                let _ = writeln!(out, ", Sample Size={} ", self.count);
            }
        }
    }
}

/// Percentage of `count` in `total` as the peers compute it: `count / (total / 100.0)`.
fn percent(count: i64, total: i64) -> f64 {
    count as f64 / (total as f64 / 100.0)
}

/// Appends one DealerV2 percentage row `<label>\t%8d\t%7.2f\t%7.2f\n` and advances the running sum.
fn write_pct_row(out: &mut Vec<u8>, label: &str, count: i64, total: i64, cumulative: &mut f64) {
    let pct = percent(count, total);
    *cumulative += pct;
    let _ = write!(out, "{}\t{:8}\t", label, count);
    write_fixed(out, pct, 7, 2);
    out.push(b'\t');
    write_fixed(out, *cumulative, 7, 2);
    out.push(b'\n');
}

/// The `%5d` label of a value row.
fn value_label(v: i64) -> String {
    format!("{:5}", v)
}

/// 1-D `frequency ["label"] (expr, lo, hi)`.
#[derive(Clone, Debug)]
pub struct Frequency1D {
    lo: i64,
    hi: i64,
    counts: Vec<i64>,
    below: i64,
    above: i64,
}

impl Frequency1D {
    /// An empty table for the values `lo..=hi` (plus Low and High).
    pub fn new(lo: i32, hi: i32) -> Self {
        let (lo, hi) = (lo as i64, hi as i64);
        let len = (hi - lo + 1).max(0) as usize;
        Frequency1D { lo, hi, counts: vec![0; len], below: 0, above: 0 }
    }

    /// Adds one produced deal's value.
    pub fn add(&mut self, v: i32) {
        let v = v as i64;
        if v < self.lo {
            self.below += 1;
        } else if v > self.hi {
            self.above += 1;
        } else if let Some(c) = self.counts.get_mut((v - self.lo) as usize) {
            *c += 1;
        }
    }

    /// Every count with where it stands: below the bounds, each value, above them.
    pub fn cells(&self) -> Vec<(CellLabel, i64)> {
        let values = self.counts.iter().enumerate().map(|(i, &c)| (CellLabel::Value(self.lo + i as i64), c));
        std::iter::once((CellLabel::Low, self.below)).chain(values).chain([(CellLabel::High, self.above)]).collect()
    }

    /// The running state as integers: below the bounds, above them, then each value's count.
    pub fn counts(&self) -> Vec<i64> {
        [self.below, self.above].into_iter().chain(self.counts.iter().copied()).collect()
    }

    /// Adds a running state [`counts`](Self::counts) gave (of a table of the same bounds);
    /// `false`, and nothing added, when `counts` is not one.
    pub fn add_counts(&mut self, counts: &[i64]) -> bool {
        if counts.len() != self.counts.len() + 2 || counts.iter().any(|&c| c < 0) {
            return false;
        }
        self.below += counts[0];
        self.above += counts[1];
        for (count, more) in self.counts.iter_mut().zip(&counts[2..]) {
            *count += more;
        }
        true
    }

    /// Adds the values another table of the same bounds counted.
    pub fn merge(&mut self, other: &Frequency1D) {
        debug_assert_eq!((self.lo, self.hi), (other.lo, other.hi));
        for (count, more) in self.counts.iter_mut().zip(&other.counts) {
            *count += more;
        }
        self.below += other.below;
        self.above += other.above;
    }

    /// Writes the table: classic `Frequency %s:` with counts only; DealerV2 `Description:` with
    /// Count, Pct. and CumPct columns and a Total row.
    pub fn write(&self, out: &mut Vec<u8>, dialect: Dialect, label: Option<&str>) {
        let label = label.unwrap_or("");
        match dialect {
            Dialect::Classic => {
                let _ = writeln!(out, "Frequency {}:", label);
                if self.below > 0 {
                    let _ = writeln!(out, "Low\t{:8}", self.below);
                }
                for (i, c) in self.counts.iter().enumerate() {
                    let _ = writeln!(out, "{:5}\t{:8}", self.lo + i as i64, c);
                }
                if self.above > 0 {
                    let _ = writeln!(out, "High\t{:8}", self.above);
                }
            }
            Dialect::V2 => {
                let total = self.below + self.above + self.counts.iter().sum::<i64>();
                let _ = write!(out, "\nDescription: {}:\nValue\t   Count\t   Pct.\t  CumPct\n", label);
                let mut cumulative = 0.0;
                if self.below > 0 {
                    write_pct_row(out, "Low", self.below, total, &mut cumulative);
                }
                for (i, c) in self.counts.iter().enumerate() {
                    write_pct_row(out, &value_label(self.lo + i as i64), *c, total, &mut cumulative);
                }
                if self.above > 0 {
                    write_pct_row(out, "High", self.above, total, &mut cumulative);
                }
                let _ = write!(out, "    \t--------\t-------\nTotal\t{:8}\t", total);
                write_fixed(out, 100.0, 7, 2);
                out.push(b'\n');
            }
        }
    }
}

/// A rectangular table of counts with a row and a column per bucket, shared by the 2-D tables.
#[derive(Clone, Debug)]
struct Grid {
    rows: usize,
    cols: usize,
    cells: Vec<i64>,
}

impl Grid {
    /// A zero grid; negative dimensions count as empty.
    fn new(rows: i64, cols: i64) -> Self {
        let rows = rows.max(0) as usize;
        let cols = cols.max(0) as usize;
        Grid { rows, cols, cells: vec![0; rows * cols] }
    }

    /// Counts one cell; indexes outside the grid are dropped.
    fn add(&mut self, row: i64, col: i64) {
        if row >= 0 && col >= 0 && (row as usize) < self.rows && (col as usize) < self.cols {
            self.cells[row as usize * self.cols + col as usize] += 1;
        }
    }

    /// Every cell's count with its (row, column) labels.
    fn cells<L: Copy>(&self, row: impl Fn(usize) -> L, column: impl Fn(usize) -> L) -> Vec<((L, L), i64)> {
        let mut cells = Vec::with_capacity(self.cells.len());
        for r in 0..self.rows {
            for c in 0..self.cols {
                cells.push(((row(r), column(c)), self.cells[r * self.cols + c]));
            }
        }
        cells
    }

    fn row(&self, r: usize) -> &[i64] {
        &self.cells[r * self.cols..(r + 1) * self.cols]
    }

    fn column_sum(&self, c: usize) -> i64 {
        (0..self.rows).map(|r| self.cells[r * self.cols + c]).sum()
    }
}

/// The frequency-table index of a value: 0 for Low, `hi − lo + 2` for High, else `v − lo + 1`.
fn frequency_index(v: i32, lo: i64, hi: i64) -> i64 {
    let v = v as i64;
    if v < lo {
        0
    } else if v > hi {
        hi - lo + 2
    } else {
        v - lo + 1
    }
}

/// 2-D `frequency ["label"] (e1, lo1, hi1, e2, lo2, hi2)`: rows are e1, columns e2; Low and High
/// rows and columns are always printed.
#[derive(Clone, Debug)]
pub struct Frequency2D {
    rows: (i64, i64),
    cols: (i64, i64),
    grid: Grid,
}

impl Frequency2D {
    /// An empty table for rows `lo1..=hi1` and columns `lo2..=hi2`.
    pub fn new(rows: (i32, i32), cols: (i32, i32)) -> Self {
        let rows = (rows.0 as i64, rows.1 as i64);
        let cols = (cols.0 as i64, cols.1 as i64);
        let grid = Grid::new(rows.1 - rows.0 + 3, cols.1 - cols.0 + 3);
        Frequency2D { rows, cols, grid }
    }

    /// Every count with where it stands: (row, column), Low and High included.
    pub fn cells(&self) -> Vec<((CellLabel, CellLabel), i64)> {
        let label = |index: usize, bounds: (i64, i64), last: usize| match index {
            0 => CellLabel::Low,
            i if i == last => CellLabel::High,
            i => CellLabel::Value(bounds.0 + i as i64 - 1),
        };
        self.grid.cells(|r| label(r, self.rows, self.grid.rows - 1), |c| label(c, self.cols, self.grid.cols - 1))
    }

    /// Adds one produced deal's pair of values.
    pub fn add(&mut self, v1: i32, v2: i32) {
        let r = frequency_index(v1, self.rows.0, self.rows.1);
        let c = frequency_index(v2, self.cols.0, self.cols.1);
        self.grid.add(r, c);
    }

    /// Writes the table: classic `Frequency %s:` with `%6d` cells; DealerV2 `Description:` with
    /// `%8d` cells.
    pub fn write(&self, out: &mut Vec<u8>, dialect: Dialect, label: Option<&str>) {
        let label = label.unwrap_or("");
        let (w, header_tail) = match dialect {
            Dialect::Classic => {
                let _ = writeln!(out, "Frequency {}:", label);
                (6, "   High    Sum\n")
            }
            Dialect::V2 => {
                let _ = write!(out, "\nDescription: {}:\n", label);
                (8, "    High     Sum\n")
            }
        };
        out.extend_from_slice(b"        Low");
        for v in self.cols.0..=self.cols.1 {
            let _ = write!(out, " {:w$}", v, w = w);
        }
        out.extend_from_slice(header_tail.as_bytes());
        let g = &self.grid;
        for r in 0..g.rows {
            if r == 0 {
                out.extend_from_slice(b"Low ");
            } else if r + 1 == g.rows {
                out.extend_from_slice(b"High");
            } else {
                let _ = write!(out, "{:4}", self.rows.0 + r as i64 - 1);
            }
            for c in g.row(r) {
                let _ = write!(out, " {:w$}", c, w = w);
            }
            let _ = writeln!(out, " {:w$}", g.row(r).iter().sum::<i64>(), w = w);
        }
        out.extend_from_slice(b"Sum ");
        let mut total = 0;
        for c in 0..g.cols {
            let s = g.column_sum(c);
            total += s;
            let _ = write!(out, " {:w$}", s, w = w);
        }
        let _ = write!(out, " {:w$}\n\n", total, w = w);
    }
}

/// The bucket layout of one `bktfreq` dimension: bucket 0 is Low, buckets `1..num−1` start at
/// `lo + (i − 1) × size`, bucket `num − 1` is High.
#[derive(Clone, Copy, Debug)]
struct Buckets {
    lo: i64,
    size: i64,
    num: i64,
}

impl Buckets {
    fn new(lo: i32, hi: i32, size: i32) -> Result<Self, TableError> {
        let num = bucket_count(lo, hi, size)?;
        Ok(Buckets { lo: lo as i64, size: size as i64, num })
    }

    fn index(&self, v: i32) -> i64 {
        let v = v as i64;
        if v < self.lo {
            0
        } else if v >= self.lo + (self.num - 2) * self.size {
            self.num - 1
        } else {
            1 + (v - self.lo) / self.size
        }
    }

    /// Label of bucket `i` (1..num−1).
    fn label(&self, i: i64) -> i64 {
        self.lo + (i - 1) * self.size
    }

    /// Where bucket `i` stands: Low, its first value, High.
    fn cell_label(&self, i: i64) -> CellLabel {
        match i {
            0 => CellLabel::Low,
            i if i == self.num - 1 => CellLabel::High,
            i => CellLabel::Value(self.label(i)),
        }
    }
}

/// 1-D `bktfreq ["label"] (expr, lo, hi, size)` (DealerV2 only).
#[derive(Clone, Debug)]
pub struct BucketFrequency1D {
    buckets: Buckets,
    counts: Vec<i64>,
}

impl BucketFrequency1D {
    /// An empty table of `3 + (hi − lo) / size` buckets.
    pub fn new(lo: i32, hi: i32, size: i32) -> Result<Self, TableError> {
        let buckets = Buckets::new(lo, hi, size)?;
        Ok(BucketFrequency1D { buckets, counts: vec![0; buckets.num as usize] })
    }

    /// Every bucket's count with where it stands (Low and High included).
    pub fn cells(&self) -> Vec<(CellLabel, i64)> {
        self.counts.iter().enumerate().map(|(i, &c)| (self.buckets.cell_label(i as i64), c)).collect()
    }

    /// Adds one produced deal's value.
    pub fn add(&mut self, v: i32) {
        let i = self.buckets.index(v) as usize;
        self.counts[i] += 1;
    }

    /// The running state as integers: each bucket's count.
    pub fn counts(&self) -> Vec<i64> {
        self.counts.clone()
    }

    /// Adds a running state [`counts`](Self::counts) gave (of a table of the same buckets);
    /// `false`, and nothing added, when `counts` is not one.
    pub fn add_counts(&mut self, counts: &[i64]) -> bool {
        if counts.len() != self.counts.len() || counts.iter().any(|&c| c < 0) {
            return false;
        }
        for (count, more) in self.counts.iter_mut().zip(counts) {
            *count += more;
        }
        true
    }

    /// Adds the values another table of the same buckets counted.
    pub fn merge(&mut self, other: &BucketFrequency1D) {
        debug_assert_eq!(self.counts.len(), other.counts.len());
        for (count, more) in self.counts.iter_mut().zip(&other.counts) {
            *count += more;
        }
    }

    /// Writes DealerV2's `show_freq1D` table.
    pub fn write(&self, out: &mut Vec<u8>, label: Option<&str>) {
        let total: i64 = self.counts.iter().sum();
        let _ = write!(out, "\nDescription: {}\nValue\t   Count\t   Pct.\t  CumPct\n", label.unwrap_or(""));
        let last = self.counts.len() - 1;
        let mut cumulative = 0.0;
        for (i, &c) in self.counts.iter().enumerate() {
            if i == 0 {
                if c > 0 {
                    write_pct_row(out, "Low", c, total, &mut cumulative);
                }
            } else if i == last {
                if c > 0 {
                    write_pct_row(out, "High", c, total, &mut cumulative);
                }
            } else {
                let name = value_label(self.buckets.label(i as i64));
                write_pct_row(out, &name, c, total, &mut cumulative);
            }
        }
        let _ = write!(out, "    \t--------\nTotal\t{:8}\t", total);
        write_fixed(out, 100.0, 7, 2);
        out.push(b'\n');
    }
}

/// 2-D `bktfreq ["label"] (e1, lo1, hi1, sz1, e2, lo2, hi2, sz2)` (DealerV2 only).
#[derive(Clone, Debug)]
pub struct BucketFrequency2D {
    rows: Buckets,
    cols: Buckets,
    grid: Grid,
}

impl BucketFrequency2D {
    /// Every count with where it stands: (row bucket, column bucket).
    pub fn cells(&self) -> Vec<((CellLabel, CellLabel), i64)> {
        self.grid.cells(|r| self.rows.cell_label(r as i64), |c| self.cols.cell_label(c as i64))
    }

    /// An empty table; each dimension is `(lo, hi, size)`.
    pub fn new(rows: (i32, i32, i32), cols: (i32, i32, i32)) -> Result<Self, TableError> {
        let rows = Buckets::new(rows.0, rows.1, rows.2)?;
        let cols = Buckets::new(cols.0, cols.1, cols.2)?;
        Ok(BucketFrequency2D { rows, cols, grid: Grid::new(rows.num, cols.num) })
    }

    /// Adds one produced deal's pair of values.
    pub fn add(&mut self, v1: i32, v2: i32) {
        self.grid.add(self.rows.index(v1), self.cols.index(v2));
    }

    /// Writes DealerV2's `show_freq2D` table.
    pub fn write(&self, out: &mut Vec<u8>, label: Option<&str>) {
        let g = &self.grid;
        let _ = write!(out, "\nDescription: {} \n           Low", label.unwrap_or(""));
        for j in 1..self.cols.num - 1 {
            let _ = write!(out, " {:8}", self.cols.label(j));
        }
        out.extend_from_slice(b"     High    Sum\n");
        for r in 0..g.rows {
            if r == 0 {
                out.extend_from_slice(b" Low ");
            } else if r + 1 == g.rows {
                out.extend_from_slice(b"High ");
            } else {
                let _ = write!(out, "{:4} ", self.rows.label(r as i64));
            }
            for c in g.row(r) {
                let _ = write!(out, " {:8}", c);
            }
            let _ = writeln!(out, " {:8}", g.row(r).iter().sum::<i64>());
        }
        out.extend_from_slice(b"Sum  ");
        let mut total = 0;
        for c in 0..g.cols {
            let s = g.column_sum(c);
            total += s;
            let _ = write!(out, " {:8}", s);
        }
        let _ = writeln!(out, " {:8}", total);
    }
}

/// The figures of one DealerV2 `evalcontract(side, CONTRACT, vul)` summary, already computed by
/// the caller from its per-deal trick histogram and the score tables (`showevalcontract`).
#[derive(Clone, Copy, Debug)]
pub struct EvalContractSummary {
    /// The contract evaluated.
    pub contract: crate::script::ast::Contract,
    /// `vul` (prints `V`) or `nv`.
    pub vulnerable: bool,
    /// The declaring side (declarer South for NS, West for EW).
    pub side: crate::cards::Side,
    /// Total score / number of deals.
    pub average_score: f64,
    /// Percentage of deals with a positive score.
    pub made_pct: f64,
    /// Percentage of deals with a negative score.
    pub fail_pct: f64,
    /// Percentage of deals where a game was missed.
    pub missed_game_pct: f64,
    /// Percentage of deals where a slam was missed.
    pub missed_slam_pct: f64,
    /// Missed-game IMPs per board.
    pub missed_game_imps: f64,
    /// Missed-slam IMPs per board.
    pub missed_slam_imps: f64,
}

/// Writes one `evalcontract` summary: the contract as `"%d%c%s %c"` in a `%6s` field, then
/// `% 8.2f`/`% 7.2f` figures over two lines, preceded by a blank line.
pub fn write_evalcontract(out: &mut Vec<u8>, s: &EvalContractSummary) {
    use super::cformat::write_fixed_space;
    let c = s.contract;
    let doubles = match c.doubled {
        0 => " ",
        1 => "x",
        _ => "xx",
    };
    let name = format!(
        "{}{}{} {}",
        c.level,
        b"CDHSN"[c.strain.index()] as char,
        doubles,
        if s.vulnerable { 'V' } else { ' ' }
    );
    let _ = write!(out, "\nContract {:>6} by {:>2} Avg Result =", name, s.side.name());
    write_fixed_space(out, s.average_score, 8, 2);
    out.extend_from_slice(b", Made pct=");
    write_fixed_space(out, s.made_pct, 7, 2);
    out.extend_from_slice(b", Fail pct=");
    write_fixed_space(out, s.fail_pct, 7, 2);
    out.extend_from_slice(b"\nMissed Game_pct=");
    write_fixed_space(out, s.missed_game_pct, 7, 2);
    out.extend_from_slice(b", Missed Slam_pct=");
    write_fixed_space(out, s.missed_slam_pct, 7, 2);
    out.extend_from_slice(b", Missed Game Imps/board=");
    write_fixed_space(out, s.missed_game_imps, 7, 2);
    out.extend_from_slice(b", Missed Slam Imps/board=");
    write_fixed_space(out, s.missed_slam_imps, 7, 2);
    out.push(b'\n');
}

/// DealerV2's `evalcontract(side, CONTRACT, vul)` accumulator: how often declarer took each
/// number of tricks, turned into an [`EvalContractSummary`] at the end (`showevalcontract`).
#[derive(Clone, Debug)]
pub struct EvalContractTally {
    contract: crate::script::ast::Contract,
    vulnerable: bool,
    side: crate::cards::Side,
    /// Deals on which declarer took 0..=13 tricks.
    tricks: [i64; 14],
}

impl EvalContractTally {
    /// An empty histogram for one contract.
    pub fn new(side: crate::cards::Side, contract: crate::script::ast::Contract, vulnerable: bool) -> Self {
        EvalContractTally { contract, vulnerable, side, tricks: [0; 14] }
    }

    /// Counts one produced deal on which declarer took `tricks` tricks.
    pub fn add(&mut self, tricks: u8) {
        self.tricks[usize::from(tricks.min(13))] += 1;
    }

    /// The end-of-run figures. The contract scores doubled or redoubled as written; missed games
    /// and slams compare undoubled scores in the same strain, and are only counted below game
    /// (3NT, 4 of a major, 5 of a minor) and below the six level. Twelve tricks are compared with
    /// the six level, thirteen with the seven level. IMPs use DealerV2's table, bug included.
    pub fn summary(&self) -> EvalContractSummary {
        use crate::dialect::Dialect;
        use crate::program::scoring::{imps, score};
        let c = self.contract;
        let vul = self.vulnerable;
        let at = |level: u8, doubled: u8, t: usize| {
            score(Dialect::V2, vul, &crate::script::ast::Contract { level, doubled, ..c }, t as i32) as i64
        };
        let deals: i64 = self.tricks.iter().sum();
        let (mut total, mut made, mut failed) = (0i64, 0i64, 0i64);
        for (t, &n) in self.tricks.iter().enumerate() {
            let s = at(c.level, c.doubled, t);
            total += n * s;
            made += if s > 0 { n } else { 0 };
            failed += if s < 0 { n } else { 0 };
        }
        let game = match c.strain {
            crate::cards::Strain::Notrump => 3,
            crate::cards::Strain::Suit(s) if s.index() >= 2 => 4,
            crate::cards::Strain::Suit(_) => 5,
        };
        let (mut missed_games, mut game_imps) = (0i64, 0i64);
        if c.level < game {
            for t in usize::from(game) + 6..=13 {
                let n = self.tricks[t];
                missed_games += n;
                game_imps += n * imps(Dialect::V2, (at(game, 0, t) - at(c.level, 0, t)) as i32) as i64;
            }
        }
        let (mut missed_slams, mut slam_imps) = (0i64, 0i64);
        if c.level < 6 {
            for (t, slam) in [(12usize, 6u8), (13, 7)] {
                let n = self.tricks[t];
                missed_slams += n;
                slam_imps += n * imps(Dialect::V2, (at(slam, 0, t) - at(c.level, 0, t)) as i32) as i64;
            }
        }
        let per = |x: i64| x as f64 / deals as f64;
        EvalContractSummary {
            contract: c,
            vulnerable: vul,
            side: self.side,
            average_score: per(total),
            made_pct: per(100 * made),
            fail_pct: per(100 * failed),
            missed_game_pct: per(100 * missed_games),
            missed_slam_pct: per(100 * missed_slams),
            missed_game_imps: per(game_imps),
            missed_slam_imps: per(slam_imps),
        }
    }
}
