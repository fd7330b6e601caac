//! Where bytes go: the [`Sink`] a caller directs each [`Stream`] to, the buffered output
//! streams of one run (`Outputs`) with their byte count for the output ceiling, and the files
//! opened for `-C`, `-X`, `-Z` and `-l`. Knows nothing of deals, scripts or the dealing loop: it
//! only buffers, counts and writes bytes that others have formatted.

use std::io::Write;

use crate::actions::context::ActionOutputs;
use crate::error::{Error, ErrorKind, Result};

/// A caller-supplied writer of output bytes; an `Err` stops the run.
pub type WriteFn = Box<dyn FnMut(&[u8]) -> std::io::Result<()> + Send>;

/// Where one stream of output goes.
pub enum Sink {
    /// The process's standard output.
    Stdout,
    /// The process's standard error.
    Stderr,
    /// A file opened by the session (`-C`, `-X`).
    File(std::fs::File),
    /// A caller-supplied writer, e.g. a C callback; an `Err` stops the run.
    Callback(WriteFn),
    /// An open file descriptor of the caller's (the session writes to it but never closes it).
    /// Unix only: a descriptor belongs to one C runtime, and on Windows each has its own.
    #[cfg(unix)]
    Descriptor(std::os::fd::RawFd),
}

impl Sink {
    /// Writes all of `bytes` (nothing for an empty slice); standard output is flushed after.
    pub(crate) fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        match self {
            Sink::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(bytes)?;
                out.flush()
            }
            Sink::Stderr => std::io::stderr().lock().write_all(bytes),
            Sink::File(f) => f.write_all(bytes),
            Sink::Callback(cb) => cb(bytes),
            #[cfg(unix)]
            Sink::Descriptor(fd) => write_fd_without_sigpipe(*fd, bytes),
        }
    }
}

/// Writes all of `bytes` to the caller's descriptor `fd` (a file, pipe or socket) such that a
/// pipe or socket whose reading end is closed gives an `EPIPE` error instead of killing the
/// host with SIGPIPE, leaving the host's signal dispositions and mask as they were: SIGPIPE is
/// blocked in this thread around the write, and one raised by the write (not pending before)
/// is consumed before the mask is restored.
#[cfg(unix)]
fn write_fd_without_sigpipe(fd: std::os::fd::RawFd, bytes: &[u8]) -> std::io::Result<()> {
    // SAFETY: the sigset_t values are initialised by sigemptyset/pthread_sigmask/sigpending
    // before they are read; the caller keeps `fd` open while it is set (checked open when set)
    // and `bytes` is a valid slice for the writes.
    unsafe {
        let mut pipe_only: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut pipe_only);
        libc::sigaddset(&mut pipe_only, libc::SIGPIPE);
        let mut old_mask: libc::sigset_t = std::mem::zeroed();
        let blocked = libc::pthread_sigmask(libc::SIG_BLOCK, &pipe_only, &mut old_mask) == 0;
        let pending_before = blocked && sigpipe_pending();
        let mut rest = bytes;
        let mut result = Ok(());
        while !rest.is_empty() {
            let n = libc::write(fd, rest.as_ptr().cast(), rest.len());
            if n < 0 {
                let e = std::io::Error::last_os_error();
                if e.kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                result = Err(e);
                break;
            }
            if n == 0 {
                result = Err(std::io::Error::from(std::io::ErrorKind::WriteZero));
                break;
            }
            rest = &rest[n as usize..];
        }
        if blocked {
            if !pending_before && sigpipe_pending() {
                let no_wait = libc::timespec { tv_sec: 0, tv_nsec: 0 };
                libc::sigtimedwait(&pipe_only, std::ptr::null_mut(), &no_wait);
            }
            libc::pthread_sigmask(libc::SIG_SETMASK, &old_mask, std::ptr::null_mut());
        }
        result
    }
}

