//! The token stream of a dealer script, for both dialects: [`Lexer`] drives the `logos` rules of
//! [`Token`] and applies everything that depends on context: the dialect's keyword set, line
//! counting as the peers count lines, the DealerV2 environment statements that its lexer handles
//! in exclusive states (`seed`, `title`, `vulnerable`), script variables `$0`..`$9` (spliced in as
//! token streams), François Dellacherie `shape{…}` clauses, the characters the peers echo from
//! comments, and NUL bytes (an error; the peers end the input).
//!
//! The parser (the LALRPOP grammar in `grammar.lalrpop`) consumes the [`Lexer`] as its external
//! token stream. The [`Lexer`] scans one token ahead so that each token's end location tells the
//! grammar on which line the peers' parsers stand after their one token of look-ahead (see
//! [`Spanned`]); it also refuses more open parentheses than the peers' parser stack holds.

use logos::Logos;

use crate::cards::{Seat, Side};
use crate::dialect::Dialect;
use crate::script::ast::{Call, Pos, Vulnerability};
use crate::script::diagnostic::{unknown_seat, Diagnostic, NUL_MESSAGE};
use crate::script::token::{saturating_number, DistrNumber, DistrWord, FdShape, SpotHolding, Token};

/// Script variables $0..$9 (text substituted at token level; None/empty = expands to nothing).
pub type ScriptVars = [Option<String>; 10];

/// The UTF-8 byte-order mark, skipped at the start of a script.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Most values a `pointcount`/`altcount` list takes (Ace down to deuce).
const MAX_COUNT_VALUES: u8 = 13;

/// Where the lexer stands in a `pointcount`/`altcount` value list (see [`Lexer`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CountList {
    /// `altcount`'s table number is still to come.
    table_pending: bool,
    /// A `-` was just read; only a NUMBER continues the list.
    after_minus: bool,
    /// Values read so far.
    values: u8,
}

/// Longest chain of `$n` expansions inside one another.
const MAX_EXPANSION_DEPTH: usize = 32;
/// Most bytes of script-variable text spliced in, in total.
const MAX_EXPANSION_BYTES: usize = 1 << 20;

/// One input being lexed: the script itself or the text of a script variable.
struct Frame<'a> {
    lexer: logos::Lexer<'a, Token>,
    /// Where the `$n` that opened this frame stood (`None` for the script).
    origin: Option<Pos>,
}

/// One token with its locations, as the parser wants it: where the token starts, the token,
/// and its "end": where the line counter stands once the *next* token has been read (the line
/// of the next token, or the line count at the end of the input) with the next token's column.
///
/// The peers detect most semantic errors when Bison reduces a rule, which often happens only
/// after it has read one token of look-ahead; they then report the line of that following token.
/// The end location gives the grammar exactly that line (`@R` after a symbol).
pub type Spanned = (Pos, Token, Pos);

/// Most parentheses open at once. The peers' Bison parsers have a stack of 10,000 entries and
/// fail with `memory exhausted` when it is full; each open `(` takes one entry. This limit is
/// the one at which `condition ((…(1)…))` fails in classic dealer (9,995 parentheses); other
/// nestings fill the peers' stack with other symbols too, so for them the limit is approximate
/// (operator chains are limited by the depth of the expression tree instead, see
/// `script::grammar_support::MAX_EXPR_DEPTH`).
pub const MAX_OPEN_PARENS: u32 = 9_994;

/// Where a token stands with respect to a `predeal` statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PredealPlace {
    /// Not in a predeal statement.
    Outside,
    /// In a predeal statement, where an item starts.
    Items,
    /// Where a holding stands: after an item's compass word or a comma.
    Holding,
    /// After a holding: a comma or the next item.
    AfterHolding,
    /// Inside a bias item (`spades(north) == 5`), before its number.
    Bias,
}

/// The token stream of one script: wraps the `logos` lexer with everything that depends on
/// dialect and context (see the module documentation).
pub struct Lexer<'a> {
    dialect: Dialect,
    vars: &'a ScriptVars,
    source: &'a [u8],
    frames: Vec<Frame<'a>>,
    /// The line counter, counted as the peers count it.
    line: u32,
    /// Offset just past the last newline byte seen in the script (for columns).
    line_start: usize,
    /// Offset up to which the script has been scanned for newline bytes.
    scanned: usize,
    expanded_bytes: usize,
    pending: Option<Spanned>,
    /// The token after the one last handed to the parser, already scanned (`Some(None)`: the
    /// end of input), so that each token's end location can say where the next one starts.
    lookahead: Option<Option<Result<Spanned, Diagnostic>>>,
    /// Parentheses open at the current token (see [`MAX_OPEN_PARENS`]).
    open_parens: u32,
    /// Tokens handed to the parser so far.
    yielded: usize,
    /// Whether the lexer has handed out an error.
    failed: bool,
    /// Set while reading a `pointcount`/`altcount` list, whose 14th value is an error the
    /// peers report as soon as they read it (the grammar would only see it one token later).
    count_list: Option<CountList>,
    /// Where the current token stands in a `predeal` statement (for spot holdings).
    predeal: PredealPlace,
    finished: bool,
    echo: String,
    mentions_usereval: bool,
    /// The text of the token scanned last, when it is a word (starts with a letter).
    scanned_word: &'a [u8],
    /// The text of the token handed to the parser last, when it is a word.
    word: &'a [u8],
    /// The identifiers handed out so far that a `(` follows.
    calls: Vec<Call>,
}

