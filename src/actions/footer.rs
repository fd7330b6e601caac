//! The end-of-run statistics footer (`Generated … / Produced … / Initial random seed … / Time
//! needed …`) and the `-m` progress meter text, in both peers' formats.

use std::io::Write;

use crate::cards::Seat;
use crate::dialect::Dialect;

/// A seat's part of the condition (or a pair's, read on the two hands together) counted
/// exactly by smart dealing: how many of the hands the seat may hold satisfy it (reported
/// after the statistics and in the JSON summary).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SmartCount {
    /// The seat.
    pub seat: Seat,
    /// For a pair's part: the other seat of the pair (the counts are then of the 26-card
    /// holdings the two may hold together).
    pub partner: Option<Seat>,
    /// Hands that satisfy the seat's part of the condition.
    pub accepted: u64,
    /// Hands the seat may hold (after the card predeal).
    pub possible: u64,
    /// Under bias predeal: the exact share of the deals meeting the predeal and the bias
    /// whose seat's hand satisfies its part of the condition.
    pub share_under_bias: Option<f64>,
    /// Whether the seat was dealt from the exact table of those hands.
    pub dealt_from_table: bool,
}

impl SmartCount {
    /// `possible / accepted` as people read odds: two decimals below 10, one below 100, then
    /// whole with thousands separators (`2,041`).
    pub fn odds_text(&self) -> String {
        odds_text(self.possible as f64 / self.accepted.max(1) as f64)
    }
}

/// Odds (`1 in odds`) as people read them: two decimals below 10, one below 100, then whole
/// with thousands separators.
fn odds_text(odds: f64) -> String {
    if odds < 10.0 {
        format!("{odds:.2}")
    } else if odds < 100.0 {
        format!("{odds:.1}")
    } else {
        grouped(odds.round() as u64)
    }
}

/// `n` with a comma between each group of three digits.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() * 4 / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// DealerV2's `-L` (library mode) counters, printed instead of the seed line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LibraryCounts {
    /// Library records read.
    pub records_read: i64,
    /// Times the library file wrapped around.
    pub wrap_arounds: i64,
}

/// What a run reading its deals from a file (`input`) read: printed after the seed line
/// (`Input FILE (pbn): N records read, …`) and as the JSON summary's `input`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputCounts<'a> {
    /// The input's name (its path, `standard input` or `input data`).
    pub name: &'a str,
    /// Its format (`pbn`, `lin`…).
    pub format: &'static str,
    /// Records read, malformed and skipped ones included.
    pub records_read: u64,
    /// Malformed records skipped (`input_errors` `skip`).
    pub malformed: u64,
    /// Records skipped because their deal contradicts the predeal.
    pub off_predeal: u64,
    /// Double-dummy tables read from the records (not solved).
    pub dd_read: u64,
    /// Tables read and checked by solving (`verify_dd`).
    pub dd_verified: u64,
}

/// What double dummy cost a run: the solves by kind, and the threshold questions the cards
/// answered without a solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DdCount {
    /// Threshold questions ("does declarer take at least N tricks?") solved.
    pub thresholds: u64,
    /// Single results solved exactly.
    pub exact: u64,
    /// Whole tables solved.
    pub tables: u64,
    /// Threshold questions the cards alone answered.
    pub by_the_cards: u64,
    /// Searches of every opening lead at once (`leads`).
    pub leads: u64,
}

/// What the precision rule wanted of a run and what it reached.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrecisionReached {
    /// The widest 95 % interval wanted.
    pub wanted: f64,
    /// The widest 95 % interval of the run's statistics at its end.
    pub widest: f64,
}

/// What the end-of-run footer reports.
#[derive(Clone, Copy, Debug)]
pub struct RunSummary<'a> {
    /// The title (DealerV2 prints it first, after a blank line; empty counts as none).
    pub title: Option<&'a str>,
    /// Deals generated (already corrected as the peer corrects it).
    pub generated: i64,
    /// Deals produced.
    pub produced: i64,
    /// The seed as the peer prints it with `%lu` (a negative `long` seed is its two's complement).
    pub seed_printed: u64,
    /// Elapsed seconds, printed with `%8.3f`.
    pub seconds: f64,
    /// DealerV2 `-L` mode: the library counters replace the seed line (`seed_printed` then becomes
    /// the library's starting seed). `None` otherwise; ignored by classic.
    pub library: Option<LibraryCounts>,
    /// The seat factors smart dealing counted (ChaCha only), one line each after `Time needed`.
    pub smart: &'a [SmartCount],
    /// What a run reading its deals from a file read (`None`: the deals were dealt).
    pub input: Option<InputCounts<'a>>,
    /// A practice run's boards of each hand type the script declares (the JSON summary's
    /// `hand_types`; empty otherwise).
    pub hand_types: &'a [(std::sync::Arc<str>, i64)],
    /// What double dummy cost (the JSON summary's `dd`; in the text footer only with
    /// `dd_line`); `None` when it was not counted.
    pub dd: Option<DdCount>,
    /// Whether the text footer ends with a line of the double-dummy counts (`-D2` or more;
    /// the peers' footer otherwise). Nothing is written when `dd` is `None`.
    pub dd_line: bool,
    /// The `leads` actions' tables (the JSON summary's `leads`; the text shows them with the
    /// other statistics).
    pub leads: &'a [crate::actions::LeadReport],
    /// What the precision rule (`precision`) wanted and reached; `None` without it.
    pub precision: Option<PrecisionReached>,
    /// The statistics with their 95 % intervals as a JSON array (the JSON summary's
    /// `statistics`; empty: none).
    pub statistics: &'a str,
}