/// Whether a SIGPIPE is pending for this thread or the process.
#[cfg(unix)]
fn sigpipe_pending() -> bool {
    // SAFETY: sigpending fills the set before sigismember reads it.
    unsafe {
        let mut pending: libc::sigset_t = std::mem::zeroed();
        libc::sigpending(&mut pending) == 0 && libc::sigismember(&pending, libc::SIGPIPE) == 1
    }
}

/// The output streams of a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Deals, reports and statistics (stdout).
    Output,
    /// Messages and the progress meter (stderr).
    Diagnostics,
    /// `csvrpt` records when no `-C` file is set (default: the output stream).
    Csv,
    /// `export` lines when no `-X` file is set (default: the output stream).
    Export,
    /// Each produced deal as one line, its PBN deal `N:<N> <E> <S> <W>` (default: not written):
    /// for a program that wants the deals as data beside the output the script prints.
    Deals,
}

/// How many streams a session has (one sink each).
pub const STREAM_COUNT: usize = 5;

/// A failed write to an output file.
fn write_error(e: std::io::Error) -> Error {
    Error::new(ErrorKind::Io, format!("cannot write output: {e}"))
}

/// The buffered output streams of one run.
pub(crate) struct Outputs<'a> {
    pub(crate) sinks: &'a mut [Option<Sink>; STREAM_COUNT],
    pub(crate) out: Vec<u8>,
    /// The produced deals' lines, when the deals stream has a sink (not counted by the output
    /// ceiling: the deals are data about the output, not more of it).
    pub(crate) deals: Vec<u8>,
    pub(crate) csv: Vec<u8>,
    pub(crate) export: Vec<u8>,
    pub(crate) csv_file: Option<Sink>,
    pub(crate) export_file: Option<Sink>,
    /// `-Z`: ZRD records of the produced deals, and whether their tricks are left at zero.
    pub(crate) zrd: Option<(std::io::BufWriter<std::fs::File>, bool)>,
    /// `-l`: 52-byte records of the produced deals.
    pub(crate) dl52: Option<std::io::BufWriter<std::fs::File>>,
    /// Bytes handed on so far: the output, csv and export buffers flushed, the records written.
    pub(crate) written: u64,
    /// The output ceiling on `written` and what is buffered (see [`Ceiling::Output`]).
    pub(crate) max_bytes: Option<u64>,
}

/// The buffered bytes of one stream past which the dealing loop flushes the buffers.
pub(crate) const FLUSH_AT: usize = 1 << 16;

