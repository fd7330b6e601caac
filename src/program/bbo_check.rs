//! The BBO check: reads a script as Bridge Base Online's dealer (classic dealer) would and lists,
//! without dealing, every construct BBO rejects or reads differently.
//!
//! Three passes over the text:
//!
//! 1. a scan of the raw tokens (the DealerV2 token set, so that every V2-only construct is seen
//!    where it stands): `#` comments not in column 1 (classic dealer's lexer only honours `#` in
//!    column 1, with a trailing newline), `//` at the end of the file without a newline,
//!    `$n` script variables, `shape{…}`, `z3N`/doubled contracts, decimal numbers, the keywords
//!    only DealerV2 knows (`dds`, `par`, `csvrpt`, `title`, …), libdealer's own actions
//!    (`printlin`, `printjson`) and the classic limit on `shape` clauses;
//! 2. a compilation in the classic dialect, whose first error (syntax or semantic) is reported
//!    unless a construct of pass 1 at or before it already explains it; before it, every
//!    spot-card predeal holding (`SQTxx`, libdealer's own) of the classic syntax tree;
//! 3. when both dialects accept the script, a comparison of the two syntax trees: a difference
//!    means DealerV2 reads an expression differently (its operator precedence differs), which is
//!    reported as a warning so that a script tried locally with DealerV2 is not trusted blindly.
//!
//! Keywords that only DealerV2 knows are errors when the classic compilation fails, and warnings
//! (classic dealer reads them as variable names) when it succeeds.

use crate::dialect::Dialect;
use crate::program::Program;
use crate::script::token::Token;
use crate::script::{self, ast, ScriptVars};
use logos::Logos;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// BBO accepts the script but may read it differently from DealerV2 or libdealer.
    Warning,
    /// BBO rejects the script.
    Error,
}

impl Severity {
    /// `warning` or `error`, as printed.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// One finding of the check, at a 1-based line and byte column of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckDiagnostic {
    /// 1-based line.
    pub line: u32,
    /// 1-based byte column.
    pub col: u32,
    /// Warning or error.
    pub severity: Severity,
    /// What BBO does with the construct.
    pub message: String,
}

impl std::fmt::Display for CheckDiagnostic {
    /// `line:col: warning|error: message`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}: {}", self.line, self.col, self.severity.name(), self.message)
    }
}

/// The most `shape` clauses classic dealer accepts (its 32-bit mask refuses the 32nd).
pub const CLASSIC_MAX_SHAPE_CLAUSES: usize = 31;

