//! Reading deals (`input`): board records that other programs, or libdealer, wrote — PBN hand
//! records, BBO's LIN, one-line text, DealerV2's 52-byte deals (DL52), JSON Lines and ZRD —
//! read one record at a time into [`DealRecord`]s: the deal, the board data the record
//! carries (board number, dealer, vulnerability, PBN tags) and its double-dummy table when it
//! holds one.
//!
//! A deal source beside the dealing stage: the job takes records in place of dealt deals
//! (`job::record_input`). This folder knows nothing of scripts, jobs or output; it reads
//! bytes in bounded memory (one line, or one PBN game, at a time) and says where a record is
//! wrong ([`RecordError`]: line and column, or record number and byte offset).

mod deal_record;
mod dl52_reader;
mod fixed_records;
mod hand_text;
mod input_format;
mod jsonl_reader;
mod lin_reader;
mod line_reader;
mod oneline_reader;
mod pbn_reader;
mod record_error;
mod record_reader;
mod zrd_reader;

#[cfg(test)]
mod tests;

pub use deal_record::{BoardData, DealRecord};
pub use input_format::InputFormat;
pub use record_error::{RecordError, RecordPlace};
pub use record_reader::{InputSource, RecordReader};
