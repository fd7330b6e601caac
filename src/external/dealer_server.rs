//! The client side of DealerV2's DealerServer protocol: a separate process answering `usereval`
//! queries through one shared 4096-byte page, woken by two POSIX named semaphores.
//!
//! Start-up writes the page file (`/tmp/dealer_mmap_XXXXXX`, debug level at offset 4090), maps
//! it, creates the query and reply semaphores, fills the header (file and semaphore names, the
//! six section offsets, a duplicate of stderr) and starts the server with the page's descriptor
//! and the debug level as its arguments and an empty environment. Each query writes the query
//! fields, the deal, the four hands' statistics and the deal numbers, posts the query semaphore
//! and waits for the reply, checking that the server is still alive and answers in time. The
//! end of the job sends the quit query; whatever happens, the semaphores are unlinked (as soon as
//! the server has answered once: both sides have them open then), the page file removed (as soon
//! as the server has started: it maps the descriptor it inherited) and the server's process group
//! killed and the server reaped (at once after a failed query, else if it does not quit).
//!
//! The server runs in its own process group, and a watcher (a `/bin/sh` waiting on a pipe only
//! this process writes to) ends that group and removes the names when this process dies without
//! ending the job (SIGKILL, a second signal to the CLI): the server, which would wait for a query
//! forever, dies with its host and leaves nothing in `/dev/shm` or `/tmp`.

use std::ffi::CString;
use std::fs::File;
use std::io::Write;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use memmap2::MmapMut;

use crate::cards::{Seat, Suit};
use crate::error::{Error, ErrorKind, Result};
use crate::external::opc::has_exited;
use crate::external::usereval::{HandStats, Metric, Query, QueryContext, SLOTS};
use crate::interrupter::Interrupter;

/// The page size DealerV2 maps.
const PAGE_SIZE: usize = 4096;

/// How long to spin for a reply before blocking on the semaphore.
const REPLY_SPIN: Duration = Duration::from_micros(200);

/// Byte offsets in the page (gcc on x86-64, DealerV2 4.3.3's `mmap_template.h`).
mod offset {
    pub const MAP_NAME: usize = 0;
    pub const Q_SEMA_NAME: usize = 32;
    pub const R_SEMA_NAME: usize = 64;
    pub const SECTION_OFFSETS: usize = 96;
    pub const STDERR_FD: usize = 144;
    pub const QUERY: usize = 152;
    pub const QUERY_DESCR: usize = 212;
    pub const REPLY: usize = 244;
    pub const DEAL_DATA: usize = 312;
    pub const HAND_STATS: usize = 320;
    pub const HAND_STATS_SIZE: usize = 292;
    pub const CURDEAL: usize = 1488;
    pub const DDS_CACHE: usize = 1612;
    pub const DDS_TRICKS: usize = 1616;
    pub const NS_RESULTS: usize = 1696;
    pub const EW_RESULTS: usize = 2208;
    pub const CACHE: usize = 2720;
    pub const DEBUG_LEVEL: usize = 4090;
}

pub use crate::external::server_config::ServerConfig;

/// A named POSIX semaphore opened by the client.
struct Semaphore {
    name: CString,
    handle: *mut libc::sem_t,
    /// Whether the name has been removed already.
    unlinked: bool,
}

// SAFETY: a sem_t handle may be used from any thread; the session uses it from one at a time.
unsafe impl Send for Semaphore {}

impl Semaphore {
    fn create(name: &str) -> Result<Semaphore> {
        let name = CString::new(name).expect("semaphore names have no NUL");
        // SAFETY: sem_open with O_CREAT takes a mode and an initial value as varargs.
        let handle = unsafe { libc::sem_open(name.as_ptr(), libc::O_CREAT, 0o600 as libc::c_uint, 0 as libc::c_uint) };
        if handle == libc::SEM_FAILED {
            return Err(io_error(&format!("cannot create semaphore {}", name.to_string_lossy())));
        }
        Ok(Semaphore { name, handle, unlinked: false })
    }

