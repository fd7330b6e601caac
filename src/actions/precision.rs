//! How sure a statistic is: a mean with its standard error ([`Estimate`]) and 95 % intervals —
//! the normal interval of a mean, Wilson's interval of a share ([`wilson`]) — and the labels of
//! the cells of a frequency table ([`CellLabel`]) that such intervals are given for.
//!
//! Uses nothing of the crate: the statistics (`stats`, `leads`) and the actions' state build on it.

use std::io::Write;

/// The standard normal quantile of 97.5 %: a 95 % interval is the estimate ± this many
/// standard errors.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A mean over the deals and its standard error (NaN when there are too few deals to tell).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The mean.
    pub mean: f64,
    /// Its standard error.
    pub error: f64,
}

impl Estimate {
    /// The mean of `n` values from their sum and the sum of their squares, with the standard
    /// error from their sample variance.
    pub fn of_sums(n: u64, sum: f64, squares: f64) -> Estimate {
        if n == 0 {
            return Estimate { mean: f64::NAN, error: f64::NAN };
        }
        let count = n as f64;
        let mean = sum / count;
        let error = match n {
            1 => f64::NAN,
            _ => ((squares - sum * mean).max(0.0) / (count - 1.0) / count).sqrt(),
        };
        Estimate { mean, error }
    }

    /// The share of `n` deals that `hits` are, with its binomial standard error.
    pub fn of_share(n: u64, hits: u64) -> Estimate {
        if n == 0 {
            return Estimate { mean: f64::NAN, error: f64::NAN };
        }
        let share = hits as f64 / n as f64;
        Estimate { mean: share, error: (share * (1.0 - share) / n as f64).sqrt() }
    }

    /// The 95 % normal interval of the mean, `(low, high)` (NaN when the error is not known).
    pub fn interval(&self) -> (f64, f64) {
        (self.mean - Z95 * self.error, self.mean + Z95 * self.error)
    }

    /// The width of [`interval`](Self::interval) (infinite when the error is not known).
    pub fn width(&self) -> f64 {
        let width = 2.0 * Z95 * self.error;
        if width.is_finite() {
            width
        } else {
            f64::INFINITY
        }
    }
}

/// Wilson's 95 % score interval of a share: `hits` of `n` deals, `(low, high)`; `(0, 1)` without
/// deals. Unlike the normal interval it stays inside 0..1 and is not empty at 0 or `n` hits.
pub fn wilson(n: u64, hits: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let count = n as f64;
    let share = hits as f64 / count;
    let z2 = Z95 * Z95;
    let denominator = 1.0 + z2 / count;
    let centre = (share + z2 / (2.0 * count)) / denominator;
    let half = Z95 * (share * (1.0 - share) / count + z2 / (4.0 * count * count)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Where a count of a frequency table stands: below its first value, at a value (a bucket's first
/// value), or above its last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellLabel {
    /// Below the table (`Low`).
    Low,
    /// A value, or the first value of a bucket.
    Value(i64),
    /// Above the table (`High`).
    High,
}

impl CellLabel {
    /// The label as JSON: the number, or `"low"` / `"high"`.
    pub fn write_json(self, out: &mut Vec<u8>) {
        let _ = match self {
            CellLabel::Low => write!(out, "\"low\""),
            CellLabel::Value(v) => write!(out, "{v}"),
            CellLabel::High => write!(out, "\"high\""),
        };
    }
}

/// A number as JSON: `null` when it is not known (NaN or infinite).
pub fn json_number(value: f64) -> String {
    if value.is_finite() {
        format!("{value}")
    } else {
        "null".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_of_known_shares() {
        // 81 of 263 (Wilson's 1927 example as textbooks give it): 0.2553 to 0.3662.
        let (low, high) = wilson(263, 81);
        assert!((low - 0.2553).abs() < 1e-4 && (high - 0.3662).abs() < 1e-4, "{low} {high}");
        // None of 10: 0 to 0.2775; all of 10: 0.7225 to 1.
        let (low, high) = wilson(10, 0);
        assert_eq!(low, 0.0);
        assert!((high - 0.2775).abs() < 1e-4, "{high}");
        let (low, high) = wilson(10, 10);
        assert!((low - 0.7225).abs() < 1e-4 && (high - 1.0).abs() < 1e-12, "{low} {high}");
        assert_eq!(wilson(0, 0), (0.0, 1.0));
    }

    #[test]
    fn a_mean_and_its_interval() {
        // 2, 4, 6, 8: mean 5, sample variance 20/3, error sqrt(20/3/4).
        let e = Estimate::of_sums(4, 20.0, 120.0);
        assert_eq!(e.mean, 5.0);
        assert!((e.error - (20.0f64 / 12.0).sqrt()).abs() < 1e-12);
        let (low, high) = e.interval();
        assert!((high - low - e.width()).abs() < 1e-12);
        assert_eq!(Estimate::of_sums(1, 3.0, 9.0).width(), f64::INFINITY);
        assert_eq!(json_number(f64::NAN), "null");
    }
}
