//! How to reach a DealerServer: the program, its time limit, the session's interrupter and the
//! debug levels. Shared by the DealerServer client and, where there is none, the module that
//! reports it as not available, so that the rest of the library sets it up alike everywhere.

use std::path::PathBuf;
use std::time::Duration;

use crate::interrupter::Interrupter;

/// How to reach the server.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The server program.
    pub path: PathBuf,
    /// How long one query may take before the run stops.
    pub timeout: Duration,
    /// The session's interrupter: an interruption ends the wait for an answer at once (and the
    /// server, which may still be working on it, is killed at the end of the job).
    pub interrupter: Option<Interrupter>,
    /// The dealer's own debug level, written into the page for the server to read (`-D n`).
    pub dealer_debug: i32,
    /// The server's debug level, its second argument (`-D n.m`); above 0 the server's stderr
    /// goes to a `/tmp/DealerServer_XXXXXX.log` file, as DealerV2 arranges it.
    pub server_debug: i32,
}