    /// Removes the name (the semaphore lives on while it is open).
    fn unlink(&mut self) {
        if !self.unlinked {
            // SAFETY: the name is a valid C string; the server may have unlinked it already.
            unsafe { libc::sem_unlink(self.name.as_ptr()) };
            self.unlinked = true;
        }
    }

    fn post(&self) -> Result<()> {
        // SAFETY: the handle is open until drop.
        if unsafe { libc::sem_post(self.handle) } == 0 {
            Ok(())
        } else {
            Err(io_error("sem_post failed"))
        }
    }

    /// Takes the semaphore if it is posted, without waiting.
    fn try_wait(&self) -> bool {
        // SAFETY: the handle is open until drop.
        unsafe { libc::sem_trywait(self.handle) == 0 }
    }

    /// Waits until the semaphore is posted or `slice` has passed; `Ok(false)` on time-out.
    fn wait_for(&self, slice: Duration) -> Result<bool> {
        let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: clock_gettime writes the timespec.
        unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &mut now) };
        // `tv_nsec` is a C `long`: 32 bits on some targets.
        #[allow(clippy::unnecessary_cast)]
        let nanos = now.tv_nsec as i64 + i64::from(slice.subsec_nanos());
        let deadline = libc::timespec {
            tv_sec: now.tv_sec + slice.as_secs() as libc::time_t + (nanos / 1_000_000_000) as libc::time_t,
            tv_nsec: (nanos % 1_000_000_000) as _,
        };
        loop {
            // SAFETY: the handle is open until drop; the deadline is a valid timespec.
            if unsafe { libc::sem_timedwait(self.handle, &deadline) } == 0 {
                return Ok(true);
            }
            match std::io::Error::last_os_error().raw_os_error() {
                Some(libc::EINTR) => continue,
                Some(libc::ETIMEDOUT) => return Ok(false),
                _ => return Err(io_error("sem_timedwait failed")),
            }
        }
    }
}

impl Drop for Semaphore {
    fn drop(&mut self) {
        // SAFETY: the handle is open until here.
        unsafe { libc::sem_close(self.handle) };
        self.unlink();
    }
}

/// Where glibc keeps a named semaphore (`/dev/shm/sem.` and the name without its `/`).
fn semaphore_file(name: &str) -> String {
    format!("/dev/shm/sem.{}", name.trim_start_matches('/'))
}

/// The watcher's script: `$1`…`$3` are the files to remove; a line on its input is the server's
/// process group, or `done`, which dismisses it. At the end of its input without `done` (this
/// process died) it removes the files and kills the group. Terminal signals are
/// ignored (it is in a process group of its own anyway), so that it outlives a host ended by one.
const WATCHER_SCRIPT: &str = r#"trap '' HUP INT QUIT TERM PIPE
group=
while IFS= read -r line; do
  [ "$line" = done ] && exit 0
  group=$line
done
rm -f -- "$1" "$2" "$3"
[ -n "$group" ] && kill -s KILL -- "-$group" 2>/dev/null
exit 0
"#;

/// A process that cleans up after the server if this process dies first: it waits for the end
/// of a pipe whose writing end only this process holds (close-on-exec, so no child inherits it).
struct Watcher {
    child: Child,
    input: Option<ChildStdin>,
}

impl Watcher {
    /// Starts a watcher that, unless dismissed, removes `files` when this process dies.
    fn start(files: [&str; 3]) -> Result<Watcher> {
        let child = Command::new("/bin/sh")
            .args(["-c", WATCHER_SCRIPT, "libdealer-watcher"])
            .args(files)
            .env_clear()
            .env("PATH", "/usr/bin:/bin")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .map_err(|e| Error::new(ErrorKind::Run, format!("usereval: cannot start the watcher /bin/sh: {e}")))?;
        let mut watcher = Watcher { child, input: None };
        watcher.input = watcher.child.stdin.take();
        Ok(watcher)
    }

