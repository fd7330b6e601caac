//! François Dellacherie (FD) compact shape syntax: `shape{compass, spec}` (DealerV2).
//!
//! This module owns the native expansion of an FD spec (the text after `shape{compass,` and before
//! `}`) into the exact set of concrete hand patterns it matches. DealerV2 hands the clause to its
//! preprocessor `fdp` (a Perl filter built on François Dellacherie's `Dist.pm`), which rewrites the
//! spec into an HvS clause `shape(compass, …)`; [`expand`] returns the set that rewritten clause
//! matches. It works the same way: each term is turned into the list of HvS distributions `fdp`
//! would write (`5xx5`, `any 0076`, …), and that list is then applied like an HvS clause.
//!
//! Classic dealer has no `shape{…}` clause (its separate preprocessor `dealer.dpp` is not part of
//! dealer), so only `fdp`'s rules are modelled. Where `fdp` and `dealer.dpp` part ways this is
//! noted below.
//!
//! Behaviour (dealerv2-behaviour.md §1.6/§1.7, and black-box comparison with `fdp` run from
//! DealerV2's source):
//!
//! * DealerV2 passes the spec to `fdp` with one blank added after it; [`expand`] does the same,
//!   which matters for the last term's condition (see below).
//! * The spec is split into terms on whitespace-sign-whitespace (` + `, ` - `). A spec that starts
//!   with whitespace and a sign is rejected (the preprocessor dies on it).
//! * Each term's distributions are sorted (as text) and de-duplicated, and every one of them
//!   carries the term's sign: a ` - ` term removes **every** distribution it expands to
//!   (`4xxx - xx5+x` is `4xxx - xx5x - xx6x - … - xx9x`). The list is applied in order, so a later
//!   ` + ` term can add patterns back. (`dealer.dpp` differs: there only the first distribution of a
//!   minus term is removed and the others are added.)
//! * A term is `SHAPE[:CONDITION]`, split at its last `:`. In the shape part whitespace is
//!   ignored and the suit letters `s h d c` are collected in textual order; they label the first
//!   length items before the group, in that order; the other items, then the items of a trailing
//!   `(…)` group (which is permuted), fill the remaining suits in S H D C order. Every item is
//!   read, a trailing `0` included (`4630`, `xxx0` and `463(0)` are fine; `dealer.dpp` stops at a
//!   trailing `0`).
//! * Length items: a digit, a digit with a `+`/`-` suffix (`N+` = N..9, `N-` = 0..N), a `[…]`
//!   digit class (Perl character-class rules, digits 0..9) or `x` (left to the HvS `x`, so it can
//!   be 10–13).
//! * Distributions whose digits exceed 13, or miss 13 without an `x`, are dropped; `x`s are filled
//!   in when forced (all 0 at 13, or a lone `x` whose remainder is at most 9). A group covering all
//!   four suits without a condition is written `any …`, its lengths sorted `x` first then
//!   descending.
//! * `M`/`m` stand for a major/minor: the term is expanded once per choice (`M` → `s`, `h`;
//!   `m` → `d`, `c`), in the condition too. At most one `M` and one `m` per term; `M` may not
//!   share a part (shape or condition) with `h`/`s`, nor `m` with `c`/`d`.
//! * A condition is a Perl expression over `c d h s` (`,` = and, `or`, chained comparisons,
//!   `+ - * / ** x !`, `<=>`); suits it names that are `x` in the shape range over 0..9. A lone
//!   `=` is a Perl assignment that changes the distribution (`s=4` turns every distribution into
//!   one with four spades; one pushed over 13 cards is an error). A condition that does not compile
//!   is false. A condition that is exactly `0` is ignored, as Perl finds the text false; the last
//!   term's condition carries the added blank, so there `:0` is a condition that is never true.
//! * A term that yields no distribution writes nothing: harmless as the first of several terms,
//!   an error anywhere else (the HvS list would end in, or contain two, signs).

use std::collections::BTreeSet;
use std::fmt;

use crate::program::shape::all_patterns;

/// Suit letters in pattern order: spades, hearts, diamonds, clubs.
const SUIT_LETTERS: [u8; 4] = [b's', b'h', b'd', b'c'];

/// Longest string a Perl `x` repetition is allowed to build here (beyond this the numeric value
/// is already infinite or the text is junk).
const MAX_REPEAT_LEN: usize = 400;

/// Expands an FD spec (the text after `shape{compass,` and before `}`) into the exact set of concrete
/// hand patterns it matches, each as [spades, hearts, diamonds, clubs] lengths summing to 13, sorted ascending, no duplicates.
///
/// Every distribution of a ` - ` term is removed, as DealerV2's `fdp` does: `4xxx - xx5+x` is
/// `4xxx` without `xx5x`, `xx6x`, … `xx9x`.
pub fn expand(spec: &str) -> Result<Vec<[u8; 4]>, String> {
    let patterns = all_patterns();
    // DealerV2 runs `fdp 'shape{ compass,SPEC }'`: the spec reaches fdp with a blank after it.
    let spec = format!("{spec} ");
    let terms = split_terms(&spec)?;
    let mut selected = vec![false; patterns.len()];
    for (index, term) in terms.iter().enumerate() {
        let dists = term_dists(term.text)?;
        if dists.is_empty() && (index > 0 || terms.len() == 1) {
            return Err(format!("FD shape term \"{}\" matches no distribution", term.text.trim()));
        }
        for dist in &dists {
            apply_hvs(dist, !term.exclude, &patterns, &mut selected)?;
        }
    }
    Ok(patterns.into_iter().zip(selected).filter_map(|(pattern, keep)| keep.then_some(pattern)).collect())
}

/// Applies one HvS distribution (`5xx5`, `any 0076`) to the selection, as dealer's `shape()`
/// does: every matching pattern is set (include) or cleared (exclude).
fn apply_hvs(dist: &str, include: bool, patterns: &[[u8; 4]], selected: &mut [bool]) -> Result<(), String> {
    let (any, body) = match dist.strip_prefix("any ") {
        Some(body) => (true, body),
        None => (false, dist),
    };
    let bytes = body.as_bytes();
    if bytes.len() != 4 || !bytes.iter().all(|&b| b.is_ascii_digit() || b == b'x') {
        return Err(format!("FD shape expands to \"{dist}\", which is not a distribution"));
    }
    let digits: u32 = bytes.iter().filter(|b| b.is_ascii_digit()).map(|&b| u32::from(b - b'0')).sum();
    let has_x = bytes.contains(&b'x');
    if !has_x && digits != 13 {
        return Err(format!("FD shape expands to \"{dist}\": wrong number of cards in shape"));
    }
    if digits > 13 {
        return Err(format!("FD shape expands to \"{dist}\": too many cards in ambiguous shape"));
    }
    let fits =
        |pattern: &[u8; 4]| bytes.iter().zip(pattern).all(|(&want, &length)| want == b'x' || want - b'0' == length);
    for (pattern, slot) in patterns.iter().zip(selected.iter_mut()) {
        let hit = if any { permutations_of(pattern).iter().any(fits) } else { fits(pattern) };
        if hit {
            *slot = include;
        }
    }
    Ok(())
}

/// The 24 orderings of a pattern's lengths.
fn permutations_of(pattern: &[u8; 4]) -> Vec<[u8; 4]> {
    let mut result = Vec::with_capacity(24);
    let mut order = [0usize, 1, 2, 3];
    permute(&mut order, 0, &mut |order| {
        result.push([pattern[order[0]], pattern[order[1]], pattern[order[2]], pattern[order[3]]]);
    });
    result
}

/// Perl's `\s` (ASCII whitespace including vertical tab).
fn is_perl_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// One signed term of the spec.
struct Term<'a> {
    /// True for a ` - ` term, false for the first term and ` + ` terms.
    exclude: bool,
    /// The term's text, untrimmed.
    text: &'a str,
}

/// Splits the spec on whitespace-sign-whitespace separators, as the preprocessor does.
fn split_terms(spec: &str) -> Result<Vec<Term<'_>>, String> {
    let bytes = spec.as_bytes();
    let leading_space = bytes.iter().take_while(|&&b| is_perl_space(b)).count();
    if leading_space > 0 && matches!(bytes.get(leading_space), Some(b'+' | b'-')) {
        return Err("FD shape list may not start with a sign".to_string());
    }
    let mut terms = Vec::new();
    let mut exclude = false;
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        if !is_perl_space(bytes[i]) {
            i += 1;
            continue;
        }
        let sign_at = i + bytes[i..].iter().take_while(|&&b| is_perl_space(b)).count();
        if matches!(bytes.get(sign_at), Some(b'+' | b'-')) {
            let after = sign_at + 1 + bytes[sign_at + 1..].iter().take_while(|&&b| is_perl_space(b)).count();
            if after > sign_at + 1 {
                terms.push(Term { exclude, text: &spec[start..i] });
                exclude = bytes[sign_at] == b'-';
                start = after;
                i = after;
                continue;
            }
        }
        i = sign_at;
    }
    terms.push(Term { exclude, text: &spec[start..] });
    Ok(terms)
}

