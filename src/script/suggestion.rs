//! "Did you mean …?" for a name the script does not know: the full form of an `unknown
//! variable` error (see [`Error::describe`](crate::error::Error::describe)) names the word and
//! suggests the nearest known name, a function of the script's dialect for a word followed by `(`,
//! else one of the variables defined so far or a keyword of the dialect.
//!
//! Nearest means the fewest edits (see [`edit_distance`]), and only when the word is close
//! enough to have been meant as that name: at most [`MAX_EDITS`] edits, and fewer than half its
//! length. The peers' one-line message is not changed.

use crate::dialect::Dialect;
use crate::script::token::{self, Token};

/// Most edits between a word and the name suggested for it.
pub const MAX_EDITS: usize = 2;

/// The number of edits that turn `a` into `b`, ignoring ASCII case: characters inserted,
/// deleted or replaced, and two adjacent characters swapped (the optimal string alignment
/// distance, a restricted Damerau–Levenshtein distance).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    // rows[k][j]: the distance between the first i - 2 + k characters of `a` and the first j of
    // `b`, for the row i being filled (k = 2) and the two before it.
    let mut rows = [vec![0; b.len() + 1], vec![0; b.len() + 1], (0..=b.len()).collect::<Vec<usize>>()];
    for i in 1..=a.len() {
        rows.rotate_left(1);
        rows[2][0] = i;
        for j in 1..=b.len() {
            let replace = rows[1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut best = replace.min(rows[1][j] + 1).min(rows[2][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[0][j - 2] + 1);
            }
            rows[2][j] = best;
        }
    }
    rows[2][b.len()]
}

/// The candidate nearest to `word`, when it is close enough (at most [`MAX_EDITS`] edits, and
/// fewer edits than half of `word`'s length). Of candidates equally near, the first one given
/// wins; `word` itself is never suggested.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let length = word.chars().count();
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates.into_iter().filter(|&c| c != word) {
        let edits = edit_distance(word, candidate);
        let close = edits <= MAX_EDITS && 2 * edits < length;
        if close && best.is_none_or(|(fewest, _)| edits < fewest) {
            best = Some((edits, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
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
