//! ZRD files (Pavlicek's double-dummy library format, DealerV2's `-Z`): 23-byte records, title
//! records first, each deal record with its 20 double-dummy results. A file written without
//! results (`-Z N`) holds zeros there, which no deal has (a side's tricks and the other
//! side's add up to 13): such a record carries no table.

use std::io::Read;

use crate::dd::zrd::{decode_record, Record, RECORD_LEN};
use crate::dd::DdTable;
use crate::records::fixed_records::FixedRecords;
use crate::records::{DealRecord, RecordError};

/// Reads ZRD deal records.
pub struct ZrdReader {
    records: FixedRecords<RECORD_LEN>,
}

impl ZrdReader {
    /// Deal records from `source`.
    pub fn new(source: Box<dyn Read + Send>) -> ZrdReader {
        ZrdReader { records: FixedRecords::new(source) }
    }

    /// The next deal, or `None` at the end (title records are passed over).
    pub fn next_record(&mut self) -> Result<Option<DealRecord>, RecordError> {
        loop {
            let Some(record) = self.records.next("a record")? else { return Ok(None) };
            let at = |message| RecordError::at_record(record.number, record.offset, message);
            match decode_record(&record.bytes).map_err(at)? {
                Record::Title { .. } => continue,
                Record::Deal { deal, tricks } => {
                    let mut read = DealRecord::bare(deal, record.number);
                    read.dd = (tricks != [[0; 5]; 4]).then_some(DdTable(tricks));
                    return Ok(Some(read));
                }
            }
        }
    }
}