/// Checks `source` as BBO's dealer (classic dealer) reads it; the diagnostics come sorted by
/// position. No diagnostic with [`Severity::Error`] means BBO accepts the script.
pub fn check_bbo(source: &[u8]) -> Vec<CheckDiagnostic> {
    let starts = line_starts(source);
    let locate = |offset: usize| -> (u32, u32) {
        let line = starts.partition_point(|&s| s <= offset);
        (line as u32, (offset - starts[line - 1] + 1) as u32)
    };
    let mut out: Vec<CheckDiagnostic> = Vec::new();
    let mut soft: Vec<usize> = Vec::new(); // V2 keywords: downgraded if classic compiles.
    let push = |out: &mut Vec<CheckDiagnostic>, offset: usize, severity: Severity, message: String| {
        let (line, col) = locate(offset);
        out.push(CheckDiagnostic { line, col, severity, message });
    };

    let bom = if source.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
    let mut lexer = Token::lexer_with_extras(source, Dialect::V2);
    lexer.bump(bom);
    let mut shapes = 0usize;
    let mut last_slash: Option<usize> = None;
    while let Some(token) = lexer.next() {
        let span = lexer.span();
        let slice = lexer.slice();
        match token {
            Err(_) if slice.first() == Some(&b'#') => {
                let col1 = span.start == 0 || source[span.start - 1] == b'\n';
                let message = if col1 {
                    "`#` comment at the end of the file without a newline: classic dealer reads it as a syntax error"
                } else {
                    "`#` not in column 1: classic dealer only reads `#` in column 1 as a comment (syntax error here); \
                     use `//` or move `#` to column 1"
                };
                push(&mut out, span.start, Severity::Error, message.to_string());
                // Skip the rest of the line, which BBO never reaches.
                let rest = &source[span.end..];
                let skip = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                lexer.bump(skip);
            }
            Ok(Token::Slash) => {
                if last_slash == Some(span.start.wrapping_sub(1)) && !source[span.end..].contains(&b'\n') {
                    push(
                        &mut out,
                        span.start - 1,
                        Severity::Error,
                        "`//` comment at the end of the file without a newline: classic dealer reads two `/` (syntax error)"
                            .to_string(),
                    );
                    lexer.bump(source.len() - span.end);
                }
                last_slash = Some(span.start);
                continue;
            }
            Ok(Token::ScriptVar(n)) => {
                push(&mut out, span.start, Severity::Error, format!("`${n}` script variables are DealerV2 only"))
            }
            Ok(Token::FdShapeStart) => {
                shapes += 1;
                push(&mut out, span.start, Severity::Error, "`shape{…}` is DealerV2 only".to_string());
                // Skip the braces' content.
                let rest = &source[span.end..];
                if let Some(i) = rest.iter().position(|&b| b == b'}') {
                    lexer.bump(i + 1);
                }
            }
            Ok(Token::Contract(_)) if slice[0] == b'z' || slice.len() > 3 => {
                let text = String::from_utf8_lossy(slice);
                push(
                    &mut out,
                    span.start,
                    Severity::Error,
                    format!(
                        "contract `{text}` is DealerV2 only: classic dealer knows `x` contracts without doubling (x3N)"
                    ),
                );
            }
            Ok(Token::DotNumber(_)) => {
                let text = String::from_utf8_lossy(slice);
                push(&mut out, span.start, Severity::Error, format!("decimal number `{text}` is DealerV2 only"));
            }
            Ok(token) if token.is_dealerv2_only_keyword() => {
                let text = String::from_utf8_lossy(slice);
                soft.push(out.len());
                push(&mut out, span.start, Severity::Error, format!("`{text}` is DealerV2 only"));
            }
            Ok(Token::PrintLin | Token::PrintJson | Token::Leads) => {
                let text = String::from_utf8_lossy(slice);
                push(
                    &mut out,
                    span.start,
                    Severity::Error,
                    format!("`{text}` is a libdealer action: BBO does not know it"),
                );
            }
            Ok(Token::Shape) => {
                shapes += 1;
                if shapes == CLASSIC_MAX_SHAPE_CLAUSES + 1 {
                    push(
                        &mut out,
                        span.start,
                        Severity::Error,
                        format!(
                            "shape clause {shapes}: classic dealer allows {CLASSIC_MAX_SHAPE_CLAUSES} \
                             (Too many shapes -- only 32 allowed!)"
                        ),
                    );
                }
            }
            _ => {}
        }
        last_slash = None;
    }

    const NO_VARS: ScriptVars = [None, None, None, None, None, None, None, None, None, None];
    // Spot holdings (`SQTxx`) read as identifiers to classic dealer: a syntax error there.
    if let Ok(parsed) = script::parse(source, Dialect::Classic, &NO_VARS) {
        for statement in &parsed.statements {
            let ast::Statement::Predeal(items) = statement else { continue };
            for item in items {
                let ast::PredealItem::Cards { spots, .. } = item else { continue };
                for spot in spots {
                    out.push(CheckDiagnostic {
                        line: spot.pos.line,
                        col: spot.pos.col,
                        severity: Severity::Error,
                        message: "spot cards (x) in a predeal holding are libdealer's own: classic dealer reads \
                                  the word as a name (syntax error); predeal the named cards only"
                            .to_string(),
                    });
                }
            }
        }
    }
    match Program::from_source(source, Dialect::Classic, &NO_VARS) {
        Ok(_) => {
            for &i in &soft {
                let d = &mut out[i];
                d.severity = Severity::Warning;
                d.message = format!(
                    "{}; classic dealer reads it as a variable name",
                    d.message.replace("is DealerV2 only", "is a DealerV2 keyword")
                );
            }
            // The lines where DealerV2 reads a keyword that classic dealer takes for a name: the
            // two trees differ there for that reason, said above, not for precedence.
            let keyword_lines: Vec<u32> = soft.iter().map(|&i| out[i].line).collect();
            if let (Ok(classic), Ok(v2)) =
                (script::parse(source, Dialect::Classic, &NO_VARS), script::parse(source, Dialect::V2, &NO_VARS))
            {
                if let Some((line, col)) = first_difference(&classic, &v2, &keyword_lines) {
                    out.push(CheckDiagnostic {
                        line,
                        col,
                        severity: Severity::Warning,
                        message: "DealerV2 reads this statement differently (operator precedence): \
                                  add parentheses to make both read it alike"
                            .to_string(),
                    });
                }
            }
        }
        Err(error) => {
            let line = error.line.unwrap_or(1);
            let col = error.col.unwrap_or(1);
            // A construct found above at or before the error's line (the peers report the
            // line after one token of look-ahead) is what the classic parser stumbled on.
            let explained = out.iter().any(|d| d.severity == Severity::Error && d.line <= line);
            if !explained {
                out.push(CheckDiagnostic {
                    line,
                    col,
                    severity: Severity::Error,
                    message: format!("classic dealer rejects the script: {}", error.message.trim_end()),
                });
            }
        }
    }
    out.sort_by_key(|d| (d.line, d.col));
    out
}