impl<'a> Lexer<'a> {
    /// A lexer over `source` in `dialect`, expanding `$n` from `vars` (DealerV2 only).
    pub fn new(source: &'a [u8], dialect: Dialect, vars: &'a ScriptVars) -> Lexer<'a> {
        let mut lexer = Token::lexer_with_extras(source, dialect);
        // A UTF-8 byte-order mark opening the script is skipped (columns of line 1 count from
        // after it).
        let bom = if source.starts_with(UTF8_BOM) { UTF8_BOM.len() } else { 0 };
        lexer.bump(bom);
        Lexer {
            dialect,
            vars,
            source,
            frames: vec![Frame { lexer, origin: None }],
            line: 1,
            line_start: bom,
            scanned: bom,
            expanded_bytes: 0,
            pending: None,
            lookahead: None,
            open_parens: 0,
            yielded: 0,
            failed: false,
            count_list: None,
            predeal: PredealPlace::Outside,
            finished: false,
            echo: String::new(),
            mentions_usereval: false,
            scanned_word: b"",
            word: b"",
            calls: Vec::new(),
        }
    }

    /// The line counter now: one token past the last token handed out (see [`Spanned`]); after
    /// the end of input, the line the peers report at EOF.
    pub fn line(&self) -> u32 {
        self.line
    }

    /// The text echoed so far (comment characters, stray `title`/`seed` text).
    pub fn echo(&self) -> &str {
        &self.echo
    }

    /// Takes the echoed text.
    pub fn take_echo(&mut self) -> String {
        std::mem::take(&mut self.echo)
    }

    /// How many tokens have been handed to the parser.
    pub fn tokens_yielded(&self) -> usize {
        self.yielded
    }

    /// Whether the lexer itself has reported an error (rather than the parser).
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// The text of the token last handed to the parser when it is a word (an identifier or a
    /// keyword, as written), for error messages that name it.
    pub fn last_word(&self) -> Option<String> {
        (!self.word.is_empty()).then(|| String::from_utf8_lossy(self.word).into_owned())
    }

    /// Takes the identifiers handed out so far that a `(` follows (see [`Call`]).
    pub fn take_calls(&mut self) -> Vec<Call> {
        std::mem::take(&mut self.calls)
    }

    /// Whether the `usereval` keyword has been seen.
    pub fn mentions_usereval(&self) -> bool {
        self.mentions_usereval
    }

    /// The position of a token starting at `start` in the current frame.
    fn locate(&mut self, start: usize, end: usize) -> Pos {
        let frame = self.frames.last().expect("a frame");
        if let Some(origin) = frame.origin {
            return Pos { line: self.line, col: origin.col };
        }
        self.scan_newlines(start);
        let pos = Pos { line: self.line, col: (start - self.line_start + 1) as u32 };
        self.scan_newlines(end);
        pos
    }

    /// Moves the column bookkeeping of the script up to offset `to`.
    fn scan_newlines(&mut self, to: usize) {
        if to <= self.scanned {
            return;
        }
        if let Some(i) = self.source[self.scanned..to].iter().rposition(|&b| b == b'\n') {
            self.line_start = self.scanned + i + 1;
        }
        self.scanned = to;
    }

    fn error(&mut self, pos: Pos, message: &str) -> Option<Result<Spanned, Diagnostic>> {
        self.finished = true;
        Some(Err(Diagnostic::new(pos.line, pos.col, message.to_string())))
    }

    /// The bytes after the current token in the current frame.
    fn remainder(&self) -> &'a [u8] {
        self.frames.last().expect("a frame").lexer.remainder()
    }

    /// Consumes `n` bytes after the current token in the current frame.
    fn bump(&mut self, n: usize) {
        self.frames.last_mut().expect("a frame").lexer.bump(n);
    }

    /// Opens script variable `n` as a new frame (DealerV2).
    fn expand(&mut self, n: u8, pos: Pos) -> Result<(), Diagnostic> {
        let text = self.vars[n as usize].as_deref().unwrap_or("").as_bytes();
        if text.is_empty() {
            return Ok(());
        }
        self.expanded_bytes += text.len();
        if self.frames.len() > MAX_EXPANSION_DEPTH || self.expanded_bytes > MAX_EXPANSION_BYTES {
            return Err(Diagnostic::new(pos.line, pos.col, "script variables nested too deeply"));
        }
        let origin = self.frames.last().and_then(|f| f.origin).unwrap_or(pos);
        let lexer = Token::lexer_with_extras(text, self.dialect);
        self.frames.push(Frame { lexer, origin: Some(origin) });
        Ok(())
    }

    /// Substitutes `$n` textually (for `shape{…}`), recursively up to the nesting limits.
    fn substitute(&mut self, text: &[u8], depth: usize, out: &mut Vec<u8>) -> bool {
        let mut i = 0;
        while i < text.len() {
            if text[i] == b'$' && i + 1 < text.len() && text[i + 1].is_ascii_digit() {
                let value = self.vars[(text[i + 1] - b'0') as usize].as_deref().unwrap_or("").as_bytes();
                self.expanded_bytes += value.len();
                if depth >= MAX_EXPANSION_DEPTH || self.expanded_bytes > MAX_EXPANSION_BYTES {
                    return false;
                }
                if !self.substitute(value, depth + 1, out) {
                    return false;
                }
                i += 2;
            } else {
                out.push(text[i]);
                i += 1;
            }
        }
        true
    }

    /// `shape{` has been read (DealerV2): reads the clause up to `}`.
    fn fd_shape(&mut self, pos: Pos) -> Result<Token, Diagnostic> {
        let syntax = Diagnostic::new(pos.line, pos.col, "syntax error");
        let rest = self.remainder();
        let Some(close) = rest.iter().position(|&b| b == b'}') else {
            self.bump(rest.len());
            return Err(Diagnostic { line: self.line, ..syntax });
        };
        self.bump(close + 1);
        let mut text = Vec::new();
        if !self.substitute(&rest[..close], 0, &mut text) {
            return Err(Diagnostic { message: "script variables nested too deeply".to_string(), ..syntax });
        }
        let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
        let mut i = text.iter().position(|b| !is_space(b)).unwrap_or(text.len());
        let word_end = text[i..].iter().position(|b| !b.is_ascii_alphabetic()).map_or(text.len(), |k| i + k);
        let seat = match &text[i..word_end] {
            b"north" => Seat::North,
            b"east" => Seat::East,
            b"south" => Seat::South,
            b"west" => Seat::West,
            b"" => return Err(syntax),
            word => return Err(syntax.explained(unknown_seat(&String::from_utf8_lossy(word)))),
        };
        i = word_end;
        while i < text.len() && is_space(&text[i]) {
            i += 1;
        }
        if text.get(i) != Some(&b',') {
            return Err(syntax);
        }
        let spec: String = text[i + 1..]
            .iter()
            .filter(|&&b| b.is_ascii_digit() || b"cdhsMmxor+:><=,() -[]A".contains(&b))
            .map(|&b| b as char)
            .collect();
        Ok(Token::FdShape(FdShape { seat, spec }))
    }

    /// DealerV2 `seed`: skips blanks, echoes anything else, reads the digits.
    fn seed(&mut self) -> Option<Token> {
        let rest = self.remainder();
        let mut i = 0;
        while i < rest.len() {
            let b = rest[i];
            if b.is_ascii_digit() {
                let len = rest[i..].iter().take_while(|b| b.is_ascii_digit()).count();
                self.bump(i + len);
                return Some(Token::SeedStmt(saturating_number(&rest[i..i + len])));
            }
            match b {
                b'\n' => self.line += 1,
                b' ' | b'\t' | b'\r' => {}
                _ => self.echo.push_str(&String::from_utf8_lossy(&[b])),
            }
            i += 1;
        }
        self.bump(rest.len());
        None
    }

    /// DealerV2 `title`: echoes everything up to the quoted string, which is the title.
    fn title(&mut self) -> Option<Token> {
        let rest = self.remainder();
        if let Some(quote) = rest.iter().position(|&b| b == b'"') {
            let body = &rest[quote + 1..];
            if let Some(end) = body.iter().position(|&b| b == b'"' || b == b'\n') {
                let text = String::from_utf8_lossy(&body[..end]).into_owned();
                let used = if body[end] == b'"' { end + 1 } else { end };
                self.echo.push_str(&String::from_utf8_lossy(&rest[..quote]));
                self.bump(quote + 1 + used);
                return Some(Token::TitleStmt(text));
            }
        }
        // No string: flex's default rule echoes everything that is left.
        self.echo.push_str(&String::from_utf8_lossy(rest));
        self.bump(rest.len());
        None
    }

    /// DealerV2 `vulnerable`: one word, case-insensitive; `both` is None (upstream bug).
    fn vulnerable(&mut self, pos: Pos) -> Result<Token, Diagnostic> {
        let rest = self.remainder();
        let mut i = 0;
        while i < rest.len() && matches!(rest[i], b' ' | b'\t' | b'\r' | b'\n') {
            if rest[i] == b'\n' {
                self.line += 1;
            }
            i += 1;
        }
        let len = rest[i..].iter().take_while(|b| b.is_ascii_alphabetic()).count();
        let word = rest[i..i + len].to_ascii_lowercase();
        let vul = match word.as_slice() {
            b"none" | b"both" => Vulnerability::None,
            b"all" => Vulnerability::All,
            b"ns" => Vulnerability::NS,
            b"ew" => Vulnerability::EW,
            _ => return Err(Diagnostic::new(self.line, pos.col, "syntax error")),
        };
        self.bump(i + len);
        Ok(Token::VulnerableStmt(vul))
    }

    /// Counts open parentheses; errs like the peers' parser when too many are open.
    fn track_parens(&mut self, token: &Token, pos: Pos) -> Result<(), Diagnostic> {
        match token {
            Token::LParen => {
                self.open_parens += 1;
                if self.open_parens > MAX_OPEN_PARENS {
                    return Err(Diagnostic::new(pos.line, pos.col, "memory exhausted"));
                }
            }
            Token::RParen => self.open_parens = self.open_parens.saturating_sub(1),
            _ => {}
        }
        Ok(())
    }

    /// The location just past the end of the input (for the end location of the last token).
    fn end_of_input(&mut self) -> Pos {
        let len = self.source.len();
        self.scan_newlines(len);
        Pos { line: self.line, col: (len - self.line_start + 1) as u32 }
    }

    /// Follows `pointcount`/`altcount` value lists; errs on a 14th value.
    fn track_count_list(&mut self, token: &Token, pos: Pos) -> Result<(), Diagnostic> {
        let fresh = |table_pending| Some(CountList { table_pending, after_minus: false, values: 0 });
        self.count_list = match (token, self.count_list) {
            (Token::Pointcount, _) => fresh(false),
            (Token::Altcount, _) => fresh(true),
            (Token::Minus, Some(list)) if !list.after_minus => Some(CountList { after_minus: true, ..list }),
            (Token::Number(_), Some(list))
            | (Token::DistrOrNumber(_), Some(list @ CountList { after_minus: false, .. })) => {
                if list.table_pending {
                    Some(CountList { table_pending: false, after_minus: false, values: 0 })
                } else if list.values == MAX_COUNT_VALUES {
                    return Err(Diagnostic::new(pos.line, pos.col, "too many pointcount values"));
                } else {
                    Some(CountList { after_minus: false, values: list.values + 1, ..list })
                }
            }
            _ => None,
        };
        Ok(())
    }

    /// Follows `predeal` statements and turns an identifier written as a spot holding
    /// (`SQTxx`) into [`Token::SpotHolding`] where a holding stands.
    fn track_predeal(&mut self, token: Token) -> Token {
        let token = match token {
            Token::Ident(word) if self.predeal == PredealPlace::Holding => match SpotHolding::parse(word.as_bytes()) {
                Some(spot) => Token::SpotHolding(spot),
                None => Token::Ident(word),
            },
            other => other,
        };
        use PredealPlace::*;
        self.predeal = match (&token, self.predeal) {
            (Token::Predeal, _) => Items,
            (Token::Compass(_), Items | AfterHolding) | (Token::Comma, AfterHolding) => Holding,
            (Token::Holding(_) | Token::SpotHolding(_), Holding) => AfterHolding,
            (Token::Suit(_), Items | AfterHolding) => Bias,
            (Token::LParen | Token::Compass(_) | Token::RParen | Token::EqEq, Bias) => Bias,
            (Token::Number(_), Bias) => Items,
            _ => Outside,
        };
        token
    }

    /// Scans the next token (its end location not yet known: it is its start).
    fn scan(&mut self) -> Option<Result<Spanned, Diagnostic>> {
        loop {
            if let Some(t) = self.pending.take() {
                return Some(Ok(t));
            }
            if self.finished {
                return None;
            }
            let frame = self.frames.last_mut()?;
            let item = frame.lexer.next();
            let span = frame.lexer.span();
            let slice = frame.lexer.slice();
            self.scanned_word = if slice.first().is_some_and(u8::is_ascii_alphabetic) { slice } else { b"" };
            let Some(item) = item else {
                self.frames.pop();
                if self.frames.is_empty() {
                    self.finished = true;
                    return None;
                }
                continue;
            };
            let pos = self.locate(span.start, span.end);
            let v2 = self.dialect == Dialect::V2;
            let ident = || Token::Ident(String::from_utf8_lossy(slice).into_owned());
            let token = match item {
                Err(()) => Token::Other(slice.first().copied().unwrap_or(0)),
                Ok(tok) => match tok {
                    Token::Newline | Token::LineComment | Token::HashComment => {
                        self.line += 1;
                        continue;
                    }
                    Token::BlockComment(c) => {
                        self.line += c.newlines;
                        self.echo.push_str(&c.echo);
                        if !c.terminated {
                            let at = Pos { line: self.line, col: pos.col };
                            return self.error(at, "EOF found in comment");
                        }
                        continue;
                    }
                    // The script itself was checked for NUL bytes before lexing: this one comes
                    // from a script variable's text.
                    Token::Nul => return self.error(pos, NUL_MESSAGE),
                    Token::ScriptVar(n) if v2 => {
                        if let Err(e) = self.expand(n, pos) {
                            self.finished = true;
                            return Some(Err(e));
                        }
                        continue;
                    }
                    Token::ScriptVar(_) => Token::Other(b'$'),
                    Token::FdShapeStart if v2 => match self.fd_shape(pos) {
                        Ok(t) => t,
                        Err(e) => {
                            self.finished = true;
                            return Some(Err(e));
                        }
                    },
                    Token::FdShapeStart => {
                        let brace = Pos { line: pos.line, col: pos.col + 5 };
                        self.pending = Some((brace, Token::Other(b'{'), brace));
                        Token::Shape
                    }
                    Token::Seed
                    | Token::Title
                    | Token::Vulnerable
                    | Token::Generate
                    | Token::Produce
                    | Token::Dealer
                    | Token::Startboard
                    | Token::Opener
                        if v2 =>
                    {
                        let rest = self.remainder();
                        let Some(&after @ (b' ' | b'\t' | b'\n')) = rest.first() else {
                            return Some(Ok((pos, ident(), pos)));
                        };
                        match tok {
                            // Flex's `title({ws}|{nl})` with `ws=[ \t]+` takes every blank and tab
                            // after the keyword, or one newline; nothing of them is echoed.
                            Token::Title if after != b'\n' => {
                                self.bump(rest.iter().take_while(|&&b| b == b' ' || b == b'\t').count());
                            }
                            Token::Seed | Token::Title | Token::Vulnerable => {
                                self.bump(1);
                                if after == b'\n' {
                                    self.line += 1;
                                }
                            }
                            _ => {}
                        }
                        match tok {
                            Token::Seed => match self.seed() {
                                Some(t) => t,
                                None => continue,
                            },
                            Token::Title => match self.title() {
                                Some(t) => t,
                                None => continue,
                            },
                            Token::Vulnerable => match self.vulnerable(pos) {
                                Ok(t) => t,
                                Err(e) => {
                                    self.finished = true;
                                    return Some(Err(e));
                                }
                            },
                            other => other,
                        }
                    }
                    // Words that are keywords only in DealerV2.
                    t if t.read_as_identifier(slice, self.dialect) => ident(),
                    Token::SideName(Side::NS) if !v2 => Token::VulWord(Vulnerability::NS),
                    Token::SideName(Side::EW) if !v2 => Token::VulWord(Vulnerability::EW),
                    Token::Contract(_) if !v2 && (slice[0] == b'z' || slice.len() > 3) => ident(),
                    Token::UserEval => {
                        self.mentions_usereval = true;
                        Token::UserEval
                    }
                    Token::DotNumber(v) if v2 => Token::Number(v),
                    Token::DotNumber(_) => Token::Other(slice[0]),
                    Token::DistrWord(DistrWord { pattern, value: None }) => Token::Distr(pattern),
                    Token::DistrWord(DistrWord { pattern, value: Some(value) }) => {
                        Token::DistrOrNumber(DistrNumber { pattern, value })
                    }
                    Token::Quoted(s) => Token::Str(s),
                    Token::BackslashN => Token::Str("\n".to_string()),
                    other => other,
                },
            };
            let token = self.track_predeal(token);
            if let Err(e) = self.track_count_list(&token, pos).and_then(|()| self.track_parens(&token, pos)) {
                self.finished = true;
                return Some(Err(e));
            }
            return Some(Ok((pos, token, pos)));
        }
    }

    /// The next token for the parser, with its end location (see [`Spanned`]): scans one token
    /// ahead. Errors and the end of input come out in the same order as without the look-ahead.
    fn next_token(&mut self) -> Option<Result<Spanned, Diagnostic>> {
        let current = match self.lookahead.take() {
            Some(scanned) => scanned,
            None => self.scan(),
        };
        let Some(Ok((start, token, _))) = current else {
            self.failed |= current.is_some();
            self.lookahead = Some(None);
            return current;
        };
        self.yielded += 1;
        self.word = std::mem::take(&mut self.scanned_word);
        let following = self.scan();
        let end = match &following {
            Some(Ok((next, _, _))) => Pos { line: self.line, col: next.col },
            Some(Err(e)) => Pos { line: e.line, col: e.col },
            None => self.end_of_input(),
        };
        if let (Token::Ident(name), Some(Ok((_, Token::LParen, _)))) = (&token, &following) {
            self.calls.push(Call { name: name.clone(), pos: start, paren_line: end.line });
        }
        self.lookahead = Some(following);
        Some(Ok((start, token, end)))
    }
}

