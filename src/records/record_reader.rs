//! An input of deal records opened for reading: where it comes from ([`InputSource`]), its
//! format (named, or found from its first bytes) and the reader of that format, behind one
//! [`RecordReader::next_record`].

use std::io::{BufRead, BufReader, Cursor, Read};
use std::sync::Arc;

use crate::records::dl52_reader::Dl52Reader;
use crate::records::fixed_records::read_fully;
use crate::records::jsonl_reader::JsonlReader;
use crate::records::lin_reader::LinReader;
use crate::records::line_reader::LineReader;
use crate::records::oneline_reader::OnelineReader;
use crate::records::pbn_reader::PbnReader;
use crate::records::zrd_reader::ZrdReader;
use crate::records::{DealRecord, InputFormat, RecordError};

/// The bytes read ahead to find an input's format.
const SNIFF_BYTES: usize = 4096;
/// The read buffer of an input.
const BUFFER_BYTES: usize = 1 << 20;

/// Where an input's records come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputSource {
    /// A file.
    Path(String),
    /// The process's standard input (`-`).
    Stdin,
    /// Bytes the caller holds (the C API's and the bindings' input from memory).
    Memory(Arc<[u8]>),
}

impl InputSource {
    /// The name errors give the input: the path, `standard input` or `input data`.
    pub fn name(&self) -> &str {
        match self {
            InputSource::Path(path) => path,
            InputSource::Stdin => "standard input",
            InputSource::Memory(_) => "input data",
        }
    }

    /// The input's bytes, from the start.
    fn open(&self) -> Result<Box<dyn Read + Send>, String> {
        Ok(match self {
            InputSource::Path(path) => {
                if !cfg!(feature = "os") {
                    return Err(format!("cannot read the input {path}: {}", crate::error::NO_FILES));
                }
                if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
                    return Err(format!("cannot read the input {path}: it is a folder"));
                }
                // Not opened non-blocking: a pipe (`<(zcat deals.pbn.gz)`) is an input too.
                Box::new(std::fs::File::open(path).map_err(|e| format!("cannot open the input {path}: {e}"))?)
            }
            InputSource::Stdin => Box::new(std::io::stdin()),
            InputSource::Memory(bytes) => Box::new(Cursor::new(bytes.clone())),
        })
    }
}

/// The reader of one format.
enum FormatReader {
    Pbn(PbnReader),
    Lin(LinReader),
    Oneline(OnelineReader),
    Dl52(Dl52Reader),
    Jsonl(JsonlReader),
    Zrd(ZrdReader),
}

/// Deal records read one at a time from an input.
pub struct RecordReader {
    name: String,
    format: InputFormat,
    reader: FormatReader,
    records: u64,
}

impl RecordReader {
    /// Opens `source`, in `format` or (`None`) the format its first bytes show.
    pub fn open(source: &InputSource, format: Option<InputFormat>) -> Result<RecordReader, String> {
        let mut bytes = source.open()?;
        let mut start = vec![0u8; SNIFF_BYTES];
        let got = read_fully(&mut *bytes, &mut start).map_err(|e| format!("cannot read {}: {e}", source.name()))?;
        start.truncate(got);
        let format = match format {
            Some(format) => format,
            None => InputFormat::sniff(&start).ok_or_else(|| {
                format!(
                    "{}: binary data of no known format (give input_format: pbn, lin, oneline, dl52, jsonl or zrd)",
                    source.name()
                )
            })?,
        };
        let buffered = BufReader::with_capacity(BUFFER_BYTES, Cursor::new(start).chain(bytes));
        let lines = |buffered| LineReader::new(Box::new(buffered) as Box<dyn BufRead + Send>);
        let reader = match format {
            InputFormat::Pbn => FormatReader::Pbn(PbnReader::new(lines(buffered))),
            InputFormat::Lin => FormatReader::Lin(LinReader::new(lines(buffered))),
            InputFormat::Oneline => FormatReader::Oneline(OnelineReader::new(lines(buffered))),
            InputFormat::Jsonl => FormatReader::Jsonl(JsonlReader::new(lines(buffered))),
            InputFormat::Dl52 => FormatReader::Dl52(Dl52Reader::new(Box::new(buffered))),
            InputFormat::Zrd => FormatReader::Zrd(ZrdReader::new(Box::new(buffered))),
        };
        Ok(RecordReader { name: source.name().to_string(), format, reader, records: 0 })
    }

    /// The input's name in messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The format read.
    pub fn format(&self) -> InputFormat {
        self.format
    }

    /// The records read so far, malformed ones included.
    pub fn records_read(&self) -> u64 {
        self.records
    }

    /// The next record, or `None` at the end. A malformed record is an error that is not
    /// [`fatal`](RecordError::fatal): the next call reads the record after it.
    pub fn next_record(&mut self) -> Result<Option<DealRecord>, RecordError> {
        let next = match &mut self.reader {
            FormatReader::Pbn(r) => r.next_record(),
            FormatReader::Lin(r) => r.next_record(),
            FormatReader::Oneline(r) => r.next_record(),
            FormatReader::Dl52(r) => r.next_record(),
            FormatReader::Jsonl(r) => r.next_record(),
            FormatReader::Zrd(r) => r.next_record(),
        };
        if !matches!(next, Ok(None)) {
            self.records += 1;
        }
        next
    }
}
