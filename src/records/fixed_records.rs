//! Fixed-size binary records (DL52's 52 bytes, ZRD's 23), one at a time, numbered from 1 with
//! the byte offset each starts at; an input that ends inside a record is a fatal error.

use std::io::Read;

use crate::records::RecordError;

/// Reads fixed-size records of `N` bytes.
pub struct FixedRecords<const N: usize> {
    source: Box<dyn Read + Send>,
    read: u64,
}

/// One record read: its number (from 1), its byte offset and its bytes.
pub struct FixedRecord<const N: usize> {
    /// The record's number, from 1.
    pub number: u64,
    /// The byte offset it starts at.
    pub offset: u64,
    /// Its bytes.
    pub bytes: [u8; N],
}

impl<const N: usize> FixedRecords<N> {
    /// Records of `source`.
    pub fn new(source: Box<dyn Read + Send>) -> FixedRecords<N> {
        FixedRecords { source, read: 0 }
    }

    /// The next record, or `None` at the end; `what` names a record in the error of an input
    /// that ends inside one (`a deal`, `a record`).
    pub fn next(&mut self, what: &str) -> Result<Option<FixedRecord<N>>, RecordError> {
        let mut bytes = [0u8; N];
        let number = self.read + 1;
        let offset = self.read * N as u64;
        let got = read_fully(&mut *self.source, &mut bytes)
            .map_err(|e| RecordError::at_record(number, offset, format!("cannot read: {e}")).fatal())?;
        match got {
            0 => Ok(None),
            n if n == N => {
                self.read += 1;
                Ok(Some(FixedRecord { number, offset, bytes }))
            }
            n => Err(RecordError::at_record(
                number,
                offset,
                format!("the input ends inside {what}: {n} of its {N} bytes"),
            )
            .fatal()),
        }
    }
}

/// Reads up to `bytes.len()` bytes (fewer only at the end of the input); the count read.
pub fn read_fully(source: &mut dyn Read, bytes: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < bytes.len() {
        match source.read(&mut bytes[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}
