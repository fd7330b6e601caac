//! "Did you mean …?" for a name the script does not know: the full form of an `unknown
//! variable` error (see [`Error::describe`](crate::error::Error::describe)) names the word and
//! suggests the nearest known name, a function of the script's dialect for a word followed by `(`,
//! else one of the variables defined so far or a keyword of the dialect.
//!
//! Nearest means the fewest edits (see [`edit_distance`]), and only when the word is close
//! enough to have been meant as that name: at most [`MAX_EDITS`] edits, and fewer than half its
//! length. The search costs time linear in the word's length however long it is: only names
//! within [`MAX_EDITS`] of its length are compared with it (see [`edit_distance_within`]). The
//! peers' one-line message is not changed.

use crate::dialect::Dialect;
use crate::script::token::{self, Token};

/// Most edits between a word and the name suggested for it.
pub const MAX_EDITS: usize = 2;

/// The number of edits that turn `a` into `b`, ignoring ASCII case: characters inserted,
/// deleted or replaced, and two adjacent characters swapped (the optimal string alignment
/// distance, a restricted Damerau–Levenshtein distance).
pub fn edit_distance(a: &str, b: &str) -> usize {
    edit_distance_within(a, b, usize::MAX).expect("no distance exceeds usize::MAX")
}

/// [`edit_distance`] when it is at most `max`, else `None`; the work stops as soon as the
/// distance is known to exceed `max`. Words whose lengths differ by more than `max` are told
/// apart in time bounded by the shorter one, and otherwise the time is bounded by
/// `|a| × |b|` but ends at the first row of the table with no cell within `max`.
pub fn edit_distance_within(a: &str, b: &str, max: usize) -> Option<usize> {
    if lengths_differ_by_more_than(a, b, max) {
        return None;
    }
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    let width = b.len() + 1;
    // Three rolling rows of the table, one after the other: row i (the distances between the
    // first i characters of `a` and the first j of `b`, for every j) is at `(i % 3) * width`.
    let mut rows = vec![0; 3 * width];
    for (j, cell) in rows[..width].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        let (current, previous, before_previous) = ((i % 3) * width, ((i - 1) % 3) * width, ((i + 1) % 3) * width);
        rows[current] = i;
        let mut row_minimum = i;
        for j in 1..=b.len() {
            let replace = rows[previous + j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut best = replace.min(rows[previous + j] + 1).min(rows[current + j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[before_previous + j - 2] + 1);
            }
            rows[current + j] = best;
            row_minimum = row_minimum.min(best);
        }
        // No row's minimum is below the one before it (a swap from two rows up costs at least
        // the replacement through the row between), so the distance exceeds `max` already.
        if row_minimum > max {
            return None;
        }
    }
    Some(rows[(a.len() % 3) * width + b.len()]).filter(|&distance| distance <= max)
}

/// Whether the lengths of `a` and `b` in characters differ by more than `max`, read only as far
/// as the shorter one and `max` characters beyond it.
fn lengths_differ_by_more_than(a: &str, b: &str, max: usize) -> bool {
    let (mut a, mut b) = (a.chars(), b.chars());
    loop {
        let longer = match (a.next(), b.next()) {
            (Some(_), Some(_)) => continue,
            (None, None) => return false,
            (Some(_), None) => a,
            (None, Some(_)) => b,
        };
        // One character of the longer one is read already.
        return longer.take(max).count() == max;
    }
}

/// The candidate nearest to `word`, when it is close enough (at most [`MAX_EDITS`] edits, and
/// fewer edits than half of `word`'s length). Of candidates equally near, the first one given
/// wins; `word` itself is never suggested. A candidate whose length is more than the edits
/// allowed away from `word`'s is dismissed without comparing them, so that a long word costs
/// time linear in its length.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    // Fewer edits than half of the word's length: at most (length - 1) / 2, and none for "".
    let mut allowed = MAX_EDITS.min(word.chars().count().checked_sub(1)? / 2);
    let mut best = None;
    for candidate in candidates.into_iter().filter(|&c| c != word) {
        if let Some(edits) = edit_distance_within(word, candidate, allowed) {
            best = Some(candidate);
            // Only a strictly nearer candidate replaces it.
            let Some(fewer) = edits.checked_sub(1) else { break };
            allowed = fewer;
        }
    }
    best
}

