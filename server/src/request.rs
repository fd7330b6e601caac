//! The requests' JSON bodies and what a web user may set: [`DealRequest`] becomes a
//! [`RunPlan`] (the library options of the run, in order, with the ceilings clamped to the
//! service's maxima); [`CheckRequest`] a script to check. Options that name files or start
//! programs are not among those a request may set, and every run is `untrusted`.

use serde::Deserialize;
use std::collections::BTreeMap;

use crate::config::Limits;

/// `POST /v1/deal`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DealRequest {
    /// The script text.
    pub script: String,
    /// `classic` or `v2` (default: the library's, DealerV2's).
    pub dialect: Option<String>,
    /// The seed (the same seed, script and options deal the same deals): any integer from
    /// -2^63 to 2^64 - 1 (the seeds answers report go up to 2^64 - 1).
    pub seed: Option<serde_json::Number>,
    /// How many deals to produce (the script's `produce` otherwise).
    pub produce: Option<i64>,
    /// How many deals to generate at most (the script's `generate` otherwise).
    pub generate: Option<i64>,
    /// `script` (the script's own actions), `pbn`, `lin` or `jsonl`.
    pub format: Option<String>,
    /// The run's wall-time ceiling in seconds (at most the service's).
    pub max_seconds: Option<f64>,
    /// The run's output ceiling in bytes (at most the service's).
    pub max_output_bytes: Option<u64>,
    /// How many of the produced deals the answer lists in `deals` (default all, up to the
    /// service's maximum).
    pub deals: Option<usize>,
    /// Other options of the library (`dealer_set_option` keys a web user may set: see
    /// [`ALLOWED_OPTIONS`]), as strings, numbers or booleans.
    #[serde(default)]
    pub options: BTreeMap<String, serde_json::Value>,
}

/// `POST /v1/check`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    /// The script text.
    pub script: String,
    /// `classic` or `v2`.
    pub dialect: Option<String>,
    /// Whether Bridge Base Online's check runs too (default true).
    pub bbo: Option<bool>,
}

/// The library options a request may set through `options`: the script's name and title,
/// the script's variables, predeals,
/// generator, records and their numbering, statistics' precision, double-dummy settings and
/// levelling. Not: files (`csv_file`, `export_file`, `library_file`, `zrd_file`, `dl52_file`,
/// `input`, `part_file`, `write_leveled`), programs (`server`, `opc_program`,
/// `external_timeout`), the ceilings and `untrusted` (the service sets them), threads and
/// memory (`threads`, `dds_table_mb`), `debug` and `progress`.
pub const ALLOWED_OPTIONS: &[&str] = &[
    "rng",
    "generator",
    "smart",
    "title",
    "input_name",
    "pbn_date",
    "swap",
    "quiet",
    "statistics",
    "predeal_north",
    "predeal_east",
    "predeal_south",
    "predeal_west",
    "var0",
    "var1",
    "var2",
    "var3",
    "var4",
    "var5",
    "var6",
    "var7",
    "var8",
    "var9",
    "dds_mode",
    "par_vulnerability",
    "opener",
    "start_board",
    "rotate",
    "board_title",
    "json_summary",
    "intervals",
    "precision",
    "pbn_dd",
    "json_dd",
    "level",
    "level_target",
    "level_budget",
    "level_measure",
    "level_timeout",
    "interleave",
];

/// A request the service refuses before running it.
#[derive(Debug)]
pub struct Refusal(pub String);

/// What a run needs: the library options in the order they are set, the script, and the
/// service's own bounds on the answer.
#[derive(Debug, Clone)]
pub struct RunPlan {
    /// `(key, value)` pairs for `dealer_set_option`, `untrusted` and the ceilings first.
    pub options: Vec<(String, String)>,
    /// The script text.
    pub script: String,
    /// The output ceiling in force (the collected output's size is bounded by it).
    pub max_output_bytes: u64,
    /// How many deals the answer lists.
    pub deals: usize,
}