/// The HvS distributions the expander writes for one term, sorted and de-duplicated.
fn term_dists(text: &str) -> Result<Vec<String>, String> {
    let (shape_text, condition_text) = match text.rfind(':') {
        Some(colon) => (&text[..colon], Some(&text[colon + 1..])),
        None => (text, None),
    };
    if shape_text.contains(':') {
        return Err(bad_term(text, "more than one ':'"));
    }
    check_major_minor(text, shape_text, condition_text.unwrap_or(""))?;
    let majors: &[Option<char>] = if text.contains('M') { &[Some('s'), Some('h')] } else { &[None] };
    let minors: &[Option<char>] = if text.contains('m') { &[Some('d'), Some('c')] } else { &[None] };
    let mut dists = BTreeSet::new();
    for &major in majors {
        for &minor in minors {
            let substitute = |part: &str| -> String {
                part.chars()
                    .map(|ch| match ch {
                        'M' => major.unwrap_or(ch),
                        'm' => minor.unwrap_or(ch),
                        _ => ch,
                    })
                    .collect()
            };
            let shape = substitute(shape_text);
            let condition = condition_text.map(substitute);
            variant_dists(text, &shape, condition.as_deref(), &mut dists)?;
        }
    }
    Ok(dists.into_iter().collect())
}

/// The `M`/`m` restrictions of the reference expander.
fn check_major_minor(text: &str, shape: &str, condition: &str) -> Result<(), String> {
    let count = |ch: char| text.chars().filter(|&c| c == ch).count();
    if count('M') > 1 || count('m') > 1 {
        return Err(bad_term(text, "multiple M or m"));
    }
    for part in [shape, condition] {
        if part.contains('M') && part.contains(['h', 's']) {
            return Err(bad_term(text, "M together with h or s"));
        }
        if part.contains('m') && part.contains(['c', 'd']) {
            return Err(bad_term(text, "m together with c or d"));
        }
    }
    Ok(())
}

fn bad_term(text: &str, why: &str) -> String {
    format!("bad FD shape term \"{}\": {}", text.trim(), why)
}

/// The lengths one suit position may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Length {
    /// `x`: left to the HvS `x` (0..9 when a condition names the suit).
    Any,
    /// A digit or `[…]` class: a set of lengths 0..9, one bit per length.
    Set(u16),
    /// `N+` / `N-`: a set of lengths 0..9, one bit per length.
    Range(u16),
}

impl Length {
    /// The values to enumerate: each length of a set, `None` (an `x`) for `Any` unless a
    /// condition reads the suit, in which case 0..9.
    fn choices(self, named_in_condition: bool) -> Vec<Option<u8>> {
        match self {
            Length::Set(mask) | Length::Range(mask) => (0..=9u8).filter(|v| mask & (1 << v) != 0).map(Some).collect(),
            Length::Any if named_in_condition => (0..=9u8).map(Some).collect(),
            Length::Any => vec![None],
        }
    }
}

/// A parsed shape part: length items, an optional trailing permuted group, and suit letters.
#[derive(Debug)]
struct ShapeSpec {
    items: Vec<Length>,
    group: Vec<Length>,
    letters: Vec<usize>,
}

/// A distribution as the reference holds it: a length per suit, `None` for `x`.
type Partial = [Option<u8>; 4];

/// Adds the distributions written for one `M`/`m` variant of a term to `dists`.
fn variant_dists(
    text: &str,
    shape_text: &str,
    condition_text: Option<&str>,
    dists: &mut BTreeSet<String>,
) -> Result<(), String> {
    let shape = parse_shape(shape_text).map_err(|why| bad_term(text, &why))?;
    for (i, letter) in shape.letters.iter().enumerate() {
        if shape.letters[..i].contains(letter) {
            return Err(bad_term(text, "a suit letter is used twice"));
        }
    }
    if shape.items.len() + shape.group.len() != 4 {
        if can_total_13(shape.items.iter().chain(&shape.group)) {
            return Err(bad_term(text, "it does not describe 4 suits"));
        }
        return Ok(());
    }
    let condition = match condition_text {
        None | Some("0") => None,
        Some(source) => match parse_condition(source) {
            Ok(expr) => Some(expr),
            Err(()) => return Ok(()), // Perl fails to compile it: no distribution is true
        },
    };
    let Some(expr) = condition else {
        if shape.items.is_empty() {
            // The whole shape permuted: written as `any`, lengths sorted `x` first, descending.
            let choices: Vec<_> = shape.group.iter().map(|length| length.choices(false)).collect();
            for_each_combination(&choices, &mut |mut partial| {
                partial.sort_by(|a, b| b.map_or(99, i32::from).cmp(&a.map_or(99, i32::from)));
                if let Some(partial) = settle(partial) {
                    dists.insert(format!("any {}", partial_text(&partial)));
                }
                Ok(())
            })?;
            return Ok(());
        }
        for lengths in arrangements(&shape) {
            let choices: Vec<_> = lengths.iter().map(|length| length.choices(false)).collect();
            for_each_combination(&choices, &mut |partial| {
                if let Some(partial) = settle(partial) {
                    dists.insert(partial_text(&partial));
                }
                Ok(())
            })?;
        }
        return Ok(());
    };
    let mut named = [false; 4];
    expr.mark_suits(&mut named);
    for lengths in arrangements(&shape) {
        let choices: Vec<_> = (0..4).map(|suit| lengths[suit].choices(named[suit])).collect();
        for_each_combination(&choices, &mut |partial| {
            let Some(partial) = settle(partial) else {
                return Ok(());
            };
            if let Some(dist) = run_condition(text, &expr, partial)? {
                dists.insert(dist);
            }
            Ok(())
        })?;
    }
    Ok(())
}

/// Calls `visit` with every combination of one choice per suit.
fn for_each_combination(
    choices: &[Vec<Option<u8>>],
    visit: &mut dyn FnMut(Partial) -> Result<(), String>,
) -> Result<(), String> {
    for &s in &choices[0] {
        for &h in &choices[1] {
            for &d in &choices[2] {
                for &c in &choices[3] {
                    visit([s, h, d, c])?;
                }
            }
        }
    }
    Ok(())
}

/// Applies the reference's total rules to a distribution: `None` if the lengths exceed 13 (or
/// miss 13 with no `x`); otherwise the `x`s filled in when forced (all 0 at 13, or a lone `x`
/// whose remainder is at most 9).
fn settle(mut partial: Partial) -> Option<Partial> {
    let total: u8 = partial.iter().flatten().sum();
    let free = partial.iter().filter(|length| length.is_none()).count();
    if total > 13 || (free == 0 && total != 13) {
        return None;
    }
    if free > 0 && (total == 13 || (free == 1 && 13 - total <= 9)) {
        for length in partial.iter_mut().filter(|length| length.is_none()) {
            *length = Some(13 - total);
        }
    }
    Some(partial)
}

/// A distribution written as HvS text (`5xx5`).
fn partial_text(partial: &Partial) -> String {
    partial.iter().map(|length| length.map_or('x', |l| char::from(b'0' + l))).collect()
}

/// Runs the condition on one distribution; when it holds, the distribution as then written
/// (assignments in the condition change it).
fn run_condition(text: &str, expr: &Expr, partial: Partial) -> Result<Option<String>, String> {
    let mut suits = partial.map(|length| Value::Number(f64::from(length.unwrap_or(0))));
    if !expr.eval(&mut suits).is_ok_and(|value| value.is_true()) {
        return Ok(None);
    }
    let mut written = String::new();
    let mut total = 0.0;
    for suit in 0..4 {
        match partial[suit] {
            None => written.push('x'),
            Some(_) => {
                written.push_str(&suits[suit].to_string());
                total += suits[suit].number();
            }
        }
    }
    if total > 13.0 {
        return Err(bad_term(text, &format!("the condition makes \"{written}\" hold over 13 cards")));
    }
    Ok(Some(written))
}

fn can_total_13<'a>(lengths: impl Iterator<Item = &'a Length>) -> bool {
    let mut reachable: u16 = 1; // bit k: digit sum k (capped at 13) is reachable
    let mut has_any = false;
    for length in lengths {
        match *length {
            Length::Any => has_any = true,
            Length::Set(mask) | Length::Range(mask) => {
                let mut next = 0u16;
                for value in 0..=9 {
                    if mask & (1 << value) != 0 {
                        next |= reachable << value;
                    }
                }
                reachable = next & 0x3fff;
            }
        }
    }
    if has_any {
        reachable != 0
    } else {
        reachable & (1 << 13) != 0
    }
}