    /// Tells the watcher the server's process group, which it kills if this process dies.
    fn watch_group(&mut self, group: u32) {
        if let Some(input) = &mut self.input {
            // One write: a line the watcher reads whole or not at all.
            let _ = input.write_all(format!("{group}\n").as_bytes());
        }
    }
}

impl Drop for Watcher {
    /// Dismisses the watcher (the job ended normally) and reaps it.
    fn drop(&mut self) {
        if let Some(mut input) = self.input.take() {
            let _ = input.write_all(b"done\n");
        }
        let _ = self.child.wait();
    }
}

/// The page file: removed when dropped.
struct PageFile {
    path: PathBuf,
    file: File,
}

impl Drop for PageFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A running DealerServer. Dropping it ends the server (quit query, then kill if needed), reaps
/// it, and removes the semaphores and the page file.
pub struct DealerServer {
    config: ServerConfig,
    // Field order is drop order: the child is ended (in `Drop`) before these go.
    page: MmapMut,
    query: Semaphore,
    reply: Semaphore,
    child: Option<Child>,
    /// Set when a query failed (no answer in time): the server is killed without the quit query.
    failed: bool,
    _stderr_copy: OwnedFd,
    _page_file: PageFile,
    /// Dismissed once the server is reaped and the names are gone.
    _watcher: Watcher,
}

/// A run error for a failed system call, with the system's reason.
fn io_error(what: &str) -> Error {
    Error::new(ErrorKind::Run, format!("usereval: {what}: {}", std::io::Error::last_os_error()))
}