/// Byte offsets where each line starts (line 1 at index 0).
fn line_starts(source: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(source.iter().enumerate().filter(|(_, &b)| b == b'\n').map(|(i, _)| i + 1));
    starts
}

/// The line and column of the first statement the two dialects parse differently.
fn first_difference(classic: &ast::ParsedScript, v2: &ast::ParsedScript, keyword_lines: &[u32]) -> Option<(u32, u32)> {
    if keyword_lines.is_empty() {
        if classic.statements.len() != v2.statements.len() {
            return Some((1, 1));
        }
        let (i, _) = classic.statements.iter().zip(&v2.statements).enumerate().find(|(_, (a, b))| a != b)?;
        return Some(statement_pos(&classic.statements[i]).unwrap_or((1, 1)));
    }
    // DealerV2 reads some names as keywords, so its statements differ there (and may swallow
    // what follows). A classic statement is compared with DealerV2's statement at the same
    // place, when there is one and neither is on a line of such a keyword.
    let v2_at: std::collections::HashMap<(u32, u32), &ast::Statement> =
        v2.statements.iter().filter_map(|s| Some((statement_pos(s)?, s))).collect();
    classic.statements.iter().find_map(|statement| {
        let pos = statement_pos(statement)?;
        let other = v2_at.get(&pos)?;
        (!keyword_lines.contains(&pos.0) && *other != statement).then_some(pos)
    })
}