/// Parses the shape part of a term (letters already `s h d c` only).
fn parse_shape(text: &str) -> Result<ShapeSpec, String> {
    let mut letters = Vec::new();
    let mut body = Vec::new();
    for byte in text.bytes().filter(|&b| !is_perl_space(b)) {
        match SUIT_LETTERS.iter().position(|&l| l == byte) {
            Some(suit) => letters.push(suit),
            None => body.push(byte),
        }
    }
    let (prefix, group_text) = match body.iter().position(|&b| b == b'(') {
        None => (&body[..], None),
        Some(open) => {
            if body.last() != Some(&b')') || open + 2 >= body.len() {
                return Err("a (...) group must be non-empty and come last".to_string());
            }
            (&body[..open], Some(&body[open + 1..body.len() - 1]))
        }
    };
    let items = parse_lengths(prefix)?;
    let group = match group_text {
        Some(inner) => {
            if inner.contains(&b'(') || inner.contains(&b')') {
                return Err("nested or repeated (...) groups".to_string());
            }
            parse_lengths(inner)?
        }
        None => Vec::new(),
    };
    Ok(ShapeSpec { items, group, letters })
}

/// Parses a run of length items, to its end (a trailing `0` is an item too).
fn parse_lengths(text: &[u8]) -> Result<Vec<Length>, String> {
    let mut items = Vec::new();
    let mut pos = 0;
    while pos < text.len() {
        items.push(parse_length(text, &mut pos)?);
    }
    Ok(items)
}

/// Parses one length item at `body[*pos]` and advances past it.
fn parse_length(body: &[u8], pos: &mut usize) -> Result<Length, String> {
    let start = *pos;
    let unexpected = || format!("cannot parse \"{}\"", String::from_utf8_lossy(&body[start..]));
    match body[start] {
        b'x' => {
            *pos += 1;
            Ok(Length::Any)
        }
        digit @ b'0'..=b'9' => {
            let value = digit - b'0';
            let suffix_len = body[start + 1..].iter().take_while(|&&b| b == b'+' || b == b'-').count();
            let suffix = &body[start + 1..start + 1 + suffix_len];
            *pos += 1 + suffix_len;
            let low = if suffix.contains(&b'-') { 0 } else { value };
            let high = if suffix.first() == Some(&b'+') { 9 } else { value };
            let mask = (low..=high).fold(0, |mask, v| mask | 1 << v);
            Ok(if suffix.is_empty() { Length::Set(mask) } else { Length::Range(mask) })
        }
        b'[' => {
            let close = body[start..].iter().position(|&b| b == b']').ok_or_else(unexpected)?;
            let class = &body[start + 1..start + close];
            if class.is_empty() || !class.iter().all(|b| b.is_ascii_digit() || *b == b'-') {
                return Err(unexpected());
            }
            *pos = start + close + 1;
            digit_class(class).map(Length::Set)
        }
        _ => Err(unexpected()),
    }
}

/// The digits 0..9 matched by a Perl character class body made of digits and `-`.
fn digit_class(class: &[u8]) -> Result<u16, String> {
    let mut mask = 0u16;
    let mut add_range = |low: u8, high: u8| {
        for byte in low..=high {
            if byte.is_ascii_digit() {
                mask |= 1 << (byte - b'0');
            }
        }
    };
    let mut i = 0;
    while i < class.len() {
        if i + 2 < class.len() && class[i + 1] == b'-' {
            let (low, high) = (class[i], class[i + 2]);
            if low > high {
                return Err(format!("invalid range \"{}-{}\"", low as char, high as char));
            }
            add_range(low, high);
            i += 3;
        } else {
            add_range(class[i], class[i]);
            i += 1;
        }
    }
    Ok(mask)
}

/// Every assignment of lengths to the four suits the shape allows (one per group permutation).
fn arrangements(shape: &ShapeSpec) -> Vec<[Length; 4]> {
    let labelled = shape.letters.len().min(shape.items.len());
    let mut base = [Length::Any; 4];
    let mut taken = [false; 4];
    for (&suit, &length) in shape.letters[..labelled].iter().zip(&shape.items) {
        base[suit] = length;
        taken[suit] = true;
    }
    let free_suits: Vec<usize> = (0..4).filter(|&suit| !taken[suit]).collect();
    let unlabelled = shape.items.len() - labelled;
    for (&suit, &length) in free_suits.iter().zip(&shape.items[labelled..]) {
        base[suit] = length;
    }
    let group_suits = &free_suits[unlabelled..];
    let mut result = Vec::new();
    let mut order: Vec<usize> = (0..shape.group.len()).collect();
    permute(&mut order, 0, &mut |order| {
        let mut lengths = base;
        for (&suit, &item) in group_suits.iter().zip(order.iter()) {
            lengths[suit] = shape.group[item];
        }
        if !result.contains(&lengths) {
            result.push(lengths);
        }
    });
    result
}

/// Calls `visit` with every permutation of `items[first..]` (prefix fixed).
fn permute(items: &mut [usize], first: usize, visit: &mut dyn FnMut(&[usize])) {
    if first + 1 >= items.len() {
        visit(items);
        return;
    }
    for i in first..items.len() {
        items.swap(first, i);
        permute(items, first + 1, visit);
        items.swap(first, i);
    }
}

// ---------------------------------------------------------------------------------------------
// Conditions
// ---------------------------------------------------------------------------------------------

/// A token of a condition.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Token {
    Number(f64),
    Suit(usize),
    Or,
    And,
    Repeat,
    Plus,
    Minus,
    Times,
    Divide,
    Power,
    Not,
    Less,
    Greater,
    LessEqual,
    GreaterEqual,
    Equal,
    NotEqual,
    Assign,
    Compare,
    Open,
    Close,
}

/// Splits a condition into tokens; `Err` on anything Perl would reject.
fn tokenize(source: &str) -> Result<Vec<Token>, ()> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        let next = bytes.get(i + 1).copied();
        let (token, width) = match byte {
            b if is_perl_space(b) => {
                i += 1;
                continue;
            }
            b'0'..=b'9' => {
                let len = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
                let digits = &source[i..i + len];
                let value = if len > 1 && byte == b'0' {
                    // Perl octal literal.
                    digits[1..].bytes().try_fold(0f64, |acc, d| {
                        if d <= b'7' {
                            Ok(acc * 8.0 + f64::from(d - b'0'))
                        } else {
                            Err(())
                        }
                    })?
                } else {
                    digits.parse::<f64>().map_err(|_| ())?
                };
                (Token::Number(value), len)
            }
            b'o' if next == Some(b'r') => {
                if bytes.get(i + 2).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_') {
                    return Err(());
                }
                (Token::Or, 2)
            }
            b'x' => (Token::Repeat, 1),
            b',' => (Token::And, 1),
            b'+' if next == Some(b'+') => return Err(()),
            b'-' if next == Some(b'-') => return Err(()),
            b'+' => (Token::Plus, 1),
            b'-' => (Token::Minus, 1),
            b'*' if next == Some(b'*') => (Token::Power, 2),
            b'*' => (Token::Times, 1),
            b'/' => (Token::Divide, 1),
            b'<' if next == Some(b'=') && bytes.get(i + 2) == Some(&b'>') => (Token::Compare, 3),
            b'<' if next == Some(b'=') => (Token::LessEqual, 2),
            b'<' => (Token::Less, 1),
            b'>' if next == Some(b'=') => (Token::GreaterEqual, 2),
            b'>' => (Token::Greater, 1),
            b'=' if next == Some(b'=') => (Token::Equal, 2),
            b'=' => (Token::Assign, 1),
            b'!' if next == Some(b'=') => (Token::NotEqual, 2),
            b'!' => (Token::Not, 1),
            b'(' => (Token::Open, 1),
            b')' => (Token::Close, 1),
            _ => match SUIT_LETTERS.iter().position(|&l| l == byte) {
                // A suit letter glued to a preceding letter is not a suit (`orh`, `sh`).
                Some(suit) if i == 0 || !bytes[i - 1].is_ascii_alphabetic() => (Token::Suit(suit), 1),
                _ => return Err(()),
            },
        };
        tokens.push(token);
        i += width;
    }
    Ok(tokens)
}

