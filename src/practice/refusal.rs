//! The error a practice run refuses a scenario or its options with: a script error whose
//! exit status is 1, as Dealer3's refusals have.

use crate::error::{Error, ErrorKind};

/// A practice run's refusal of a scenario or of its options (exit status 1, as Dealer3's).
pub fn refusal(message: impl Into<String>) -> Error {
    let mut error = Error::new(ErrorKind::Script, message);
    error.exit_code = 1;
    error
}