/// Writes the end-of-run statistics. DealerV2 adds the title and spells `Produced  ` with two
/// spaces; classic uses one. DealerV2's own `-D2` call counters are not written here; with
/// `dd_line` (`-D2`) a last line says what double dummy cost:
/// `Double dummy: T threshold questions, E exact results, N tables solved; C answered by the cards`.
pub fn write_footer(out: &mut Vec<u8>, dialect: Dialect, s: &RunSummary) {
    match dialect {
        Dialect::Classic => {
            let _ = write!(
                out,
                "Generated {} hands\nProduced {} hands\nInitial random seed {}\n",
                s.generated, s.produced, s.seed_printed
            );
        }
        Dialect::V2 => {
            if let Some(t) = s.title.filter(|t| !t.is_empty()) {
                let _ = write!(out, "\n{}\n", t);
            }
            let _ = write!(out, "Generated {} hands\nProduced  {} hands\n", s.generated, s.produced);
            match s.library {
                None => {
                    let _ = writeln!(out, "Initial random seed {}", s.seed_printed);
                }
                Some(lib) => {
                    let _ = write!(
                        out,
                        "Library file records read {}, Wrap Arounds={}\nLibrary file starting seed {}\n",
                        lib.records_read, lib.wrap_arounds, s.seed_printed
                    );
                }
            }
        }
    }
    if let Some(input) = s.input {
        let mut line = format!("Input {} ({}): {} records read", input.name, input.format, input.records_read);
        for (count, what) in [
            (input.malformed, "malformed, skipped"),
            (input.off_predeal, "contradicting the predeal, skipped"),
            (input.dd_read, "double-dummy tables read"),
            (input.dd_verified, "tables verified by solving"),
        ] {
            if count > 0 {
                line.push_str(&format!(", {count} {what}"));
            }
        }
        let _ = writeln!(out, "{line}");
    }
    out.extend_from_slice(b"Time needed ");
    super::cformat::write_fixed(out, s.seconds, 8, 3);
    out.extend_from_slice(b" sec\n");
    for count in s.smart {
        let whose = match count.partner {
            None => format!("hand in {} satisfies {}'s", count.odds_text(), count.seat.name()),
            Some(partner) => format!(
                "pair of hands in {} satisfies {} and {}'s joint",
                count.odds_text(),
                count.seat.name(),
                partner.name()
            ),
        };
        let _ = writeln!(
            out,
            "Smart dealing: 1 {} part of the condition ({} of {}){}{}",
            whose,
            grouped(count.accepted),
            grouped(count.possible),
            match count.share_under_bias {
                Some(share) => format!("; under the bias predeal 1 deal in {}", odds_text(1.0 / share)),
                None => String::new(),
            },
            if count.dealt_from_table { ", dealt from their exact table" } else { "" }
        );
    }
    if let Some(p) = s.precision {
        let widest = if p.widest.is_finite() { format!("{:.4}", p.widest) } else { "not known".to_string() };
        let _ = writeln!(
            out,
            "Precision: widest 95 % interval {widest} after {} deals ({} {})",
            s.produced,
            if p.widest <= p.wanted { "reached" } else { "not reached:" },
            if p.widest <= p.wanted { format!("{} or less", p.wanted) } else { format!("{} wanted", p.wanted) }
        );
    }
    if let Some(dd) = s.dd.filter(|_| s.dd_line) {
        let _ = writeln!(
            out,
            "Double dummy: {} threshold questions, {} exact results, {} tables solved{}; {} answered by the cards",
            dd.thresholds,
            dd.exact,
            dd.tables,
            match dd.leads {
                0 => String::new(),
                n => format!(", {n} searches of every lead"),
            },
            dd.by_the_cards
        );
    }
}

/// The `-m` progress meter (stderr text; the same in both peers): `Calculating... %2d%%
/// complete\r` each time the integer percentage `100 × produced / maxproduce` changes, starting
/// at 0 %, and 38 blanks and `\r` at the end.
#[derive(Clone, Debug, Default)]
pub struct ProgressMeter {
    last_percent: i64,
}

impl ProgressMeter {
    /// A meter that has shown 0 %.
    pub fn new() -> Self {
        ProgressMeter { last_percent: 0 }
    }

    /// Appends the initial `Calculating...  0% complete\r`, written before the first deal.
    pub fn start(&mut self, out: &mut Vec<u8>) {
        self.last_percent = 0;
        out.extend_from_slice(b"Calculating...  0% complete\r");
    }

    /// After a produced deal: appends a new meter line if the percentage changed. Returns whether
    /// anything was written.
    pub fn update(&mut self, out: &mut Vec<u8>, produced: i64, maxproduce: i64) -> bool {
        if maxproduce <= 0 {
            return false;
        }
        let percent = 100 * produced / maxproduce;
        if percent == self.last_percent {
            return false;
        }
        self.last_percent = percent;
        let _ = write!(out, "Calculating... {:2}% complete\r", percent);
        true
    }

    /// Appends the closing blank-out: 38 spaces and `\r`.
    pub fn finish(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&[b' '; 38]);
        out.push(b'\r');
    }
}
