//! The tokens of the dealer script language, for both dialects, and how `logos` reads them.
//!
//! [`Token`] is a `logos` token enum: the peers' flex rules (longest match; on equal length the
//! earlier rule wins, which the `priority` attributes reproduce) plus callbacks for the rules that
//! scan by hand (`/* */` and `#` comments, strings) and read literals (holdings, cards, contracts,
//! shapes, numbers). The values tokens carry ([`Holding`], [`SpotHolding`], [`DistrWord`], …) are
//! defined here too. What depends on context (the dialect's keyword set, line counting, script
//! variables, DealerV2's environment statements) is the [`Lexer`](super::lexer::Lexer)'s work; the
//! token variants marked "produced by `Lexer`" never come out of `logos` itself.

use logos::Logos;

use crate::cards::{Card, Seat, Side, Strain, Suit};
use crate::dialect::Dialect;
use crate::script::ast::{Contract, ShapePattern, Vulnerability};

/// A `HOLDING` token such as `SAQ542`: a suit and the ranks named after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holding {
    /// The suit letter that starts the holding.
    pub suit: Suit,
    /// Bit `r` set for every rank `r` named (0 = deuce … 12 = ace).
    pub ranks: u16,
}

impl Holding {
    /// The cards of the holding in textual order (highest rank first).
    pub fn cards(self) -> impl Iterator<Item = Card> {
        (0..13u8).rev().filter(move |r| self.ranks & (1 << r) != 0).map(move |r| Card::new(self.suit, r))
    }
}

/// A predeal holding with spot cards such as `SQTxx` (libdealer's own): the named cards and the
/// number of `x`s, which come after them. The peers read such a word as an identifier; the
/// [`Lexer`](super::lexer::Lexer) turns an identifier of this form into [`Token::SpotHolding`]
/// only where a predeal holding stands (after a `predeal` item's compass word or a comma between
/// its holdings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpotHolding {
    /// The suit and the named ranks.
    pub holding: Holding,
    /// How many `x`s (at least 1).
    pub spots: u8,
}

impl SpotHolding {
    /// Reads `[CDHS]A?K?Q?J?T?9?8?7?6?5?4?3?2?x+`: a holding's text followed by `x`s.
    pub fn parse(word: &[u8]) -> Option<SpotHolding> {
        let (&letter, rest) = word.split_first()?;
        if !b"CDHS".contains(&letter) {
            return None;
        }
        let named = rest.iter().take_while(|&&c| c != b'x').count();
        let spots = rest.len() - named;
        if spots == 0 || spots > 13 || rest[named..].iter().any(|&c| c != b'x') {
            return None;
        }
        let mut ranks = 0u16;
        let mut below = 13u8;
        for &c in &rest[..named] {
            if !b"AKQJT98765432".contains(&c) {
                return None;
            }
            let rank = rank_of_letter(c);
            if rank >= below {
                return None;
            }
            ranks |= 1 << rank;
            below = rank;
        }
        Some(SpotHolding { holding: Holding { suit: suit_of_letter(letter), ranks }, spots: spots as u8 })
    }
}

/// A four-character `[0-9x]{4}` word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DistrWord {
    /// The shape, spades first (`None` for `x`).
    pub pattern: ShapePattern,
    /// The word's value as a number (`atoi`) when it has no `x`.
    pub value: Option<i64>,
}

/// A `DISTR_OR_NUMBER` token: four digits, usable as a shape and as a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DistrNumber {
    /// The shape, spades first.
    pub pattern: ShapePattern,
    /// The number.
    pub value: i64,
}

/// A whole `shape{COMPASS, spec}` clause (DealerV2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FdShape {
    /// The seat named before the comma.
    pub seat: Seat,
    /// The text after the comma, script variables substituted, dropped characters removed.
    pub spec: String,
}

/// What a `/* … */` comment contributed.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BlockComment {
    /// Newlines inside the comment (each counts as a line).
    pub newlines: u32,
    /// The characters `< > E O F` met inside, in order (the peers echo them).
    pub echo: String,
    /// False when the input ended inside the comment.
    pub terminated: bool,
}

