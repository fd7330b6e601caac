//! The DealerServer protocol where it cannot work (Windows, WebAssembly): DealerV2's DealerServer talks
//! through a POSIX shared-memory page and two POSIX named semaphores and runs in a process group
//! of its own, none of which Windows has. The interface is that of the Unix module, so the rest
//! of the library is the same everywhere; starting a server fails with
//! [`ErrorKind::NotAvailable`] (`DEALER_ERROR_NOT_AVAILABLE`), naming the alternative: an
//! in-process metric (`dealer_set_usereval`), which works on every system.

use crate::error::{Error, ErrorKind, Result};
use crate::external::usereval::{Metric, Query, QueryContext, SLOTS};

pub use crate::external::server_config::ServerConfig;

/// A DealerServer that never runs: [`DealerServer::start`] always fails.
pub struct DealerServer {
    never: std::convert::Infallible,
}

/// The message of every attempt to start a DealerServer here.
#[cfg(windows)]
pub const NOT_AVAILABLE: &str = "usereval: the DealerServer protocol (POSIX shared memory and semaphores) is not \
     available on Windows; register an in-process metric instead (dealer_set_usereval)";

/// The message of every attempt to start a DealerServer here.
#[cfg(not(windows))]
pub const NOT_AVAILABLE: &str = "usereval: the DealerServer protocol (POSIX shared memory, semaphores and \
     processes) is not available in this build (the browser)";

impl DealerServer {
    /// Fails with [`ErrorKind::NotAvailable`]: no server can be started on this system.
    pub fn start(config: ServerConfig) -> Result<DealerServer> {
        let _ = config;
        Err(Error::new(ErrorKind::NotAvailable, NOT_AVAILABLE))
    }
}

impl Metric for DealerServer {
    fn evaluate(&mut self, _query: &Query, _context: &QueryContext, _slots: &mut [i32; SLOTS]) -> Result<()> {
        match self.never {}
    }
}