impl DealRequest {
    /// The run this request asks for under `limits`, or why it is refused.
    pub fn plan(self, limits: &Limits) -> Result<RunPlan, Refusal> {
        let seconds = match self.max_seconds {
            Some(s) if !(s.is_finite() && s > 0.0) => {
                return Err(Refusal("max_seconds must be a positive number".into()));
            }
            Some(s) => s.min(limits.max_seconds),
            None => limits.default_seconds,
        };
        let max_output_bytes = match self.max_output_bytes {
            Some(0) => return Err(Refusal("max_output_bytes must be positive".into())),
            Some(n) => n.min(limits.max_output_bytes),
            None => limits.max_output_bytes,
        };
        let mut options: Vec<(String, String)> = vec![
            ("untrusted".into(), "true".into()),
            ("max_seconds".into(), format!("{seconds}")),
            ("max_generate".into(), limits.max_generate.to_string()),
            ("max_output_bytes".into(), max_output_bytes.to_string()),
            ("progress".into(), "false".into()),
            ("threads".into(), "1".into()),
        ];
        if let Some(dialect) = self.dialect {
            if !matches!(dialect.as_str(), "classic" | "v2") {
                return Err(Refusal(format!("dialect '{dialect}': classic or v2")));
            }
            options.push(("dialect".into(), dialect));
        }
        // The generator before the other options: it may choose the dialect (as the CLI's -R).
        let mut extra: Vec<(String, String)> = Vec::new();
        for (key, value) in self.options {
            if !ALLOWED_OPTIONS.contains(&key.as_str()) {
                return Err(Refusal(format!(
                    "option '{key}' cannot be set over HTTP (the ones that can: {})",
                    ALLOWED_OPTIONS.join(", ")
                )));
            }
            let text = match value {
                serde_json::Value::String(s) => s,
                serde_json::Value::Bool(b) => b.to_string(),
                serde_json::Value::Number(n) => n.to_string(),
                _ => return Err(Refusal(format!("option '{key}': a string, number or boolean"))),
            };
            extra.push((key, text));
        }
        extra.sort_by_key(|(key, _)| !matches!(key.as_str(), "rng" | "generator"));
        options.extend(extra);
        if let Some(format) = self.format {
            if !matches!(format.as_str(), "script" | "pbn" | "lin" | "jsonl") {
                return Err(Refusal(format!("format '{format}': script, pbn, lin or jsonl")));
            }
            options.push(("format".into(), format));
        }
        if let Some(seed) = self.seed {
            if !(seed.is_i64() || seed.is_u64()) {
                return Err(Refusal("seed must be an integer from -2^63 to 2^64 - 1".into()));
            }
            // A seed above 2^63 - 1 (ChaCha's seeds are 64-bit words, which answers report
            // unsigned) is the same word taken as signed, as the CLI takes it.
            let word = seed.as_i64().or_else(|| seed.as_u64().map(|w| w as i64)).unwrap_or_default();
            options.push(("seed".into(), word.to_string()));
        }
        for (key, value) in [("produce", self.produce), ("generate", self.generate)] {
            if let Some(n) = value {
                if n <= 0 {
                    return Err(Refusal(format!("{key} must be positive")));
                }
                options.push((key.into(), n.to_string()));
            }
        }
        let deals = self.deals.unwrap_or(limits.max_deals).min(limits.max_deals);
        Ok(RunPlan { options, script: self.script, max_output_bytes, deals })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: &str) -> DealRequest {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn ceilings_are_clamped_and_untrusted_comes_first() {
        let limits = Limits::default();
        let plan = request(r#"{"script":"produce 1","max_seconds":1000,"seed":5}"#).plan(&limits).unwrap();
        assert_eq!(plan.options[0], ("untrusted".into(), "true".into()));
        assert!(plan.options.contains(&("max_seconds".into(), format!("{}", limits.max_seconds))));
        assert!(plan.options.contains(&("seed".into(), "5".into())));
    }

    #[test]
    fn file_and_program_options_are_refused() {
        let limits = Limits::default();
        for key in ["csv_file", "server", "opc_program", "input", "untrusted", "max_generate", "threads"] {
            let json = format!(r#"{{"script":"x","options":{{"{key}":"y"}}}}"#);
            let e = request(&json).plan(&limits).unwrap_err();
            assert!(e.0.contains(key), "{key}: {}", e.0);
        }
        assert!(request(r#"{"script":"x","format":"html"}"#).plan(&limits).is_err());
        assert!(request(r#"{"script":"x","produce":0}"#).plan(&limits).is_err());
    }
}
