//! The limits of the statistics' tables (`frequency`, `bktfreq`) that a program checks when it
//! is compiled: the tables classic dealer cannot allocate (`Out of memory`), DealerV2's bucket
//! layouts that cannot be built, and the sizes this library refuses. The actions build the
//! tables after these checks.

use std::fmt;

use crate::error::{Error, ErrorKind, Result};
use crate::script::ast::Pos;

/// Why a bucket table cannot be built (DealerV2 would divide by zero or allocate a negative size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableError {
    /// The bucket size is zero or negative.
    NonPositiveBucketSize,
    /// `hi` is so far below `lo` that the table would have fewer than two buckets.
    InvertedRange,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::NonPositiveBucketSize => write!(f, "bktfreq bucket size must be positive"),
            TableError::InvertedRange => write!(f, "bktfreq upper bound is below the lower bound"),
        }
    }
}

impl std::error::Error for TableError {}

/// The number of buckets of a `bktfreq` dimension `lo..hi` by `size`, `3 + (hi − lo) / size`
/// (Low, the buckets, High), as DealerV2 computes it; an error where DealerV2 would divide by
/// zero or allocate a negative size.
pub fn bucket_count(lo: i32, hi: i32, size: i32) -> std::result::Result<i64, TableError> {
    if size <= 0 {
        return Err(TableError::NonPositiveBucketSize);
    }
    // C truncating division, as the peer computes it.
    let num = 3 + (hi as i64 - lo as i64) / size as i64;
    if num < 2 {
        return Err(TableError::InvertedRange);
    }
    Ok(num)
}

/// Whether classic dealer fails with `Out of memory` (exit 255) when building a 1-D frequency
/// table: its `calloc` gets the negative size `hi − lo + 1`.
pub fn classic_frequency_allocation_fails(lo: i32, hi: i32) -> bool {
    (hi as i64) - (lo as i64) + 1 < 0
}

/// Whether classic dealer fails with `Out of memory` (exit 255) when building a 2-D frequency
/// table: the `int` product `(hi1 − lo1 + 3) × (hi2 − lo2 + 3)` is negative (two negative
/// dimensions allocate fine and print an empty table).
pub fn classic_frequency2d_allocation_fails(rows: (i32, i32), cols: (i32, i32)) -> bool {
    let r = rows.1.wrapping_sub(rows.0).wrapping_add(3);
    let c = cols.1.wrapping_sub(cols.0).wrapping_add(3);
    r.wrapping_mul(c) < 0
}

/// Classic dealer's message when it cannot allocate a frequency table.
pub(crate) const OUT_OF_MEMORY: &str = "Out of memory";

/// Classic dealer's allocation failure: printed without a line (it happens after parsing), exit
/// status 255.
pub(crate) fn out_of_memory() -> Error {
    Error::new(ErrorKind::Script, OUT_OF_MEMORY)
}

/// The largest number of values or cells a frequency table may have.
const MAX_TABLE_VALUES: i64 = 10_000_000;

/// Refuses frequency tables that would not fit in memory (a limit of this library; the tables
/// classic dealer cannot allocate are found by the caller).
pub(crate) fn check_range(lo: i32, hi: i32, pos: Pos) -> Result<()> {
    if (hi as i64) - (lo as i64) > MAX_TABLE_VALUES {
        return Err(Error::script("frequency range too large (at most 10000000 values)", pos.line, pos.col));
    }
    Ok(())
}

/// The same for 2-D frequency tables.
pub(crate) fn check_ranges(rows: (i32, i32), cols: (i32, i32), pos: Pos) -> Result<()> {
    let span = |(lo, hi): (i32, i32)| ((hi as i64) - (lo as i64) + 3).max(1);
    if span(rows).saturating_mul(span(cols)) > MAX_TABLE_VALUES {
        return Err(Error::script("frequency table too large (at most 10000000 cells)", pos.line, pos.col));
    }
    Ok(())
}

/// Refuses bucket tables that cannot be built or would not fit in memory.
pub(crate) fn check_buckets(lo: i32, hi: i32, size: i32, pos: Pos) -> Result<()> {
    bucket_count(lo, hi, size).map_err(|e| Error::script(e.to_string(), pos.line, pos.col))?;
    if ((hi as i64) - (lo as i64)) / size as i64 > MAX_TABLE_VALUES {
        return Err(Error::script("bktfreq range too large", pos.line, pos.col));
    }
    Ok(())
}