impl DealerServer {
    /// Creates the page and the semaphores and starts the server.
    pub fn start(config: ServerConfig) -> Result<DealerServer> {
        let (fd, path) = nix::unistd::mkstemp("/tmp/dealer_mmap_XXXXXX")
            .map_err(|e| Error::new(ErrorKind::Run, format!("usereval: cannot create the page file: {e}")))?;
        // Made close-on-exec below: only the server inherits it.
        let file = File::from(fd);
        let page_file = PageFile { path, file };
        let bad_file = |e: std::io::Error| {
            Error::new(ErrorKind::Run, format!("usereval: cannot set up {}: {e}", page_file.path.display()))
        };
        page_file.file.set_len(PAGE_SIZE as u64).map_err(bad_file)?;
        // SAFETY: the file is ours, sized to one page, and only this client and its server map it.
        let mut page = unsafe { MmapMut::map_mut(&page_file.file) }.map_err(bad_file)?;
        let debug = format!("{:2}EOF\0", config.dealer_debug.clamp(-9, 99));
        page[offset::DEBUG_LEVEL..offset::DEBUG_LEVEL + 6].copy_from_slice(&debug.as_bytes()[..6]);

        // Names unique to this page (DealerV2 uses the pid alone; two sessions of one process
        // must not share semaphores).
        let suffix = page_file.path.to_string_lossy().rsplit('_').next().unwrap_or("").to_string();
        let pid = std::process::id();
        let names = [format!("/q_sem_{pid:06}_{suffix}"), format!("/r_sem_{pid:06}_{suffix}")];
        // The watcher comes first, so that no name is ever left without one.
        let page_path = page_file.path.to_string_lossy().into_owned();
        let mut watcher = Watcher::start([&page_path, &semaphore_file(&names[0]), &semaphore_file(&names[1])])?;
        let query = Semaphore::create(&names[0])?;
        let reply = Semaphore::create(&names[1])?;

        put_text(&mut page, offset::MAP_NAME, &page_file.path.to_string_lossy());
        put_text(&mut page, offset::Q_SEMA_NAME, &query.name.to_string_lossy());
        put_text(&mut page, offset::R_SEMA_NAME, &reply.name.to_string_lossy());
        let sections =
            [offset::QUERY, offset::REPLY, offset::DEAL_DATA, offset::NS_RESULTS, offset::EW_RESULTS, offset::CACHE];
        for (i, section) in sections.iter().enumerate() {
            let at = offset::SECTION_OFFSETS + 8 * i;
            page[at..at + 8].copy_from_slice(&(*section as i64).to_le_bytes());
        }
        let stderr_copy = nix::unistd::dup(std::io::stderr())
            .map_err(|e| Error::new(ErrorKind::Run, format!("usereval: cannot duplicate stderr: {e}")))?;
        put_i32(&mut page, offset::STDERR_FD, stderr_copy.as_raw_fd());
        for side in 0..2 {
            put_i32(&mut page, offset::CACHE + 4 * side, -1);
            put_i32(&mut page, offset::CACHE + 8 + 4 * side, -1);
        }

        // Both descriptors are close-on-exec in this process (no other child inherits them) and
        // handed to the server alone: its child side clears the flag just before the exec.
        let inherited = [page_file.file.as_raw_fd(), stderr_copy.as_raw_fd()];
        for fd in inherited {
            set_close_on_exec(fd, true);
        }
        let mut command = Command::new(&config.path);
        command
            .arg(format!("{:4}", inherited[0]))
            .arg(format!("{:4}", config.server_debug))
            .env_clear()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            // Its own process group: ending it ends whatever the server started too, and the
            // terminal's signals go to the host alone (which then ends the job).
            .process_group(0);
        if config.server_debug > 0 {
            command.stderr(debug_log()?);
        }
        // SAFETY: the closure only calls fcntl(2), which is async-signal-safe.
        unsafe {
            command.pre_exec(move || {
                for fd in inherited {
                    set_close_on_exec(fd, false);
                }
                Ok(())
            });
        }
        let child = command.spawn().map_err(|e| {
            Error::new(ErrorKind::Run, format!("usereval: cannot start DealerServer {}: {e}", config.path.display()))
        })?;
        watcher.watch_group(child.id());
        // The server maps the descriptor it inherited: the file's name is no longer needed, and
        // removing it now leaves nothing behind even if this process dies.
        let _ = std::fs::remove_file(&page_file.path);
        Ok(DealerServer {
            config,
            page,
            query,
            reply,
            child: Some(child),
            failed: false,
            _stderr_copy: stderr_copy,
            _page_file: page_file,
            _watcher: watcher,
        })
    }

    /// Waits for the reply semaphore, watching the child; an error names what went wrong. A
    /// short spin comes first: a blocked waiter takes tens of microseconds to be woken, longer
    /// than most metrics take to answer.
    fn await_reply(&mut self, what: &str) -> Result<()> {
        let started = Instant::now();
        while started.elapsed() < REPLY_SPIN {
            if self.reply.try_wait() {
                return Ok(());
            }
            std::thread::yield_now();
        }
        loop {
            if self.reply.wait_for(Duration::from_millis(20))? {
                return Ok(());
            }
            if let Some(mut child) = self.child.take_if(|child| has_exited(child.id())) {
                // Whatever it started goes with it (its unreaped pid still holds the group).
                kill_group(&child);
                let status = child.wait().map_err(|e| Error::new(ErrorKind::Run, format!("usereval: {e}")))?;
                return Err(Error::new(
                    ErrorKind::Run,
                    format!(
                        "usereval: DealerServer {} ended ({status}) without answering {what}",
                        self.config.path.display()
                    ),
                ));
            }
            if let Some(Err(e)) = self.config.interrupter.as_ref().map(Interrupter::check) {
                self.failed = true;
                return Err(e);
            }
            if started.elapsed() >= self.config.timeout {
                self.failed = true;
                return Err(Error::new(
                    ErrorKind::Run,
                    format!(
                        "usereval: DealerServer {} did not answer {what} within {:.1} s",
                        self.config.path.display(),
                        self.config.timeout.as_secs_f64()
                    ),
                ));
            }
        }
    }