/// A condition's syntax tree.
#[derive(Debug)]
enum Expr {
    Number(f64),
    Suit(usize),
    Not(Box<Expr>),
    Negate(Box<Expr>),
    Binary(Token, Box<Expr>, Box<Expr>),
    /// A chain of comparisons `a < b <= c`, true when every link holds.
    Chain(Box<Expr>, Vec<(Token, Expr)>),
    Or(Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    /// `s = expr`: Perl assignment to a suit (the reference really changes the distribution).
    Assign(usize, Box<Expr>),
}

/// A Perl scalar as far as conditions need one.
#[derive(Clone, Debug)]
enum Value {
    Number(f64),
    Text(String),
}

impl Value {
    fn number(&self) -> f64 {
        match self {
            Value::Number(n) => *n,
            Value::Text(text) => numeric_prefix(text),
        }
    }
    fn is_true(&self) -> bool {
        match self {
            Value::Number(n) => *n != 0.0,
            Value::Text(text) => !text.is_empty() && text != "0",
        }
    }
    fn boolean(truth: bool) -> Value {
        if truth {
            Value::Number(1.0)
        } else {
            Value::Text(String::new())
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Text(text) => f.write_str(text),
            Value::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => write!(f, "{}", *n as i64),
            Value::Number(n) => write!(f, "{n}"),
        }
    }
}

/// Perl's numeric value of a string: its leading decimal number, or 0.
fn numeric_prefix(text: &str) -> f64 {
    let trimmed = text.trim_start();
    let bytes = trimmed.as_bytes();
    let mut end = 0;
    if matches!(bytes.first(), Some(b'+' | b'-')) {
        end = 1;
    }
    let digits_start = end;
    end += bytes[end..].iter().take_while(|b| b.is_ascii_digit()).count();
    if bytes.get(end) == Some(&b'.') {
        end += 1 + bytes[end + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
    }
    if end == digits_start {
        return 0.0;
    }
    let value = trimmed[..end].parse::<f64>().unwrap_or(0.0);
    if value.is_nan() {
        0.0
    } else {
        value
    }
}

/// Parses a condition; `Err` when Perl would fail to compile it.
fn parse_condition(source: &str) -> Result<Expr, ()> {
    // Every `,` is Perl's `and` (fdp replaces them all; dealer.dpp only the first).
    let tokens = tokenize(source)?;
    let mut parser = Parser { tokens: &tokens, pos: 0 };
    let expr = parser.or_expr()?;
    if parser.pos != tokens.len() {
        return Err(());
    }
    Ok(expr)
}

/// Recursive-descent parser with Perl's precedence.
struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<Token> {
        self.tokens.get(self.pos).copied()
    }
    fn eat(&mut self, token: Token) -> bool {
        if self.peek() == Some(token) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn or_expr(&mut self) -> Result<Expr, ()> {
        let mut left = self.and_expr()?;
        while self.eat(Token::Or) {
            left = Expr::Or(Box::new(left), Box::new(self.and_expr()?));
        }
        Ok(left)
    }
    fn and_expr(&mut self) -> Result<Expr, ()> {
        let mut left = self.assignment()?;
        while self.eat(Token::And) {
            left = Expr::And(Box::new(left), Box::new(self.assignment()?));
        }
        Ok(left)
    }
    fn assignment(&mut self) -> Result<Expr, ()> {
        let target = self.equality()?;
        if !self.eat(Token::Assign) {
            return Ok(target);
        }
        match target {
            Expr::Suit(suit) => Ok(Expr::Assign(suit, Box::new(self.assignment()?))),
            _ => Err(()),
        }
    }
    fn equality(&mut self) -> Result<Expr, ()> {
        let first = self.relational()?;
        if self.eat(Token::Compare) {
            let right = self.relational()?;
            if matches!(self.peek(), Some(Token::Equal | Token::NotEqual | Token::Compare)) {
                return Err(());
            }
            return Ok(Expr::Binary(Token::Compare, Box::new(first), Box::new(right)));
        }
        let mut links = Vec::new();
        while let Some(op @ (Token::Equal | Token::NotEqual)) = self.peek() {
            self.pos += 1;
            links.push((op, self.relational()?));
        }
        if self.peek() == Some(Token::Compare) {
            return Err(());
        }
        Ok(if links.is_empty() { first } else { Expr::Chain(Box::new(first), links) })
    }
    fn relational(&mut self) -> Result<Expr, ()> {
        let first = self.additive()?;
        let mut links = Vec::new();
        while let Some(op @ (Token::Less | Token::Greater | Token::LessEqual | Token::GreaterEqual)) = self.peek() {
            self.pos += 1;
            links.push((op, self.additive()?));
        }
        Ok(if links.is_empty() { first } else { Expr::Chain(Box::new(first), links) })
    }
    fn additive(&mut self) -> Result<Expr, ()> {
        let mut left = self.multiplicative()?;
        while let Some(op @ (Token::Plus | Token::Minus)) = self.peek() {
            self.pos += 1;
            left = Expr::Binary(op, Box::new(left), Box::new(self.multiplicative()?));
        }
        Ok(left)
    }
    fn multiplicative(&mut self) -> Result<Expr, ()> {
        let mut left = self.unary()?;
        while let Some(op @ (Token::Times | Token::Divide | Token::Repeat)) = self.peek() {
            self.pos += 1;
            left = Expr::Binary(op, Box::new(left), Box::new(self.unary()?));
        }
        Ok(left)
    }
    fn unary(&mut self) -> Result<Expr, ()> {
        if self.eat(Token::Not) {
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        if self.eat(Token::Minus) {
            return Ok(Expr::Negate(Box::new(self.unary()?)));
        }
        if self.eat(Token::Plus) {
            return self.unary();
        }
        self.power()
    }
    fn power(&mut self) -> Result<Expr, ()> {
        let base = self.primary()?;
        if self.eat(Token::Power) {
            return Ok(Expr::Binary(Token::Power, Box::new(base), Box::new(self.unary()?)));
        }
        Ok(base)
    }
    fn primary(&mut self) -> Result<Expr, ()> {
        match self.peek() {
            Some(Token::Number(n)) => {
                self.pos += 1;
                Ok(Expr::Number(n))
            }
            Some(Token::Suit(suit)) => {
                self.pos += 1;
                Ok(Expr::Suit(suit))
            }
            Some(Token::Open) => {
                self.pos += 1;
                let inner = self.or_expr()?;
                if !self.eat(Token::Close) {
                    return Err(());
                }
                Ok(inner)
            }
            _ => Err(()),
        }
    }
}

impl Expr {
    /// Marks the suits the expression reads.
    fn mark_suits(&self, named: &mut [bool; 4]) {
        match self {
            Expr::Number(_) => {}
            Expr::Suit(suit) => named[*suit] = true,
            Expr::Not(inner) | Expr::Negate(inner) => inner.mark_suits(named),
            Expr::Assign(suit, value) => {
                named[*suit] = true;
                value.mark_suits(named);
            }
            Expr::Binary(_, left, right) | Expr::Or(left, right) | Expr::And(left, right) => {
                left.mark_suits(named);
                right.mark_suits(named);
            }
            Expr::Chain(first, links) => {
                first.mark_suits(named);
                for (_, expr) in links {
                    expr.mark_suits(named);
                }
            }
        }
    }

    /// Evaluates the expression with the suits' current values (which assignments update);
    /// `Err` for a run-time error such as division by zero.
    fn eval(&self, pattern: &mut [Value; 4]) -> Result<Value, ()> {
        Ok(match self {
            Expr::Number(n) => Value::Number(*n),
            Expr::Suit(suit) => pattern[*suit].clone(),
            Expr::Assign(suit, value) => {
                let value = value.eval(pattern)?;
                pattern[*suit] = value.clone();
                value
            }
            Expr::Not(inner) => Value::boolean(!inner.eval(pattern)?.is_true()),
            Expr::Negate(inner) => Value::Number(-inner.eval(pattern)?.number()),
            Expr::Or(left, right) => {
                let value = left.eval(pattern)?;
                if value.is_true() {
                    value
                } else {
                    right.eval(pattern)?
                }
            }
            Expr::And(left, right) => {
                let value = left.eval(pattern)?;
                if value.is_true() {
                    right.eval(pattern)?
                } else {
                    value
                }
            }
            Expr::Chain(first, links) => {
                let mut left = first.eval(pattern)?.number();
                for (op, expr) in links {
                    let right = expr.eval(pattern)?.number();
                    if !compare(*op, left, right) {
                        return Ok(Value::boolean(false));
                    }
                    left = right;
                }
                Value::boolean(true)
            }
            Expr::Binary(op, left, right) => {
                let left = left.eval(pattern)?;
                let right = right.eval(pattern)?;
                binary(*op, &left, &right)?
            }
        })
    }
}

fn compare(op: Token, left: f64, right: f64) -> bool {
    match op {
        Token::Less => left < right,
        Token::Greater => left > right,
        Token::LessEqual => left <= right,
        Token::GreaterEqual => left >= right,
        Token::Equal => left == right,
        Token::NotEqual => left != right,
        _ => false,
    }
}

fn binary(op: Token, left: &Value, right: &Value) -> Result<Value, ()> {
    let (a, b) = (left.number(), right.number());
    Ok(Value::Number(match op {
        Token::Plus => a + b,
        Token::Minus => a - b,
        Token::Times => a * b,
        Token::Divide if b == 0.0 => return Err(()),
        Token::Divide => a / b,
        Token::Power => a.powf(b),
        Token::Compare if a.is_nan() || b.is_nan() => return Ok(Value::Text(String::new())),
        Token::Compare => {
            if a < b {
                -1.0
            } else if a > b {
                1.0
            } else {
                0.0
            }
        }
        Token::Repeat => {
            let unit = left.to_string();
            let count = if b.is_finite() && b > 0.0 { b.trunc() as usize } else { 0 };
            let times = if unit.is_empty() { 0 } else { count.min(MAX_REPEAT_LEN / unit.len() + 1) };
            return Ok(Value::Text(unit.repeat(times)));
        }
        _ => return Err(()),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Independent model of dealer's HvS `shape(compass, list)` (§1.6/§2.5) used to turn the
    /// preprocessor's captured output into concrete patterns: `None` where dealer would reject it.
    fn hvs_set(list: &str) -> Option<Vec<[u8; 4]>> {
        let words: Vec<&str> = list.split_whitespace().collect();
        if words.is_empty() {
            return None;
        }
        let mut bits = vec![false; 560];
        let patterns = all_patterns();
        let mut i = 0;
        while i < words.len() {
            let mut include = true;
            if words[i] == "+" || words[i] == "-" {
                include = words[i] == "+";
                i += 1;
            }
            let mut any = false;
            if words.get(i) == Some(&"any") {
                any = true;
                i += 1;
            }
            let dist = words.get(i)?.as_bytes();
            i += 1;
            if dist.len() != 4 || !dist.iter().all(|&b| b == b'x' || b.is_ascii_digit()) {
                return None;
            }
            let sum: u32 = dist.iter().filter(|b| b.is_ascii_digit()).map(|&b| u32::from(b - b'0')).sum();
            let has_x = dist.contains(&b'x');
            if sum > 13 || (!has_x && sum != 13) {
                return None;
            }
            for (index, pattern) in patterns.iter().enumerate() {
                let mut orders = vec![[0, 1, 2, 3]];
                if any {
                    orders.clear();
                    for code in 0..256usize {
                        let order = [code & 3, (code >> 2) & 3, (code >> 4) & 3, (code >> 6) & 3];
                        if (0..4).all(|k| order.contains(&k)) {
                            orders.push(order);
                        }
                    }
                }
                let hit =
                    orders.iter().any(|order| (0..4).all(|k| dist[k] == b'x' || dist[k] - b'0' == pattern[order[k]]));
                if hit {
                    bits[index] = include;
                }
            }
        }
        Some(patterns.into_iter().zip(bits).filter_map(|(p, b)| b.then_some(p)).collect())
    }

    /// Compares `expand(spec)` with fdp's output (`None`: fdp died).
    fn check_table(table: &[(&str, Option<&str>)]) {
        for &(spec, oracle) in table {
            let expected = oracle.and_then(hvs_set);
            match (expand(spec), expected) {
                (Ok(got), Some(want)) => assert_eq!(got, want, "spec {spec:?}"),
                (Err(_), None) => {}
                (got, want) => panic!("spec {spec:?}: got {got:?}, want {want:?}"),
            }
        }
    }

    /// Every `shape{…}` of the DealerV2 parity cases, with fdp's output.
    #[test]
    fn parity_case_specs_match_fdp() {
        check_table(&[
        (" 4+m5-Mxx ", Some("0409 + 0490 + 0508 + 0580 + 0x4x + 0x5x + 0x6x + 0x7x + 0x8x + 0x9x + 0xx4 + 0xx5 + 0xx6 + 0xx7 + 0xx8 + 0xx9 + 1x4x + 1x5x + 1x6x + 1x7x + 1x8x + 1x9x + 1xx4 + 1xx5 + 1xx6 + 1xx7 + 1xx8 + 1xx9 + 2x4x + 2x5x + 2x6x + 2x7x + 2x8x + 2x9x + 2xx4 + 2xx5 + 2xx6 + 2xx7 + 2xx8 + 2xx9 + 3x4x + 3x5x + 3x6x + 3x7x + 3x8x + 3x9x + 3xx4 + 3xx5 + 3xx6 + 3xx7 + 3xx8 + 3xx9 + 4009 + 4090 + 4x4x + 4x5x + 4x6x + 4x7x + 4x8x + 4xx4 + 4xx5 + 4xx6 + 4xx7 + 4xx8 + 5008 + 5080 + 5x4x + 5x5x + 5x6x + 5x7x + 5xx4 + 5xx5 + 5xx6 + 5xx7 + x04x + x05x + x06x + x07x + x08x + x09x + x0x4 + x0x5 + x0x6 + x0x7 + x0x8 + x0x9 + x14x + x15x + x16x + x17x + x18x + x19x + x1x4 + x1x5 + x1x6 + x1x7 + x1x8 + x1x9 + x24x + x25x + x26x + x27x + x28x + x29x + x2x4 + x2x5 + x2x6 + x2x7 + x2x8 + x2x9 + x34x + x35x + x36x + x37x + x38x + x39x + x3x4 + x3x5 + x3x6 + x3x7 + x3x8 + x3x9 + x44x + x45x + x46x + x47x + x48x + x4x4 + x4x5 + x4x6 + x4x7 + x4x8 + x54x + x55x + x56x + x57x + x5x4 + x5x5 + x5x6 + x5x7")),
        (" 4+s4+h(xx):d>c,h+s==10", Some("4621 + 4630 + 5521 + 5530 + 6421 + 6430")),
        (" 5-x4+x", Some("0x4x + 0x5x + 0x6x + 0x7x + 0x8x + 0x9x + 1x4x + 1x5x + 1x6x + 1x7x + 1x8x + 1x9x + 2x4x + 2x5x + 2x6x + 2x7x + 2x8x + 2x9x + 3x4x + 3x5x + 3x6x + 3x7x + 3x8x + 3x9x + 4090 + 4x4x + 4x5x + 4x6x + 4x7x + 4x8x + 5080 + 5x4x + 5x5x + 5x6x + 5x7x")),
        (" (55xx):d>c or h>s", Some("0355 + 0535 + 0553 + 1255 + 1525 + 1552 + 2515 + 2551 + 3505 + 3550 + 5053 + 5152 + 5251 + 5350 + 5521 + 5530")),
        (" 5+Mxxx", Some("5xxx + 6xxx + 7xxx + 8xxx + 9xxx + x5xx + x6xx + x7xx + x8xx + x9xx")),
        (" 5Mxxx + 4m(4xx)", Some("5xxx + x5xx + 4x4x + 4xx4 + x44x + x4x4 + xx44")),
        (" 5x5x + x5x5 + 6xxx + x6xx ", Some("5x5x + x5x5 + 6xxx + x6xx")),
        (" 5(431) + 44(xx) ", Some("5134 + 5143 + 5314 + 5341 + 5413 + 5431 + 44xx")),
        (" [24-68]s[14]hxx ", Some("21xx + 24xx + 41xx + 44xx + 51xx + 54xx + 61xx + 64xx + 81xx + 84xx")),
        (" (5xxx):h>s,c>d ", Some("0157 + 0256 + 0445 + 0508 + 0517 + 0526 + 0535 + 0625 + 0715 + 0805 + 1345 + 1435 + 1507 + 1516 + 1525 + 1534 + 1615 + 1705 + 2335 + 2425 + 2506 + 2515 + 2524 + 2605 + 3415 + 3505 + 3514 + 3523 + 4504 + 4513 + 5602 + 5701")),
        (" 4M(3+3+2+)", Some("2434 + 2443 + 3424 + 3433 + 3442 + 4234 + 4243 + 4324 + 4333 + 4342 + 4423 + 4432")),
        (" x4+xx:h>c,h>d", Some("0544 + 0625 + 0634 + 0643 + 0652 + 0706 + 0715 + 0724 + 0733 + 0742 + 0751 + 0760 + 0805 + 0814 + 0823 + 0832 + 0841 + 0850 + 0904 + 0913 + 0922 + 0931 + 0940 + 1534 + 1543 + 1615 + 1624 + 1633 + 1642 + 1651 + 1705 + 1714 + 1723 + 1732 + 1741 + 1750 + 1804 + 1813 + 1822 + 1831 + 1840 + 1903 + 1912 + 1921 + 1930 + 2524 + 2533 + 2542 + 2605 + 2614 + 2623 + 2632 + 2641 + 2650 + 2704 + 2713 + 2722 + 2731 + 2740 + 2803 + 2812 + 2821 + 2830 + 2902 + 2911 + 2920 + 3433 + 3514 + 3523 + 3532 + 3541 + 3604 + 3613 + 3622 + 3631 + 3640 + 3703 + 3712 + 3721 + 3730 + 3802 + 3811 + 3820 + 3901 + 3910 + 4423 + 4432 + 4504 + 4513 + 4522 + 4531 + 4540 + 4603 + 4612 + 4621 + 4630 + 4702 + 4711 + 4720 + 4801 + 4810 + 4900 + 5413 + 5422 + 5431 + 5503 + 5512 + 5521 + 5530 + 5602 + 5611 + 5620 + 5701 + 5710 + 5800 + 6403 + 6412 + 6421 + 6430 + 6502 + 6511 + 6520 + 6601 + 6610 + 6700 + 7402 + 7411 + 7420 + 7501 + 7510 + 7600 + 8401 + 8410 + 8500 + 9400")),
        (" x4+xx:h>s", Some("04xx + 05xx + 06xx + 07xx + 08xx + 09xx + 14xx + 15xx + 16xx + 17xx + 18xx + 19xx + 24xx + 25xx + 26xx + 27xx + 28xx + 29xx + 34xx + 35xx + 36xx + 37xx + 38xx + 39xx + 45xx + 46xx + 47xx + 48xx + 4900 + 56xx + 57xx + 5800 + 6700")),
    ]);
    }

    /// The seven examples of dealer-v1-behaviour.md §2.11 (fdp writes the same).
    #[test]
    fn reference_examples() {
        check_table(&[
            (" 2-xxx", Some("0xxx + 1xxx + 2xxx")),
            (" 5+xx5+", Some("5008 + 5xx5 + 5xx6 + 5xx7 + 6007 + 6xx5 + 6xx6 + 7006 + 7xx5 + 8005")),
            (" x[3-5]x[13]", Some("x3x1 + x3x3 + x4x1 + x4x3 + x5x1 + x5x3")),
            (" (4432)", Some("any 4432")),
            (" 5s(431)", Some("5134 + 5143 + 5314 + 5341 + 5413 + 5431")),
            (" 4M(3+3+2+)", Some("2434 + 2443 + 3424 + 3433 + 3442 + 4234 + 4243 + 4324 + 4333 + 4342 + 4423 + 4432")),
            (" 5+M3+c(31)", Some("1534 + 1633 + 3514 + 3613 + 5134 + 5314 + 6133 + 6313")),
        ]);
        assert_eq!(expand(" (4432)").unwrap().len(), 12);
        assert_eq!(expand(" 5s(431)").unwrap()[0], [5, 1, 3, 4]);
    }

    /// Further specs covering every feature, with fdp's output.
    #[test]
    fn features_match_fdp() {
        check_table(&[
        (" 5xxx - 55xx", Some("5xxx - 55xx")),
        (" xxxx - 5+xx5+", Some("xxxx - 5008 - 5xx5 - 5xx6 - 5xx7 - 6007 - 6xx5 - 6xx6 - 7006 - 7xx5 - 8005")),
        (" xxxx - (5+5+xx)", Some("xxxx - any 0076 - any 0085 - any xx55 - any xx65 - any xx66 - any xx75")),
        (" 4333 + 4333 - 4333", Some("4333 + 4333 - 4333")),
        (" 5555 + 4333", Some(" + 4333")),
        (" 4333 - 43(33)", Some("4333 - 4333")),
        (" 5+xxx", Some("5xxx + 6xxx + 7xxx + 8xxx + 9xxx")),
        (" x5+xx", Some("x5xx + x6xx + x7xx + x8xx + x9xx")),
        (" 0-xxx", Some("0xxx")),
        (" 5+-xxx", Some("0xxx + 1xxx + 2xxx + 3xxx + 4xxx + 5xxx + 6xxx + 7xxx + 8xxx + 9xxx")),
        (" 1x11", Some("1x11")),
        (" 5x44", Some("5044")),
        (" x6x7", Some("0607")),
        (" [0-13]xxx", Some("0xxx + 1xxx + 3xxx")),
        (" [2-4-6]xxx", Some("2xxx + 3xxx + 4xxx + 6xxx")),
        (" [-2]xxx", Some("2xxx")),
        (" [13579][02468]xx", Some("10xx + 12xx + 14xx + 16xx + 18xx + 30xx + 32xx + 34xx + 36xx + 38xx + 50xx + 52xx + 54xx + 56xx + 5800 + 70xx + 72xx + 74xx + 7600 + 90xx + 92xx + 9400")),
        (" 5s4h3dx", Some("5431")),
        (" 3c3d3h4s", Some("4333")),
        (" 5hx4sx", Some("x54x")),
        (" 15h(s52)", Some("5125 + 5152")),
        (" 4s(h432)", Some("4234 + 4243 + 4324 + 4342 + 4423 + 4432")),
        (" (xxxx)", Some("any xxxx")),
        (" (5+xxx)", Some("any xxx5 + any xxx6 + any xxx7 + any xxx8 + any xxx9")),
        (" (x444)", Some("any 1444")),
        (" (x[2-3]x5+)", Some("any xx52 + any xx53 + any xx62 + any xx63 + any xx72 + any xx73 + any xx82 + any xx83 + any xx92 + any xx93")),
        (" 5s(431)", Some("5134 + 5143 + 5314 + 5341 + 5413 + 5431")),
        (" 5x(xx)", Some("5xxx")),
        (" 5Mxxx", Some("5xxx + x5xx")),
        (" M5xxx", Some("5xxx + x5xx")),
        (" 5M4mxx", Some("5x4x + 5xx4 + x54x + x5x4")),
        (" 5Mx5mx", Some("55xx")),
        (" xxxx:M>5", Some("6xxx + 7xxx + 8xxx + 9xxx + x6xx + x7xx + x8xx + x9xx")),
        (" 5Mxxx:s>3", Some("45xx + 55xx + 5xxx + 65xx + 75xx + 8500")),
        (" 5mxxx:M>4", Some("0805 + 0850 + 5x5x + 5xx5 + 6x5x + 6xx5 + 7x5x + 7xx5 + 8005 + 8050 + x55x + x5x5 + x65x + x6x5 + x75x + x7x5")),
        (" (4432):s>h", Some("3244 + 4234 + 4243 + 4324 + 4342")),
        (" xxxx:s>h", Some("10xx + 20xx + 21xx + 30xx + 31xx + 32xx + 40xx + 41xx + 42xx + 43xx + 50xx + 51xx + 52xx + 53xx + 54xx + 60xx + 61xx + 62xx + 63xx + 64xx + 65xx + 70xx + 71xx + 72xx + 73xx + 74xx + 75xx + 7600 + 80xx + 81xx + 82xx + 83xx + 84xx + 8500 + 90xx + 91xx + 92xx + 93xx + 9400")),
        (" xxxx:s>5 or h>5,d>5", Some("0661 + 0670 + 0760 + 1660 + 6007 + 6016 + 6025 + 6034 + 6043 + 6052 + 6061 + 6070 + 6106 + 6115 + 6124 + 6133 + 6142 + 6151 + 6160 + 6205 + 6214 + 6223 + 6232 + 6241 + 6250 + 6304 + 6313 + 6322 + 6331 + 6340 + 6403 + 6412 + 6421 + 6430 + 6502 + 6511 + 6520 + 6601 + 6610 + 6700 + 7006 + 7015 + 7024 + 7033 + 7042 + 7051 + 7060 + 7105 + 7114 + 7123 + 7132 + 7141 + 7150 + 7204 + 7213 + 7222 + 7231 + 7240 + 7303 + 7312 + 7321 + 7330 + 7402 + 7411 + 7420 + 7501 + 7510 + 7600 + 8005 + 8014 + 8023 + 8032 + 8041 + 8050 + 8104 + 8113 + 8122 + 8131 + 8140 + 8203 + 8212 + 8221 + 8230 + 8302 + 8311 + 8320 + 8401 + 8410 + 8500 + 9004 + 9013 + 9022 + 9031 + 9040 + 9103 + 9112 + 9121 + 9130 + 9202 + 9211 + 9220 + 9301 + 9310 + 9400")),
        (" xxxx:s>5,h>5 or d>5", Some("0067 + 0076 + 0085 + 0094 + 0166 + 0175 + 0184 + 0193 + 0265 + 0274 + 0283 + 0292 + 0364 + 0373 + 0382 + 0391 + 0463 + 0472 + 0481 + 0490 + 0562 + 0571 + 0580 + 0661 + 0670 + 0760 + 1066 + 1075 + 1084 + 1093 + 1165 + 1174 + 1183 + 1192 + 1264 + 1273 + 1282 + 1291 + 1363 + 1372 + 1381 + 1390 + 1462 + 1471 + 1480 + 1561 + 1570 + 1660 + 2065 + 2074 + 2083 + 2092 + 2164 + 2173 + 2182 + 2191 + 2263 + 2272 + 2281 + 2290 + 2362 + 2371 + 2380 + 2461 + 2470 + 2560 + 3064 + 3073 + 3082 + 3091 + 3163 + 3172 + 3181 + 3190 + 3262 + 3271 + 3280 + 3361 + 3370 + 3460 + 4063 + 4072 + 4081 + 4090 + 4162 + 4171 + 4180 + 4261 + 4270 + 4360 + 5062 + 5071 + 5080 + 5161 + 5170 + 5260 + 6061 + 6070 + 6160 + 6601 + 6610 + 6700 + 7060 + 7600")),
        (" xxxx:(s>4,h>4)", Some("55xx + 56xx + 57xx + 5800 + 65xx + 66xx + 6700 + 75xx + 7600 + 8500")),
        (" xxxx:s+h==10", Some("19xx + 28xx + 37xx + 46xx + 55xx + 64xx + 73xx + 82xx + 91xx")),
        (" xxxx:s*2>h*3", Some("10xx + 20xx + 21xx + 30xx + 31xx + 40xx + 41xx + 42xx + 50xx + 51xx + 52xx + 53xx + 60xx + 61xx + 62xx + 63xx + 70xx + 71xx + 72xx + 73xx + 74xx + 80xx + 81xx + 82xx + 83xx + 84xx + 8500 + 90xx + 91xx + 92xx + 93xx + 9400")),
        (" xxxx:s/2>3", Some("7xxx + 8xxx + 9xxx")),
        (" xxxx:s-h>4", Some("50xx + 60xx + 61xx + 70xx + 71xx + 72xx + 80xx + 81xx + 82xx + 83xx + 90xx + 91xx + 92xx + 93xx + 9400")),
        (" xxxx:-s<-8", Some("9xxx")),
        (" xxxx:s==h==4", Some("44xx")),
        (" xxxx:s>h>2", Some("43xx + 53xx + 54xx + 63xx + 64xx + 65xx + 73xx + 74xx + 75xx + 7600 + 83xx + 84xx + 8500 + 93xx + 9400")),
        (" xxxx:6<s==h", Some("00xx + 10xx + 20xx + 30xx + 40xx + 50xx + 60xx + 71xx + 81xx + 91xx")),
        (" xxxx:s<=>h", Some("01xx + 02xx + 03xx + 04xx + 05xx + 06xx + 07xx + 08xx + 09xx + 10xx + 12xx + 13xx + 14xx + 15xx + 16xx + 17xx + 18xx + 19xx + 20xx + 21xx + 23xx + 24xx + 25xx + 26xx + 27xx + 28xx + 29xx + 30xx + 31xx + 32xx + 34xx + 35xx + 36xx + 37xx + 38xx + 39xx + 40xx + 41xx + 42xx + 43xx + 45xx + 46xx + 47xx + 48xx + 4900 + 50xx + 51xx + 52xx + 53xx + 54xx + 56xx + 57xx + 5800 + 60xx + 61xx + 62xx + 63xx + 64xx + 65xx + 6700 + 70xx + 71xx + 72xx + 73xx + 74xx + 75xx + 7600 + 80xx + 81xx + 82xx + 83xx + 84xx + 8500 + 90xx + 91xx + 92xx + 93xx + 9400")),
        (" xxxx:!s", Some("0xxx")),
        (" xxxx:s==010", Some("8xxx")),
        (" xxxx:sx2==55", Some("5xxx")),
        (" xxxx:sor h", Some("01xx + 02xx + 03xx + 04xx + 05xx + 06xx + 07xx + 08xx + 09xx + 10xx + 11xx + 12xx + 13xx + 14xx + 15xx + 16xx + 17xx + 18xx + 19xx + 20xx + 21xx + 22xx + 23xx + 24xx + 25xx + 26xx + 27xx + 28xx + 29xx + 30xx + 31xx + 32xx + 33xx + 34xx + 35xx + 36xx + 37xx + 38xx + 39xx + 40xx + 41xx + 42xx + 43xx + 44xx + 45xx + 46xx + 47xx + 48xx + 4900 + 50xx + 51xx + 52xx + 53xx + 54xx + 55xx + 56xx + 57xx + 5800 + 60xx + 61xx + 62xx + 63xx + 64xx + 65xx + 66xx + 6700 + 70xx + 71xx + 72xx + 73xx + 74xx + 75xx + 7600 + 80xx + 81xx + 82xx + 83xx + 84xx + 8500 + 90xx + 91xx + 92xx + 93xx + 9400")),
        (" xxxx:s>4or h>4", Some("05xx + 06xx + 07xx + 08xx + 09xx + 15xx + 16xx + 17xx + 18xx + 19xx + 25xx + 26xx + 27xx + 28xx + 29xx + 35xx + 36xx + 37xx + 38xx + 39xx + 45xx + 46xx + 47xx + 48xx + 4900 + 50xx + 51xx + 52xx + 53xx + 54xx + 55xx + 56xx + 57xx + 5800 + 60xx + 61xx + 62xx + 63xx + 64xx + 65xx + 66xx + 6700 + 70xx + 71xx + 72xx + 73xx + 74xx + 75xx + 7600 + 80xx + 81xx + 82xx + 83xx + 84xx + 8500 + 90xx + 91xx + 92xx + 93xx + 9400")),
        (" xxxx:12", Some("xxxx")),
        (" xxxx:s=4", Some("4xxx")),
        (" 5+xxx:s=5", Some("5xxx")),
        (" xxxx:s!=4", Some("0xxx + 1xxx + 2xxx + 3xxx + 5xxx + 6xxx + 7xxx + 8xxx + 9xxx")),
        (" xxxx:c<1", Some("xxx0")),
        (" 5x[23]x:c==5", Some("5035 + 5125")),
        (" xxxx:s>=12 + 4333", Some(" + 4333")),
        (" :s>4 + 4333", Some(" + 4333")),
        (" 433 + 4333", Some(" + 4333")),
        (" x9x4", Some("0904")),
        (" 5 x x x", Some("5xxx")),
        (" xxxx : s>4", Some("5xxx + 6xxx + 7xxx + 8xxx + 9xxx")),
        ]);
    }

    /// Specs fdp dies on, or whose output dealer rejects.
    const ERROR_SPECS: &[(&str, Option<&str>)] = &[
        (" 5q", None),
        (" - 5xxx + 5431", None),
        (" +5xxx", Some("")),
        (" 5xxx +4333", None),
        (" 5xxx + ", Some("5xxx + ")),
        (" 4333 + 5555", Some("4333 + ")),
        (" 4333 + 5555 + 5332", Some("4333 +  + 5332")),
        (" 5555", Some("")),
        (" 5xx", Some("5xx")),
        (" 5xxxx", Some("5xxxx")),
        (" 10xxx", Some("10xxx")),
        (" 10+xxx", Some("10xxx + 11xxx + 12xxx + 13xxx + 14xxx + 15xxx + 16xxx + 17xxx + 18xxx + 19xxx")),
        (" x", Some("x")),
        (" x+xxx", None),
        (" [9-2]xxx", None),
        (" []xxx", None),
        (" [x]xxx", None),
        (" [0-9]+xxx", None),
        (" (5)xxx", None),
        (" 5(xx)x", None),
        (" 5()", None),
        (" ((43)33)", None),
        (" 5Mx5Mx", None),
        (" 5M5Mxx", None),
        (" 5m4mxx", None),
        (" 5s5Mxx", None),
        (" xxxx:M>h", None),
        (" xxxx:m>d", None),
        (" 5Mxxx:M>3", None),
        (" 5s4sxx", Some("5xx ")),
        (" xxxx:s>4:h>4", None),
        (" xxxx:s>9", Some("")),
        (" xxxx:", Some("")),
        (" xxxx:1>2", Some("")),
        (" xxxx:s>4 and h>4", Some("")),
        (" xxxx:s>4 orh>4", Some("")),
        (" xxxx:sh==53", Some("")),
        (" xxxx:s==09", Some("")),
        (" xxxx:s==--4", Some("")),
        (" xxxx:0+d=4", Some("")),
        (" 4333:s=5", None),
        (" 4333:s=3", Some("3333")),
        (" (4432):s=4", None),
        (" xxxx:s=h", None),
        (" 5xxx:h=4", Some("5400 + 54xx")),
        (" xxxx:s=10", Some("10xxx")),
        (
            " 0(4432)",
            Some("02344 + 02434 + 02443 + 03244 + 03424 + 03442 + 04234 + 04243 + 04324 + 04342 + 04423 + 04432"),
        ),
        (" 433(30)", Some("43303 + 43330")),
        (" xxxx:0", Some("")),
        (" 4333:0", Some("")),
        (" 4333 + xxxx:0", Some("4333 + ")),
        (" 4333 - 4xxx:0", Some("4333 - ")),
        (" ", Some("")),
    ];

    #[test]
    fn errors_match_fdp() {
        check_table(ERROR_SPECS);
        for &(spec, _) in ERROR_SPECS {
            assert!(expand(spec).is_err(), "spec {spec:?} should fail");
        }
    }

    /// The patterns of the 560 for which `keep` holds.
    fn patterns_where(keep: impl Fn(&[u8; 4]) -> bool) -> Vec<[u8; 4]> {
        all_patterns().into_iter().filter(|p| keep(p)).collect()
    }

    /// A ` - ` term removes every pattern it expands to, not just its first (fdp writes
    /// `4xxx - xx5x - xx6x - … - xx9x`; dealer.dpp's `4xxx - xx5x + xx6x + …` would add the others).
    #[test]
    fn minus_term_removes_all_its_patterns() {
        let (s, h, d, c) = (0, 1, 2, 3);
        // 4xxx - xx5+x: four spades and at most four diamonds.
        assert_eq!(expand(" 4xxx - xx5+x").unwrap(), patterns_where(|p| p[s] == 4 && p[d] < 5));
        // (4432) - 4s(432): the 4432 hands without four spades.
        let is_4432 = |p: &[u8; 4]| {
            let mut sorted = *p;
            sorted.sort_unstable();
            sorted == [2, 3, 4, 4]
        };
        let got = expand(" (4432) - 4s(432)").unwrap();
        assert_eq!(got, patterns_where(|p| is_4432(p) && p[s] != 4));
        assert_eq!(got.len(), 6);
        // 5+h(xxx) - 6+h(xxx): exactly five hearts.
        assert_eq!(expand(" 5+h(xxx) - 6+h(xxx)").unwrap(), patterns_where(|p| p[h] == 5));
        // 6+m4+M(xx) - 7+mxxx: a six-card minor with a four-card major, and no seven-card minor.
        let six_four = |p: &[u8; 4]| [d, c].iter().any(|&m| p[m] >= 6) && [s, h].iter().any(|&m| p[m] >= 4);
        let got = expand(" 6+m4+M(xx) - 7+mxxx").unwrap();
        assert_eq!(got, patterns_where(|p| six_four(p) && p[d] < 7 && p[c] < 7));
        assert!(got.contains(&[4, 0, 6, 3]) && !got.contains(&[4, 0, 7, 2]) && !got.contains(&[4, 0, 2, 7]));
        // The list is applied in order: a later ` + ` term adds patterns back.
        let got = expand(" xxxx - 5+xx5+ + 5xx5").unwrap();
        assert_eq!(got, patterns_where(|p| p[s] < 5 || p[c] < 5 || (p[s] == 5 && p[c] == 5)));
        assert_eq!(expand(" 5xxx - 55xx").unwrap().len(), 45 - 4);
        // The same specs against fdp's own output.
        check_table(&[
            (" 4xxx - xx5+x", Some("4xxx - xx5x - xx6x - xx7x - xx8x - xx9x")),
            (" (4432) - 4s(432)", Some("any 4432 - 4234 - 4243 - 4324 - 4342 - 4423 - 4432")),
            (" 5+h(xxx) - 6+h(xxx)", Some("x5xx + x6xx + x7xx + x8xx + x9xx - x6xx - x7xx - x8xx - x9xx")),
            (" 6+m4+M(xx) - 7+mxxx", Some("0409 + 0490 + 0508 + 0580 + 0607 + 0670 + 0706 + 0760 + 4009 + 4090 + 4x6x + 4x7x + 4x8x + 4xx6 + 4xx7 + 4xx8 + 5008 + 5080 + 5x6x + 5x7x + 5xx6 + 5xx7 + 6007 + 6070 + 6x6x + 6xx6 + 7006 + 7060 + x46x + x47x + x48x + x4x6 + x4x7 + x4x8 + x56x + x57x + x5x6 + x5x7 + x66x + x6x6 - xx7x - xx8x - xx9x - xxx7 - xxx8 - xxx9")),
            (" xxxx - 5+xx5+ + 5xx5", Some("xxxx - 5008 - 5xx5 - 5xx6 - 5xx7 - 6007 - 6xx5 - 6xx6 - 7006 - 7xx5 - 8005 + 5xx5")),
        ]);
    }

    /// fdp reads every length item, a trailing `0` included (dealer.dpp stops at it).
    #[test]
    fn trailing_zero_is_a_length() {
        assert_eq!(expand(" 4630").unwrap(), vec![[4, 6, 3, 0]]);
        assert_eq!(expand(" 463(0)").unwrap(), vec![[4, 6, 3, 0]]);
        assert_eq!(expand(" xxx0").unwrap(), patterns_where(|p| p[3] == 0));
        assert_eq!(expand(" xx9[04]:s>=0").unwrap(), patterns_where(|p| p[2] == 9 && (p[3] == 0 || p[3] == 4)));
        check_table(&[
            (" xx(x0)", Some("xx0x + xxx0")),
            (" 5s(4x0)", Some("5044 + 5404 + 5440")),
            (" 433(30)", Some("43303 + 43330")),
        ]);
    }

    /// The condition text `0` is false to Perl and ignored; the last term's condition carries the
    /// blank DealerV2 adds after the spec, and `0 ` is a condition that never holds.
    #[test]
    fn zero_condition_is_ignored_except_in_the_last_term() {
        assert_eq!(expand(" xxxx:0 + 4333").unwrap().len(), 560);
        assert!(expand(" xxxx:0").is_err());
        assert!(expand(" 4333 + xxxx:0").is_err());
        check_table(&[(" xxxx:0 + 4333", Some("xxxx + 4333")), (" 4333:0 + 5xxx:0", Some("4333 + "))]);
    }

    /// fdp turns every `,` of a condition into `and`.
    #[test]
    fn every_comma_is_and() {
        let got = expand(" xxxx:s>1,h>1,d>1,c>1").unwrap();
        assert_eq!(got, patterns_where(|p| p.iter().all(|&l| l > 1)));
        check_table(&[
            (" xxxx:(s<4,s<5),h==0", Some("00xx + 10xx + 20xx + 30xx")),
            (" xxxx:(s>3,h>3),d>3 or c>6", Some("0049 + 0058 + 0067 + 0139 + 0148 + 0157 + 0229 + 0238 + 0247 + 0319 + 0328 + 0337 + 0409 + 0418 + 0427 + 0508 + 0517 + 0607 + 1039 + 1048 + 1057 + 1129 + 1138 + 1147 + 1219 + 1228 + 1237 + 1309 + 1318 + 1327 + 1408 + 1417 + 1507 + 2029 + 2038 + 2047 + 2119 + 2128 + 2137 + 2209 + 2218 + 2227 + 2308 + 2317 + 2407 + 3019 + 3028 + 3037 + 3109 + 3118 + 3127 + 3208 + 3217 + 3307 + 4009 + 4018 + 4027 + 4108 + 4117 + 4207 + 4441 + 4450 + 4540 + 5008 + 5017 + 5107 + 5440 + 6007")),
        ]);
    }

    #[test]
    fn lone_equals_assigns_like_perl() {
        // `!=` reaches the expander as `=`, a Perl assignment: every distribution gets 4 spades.
        let four_spades: Vec<_> = all_patterns().into_iter().filter(|p| p[0] == 4).collect();
        assert_eq!(expand(" xxxx:s=4").unwrap(), four_spades);
        assert!(expand(" 4333:s=5").is_err());
    }

    #[test]
    fn error_messages_name_the_term() {
        let message = expand(" 5q").unwrap_err();
        assert!(message.contains("5q"), "{message}");
    }

    /// Random strings never panic.
    #[test]
    fn fuzz_never_panics() {
        const ALPHABET: &[u8] = b"0123456789xxxxshdcMm+-[]():,<>=! or*/   ";
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..3000 {
            let len = (next() % 24) as usize;
            let spec: String =
                (0..len).map(|_| char::from(ALPHABET[(next() % ALPHABET.len() as u64) as usize])).collect();
            let _ = expand(&spec);
            let _ = expand(&format!(" {spec}"));
        }
        for spec in ["", " ", ":", "(", ")", "[", "]", "x:(", "xxxx:((((", "xxxx:9x99999999", "é", " ü5xxx"] {
            let _ = expand(spec);
        }
    }
}