/// Where a statement starts, found in its debug form (the first `Pos` it holds).
fn statement_pos(statement: &ast::Statement) -> Option<(u32, u32)> {
    let text = format!("{statement:?}");
    let at = text.find("Pos { line: ")?;
    let rest = &text[at + 12..];
    let line: u32 = rest[..rest.find(',')?].parse().ok()?;
    let rest = &rest[rest.find("col: ")? + 5..];
    let col: u32 = rest[..rest.find(' ')?].parse().ok()?;
    Some((line, col))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(src: &str) -> Vec<String> {
        check_bbo(src.as_bytes()).iter().map(|d| d.to_string()).collect()
    }

    #[test]
    fn a_classic_script_is_clean() {
        assert!(check("# a comment\ncondition hcp(north) > 15 && shape(north, any 4333)\naction printall\n").is_empty());
    }

    #[test]
    fn hash_not_in_column_one() {
        assert_eq!(
            check("produce 1 # ten deals\n"),
            ["1:11: error: `#` not in column 1: classic dealer only reads `#` in column 1 as a comment (syntax error here); use `//` or move `#` to column 1"]
        );
        assert_eq!(check("condition 1\n  # indented\n")[0].split(": error").next(), Some("2:3"));
        assert_eq!(check("condition 1\n# at eof")[0].split(": error").next(), Some("2:1"));
    }

    #[test]
    fn line_comment_at_eof() {
        assert_eq!(check("condition 1\n//x\n"), Vec::<String>::new());
        assert_eq!(
            check("condition 1\n// x"),
            ["2:1: error: `//` comment at the end of the file without a newline: classic dealer reads two `/` (syntax error)"]
        );
    }

    #[test]
    fn v2_only_syntax() {
        let d = check("condition 1\naction average score(NS, z3N, tricks(north, notrumps))\n");
        assert_eq!(
            d[0],
            "2:26: error: contract `z3N` is DealerV2 only: classic dealer knows `x` contracts without doubling (x3N)"
        );
        assert_eq!(check("condition hcp(north) > $1\n")[0], "1:24: error: `$1` script variables are DealerV2 only");
        assert_eq!(check("condition shape{north, 5+s}\n")[0], "1:11: error: `shape{…}` is DealerV2 only");
        assert_eq!(check("condition 1\naction average .5\n")[0], "2:16: error: decimal number `.5` is DealerV2 only");
        assert_eq!(check("condition 1\naction average 1.5\n")[0], "2:16: error: decimal number `1.5` is DealerV2 only");
        assert_eq!(check("condition dds(north, spades) > 9\n")[0], "1:11: error: `dds` is DealerV2 only");
        assert_eq!(check("condition par(ns) > 0\n")[0], "1:11: error: `par` is DealerV2 only");
        assert_eq!(check("condition 1\naction csvrpt(hcp(north))\n")[0], "2:8: error: `csvrpt` is DealerV2 only");
        assert_eq!(check("title \"x\"\ncondition 1\n")[0], "1:1: error: `title` is DealerV2 only");
        assert_eq!(
            check("condition 1\naction printlin\n")[0],
            "2:8: error: `printlin` is a libdealer action: BBO does not know it"
        );
    }

    #[test]
    fn spot_cards_are_libdealer_only() {
        assert_eq!(
            check("predeal north SQTxx, HA\ncondition 1\n"),
            ["1:15: error: spot cards (x) in a predeal holding are libdealer's own: classic dealer reads the word as \
              a name (syntax error); predeal the named cards only"]
        );
        // A variable of that form elsewhere is classic dealer's too.
        assert!(check("Sxx = hcp(north)\ncondition Sxx > 3\n").is_empty());
    }

    #[test]
    fn v2_keyword_as_a_classic_variable() {
        assert_eq!(
            check("par = hcp(north)\ncondition par > 10\n"),
            [
                "1:1: warning: `par` is a DealerV2 keyword; classic dealer reads it as a variable name",
                "2:11: warning: `par` is a DealerV2 keyword; classic dealer reads it as a variable name"
            ]
        );
    }

    #[test]
    fn shape_clause_limit() {
        let clauses = |n: usize| format!("condition 1{}\n", " || shape(north, 4333)".repeat(n));
        assert!(check(&clauses(31)).is_empty());
        let d = check(&clauses(32));
        assert_eq!(d.len(), 1);
        assert_eq!(
            d[0],
            format!(
                "1:{}: error: shape clause 32: classic dealer allows 31 (Too many shapes -- only 32 allowed!)",
                12 + 31 * 22 + 4
            )
        );
    }

    #[test]
    fn classic_errors_are_reported() {
        assert_eq!(check("condition hcp(north) >\n"), ["2:1: error: classic dealer rejects the script: syntax error"]);
        assert_eq!(check("condition foo > 1\n"), ["1:11: error: classic dealer rejects the script: unknown variable"]);
    }

    #[test]
    fn a_dealer_v2_keyword_used_as_a_name_is_no_precedence_difference() {
        // `title` is a name to classic dealer, a statement to DealerV2: that is the keyword
        // warning's business; a real precedence difference elsewhere is still found.
        assert_eq!(
            check("dealer south\ntitle = hcp(south)\ncondition title >= 25\n"),
            [
                "2:1: warning: `title` is a DealerV2 keyword; classic dealer reads it as a variable name",
                "3:11: warning: `title` is a DealerV2 keyword; classic dealer reads it as a variable name",
            ]
        );
        let found = check("dealer south\npoints = 3 * hcp(south) / 2\ntitle = 1\ncondition points > 3 && title > 0\n");
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(found[0].starts_with("2:") && found[0].contains("operator precedence"), "{found:?}");
    }

    #[test]
    fn precedence_differences_are_warnings() {
        let d = check("condition 1\naction average 3 * 4 / 5\n");
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].starts_with("2:") && d[0].contains("warning: DealerV2 reads this statement differently"), "{d:?}");
    }
}