/// The words `dialect` reads as keywords, in the order of [`token::keywords`], with their tokens.
fn keywords(dialect: Dialect) -> impl Iterator<Item = (&'static str, Token)> {
    token::keywords().filter_map(move |word| Token::keyword(word, dialect).map(|token| (word, token)))
}

/// What the full form says of `name(…)` when `name` is neither a function of `dialect` nor a
/// variable: `unknown function 'shpae' (did you mean 'shape'?)`, or for a DealerV2 function in a
/// classic script, that it is one.
pub fn unknown_function(name: &str, dialect: Dialect) -> String {
    if dialect == Dialect::Classic && Token::keyword(name, Dialect::V2).is_some_and(|t| t.is_function_keyword()) {
        return format!("'{name}' is a DealerV2 function, not classic dealer's");
    }
    let functions = keywords(dialect).filter(|(_, token)| token.is_function_keyword()).map(|(word, _)| word);
    with_suggestion(format!("unknown function '{name}'"), nearest(name, functions))
}

/// What the full form says of `name` used as a variable that is not defined (yet):
/// `unknown variable 'opner' (did you mean 'opener'?)`, the suggestion taken from `variables`
/// (the variables defined so far) before the keywords of `dialect`; for a DealerV2 keyword in a
/// classic script, that it is one.
pub fn unknown_variable<'a>(name: &str, dialect: Dialect, variables: impl IntoIterator<Item = &'a str>) -> String {
    let unknown = format!("unknown variable '{name}'");
    if dialect == Dialect::Classic && Token::keyword(name, Dialect::V2).is_some() {
        return format!("{unknown} ('{name}' is a DealerV2 keyword, not classic dealer's)");
    }
    let mut variables: Vec<&str> = variables.into_iter().collect();
    // Sorted, so that of variables equally near the same one is suggested whatever their order.
    variables.sort_unstable();
    let names = variables.into_iter().chain(keywords(dialect).map(|(word, _)| word));
    with_suggestion(unknown, nearest(name, names))
}

