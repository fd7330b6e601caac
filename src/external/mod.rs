//! Programs and callbacks outside the library that a script asks for values: `usereval` metrics
//! (in-process callbacks or DealerV2's DealerServer over shared memory) and `opc` (DealerV2's DOP
//! program). Owns starting, talking to and stopping those programs; it never deals or evaluates.

#[cfg(unix)]
pub mod dealer_server;
// The DealerServer protocol needs POSIX shared memory, named semaphores and process groups:
// elsewhere the same interface reports that it is not available.
#[cfg(not(unix))]
#[path = "dealer_server_unavailable.rs"]
pub mod dealer_server;
pub mod opc;
pub mod server_config;
pub mod usereval;