impl Iterator for Lexer<'_> {
    type Item = Result<Spanned, Diagnostic>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_token()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Card, Strain, Suit};
    use crate::script::ast::Contract;
    use crate::script::token::Holding;

    const NO_VARS: ScriptVars = [None, None, None, None, None, None, None, None, None, None];

    fn tokens(src: &str, dialect: Dialect) -> Vec<Token> {
        Lexer::new(src.as_bytes(), dialect, &NO_VARS).map(|r| r.expect("token").1).collect()
    }

    fn v2(src: &str) -> Vec<Token> {
        tokens(src, Dialect::V2)
    }

    fn classic(src: &str) -> Vec<Token> {
        tokens(src, Dialect::Classic)
    }

    fn ident(s: &str) -> Token {
        Token::Ident(s.to_string())
    }

    #[test]
    fn longest_match_and_ties() {
        let sak = Holding { suit: Suit::Spades, ranks: (1 << 12) | (1 << 11) };
        assert_eq!(v2("SAK"), vec![Token::Holding(sak)]);
        assert_eq!(v2("S"), vec![Token::Holding(Holding { suit: Suit::Spades, ranks: 0 })]);
        // Not descending: IDENT is longer.
        assert_eq!(v2("SAKA"), vec![ident("SAKA")]);
        assert_eq!(v2("S2A"), vec![ident("S2A")]);
        assert_eq!(v2("TC KH"), vec![Token::Card(Card::new(Suit::Clubs, 8)), Token::Card(Card::new(Suit::Hearts, 11))]);
        assert_eq!(v2("hcps hcpn"), vec![Token::Hcp, ident("hcpn")]);
        assert_eq!(v2("spadesx"), vec![ident("spadesx")]);
        assert_eq!(v2("northern"), vec![ident("northern")]);
        assert_eq!(v2("xxxx"), vec![Token::Distr([None; 4])]);
        assert_eq!(v2("xxxxx"), vec![ident("xxxxx")]);
        assert_eq!(
            v2("4432"),
            vec![Token::DistrOrNumber(DistrNumber { pattern: [Some(4), Some(4), Some(3), Some(2)], value: 4432 })]
        );
        assert_eq!(v2("5xxx"), vec![Token::Distr([Some(5), None, None, None])]);
        assert_eq!(v2("12345"), vec![Token::Number(12345)]);
        assert_eq!(v2("10S"), vec![Token::Number(10), Token::Holding(Holding { suit: Suit::Spades, ranks: 0 })]);
        assert_eq!(v2("2C"), vec![Token::Card(Card::new(Suit::Clubs, 0))]);
        assert_eq!(v2("99999999999999999999999"), vec![Token::Number(i64::MAX)]);
    }

    #[test]
    fn contracts_by_dialect() {
        let c = |level, strain, doubled| Token::Contract(Contract { level, strain, doubled });
        assert_eq!(
            v2("z4Hx x3N z6Sxx"),
            vec![c(4, Strain::Suit(Suit::Hearts), 1), c(3, Strain::Notrump, 0), c(6, Strain::Suit(Suit::Spades), 2)]
        );
        assert_eq!(classic("x3N z4H x3Nx"), vec![c(3, Strain::Notrump, 0), ident("z4H"), ident("x3Nx")]);
        assert_eq!(v2("x3Ny"), vec![ident("x3Ny")]);
    }

    #[test]
    fn dotnums() {
        assert_eq!(
            v2(".25 6.5 12. 99.99 0.07"),
            vec![Token::Number(25), Token::Number(650), Token::Number(1200), Token::Number(9999), Token::Number(7)]
        );
        // At most two digits before the point.
        assert_eq!(v2("100.5"), vec![Token::Number(100), Token::Number(50)]);
        assert_eq!(
            v2("1234.5"),
            vec![
                Token::DistrOrNumber(DistrNumber { pattern: [Some(1), Some(2), Some(3), Some(4)], value: 1234 }),
                Token::Number(50)
            ]
        );
        // Classic has no dotnums: the point is a stray character.
        assert_eq!(classic("6.5"), vec![Token::Other(b'6')]);
    }

    #[test]
    fn keywords_by_dialect() {
        assert_eq!(
            v2("NS ns both par"),
            vec![
                Token::SideName(Side::NS),
                Token::VulWord(Vulnerability::NS),
                Token::VulWord(Vulnerability::All),
                Token::Par
            ]
        );
        assert_eq!(
            classic("NS ns both par deal"),
            vec![
                Token::VulWord(Vulnerability::NS),
                Token::VulWord(Vulnerability::NS),
                ident("both"),
                ident("par"),
                ident("deal")
            ]
        );
        assert_eq!(classic("PRODUCE"), vec![ident("PRODUCE")]);
    }

    #[test]
    fn comments_strings_and_lines() {
        let src = "# c\n a // x\n/* E\n\n */ \"s\nt\" \\n b";
        let mut lx = Lexer::new(src.as_bytes(), Dialect::Classic, &NO_VARS);
        let toks: Vec<_> = lx.by_ref().map(|r| r.unwrap()).collect();
        assert_eq!(toks[0].1, ident("a"));
        assert_eq!(toks[0].0, Pos { line: 2, col: 2 });
        assert_eq!(toks[1].1, Token::Str("s\nt".to_string()));
        assert_eq!(toks[1].0.line, 5);
        assert_eq!(toks[2].1, Token::Str("\n".to_string()));
        // Newlines inside strings do not count.
        assert_eq!(toks[3].0.line, 5);
        assert_eq!(lx.echo(), "E");
        // `#` not in column 1 and `//` without newline are stray characters.
        assert_eq!(classic(" #x\n"), vec![Token::Other(b'#'), ident("x")]);
        assert_eq!(classic("a//"), vec![ident("a"), Token::Slash, Token::Slash]);
        assert_eq!(classic("#x"), vec![Token::Other(b'#'), ident("x")]);
        // DealerV2 strings stop at the newline.
        assert_eq!(v2("\"ab\ncd"), vec![Token::Str("ab".to_string()), ident("cd")]);
        // Classic unterminated string: a stray quote.
        assert_eq!(classic("\"ab"), vec![Token::Other(b'"'), ident("ab")]);
    }

    #[test]
    fn end_locations_are_where_the_next_token_is_read() {
        let toks: Vec<_> =
            Lexer::new(b"a\n\n// c\nb /* x\n */", Dialect::Classic, &NO_VARS).map(|r| r.unwrap()).collect();
        assert_eq!(toks[0].0, Pos { line: 1, col: 1 });
        assert_eq!(toks[0].2, Pos { line: 4, col: 1 });
        // After the last token: the line count at the end of the input.
        assert_eq!(toks[1].2.line, 5);
        // An error still comes after the token before it.
        let r: Vec<_> = Lexer::new(b"a\n/* x", Dialect::Classic, &NO_VARS).collect();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].as_ref().unwrap().2.line, 2);
        assert_eq!(r[1].as_ref().unwrap_err().message, "EOF found in comment");
    }

    #[test]
    fn too_many_open_parentheses() {
        let deep = "(".repeat(MAX_OPEN_PARENS as usize);
        assert!(Lexer::new(deep.as_bytes(), Dialect::Classic, &NO_VARS).all(|r| r.is_ok()));
        let balanced = "()".repeat(2 * MAX_OPEN_PARENS as usize);
        assert!(Lexer::new(balanced.as_bytes(), Dialect::Classic, &NO_VARS).all(|r| r.is_ok()));
        let deeper = format!("{deep}\n(");
        let e = Lexer::new(deeper.as_bytes(), Dialect::V2, &NO_VARS).find_map(|r| r.err()).unwrap();
        assert_eq!((e.line, e.message.as_str()), (2, "memory exhausted"));
    }

    #[test]
    fn echo_from_comments() {
        let mut lx = Lexer::new(b"/* HELLO WORLD <FOE> eof */", Dialect::Classic, &NO_VARS);
        assert!(lx.by_ref().next().is_none());
        assert_eq!(lx.echo(), "EOO<FOE>");
    }

    #[test]
    fn a_byte_order_mark_opening_the_script_is_skipped() {
        assert_eq!(classic("\u{feff}a b"), vec![ident("a"), ident("b")]);
        let mut lx = Lexer::new("\u{feff}a $".as_bytes(), Dialect::Classic, &NO_VARS);
        let (pos, _, _) = lx.next().unwrap().unwrap();
        assert_eq!((pos.line, pos.col), (1, 1));
        // Only at the start: elsewhere it is a character the grammar does not know.
        assert_ne!(classic("a \u{feff}b"), vec![ident("a"), ident("b")]);
    }

    #[test]
    fn unterminated_comment() {
        let mut lx = Lexer::new(b"a\n/* x\ny\n", Dialect::Classic, &NO_VARS);
        assert!(lx.next().unwrap().is_ok());
        let e = lx.next().unwrap().unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (4, "EOF found in comment"));
    }

    #[test]
    fn nul_is_an_error_and_cr() {
        let mut lx = Lexer::new(b"a\n b\0c", Dialect::Classic, &NO_VARS);
        assert_eq!(lx.next().unwrap().unwrap().1, ident("a"));
        assert_eq!(lx.next().unwrap().unwrap().1, ident("b"));
        let e = lx.next().unwrap().unwrap_err();
        assert_eq!((e.line, e.col, e.message.as_str()), (2, 3, NUL_MESSAGE));
        assert!(lx.next().is_none());
        assert_eq!(classic("a\r\r\nb\rc"), vec![ident("a"), ident("b"), Token::Other(b'\r'), ident("c")]);
    }

    #[test]
    fn v2_environment_statements() {
        let mut lx = Lexer::new(b"seed -5\ntitle  x\"T t\" vulnerable Both seed(", Dialect::V2, &NO_VARS);
        let toks: Vec<_> = lx.by_ref().map(|r| r.unwrap().1).collect();
        assert_eq!(
            toks,
            vec![
                Token::SeedStmt(5),
                Token::TitleStmt("T t".to_string()),
                Token::VulnerableStmt(Vulnerability::None),
                ident("seed"),
                Token::LParen
            ]
        );
        // `seed` echoes the `-`; `title` takes both blanks after it, so only the `x` is echoed.
        assert_eq!(lx.echo(), "-x");
        assert_eq!(classic("seed 5"), vec![ident("seed"), Token::Number(5)]);
        assert_eq!(v2("generate 5"), vec![Token::Generate, Token::Number(5)]);
        assert_eq!(v2("generate(5"), vec![ident("generate"), Token::LParen, Token::Number(5)]);
    }

    #[test]
    fn v2_title_takes_all_blanks_or_one_newline() {
        let title = |src: &[u8]| {
            let mut lx = Lexer::new(src, Dialect::V2, &NO_VARS);
            let toks: Vec<_> = lx.by_ref().map(|r| r.unwrap().1).collect();
            (toks, lx.echo().to_string())
        };
        let t = || vec![Token::TitleStmt("T".to_string())];
        for src in [&b"title \"T\""[..], b"title   \"T\"", b"title\t\"T\"", b"title \t\t \"T\"", b"title\n\"T\""] {
            assert_eq!(title(src), (t(), String::new()), "{:?}", String::from_utf8_lossy(src));
        }
        // Blanks, then a newline: the newline is not part of the keyword's match and is echoed.
        assert_eq!(title(b"title  \n\"T\""), (t(), "\n".to_string()));
        // A newline first: only that one is taken.
        assert_eq!(title(b"title\n \"T\""), (t(), " ".to_string()));
        // Classic dealer has no `title` statement.
        assert_eq!(classic("title   \"T\""), vec![ident("title"), Token::Str("T".to_string())]);
    }

    #[test]
    fn script_variables() {
        let mut vars = NO_VARS;
        vars[0] = Some("west".to_string());
        vars[2] = Some("hcp".to_string());
        vars[8] = Some("$2($0)".to_string());
        let toks: Vec<_> = Lexer::new(b"$8 > $5 \"$0\"", Dialect::V2, &vars).map(|r| r.unwrap().1).collect();
        assert_eq!(
            toks,
            vec![
                Token::Hcp,
                Token::LParen,
                Token::Compass(Seat::West),
                Token::RParen,
                Token::Gt,
                Token::Str("$0".to_string())
            ]
        );
        vars[1] = Some("$1".to_string());
        let r: Vec<_> = Lexer::new(b"$1", Dialect::V2, &vars).collect();
        assert!(r.last().unwrap().is_err());
    }

    #[test]
    fn fd_shapes() {
        let mut vars = NO_VARS;
        vars[0] = Some("east".to_string());
        vars[9] = Some("5+s4+mxx".to_string());
        let toks: Vec<_> =
            Lexer::new(b"shape{$0, $9 + 6+Mxxx:h!=s*2\n}x", Dialect::V2, &vars).map(|r| r.unwrap().1).collect();
        assert_eq!(
            toks,
            vec![Token::FdShape(FdShape { seat: Seat::East, spec: " 5+s4+mxx + 6+Mxxx:h=s2".to_string() }), ident("x")]
        );
        assert_eq!(classic("shape{"), vec![Token::Shape, Token::Other(b'{')]);
    }
}