impl Outputs<'_> {
    /// Bytes written and buffered so far.
    pub(crate) fn total(&self) -> u64 {
        self.written + (self.out.len() + self.csv.len() + self.export.len()) as u64
    }

    /// The lengths of the buffers, to drop later what came after (see [`Outputs::rewind`]).
    pub(crate) fn mark(&self) -> [usize; 3] {
        [self.out.len(), self.csv.len(), self.export.len()]
    }

    /// Drops what the buffers got since `mark` (nothing was flushed in between).
    pub(crate) fn rewind(&mut self, mark: [usize; 3]) {
        self.out.truncate(mark[0]);
        self.csv.truncate(mark[1]);
        self.export.truncate(mark[2]);
    }

    /// Writes one ZRD or DL52 record (or title record) and counts it.
    pub(crate) fn write_record(&mut self, zrd: bool, record: &[u8]) -> Result<()> {
        let file = if zrd { self.zrd.as_mut().map(|(f, _)| f) } else { self.dl52.as_mut() };
        if let Some(file) = file {
            file.write_all(record).map_err(write_error)?;
            self.written += record.len() as u64;
        }
        Ok(())
    }

    /// Adds a produced deal to the deals stream, when that stream has a sink.
    pub(crate) fn deal_produced(&mut self, deal: &crate::cards::Deal) {
        if self.sinks[Stream::Deals as usize].is_some() {
            deal.write_pbn(&mut self.deals);
            self.deals.push(b'\n');
        }
    }

    /// Hands the buffers to their sinks (output, csv, export, deals) and flushes the record files.
    pub(crate) fn flush(&mut self) -> Result<()> {
        let io = |e: std::io::Error| Error::new(ErrorKind::Io, format!("cannot write output: {e}"));
        self.written += (self.out.len() + self.csv.len() + self.export.len()) as u64;
        // csv and export buffers are separate only when they go to their own sinks.
        let out = std::mem::take(&mut self.out);
        self.sinks[Stream::Output as usize].get_or_insert(Sink::Stdout).write_all(&out).map_err(io)?;
        let csv = std::mem::take(&mut self.csv);
        match (&mut self.csv_file, &mut self.sinks[Stream::Csv as usize]) {
            (Some(f), _) => f.write_all(&csv).map_err(io)?,
            (None, Some(s)) => s.write_all(&csv).map_err(io)?,
            (None, None) => {}
        }
        let export = std::mem::take(&mut self.export);
        match (&mut self.export_file, &mut self.sinks[Stream::Export as usize]) {
            (Some(f), _) => f.write_all(&export).map_err(io)?,
            (None, Some(s)) => s.write_all(&export).map_err(io)?,
            (None, None) => {}
        }
        let deals = std::mem::take(&mut self.deals);
        if let Some(sink) = &mut self.sinks[Stream::Deals as usize] {
            sink.write_all(&deals).map_err(io)?;
        }
        if let Some((zrd, _)) = &mut self.zrd {
            zrd.flush().map_err(io)?;
        }
        if let Some(dl52) = &mut self.dl52 {
            dl52.flush().map_err(io)?;
        }
        Ok(())
    }

    /// Flushes the buffers, then writes `text` to the diagnostics stream (errors ignored).
    pub(crate) fn diagnostics(&mut self, text: &[u8]) {
        let _ = self.flush();
        let _ = self.sinks[Stream::Diagnostics as usize].get_or_insert(Sink::Stderr).write_all(text);
    }

    /// The buffer csvrpt lines go to.
    pub(crate) fn csv_buffer(&mut self) -> &mut Vec<u8> {
        if self.csv_file.is_some() || self.sinks[Stream::Csv as usize].is_some() {
            &mut self.csv
        } else {
            &mut self.out
        }
    }

    /// The buffer export lines go to.
    pub(crate) fn export_buffer(&mut self) -> &mut Vec<u8> {
        if self.export_file.is_some() || self.sinks[Stream::Export as usize].is_some() {
            &mut self.export
        } else {
            &mut self.out
        }
    }
}

impl ActionOutputs for Outputs<'_> {
    #[inline]
    fn out(&mut self) -> &mut Vec<u8> {
        &mut self.out
    }

    #[inline]
    fn csv_buffer(&mut self) -> &mut Vec<u8> {
        Outputs::csv_buffer(self)
    }

    #[inline]
    fn export_buffer(&mut self) -> &mut Vec<u8> {
        Outputs::export_buffer(self)
    }

    #[inline]
    fn zrd_records(&self) -> Option<bool> {
        self.zrd.as_ref().map(|&(_, no_tricks)| no_tricks)
    }

    #[inline]
    fn dl52_records(&self) -> bool {
        self.dl52.is_some()
    }

    #[inline]
    fn write_record(&mut self, zrd: bool, record: &[u8]) -> Result<()> {
        Outputs::write_record(self, zrd, record)
    }
}

pub use crate::error::NO_FILES;

/// Opens (creates) an output file, truncated or appended to.
pub(crate) fn open_file(path: &str, truncate: bool) -> Result<std::fs::File> {
    if !cfg!(feature = "os") {
        return Err(Error::new(ErrorKind::NotAvailable, format!("cannot open {path}: {NO_FILES}")));
    }
    let mut o = std::fs::OpenOptions::new();
    o.create(true);
    if truncate {
        o.write(true).truncate(true);
    } else {
        o.append(true);
    }
    o.open(path).map_err(|e| Error::new(ErrorKind::Io, format!("cannot open {path}: {e}")))
}
