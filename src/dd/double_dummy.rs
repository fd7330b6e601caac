//! The DDS a session solves with ([`DoubleDummy`]): the one linked into this build, one the
//! embedder provides, or none.
//!
//! Builds on `entry_points` and `linked_dds`; the solver modules take it from here.

use std::fmt;
use std::sync::Arc;

use super::entry_points::DdsEntryPoints;

/// The DDS a session solves with: the one linked into this build (the default of a build with
/// the `dds` feature), one the embedder provides ([`DoubleDummy::provided`], as the WebAssembly
/// build does with its DDS module), or none ([`DoubleDummy::none`]: every solve answers "not
/// available").
#[derive(Clone)]
pub struct DoubleDummy(Option<Arc<dyn DdsEntryPoints>>);

impl DoubleDummy {
    /// No DDS: every solve answers "not available".
    pub fn none() -> DoubleDummy {
        DoubleDummy(None)
    }

    /// The embedder's DDS.
    pub fn provided(entry_points: Arc<dyn DdsEntryPoints>) -> DoubleDummy {
        DoubleDummy(Some(entry_points))
    }

    /// The DDS linked into this build, or none when the `dds` feature is off.
    pub fn of_this_build() -> DoubleDummy {
        #[cfg(feature = "dds")]
        {
            DoubleDummy::provided(Arc::new(super::linked_dds::LinkedDds::default()))
        }
        #[cfg(not(feature = "dds"))]
        {
            DoubleDummy::none()
        }
    }

    /// How many jobs the DDS solves at once itself (1 for the native DDS, whose batches run on
    /// threads of the pool's own; 1 without a DDS).
    pub fn parallel_jobs(&self) -> usize {
        self.0.as_ref().map_or(1, |dds| dds.parallel_jobs().max(1))
    }

    /// The entry points, when there is a DDS.
    pub fn entry_points(&self) -> Option<&Arc<dyn DdsEntryPoints>> {
        self.0.as_ref()
    }
}

impl Default for DoubleDummy {
    /// The DDS linked into this build (none without the `dds` feature).
    fn default() -> Self {
        DoubleDummy::of_this_build()
    }
}

impl fmt::Debug for DoubleDummy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() { "DoubleDummy(DDS)" } else { "DoubleDummy(none)" })
    }
}