/// A token of the script language: the `logos` rules plus the tokens
/// [`Lexer`](super::lexer::Lexer) makes itself.
#[derive(Logos, Clone, Debug, PartialEq)]
#[logos(utf8 = false)]
#[logos(extras = Dialect)]
#[logos(skip r"[ \t]+")]
pub enum Token {
    // ----- layout (consumed by `Lexer`) -----
    /// `\r*\n`.
    #[regex(r"\r*\n")]
    Newline,
    /// `//` up to and including the newline.
    #[regex(r"//(?-u:[^\n])*\n", allow_greedy = true)]
    LineComment,
    /// `#` in column 1 up to and including the newline.
    #[token("#", hash_comment)]
    HashComment,
    /// `/* … */`.
    #[token("/*", block_comment)]
    BlockComment(BlockComment),
    /// A NUL byte: an error (the peers end the input there).
    #[token("\0")]
    Nul,
    /// `$0`..`$9` (DealerV2 script variable).
    #[regex(r"\$[0-9]", |lex| lex.slice()[1] - b'0')]
    ScriptVar(u8),

    // ----- operators and punctuation -----
    /// `||` or `or`.
    #[token("||")]
    #[token("or")]
    Or,
    /// `&&` or `and`.
    #[token("&&")]
    #[token("and")]
    And,
    /// `!` or `not`.
    #[token("!")]
    #[token("not")]
    Not,
    /// `==`.
    #[token("==")]
    EqEq,
    /// `!=`.
    #[token("!=")]
    NotEq,
    /// `<`.
    #[token("<")]
    Lt,
    /// `<=`.
    #[token("<=")]
    Le,
    /// `>`.
    #[token(">")]
    Gt,
    /// `>=`.
    #[token(">=")]
    Ge,
    /// `+`.
    #[token("+")]
    Plus,
    /// `-`.
    #[token("-")]
    Minus,
    /// `*`.
    #[token("*")]
    Star,
    /// `/`.
    #[token("/")]
    Slash,
    /// `%`.
    #[token("%")]
    Percent,
    /// `?`.
    #[token("?")]
    Query,
    /// `:`.
    #[token(":")]
    Colon,
    /// `(`.
    #[token("(")]
    LParen,
    /// `)`.
    #[token(")")]
    RParen,
    /// `,`.
    #[token(",")]
    Comma,
    /// `=`.
    #[token("=")]
    Assign,

    // ----- statement keywords -----
    /// `predeal`.
    #[token("predeal")]
    Predeal,
    /// `pointcount`.
    #[token("pointcount")]
    Pointcount,
    /// `altcount`.
    #[token("altcount")]
    Altcount,
    /// `condition`.
    #[token("condition")]
    Condition,
    /// `action`.
    #[token("action")]
    Action,
    /// `generate`.
    #[token("generate")]
    Generate,
    /// `produce`.
    #[token("produce")]
    Produce,
    /// `dealer`.
    #[token("dealer")]
    Dealer,
    /// `vulnerable` (classic; DealerV2's is turned into [`Token::VulnerableStmt`]).
    #[token("vulnerable")]
    Vulnerable,
    /// `seed` (DealerV2; turned into [`Token::SeedStmt`]).
    #[token("seed")]
    Seed,
    /// `title` (DealerV2; turned into [`Token::TitleStmt`]).
    #[token("title")]
    Title,
    /// `startboard` (DealerV2).
    #[token("startboard")]
    Startboard,
    /// `opener` (DealerV2).
    #[token("opener")]
    Opener,