    /// Sends the quit query and waits (up to the time-out, at most 5 s) for the server to exit,
    /// unless a query failed; then kills the server's process group and reaps the server.
    fn quit(&mut self) {
        let Some(mut child) = self.child.take() else { return };
        if !self.failed && !has_exited(child.id()) {
            put_i32(&mut self.page, offset::QUERY, -1);
            put_text(&mut self.page, offset::QUERY_DESCR, "NORMAL EOJ For Server");
            let _ = self.page.flush();
            if self.query.post().is_ok() {
                let deadline = Instant::now() + self.config.timeout.min(Duration::from_secs(5));
                while Instant::now() < deadline && !has_exited(child.id()) {
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
        }
        kill_group(&child);
        let _ = child.wait();
    }
}

impl Drop for DealerServer {
    fn drop(&mut self) {
        self.quit();
    }
}

impl Metric for DealerServer {
    fn evaluate(&mut self, query: &Query, context: &QueryContext, slots: &mut [i32; SLOTS]) -> Result<()> {
        let page = &mut self.page;
        let fields =
            [query.tag, query.side as i32, query.hand_flag, query.hand, query.suit_flag, query.suit, query.index];
        for (i, v) in fields.iter().enumerate() {
            put_i32(page, offset::QUERY + 4 * i, *v);
        }
        put_i32(page, offset::DEAL_DATA, context.generated as i32);
        put_i32(page, offset::DEAL_DATA + 4, context.produced as i32);
        for (seat, stats) in context.stats.iter().enumerate() {
            write_hand_stats(page, offset::HAND_STATS + seat * offset::HAND_STATS_SIZE, stats);
        }
        for seat in Seat::ALL {
            let cards = context.deal.hand(seat).cards_descending();
            for (i, card) in cards.take(13).enumerate() {
                page[offset::CURDEAL + 13 * seat.index() + i] = ((card.suit().index() as u8) << 4) | card.rank();
            }
        }
        match context.tricks {
            Some(tricks) => {
                put_i32(page, offset::DDS_CACHE, 1);
                for (d, row) in tricks.iter().enumerate() {
                    for (s, t) in row.iter().enumerate() {
                        put_i32(page, offset::DDS_TRICKS + 4 * (5 * d + s), i32::from(*t));
                    }
                }
            }
            None => put_i32(page, offset::DDS_CACHE, 0),
        }
        self.query.post()?;
        self.await_reply(&format!("query tag {}", query.tag))?;
        // The server has both semaphores open now: their names can go.
        self.query.unlink();
        self.reply.unlink();
        let base = if query.side == 0 { offset::NS_RESULTS } else { offset::EW_RESULTS };
        for (i, slot) in slots.iter_mut().enumerate() {
            *slot = get_i32(&self.page, base + 4 * i);
        }
        let page = &mut self.page;
        put_i32(page, offset::CACHE + 4 * query.side, context.generated as i32);
        put_i32(page, offset::CACHE + 8 + 4 * query.side, query.tag);
        put_i32(page, offset::CACHE + 16 + 4 * query.side, 1);
        Ok(())
    }
}

/// Kills `child`'s process group (the child leads it; while it is unreaped, its number is not
/// reused).
fn kill_group(child: &Child) {
    // SAFETY: kill(2) on the child's own process group has no memory effects.
    unsafe { libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL) };
}

/// Writes one seat's `HANDSTAT` (292 bytes of `short`s) at `at`.
fn write_hand_stats(page: &mut [u8], at: usize, s: &HandStats) {
    let mut shorts = [0i16; 146];
    let mut put = |index: usize, value: i32| shorts[index] = value as i16;
    put(0, s.seat);
    for suit in Suit::ALL {
        let i = suit.index();
        put(1 + i, s.lengths[i]);
        put(5 + i, s.hcp[i]);
        put(11 + i, s.losers[i]);
        put(16 + i, s.controls[i]);
        for t in 0..s.counts.len() {
            put(21 + 4 * t + i, s.counts[t][i]);
        }
        put(77 + i, s.ltc[i]);
        for k in 0..3 {
            put(82 + 3 * i + k, s.top_cards[i][k]);
        }
        for rank in 0..13 {
            put(94 + 13 * i + rank, s.has_card[i][rank]);
        }
    }
    put(9, s.total_hcp);
    // Offset 20 (`hs_bits`, the shape bitmap of the script's shape clauses) stays 0.
    put(15, s.total_losers);
    put(20, s.total_controls);
    for t in 0..s.total_counts.len() {
        put(65 + t, s.total_counts[t]);
    }
    put(76, s.square_hand);
    put(81, s.total_ltc);
    for (i, v) in shorts.iter().enumerate() {
        page[at + 2 * i..at + 2 * i + 2].copy_from_slice(&v.to_le_bytes());
    }
}

/// A new `/tmp/DealerServer_XXXXXX.log` for the server's debug output (kept after the run).
fn debug_log() -> Result<File> {
    let mut template = *b"/tmp/DealerServer_XXXXXX.log\0";
    // SAFETY: the template is a writable NUL-terminated buffer ending in the 4-byte suffix.
    let fd = unsafe { libc::mkstemps(template.as_mut_ptr().cast(), 4) };
    if fd < 0 {
        return Err(io_error("cannot create the DealerServer log file"));
    }
    // SAFETY: mkstemps returned a new descriptor that nothing else owns.
    Ok(unsafe { <File as std::os::fd::FromRawFd>::from_raw_fd(fd) })
}

/// Sets or clears `FD_CLOEXEC` on a descriptor.
fn set_close_on_exec(fd: i32, on: bool) {
    // SAFETY: F_GETFD/F_SETFD on a descriptor this client owns have no memory effects.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFD);
        if flags >= 0 {
            let flags = if on { flags | libc::FD_CLOEXEC } else { flags & !libc::FD_CLOEXEC };
            libc::fcntl(fd, libc::F_SETFD, flags);
        }
    }
}

