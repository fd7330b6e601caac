//! Where a script's condition stands in its text, for writing the levelling placeholder in
//! front of it and ` and levelTheDeal` after it: the byte where the statement starts (the
//! `condition` keyword, or a bare expression's first token) and the byte after the
//! expression's last token. The parser gives the statement's line and column; the
//! expression's end is found by reading its tokens: operands (numbers, names, calls with
//! their parenthesised or braced arguments, parenthesised groups, after any `!`, `not` or
//! `-`) joined by operators, the first token that joins nothing ending it (as in the peers'
//! grammars, a `-` after an operand is a subtraction).

/// The byte offset of 1-based `line` and `col` (bytes) in `text`.
pub fn offset_of(text: &[u8], line: u32, col: u32) -> Option<usize> {
    let mut start = 0usize;
    for _ in 1..line {
        start += text.get(start..)?.iter().position(|&b| b == b'\n')? + 1;
    }
    let at = start + col.checked_sub(1)? as usize;
    (at <= text.len()).then_some(at)
}

/// The offset after any blanks and comments (`//`, or `#` in the first column, to the end of
/// the line; `/* … */`)
/// from `at`.
fn skip_blanks(text: &[u8], mut at: usize) -> usize {
    loop {
        while at < text.len() && text[at].is_ascii_whitespace() {
            at += 1;
        }
        let rest = &text[at..];
        let line_start = at == 0 || text[at - 1] == b'\n';
        if (rest.starts_with(b"#") && line_start) || rest.starts_with(b"//") {
            at += rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        } else if rest.starts_with(b"/*") {
            at += rest.windows(2).skip(2).position(|w| w == b"*/").map_or(rest.len(), |p| p + 4);
        } else {
            return at;
        }
    }
}

/// The length of the word (letters, digits, `_`, `.`) at the start of `rest`.
fn word_len(rest: &[u8]) -> usize {
    rest.iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_' || **b == b'.').count()
}

/// The offset after the bracketed group that opens at `at` (`(` or `{`), skipping comments;
/// `None` when it never closes.
fn skip_group(text: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = at;
    while i < text.len() {
        match text[i] {
            b'(' | b'{' => depth += 1,
            b')' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'#' | b'/' => {
                let skipped = skip_blanks(text, i);
                if skipped > i {
                    i = skipped;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The binary operator at the start of `rest`, by its length.
fn operator_len(rest: &[u8]) -> Option<usize> {
    for op in [&b"&&"[..], b"||", b"==", b"!=", b"<=", b">="] {
        if rest.starts_with(op) {
            return Some(2);
        }
    }
    if let Some(&b) = rest.first() {
        if b"<>+-*/%?:".contains(&b) {
            return Some(1);
        }
    }
    let word = word_len(rest);
    matches!(&rest[..word], b"and" | b"or").then_some(word)
}

/// The offset after the last token of the expression that starts at `at`; `None` when no
/// expression starts there.
pub fn expression_end(text: &[u8], at: usize) -> Option<usize> {
    let mut i = skip_blanks(text, at);
    let mut end = None;
    loop {
        // An operand, after any unary operators.
        loop {
            let rest = &text[i..];
            let unary = match rest.first() {
                Some(b'!') if !rest.starts_with(b"!=") => 1,
                Some(b'-') => 1,
                _ if &rest[..word_len(rest)] == b"not" => 3,
                _ => 0,
            };
            if unary == 0 {
                break;
            }
            i = skip_blanks(text, i + unary);
        }
        let rest = &text[i..];
        let after = match rest.first()? {
            b'(' => skip_group(text, i)?,
            b if b.is_ascii_alphanumeric() || *b == b'_' || *b == b'.' => {
                let word_end = i + word_len(rest);
                let next = skip_blanks(text, word_end);
                match text.get(next) {
                    // A call, or DealerV2's `shape{…}`.
                    Some(b'(') | Some(b'{') => skip_group(text, next)?,
                    _ => word_end,
                }
            }
            _ => return end,
        };
        end = Some(after);
        let next = skip_blanks(text, after);
        match operator_len(&text[next..]) {
            Some(len) => i = skip_blanks(text, next + len),
            None => return end,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end_of(text: &str, at: usize) -> Option<&str> {
        expression_end(text.as_bytes(), at).map(|end| &text[at..end])
    }

    #[test]
    fn expressions_end_at_their_last_token() {
        assert_eq!(
            end_of("hcp(north) > 10 and levelTheDeal\naction printall\n", 0),
            Some("hcp(north) > 10 and levelTheDeal")
        );
        let text = "shape(south, any 4333 + any 4432 + any 5332)\n# comment\n      and hcp(south) >= 12 // comment\n\nproduce 10\n";
        assert_eq!(
            end_of(text, 0),
            Some("shape(south, any 4333 + any 4432 + any 5332)\n# comment\n      and hcp(south) >= 12")
        );
        // A definition after a bare expression starts a statement.
        assert_eq!(end_of("x > 1 && !(y)\nz = 3\n", 0), Some("x > 1 && !(y)"));
        assert_eq!(end_of("not a or -3 < b\n", 0), Some("not a or -3 < b"));
        assert_eq!(
            end_of("shape{north, 5+M} and hcp(north) > 1.5 /* x ) */ \n", 0),
            Some("shape{north, 5+M} and hcp(north) > 1.5")
        );
        assert_eq!(end_of("(a or b) ? c : d\naction x\n", 0), Some("(a or b) ? c : d"));
        assert_eq!(end_of("   ", 0), None);
        assert_eq!(end_of("hcp(north > 3", 0), None);
    }

    #[test]
    fn offsets_of_lines_and_columns() {
        let text = b"ab\ncondition x\n";
        assert_eq!(offset_of(text, 2, 1), Some(3));
        assert_eq!(offset_of(text, 1, 2), Some(1));
        assert_eq!(offset_of(text, 5, 1), None);
    }
}