    // ----- action keywords -----
    /// `print`.
    #[token("print")]
    Print,
    /// `printall`.
    #[token("printall")]
    PrintAll,
    /// `printpbn`.
    #[token("printpbn")]
    PrintPbn,
    /// `printew`.
    #[token("printew")]
    PrintEw,
    /// `printns` (DealerV2).
    #[token("printns")]
    PrintNs,
    /// `printside` (DealerV2).
    #[token("printside")]
    PrintSide,
    /// `printcompact`.
    #[token("printcompact")]
    PrintCompact,
    /// `printoneline`.
    #[token("printoneline")]
    PrintOneline,
    /// `printes`.
    #[token("printes")]
    PrintEs,
    /// `printlin` (libdealer: BBO LIN records).
    #[token("printlin")]
    PrintLin,
    /// `printjson` (libdealer: JSON Lines).
    #[token("printjson")]
    PrintJson,
    /// `leads` (libdealer: an opening-lead table).
    #[token("leads")]
    Leads,
    /// `average`.
    #[token("average")]
    Average,
    /// `frequency`.
    #[token("frequency")]
    Frequency,
    /// `bktfreq` (DealerV2).
    #[token("bktfreq")]
    BktFreq,
    /// `csvrpt` (DealerV2).
    #[token("csvrpt")]
    CsvRpt,
    /// `printrpt` (DealerV2).
    #[token("printrpt")]
    PrintRpt,
    /// `evalcontract`.
    #[token("evalcontract")]
    EvalContract,
    /// `export` (DealerV2).
    #[token("export")]
    Export,
    /// `deal` (DealerV2 report item).
    #[token("deal")]
    Deal,
    /// `trix` (DealerV2 report item).
    #[token("trix")]
    Trix,
    /// `parcontract` (DealerV2 report item).
    #[token("parcontract")]
    ParContract,

    // ----- value words -----
    /// `nv` (false) / `vul` (true).
    #[token("nv", |_| false)]
    #[token("vul", |_| true)]
    VulnFlag(bool),
    /// `ns ew none both all` (lowercase).
    #[token("ns", |_| Vulnerability::NS)]
    #[token("ew", |_| Vulnerability::EW)]
    #[token("none", |_| Vulnerability::None)]
    #[token("all", |_| Vulnerability::All)]
    #[token("both", |_| Vulnerability::All)]
    VulWord(Vulnerability),
    /// `NS` / `EW`.
    #[token("NS", |_| Side::NS)]
    #[token("EW", |_| Side::EW)]
    SideName(Side),
    /// `north east south west`.
    #[token("north", |_| Seat::North)]
    #[token("east", |_| Seat::East)]
    #[token("south", |_| Seat::South)]
    #[token("west", |_| Seat::West)]
    Compass(Seat),
    /// `club(s) diamond(s) heart(s) spade(s)`.
    #[token("club", |_| Suit::Clubs)]
    #[token("clubs", |_| Suit::Clubs)]
    #[token("diamond", |_| Suit::Diamonds)]
    #[token("diamonds", |_| Suit::Diamonds)]
    #[token("heart", |_| Suit::Hearts)]
    #[token("hearts", |_| Suit::Hearts)]
    #[token("spade", |_| Suit::Spades)]
    #[token("spades", |_| Suit::Spades)]
    Suit(Suit),
    /// `notrump(s)`.
    #[token("notrump")]
    #[token("notrumps")]
    Notrump,

