//! The formats an input may be in, by name (`input_format`) or found from the first bytes.

use crate::dd::zrd::{decode_record, DL52_LEN, RECORD_LEN};
use crate::records::dl52_reader::decode_dl52;

/// A format of deal records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// PBN hand records.
    Pbn,
    /// BBO's LIN.
    Lin,
    /// One deal per line (`printoneline`, or a PBN deal).
    Oneline,
    /// DealerV2's 52-byte deals (`-l`).
    Dl52,
    /// JSON Lines deal objects (`printjson`).
    Jsonl,
    /// ZRD library records (`-Z`).
    Zrd,
}

impl InputFormat {
    /// The format named `name` (`pbn`, `lin`, `oneline`, `dl52`, `jsonl`, `zrd`).
    pub fn named(name: &str) -> Option<InputFormat> {
        Some(match name {
            "pbn" => InputFormat::Pbn,
            "lin" => InputFormat::Lin,
            "oneline" => InputFormat::Oneline,
            "dl52" => InputFormat::Dl52,
            "jsonl" => InputFormat::Jsonl,
            "zrd" => InputFormat::Zrd,
            _ => return None,
        })
    }

    /// The format's name, as [`named`](Self::named) reads it.
    pub fn name(self) -> &'static str {
        match self {
            InputFormat::Pbn => "pbn",
            InputFormat::Lin => "lin",
            InputFormat::Oneline => "oneline",
            InputFormat::Dl52 => "dl52",
            InputFormat::Jsonl => "jsonl",
            InputFormat::Zrd => "zrd",
        }
    }

    /// Whether its records are fixed-size binary ones (numbered, not lines).
    pub fn is_binary(self) -> bool {
        matches!(self, InputFormat::Dl52 | InputFormat::Zrd)
    }

    /// The format the first bytes of an input (up to a few kilobytes, or all of a shorter one)
    /// show: 52 bytes that are 52 different cards are DL52; other bytes no text has (NUL,
    /// control characters) with a ZRD record at the start are ZRD; text is JSON Lines when its
    /// first line opens an object (`{"`), PBN when it opens with `%`, `[`, `;` or `{`, LIN when
    /// it opens with a two-letter key and `|`, and one-line deals otherwise. `None`: binary
    /// bytes of no known format.
    pub fn sniff(start: &[u8]) -> Option<InputFormat> {
        if let Some(first) = start.get(..DL52_LEN) {
            if decode_dl52(first.try_into().expect("52 bytes")).is_ok() {
                return Some(InputFormat::Dl52);
            }
        }
        let binary = start.iter().any(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C) || b == 0x7F);
        if binary {
            let zrd = start.get(..RECORD_LEN).is_some_and(|r| decode_record(r.try_into().expect("23 bytes")).is_ok());
            return zrd.then_some(InputFormat::Zrd);
        }
        let text = start.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(start);
        let first = text.iter().position(|b| !b.is_ascii_whitespace()).map_or(&[][..], |at| &text[at..]);
        let after_brace = first.get(1..).map(|rest| rest.iter().find(|b| !b.is_ascii_whitespace()));
        Some(match first.first() {
            Some(b'{') if matches!(after_brace, Some(Some(b'"' | b'}'))) => InputFormat::Jsonl,
            Some(b'%' | b'[' | b';' | b'{') => InputFormat::Pbn,
            Some(a)
                if a.is_ascii_alphabetic()
                    && first.get(1).is_some_and(u8::is_ascii_alphabetic)
                    && first.get(2) == Some(&b'|') =>
            {
                InputFormat::Lin
            }
            _ => InputFormat::Oneline,
        })
    }
}