fn put_i32(page: &mut [u8], at: usize, value: i32) {
    page[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

fn get_i32(page: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(page[at..at + 4].try_into().expect("4 bytes"))
}

/// Writes NUL-terminated text into a 32-byte field (truncated to 31 bytes).
fn put_text(page: &mut [u8], at: usize, text: &str) {
    let field = &mut page[at..at + 32];
    field.fill(0);
    let n = text.len().min(31);
    field[..n].copy_from_slice(&text.as_bytes()[..n]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_stats_land_at_dealerv2_offsets() {
        let mut s = HandStats {
            seat: 2,
            total_hcp: 17,
            total_controls: 5,
            square_hand: 1,
            total_ltc: 650,
            ..Default::default()
        };
        s.lengths = [1, 2, 3, 7];
        s.counts[10] = [0, 1, 2, 14];
        s.total_counts[10] = 17;
        s.top_cards[3] = [64, 32, 4];
        s.has_card[3][12] = 1;
        let mut page = vec![0u8; 292];
        write_hand_stats(&mut page, 0, &s);
        let short = |at: usize| i16::from_le_bytes([page[at], page[at + 1]]);
        assert_eq!(short(0), 2);
        assert_eq!((short(2), short(8)), (1, 7));
        assert_eq!(short(18), 17);
        assert_eq!(short(40), 5);
        assert_eq!((short(42 + 8 * 10), short(42 + 8 * 10 + 6)), (0, 14));
        assert_eq!(short(130 + 2 * 10), 17);
        assert_eq!(short(152), 1);
        assert_eq!(short(162), 650);
        assert_eq!((short(164 + 6 * 3), short(164 + 6 * 3 + 4)), (64, 4));
        assert_eq!(short(188 + 26 * 3 + 24), 1);
    }
}