    // ----- function keywords -----
    /// `hcp(s)`.
    #[token("hcp")]
    #[token("hcps")]
    Hcp,
    /// `pt0`..`pt9` and their aliases.
    #[regex("pt[0-9]", |lex| lex.slice()[2] - b'0')]
    #[token("ten", |_| 0u8)]
    #[token("tens", |_| 0u8)]
    #[token("jack", |_| 1u8)]
    #[token("jacks", |_| 1u8)]
    #[token("queen", |_| 2u8)]
    #[token("queens", |_| 2u8)]
    #[token("king", |_| 3u8)]
    #[token("kings", |_| 3u8)]
    #[token("ace", |_| 4u8)]
    #[token("aces", |_| 4u8)]
    #[token("top2", |_| 5u8)]
    #[token("top3", |_| 6u8)]
    #[token("top4", |_| 7u8)]
    #[token("top5", |_| 8u8)]
    #[token("c13", |_| 9u8)]
    Pt(u8),
    /// `loser(s)`.
    #[token("loser")]
    #[token("losers")]
    Loser,
    /// `trick(s)`.
    #[token("trick")]
    #[token("tricks")]
    Trick,
    /// `control(s)`.
    #[token("control")]
    #[token("controls")]
    Control,
    /// `quality`.
    #[token("quality")]
    Quality,
    /// `cccc`.
    #[token("cccc")]
    Cccc,
    /// `score`.
    #[token("score")]
    Score,
    /// `imp(s)`.
    #[token("imp")]
    #[token("imps")]
    Imps,
    /// `hascard`.
    #[token("hascard")]
    HasCard,
    /// `shape`.
    #[token("shape")]
    Shape,
    /// `any`.
    #[token("any")]
    Any,
    /// `rnd`.
    #[token("rnd")]
    Rnd,
    /// `ltc` (DealerV2).
    #[token("ltc")]
    Ltc,
    /// `dds` (DealerV2).
    #[token("dds")]
    Dds,
    /// `par` (DealerV2).
    #[token("par")]
    Par,
    /// `opc` (DealerV2).
    #[token("opc")]
    Opc,
    /// `usereval` (DealerV2).
    #[token("usereval")]
    UserEval,
    /// `shape{` (DealerV2: start of a François Dellacherie clause).
    #[token("shape{")]
    FdShapeStart,

    // ----- literals -----
    /// `[CDHS]A?K?Q?J?T?9?8?7?6?5?4?3?2?`.
    #[regex("[CDHS]A?K?Q?J?T?9?8?7?6?5?4?3?2?", holding, priority = 10)]
    Holding(Holding),
    /// A predeal holding with `x`s (produced by [`Lexer`](super::lexer::Lexer) from an identifier).
    SpotHolding(SpotHolding),
    /// `[2-9TJQKA][CDHS]`.
    #[regex("[2-9TJQKA][CDHS]", card, priority = 10)]
    Card(Card),
    /// `[xz][1-7][CDHSN]x{0,2}`.
    #[regex("[xz][1-7][CDHSN]x?x?", contract, priority = 10)]
    Contract(Contract),
    /// `[0-9x]{4}` (split by [`Lexer`](super::lexer::Lexer) into [`Token::Distr`] /
    /// [`Token::DistrOrNumber`]).
    #[regex("[0-9x][0-9x][0-9x][0-9x]", distr_word, priority = 20)]
    DistrWord(DistrWord),
    /// `[0-9]+`, saturated like `strtol`.
    #[regex("[0-9]+", number)]
    Number(i64),
    /// A dotnum `\.[0-9]{1,2}` or `[0-9]{1,2}\.[0-9]{0,2}`: `(int)(100*atof+0.001)`.
    #[regex(r"\.[0-9][0-9]?|[0-9][0-9]?\.[0-9]?[0-9]?", dotnum)]
    DotNumber(i64),
    /// `[a-zA-Z][a-zA-Z0-9_]*`.
    #[regex("[a-zA-Z][a-zA-Z0-9_]*", |lex| String::from_utf8_lossy(lex.slice()).into_owned())]
    Ident(String),
    /// `"…"` (the text between the quotes).
    #[token("\"", quoted)]
    Quoted(String),
    /// The two characters `\n` outside quotes.
    #[token("\\n")]
    BackslashN,

    // ----- produced by `Lexer` only -----
    /// A string: a quoted string, or the `\n` token.
    Str(String),
    /// A `[0-9x]{4}` word with an `x`.
    Distr(ShapePattern),
    /// A four-digit word.
    DistrOrNumber(DistrNumber),
    /// DealerV2 `seed N`.
    SeedStmt(i64),
    /// DealerV2 `title "…"`.
    TitleStmt(String),
    /// DealerV2 `vulnerable …`.
    VulnerableStmt(Vulnerability),
    /// DealerV2 `shape{…}`.
    FdShape(FdShape),
    /// Any other byte: returned as itself, accepted nowhere by the grammar.
    Other(u8),
}

