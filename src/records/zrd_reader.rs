//! ZRD files (Pavlicek's double-dummy library format, DealerV2's `-Z`): 23-byte records, title
//! records first, each deal record with its 20 double-dummy results. A file written without
//! results (`-Z N`) holds zeros there, which no deal has (a side's tricks and the other
//! side's add up to 13): such a record carries no table.

use std::io::Read;

use crate::dd::zrd::{decode_record, Record, RECORD_LEN};
use crate::dd::DdTable;
use crate::records::dl52_reader::read_record;
use crate::records::{DealRecord, RecordError};

/// Reads ZRD deal records.
pub struct ZrdReader {
    source: Box<dyn Read + Send>,
    read: u64,
}

impl ZrdReader {
    /// Deal records from `source`.
    pub fn new(source: Box<dyn Read + Send>) -> ZrdReader {
        ZrdReader { source, read: 0 }
    }

    /// The next deal, or `None` at the end (title records are passed over).
    pub fn next_record(&mut self) -> Result<Option<DealRecord>, RecordError> {
        loop {
            let mut bytes = [0u8; RECORD_LEN];
            let number = self.read + 1;
            let offset = self.read * RECORD_LEN as u64;
            let got = read_record(&mut *self.source, &mut bytes)
                .map_err(|e| RecordError::at_record(number, offset, format!("cannot read: {e}")).fatal())?;
            match got {
                0 => return Ok(None),
                RECORD_LEN => {}
                n => {
                    return Err(RecordError::at_record(
                        number,
                        offset,
                        format!("the input ends inside a record: {n} of its {RECORD_LEN} bytes"),
                    )
                    .fatal())
                }
            }
            self.read += 1;
            match decode_record(&bytes).map_err(|m| RecordError::at_record(number, offset, m))? {
                Record::Title { .. } => continue,
                Record::Deal { deal, tricks } => {
                    let mut record = DealRecord::bare(deal, number);
                    record.dd = (tricks != [[0; 5]; 4]).then_some(DdTable(tricks));
                    return Ok(Some(record));
                }
            }
        }
    }
}