/// `text`, followed by ` (did you mean 'NAME'?)` when there is a suggestion.
fn with_suggestion(text: String, suggestion: Option<&str>) -> String {
    match suggestion {
        Some(name) => format!("{text} (did you mean '{name}'?)"),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_swaps_as_one_edit_and_ignores_case() {
        assert_eq!(edit_distance("shpae", "shape"), 1);
        assert_eq!(edit_distance("hpc", "hcp"), 1);
        assert_eq!(edit_distance("loosers", "losers"), 1);
        assert_eq!(edit_distance("HCP", "hcp"), 0);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("abc", "ca"), 3);
    }

    #[test]
    fn bounded_edit_distance_agrees_within_its_bound() {
        let words = ["", "a", "ab", "ba", "abc", "ca", "hcp", "hpc", "shape", "shpae", "kitten", "sitting", "LOSERS"];
        for a in words {
            for b in words {
                let distance = edit_distance(a, b);
                for max in 0..4 {
                    let expected = (distance <= max).then_some(distance);
                    assert_eq!(edit_distance_within(a, b, max), expected, "{a:?} {b:?} within {max}");
                }
            }
        }
    }

    #[test]
    fn a_long_word_is_told_apart_quickly() {
        let long = "a".repeat(1_000_000);
        assert_eq!(edit_distance_within(&long, "and", MAX_EDITS), None);
        assert_eq!(edit_distance_within("and", &long, MAX_EDITS), None);
        // Equal lengths, but no row of the table stays within the bound.
        assert_eq!(edit_distance_within(&long, &"b".repeat(1_000_000), MAX_EDITS), None);
        assert_eq!(nearest(&long, ["a", "aa", "aaa"]), None);
        assert!(unknown_variable(&long, Dialect::V2, ["b"]).ends_with("a'"));
    }

    #[test]
    fn nearest_needs_a_close_enough_candidate_and_breaks_ties_by_order() {
        assert_eq!(nearest("hpc", ["hcp", "pc"]), Some("hcp"));
        // Two edits in a four-letter word is too many.
        assert_eq!(nearest("abcd", ["abxy"]), None);
        assert_eq!(nearest("abcdef", ["abxyef"]), Some("abxyef"));
        assert_eq!(nearest("ab", ["ax"]), None);
        assert_eq!(nearest("abcde", ["abcdx", "abcdy"]), Some("abcdx"));
        assert_eq!(nearest("same", ["same"]), None);
    }

    #[test]
    fn misspelled_functions() {
        assert_eq!(unknown_function("shpae", Dialect::V2), "unknown function 'shpae' (did you mean 'shape'?)");
        assert_eq!(unknown_function("hpc", Dialect::V2), "unknown function 'hpc' (did you mean 'hcp'?)");
        assert_eq!(unknown_function("loosers", Dialect::V2), "unknown function 'loosers' (did you mean 'losers'?)");
        assert_eq!(unknown_function("HCP", Dialect::Classic), "unknown function 'HCP' (did you mean 'hcp'?)");
        assert_eq!(unknown_function("xyzzy", Dialect::V2), "unknown function 'xyzzy'");
        // A statement keyword is no function.
        assert_eq!(unknown_function("conditon", Dialect::V2), "unknown function 'conditon'");
    }

    #[test]
    fn classic_scripts_get_classic_names() {
        // `ltx` is one edit from DealerV2's `ltc`, which classic dealer does not have.
        assert_eq!(unknown_function("ltx", Dialect::V2), "unknown function 'ltx' (did you mean 'ltc'?)");
        assert_eq!(unknown_function("ltx", Dialect::Classic), "unknown function 'ltx'");
        assert_eq!(unknown_function("ltc", Dialect::Classic), "'ltc' is a DealerV2 function, not classic dealer's");
        assert_eq!(unknown_variable("openr", Dialect::V2, []), "unknown variable 'openr' (did you mean 'opener'?)");
        assert_eq!(unknown_variable("openr", Dialect::Classic, []), "unknown variable 'openr'");
        assert_eq!(
            unknown_variable("title", Dialect::Classic, []),
            "unknown variable 'title' ('title' is a DealerV2 keyword, not classic dealer's)"
        );
    }

    #[test]
    fn misspelled_variables() {
        let defined = ["opener", "responder"];
        assert_eq!(
            unknown_variable("opner", Dialect::Classic, defined),
            "unknown variable 'opner' (did you mean 'opener'?)"
        );
        assert_eq!(
            unknown_variable("conditon", Dialect::V2, defined),
            "unknown variable 'conditon' (did you mean 'condition'?)"
        );
        assert_eq!(unknown_variable("xyz", Dialect::V2, defined), "unknown variable 'xyz'");
        // Equally near variables: the same one whatever the order they come in.
        assert_eq!(
            unknown_variable("ab1", Dialect::V2, ["ab2", "ab3"]),
            unknown_variable("ab1", Dialect::V2, ["ab3", "ab2"])
        );
    }

    #[test]
    fn every_keyword_is_read_as_a_keyword() {
        for word in token::keywords() {
            assert!(Token::keyword(word, Dialect::V2).is_some(), "{word}");
        }
        assert!(Token::keyword("both", Dialect::Classic).is_none());
        assert!(Token::keyword("shape", Dialect::Classic).is_some());
        assert!(Token::keyword("shapes", Dialect::V2).is_none());
    }
}