impl Token {
    /// Whether the token is a word that only DealerV2 reads as a keyword (`seed`, `title`,
    /// `dds`, `par`, `csvrpt`, …); classic dealer reads it as a variable name.
    pub fn is_dealerv2_only_keyword(&self) -> bool {
        matches!(
            self,
            Token::Seed
                | Token::Title
                | Token::Startboard
                | Token::Opener
                | Token::PrintNs
                | Token::PrintSide
                | Token::BktFreq
                | Token::CsvRpt
                | Token::PrintRpt
                | Token::Export
                | Token::Deal
                | Token::Trix
                | Token::ParContract
                | Token::UserEval
                | Token::Ltc
                | Token::Dds
                | Token::Par
                | Token::Opc
        )
    }
}

impl Token {
    /// Whether `dialect` reads this token, scanned from `word`, as an identifier instead: classic
    /// dealer has none of DealerV2's own keywords, nor its `both`.
    pub fn read_as_identifier(&self, word: &[u8], dialect: Dialect) -> bool {
        dialect == Dialect::Classic
            && (self.is_dealerv2_only_keyword() || (matches!(self, Token::VulWord(_)) && word == b"both"))
    }

    /// Whether the token is the name of a function, a keyword followed by `(` and its arguments
    /// in an expression (`hcp`, `shape`, `spades`, `ltc` …).
    pub fn is_function_keyword(&self) -> bool {
        matches!(
            self,
            Token::Hcp
                | Token::Pt(_)
                | Token::Loser
                | Token::Trick
                | Token::Control
                | Token::Quality
                | Token::Cccc
                | Token::Score
                | Token::Imps
                | Token::HasCard
                | Token::Shape
                | Token::Rnd
                | Token::Ltc
                | Token::Dds
                | Token::Par
                | Token::Opc
                | Token::UserEval
                | Token::Suit(_)
        )
    }

    /// The keyword token `word` is in `dialect` (one of [`keywords`]), or `None` when the
    /// dialect reads it as an identifier (or it is no keyword at all).
    pub fn keyword(word: &str, dialect: Dialect) -> Option<Token> {
        let mut lexer = Token::lexer_with_extras(word.as_bytes(), dialect);
        let token = lexer.next()?.ok()?;
        let whole = lexer.span() == (0..word.len());
        (whole && !matches!(token, Token::Ident(_)) && !token.read_as_identifier(word.as_bytes(), dialect))
            .then_some(token)
    }
}

/// The words of the keyword rules of [`Token`], separated by blanks (see [`keywords`]). A keyword
/// added to [`Token`] belongs here too.
const KEYWORD_WORDS: &str = concat!(
    // Word operators.
    "or and not ",
    // Statements.
    "predeal pointcount altcount condition action generate produce dealer vulnerable seed title startboard opener ",
    // Actions and report items.
    "print printall printpbn printew printns printside printcompact printoneline printes printlin printjson leads ",
    "average frequency bktfreq csvrpt printrpt evalcontract export deal trix parcontract ",
    // Values.
    "nv vul ns ew none all both NS EW north east south west notrump notrumps ",
    // Functions.
    "club clubs diamond diamonds heart hearts spade spades hcp hcps pt0 pt1 pt2 pt3 pt4 pt5 pt6 pt7 pt8 pt9 ",
    "ten tens jack jacks queen queens king kings ace aces top2 top3 top4 top5 c13 loser losers trick tricks ",
    "control controls quality cccc score imp imps hascard shape any rnd ltc dds par opc usereval",
);

/// The words of the keyword rules of [`Token`], DealerV2's set in a fixed order
/// ([`Token::keyword`] says which of them a dialect reads as keywords): the names a misspelled
/// word is compared with (see [`suggestion`](super::suggestion)).
pub fn keywords() -> impl Iterator<Item = &'static str> {
    KEYWORD_WORDS.split_whitespace()
}

/// `#` in column 1 to the end of the line (which must exist); otherwise a stray `#`.
fn hash_comment(lex: &mut logos::Lexer<Token>) -> bool {
    let start = lex.span().start;
    let src = lex.source();
    if start != 0 && src[start - 1] != b'\n' {
        return false;
    }
    match lex.remainder().iter().position(|&b| b == b'\n') {
        Some(i) => {
            lex.bump(i + 1);
            true
        }
        None => false,
    }
}

/// Scans a `/* … */` comment, collecting newlines and the echoed characters.
fn block_comment(lex: &mut logos::Lexer<Token>) -> BlockComment {
    let rest = lex.remainder();
    let mut info = BlockComment::default();
    let mut i = 0;
    while i < rest.len() {
        match rest[i] {
            b'*' if rest.get(i + 1) == Some(&b'/') => {
                info.terminated = true;
                lex.bump(i + 2);
                return info;
            }
            b'\n' => info.newlines += 1,
            c @ (b'<' | b'>' | b'E' | b'O' | b'F') => info.echo.push(c as char),
            _ => {}
        }
        i += 1;
    }
    lex.bump(rest.len());
    info
}

/// A quoted string. Classic strings may span lines; DealerV2 strings end at a newline (which is
/// left for the newline rule). Without a closing quote (classic) or newline (DealerV2) the `"`
/// is a stray character.
fn quoted(lex: &mut logos::Lexer<Token>) -> Option<String> {
    let rest = lex.remainder();
    let v2 = lex.extras == Dialect::V2;
    let end = rest.iter().position(|&b| b == b'"' || (v2 && b == b'\n'))?;
    let text = String::from_utf8_lossy(&rest[..end]).into_owned();
    lex.bump(if rest[end] == b'"' { end + 1 } else { end });
    Some(text)
}

fn suit_of_letter(c: u8) -> Suit {
    match c {
        b'C' => Suit::Clubs,
        b'D' => Suit::Diamonds,
        b'H' => Suit::Hearts,
        _ => Suit::Spades,
    }
}

fn rank_of_letter(c: u8) -> u8 {
    match c {
        b'A' => 12,
        b'K' => 11,
        b'Q' => 10,
        b'J' => 9,
        b'T' => 8,
        d => d - b'2',
    }
}

fn holding(lex: &mut logos::Lexer<Token>) -> Holding {
    let s = lex.slice();
    let ranks = s[1..].iter().fold(0u16, |m, &c| m | (1 << rank_of_letter(c)));
    Holding { suit: suit_of_letter(s[0]), ranks }
}

fn card(lex: &mut logos::Lexer<Token>) -> Card {
    let s = lex.slice();
    Card::new(suit_of_letter(s[1]), rank_of_letter(s[0]))
}

fn contract(lex: &mut logos::Lexer<Token>) -> Contract {
    let s = lex.slice();
    let strain = match s[2] {
        b'N' => Strain::Notrump,
        c => Strain::Suit(suit_of_letter(c)),
    };
    Contract { level: s[1] - b'0', strain, doubled: (s.len() - 3) as u8 }
}

fn distr_word(lex: &mut logos::Lexer<Token>) -> DistrWord {
    let s = lex.slice();
    let mut pattern: ShapePattern = [None; 4];
    for (p, &c) in pattern.iter_mut().zip(s) {
        *p = if c == b'x' { None } else { Some(c - b'0') };
    }
    let value = if s.contains(&b'x') { None } else { Some(saturating_number(s)) };
    DistrWord { pattern, value }
}

/// Decimal digits as `strtol` reads them: saturating at `i64::MAX`.
pub fn saturating_number(digits: &[u8]) -> i64 {
    digits.iter().fold(0i64, |v, &d| v.saturating_mul(10).saturating_add(i64::from(d - b'0')))
}

fn number(lex: &mut logos::Lexer<Token>) -> i64 {
    saturating_number(lex.slice())
}

fn dotnum(lex: &mut logos::Lexer<Token>) -> i64 {
    let text = std::str::from_utf8(lex.slice()).unwrap_or("0");
    let value: f64 = text.parse().unwrap_or(0.0);
    (100.0 * value + 0.001) as i64
}
