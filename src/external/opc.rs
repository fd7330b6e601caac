//! `opc(side[, strain])`: the Optimal Point Count of a side from DealerV2's external `dop`
//! program, run as `dop -O<opener> -N <hand> -S <hand> -q` (`-E`/`-W` for East–West) with hands
//! written `AKQJ2/-/T54/Q6542` (spades to clubs, `-` for a void). The program prints eight
//! numbers, `C D H S NT LONG QL_SUIT QL_NT` (the real `dop -q` without the `:` DealerV2's format
//! puts before the quick losers, and with exit status 1); each is kept ×100. `opc(side)` is the
//! value in the side's longest fit, `opc(side, suit|notrump)` the value in that strain. Results
//! are cached per side for the deal being judged.

use std::io::Read;
#[cfg(unix)]
use std::os::fd::AsRawFd;
#[cfg(unix)]
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::cards::{Deal, Hand, Seat, Side, Strain, Suit};
use crate::error::{Error, ErrorKind, Result};
use crate::interrupter::Interrupter;

/// How to run the DOP program.
#[derive(Clone, Debug)]
pub struct OpcConfig {
    /// The program (DealerV2's is `/usr/local/games/DealerV2_4/bin/dop`).
    pub program: PathBuf,
    /// The opener's letter passed as `-O<letter>` (`N`, `E`, `S` or `W`).
    pub opener: char,
    /// How long one run may take, from its start to its answer.
    pub timeout: Duration,
    /// The session's interrupter: an interruption ends the wait for the program at once.
    pub interrupter: Option<Interrupter>,
}

/// The eight values one run of the program gives, ×100: C, D, H, S, NT, longest fit, and the
/// quick losers in a suit and in notrump.
pub type OpcValues = [i32; 8];

/// Runs the DOP program on demand, with a per-side cache.
pub struct Opc {
    config: OpcConfig,
    cache: [Option<(i64, OpcValues)>; 2],
}

impl Opc {
    /// A runner with an empty cache.
    pub fn new(config: OpcConfig) -> Opc {
        Opc { config, cache: [None, None] }
    }

    /// Whether `side`'s values for the deal numbered `generated` are already known.
    pub fn is_cached(&self, side: Side, generated: i64) -> bool {
        self.cache[side as usize].is_some_and(|(number, _)| number == generated)
    }

    /// `opc(side[, strain])` for the deal numbered `generated`.
    pub fn value(&mut self, side: Side, strain: Option<Strain>, deal: &Deal, generated: i64) -> Result<i32> {
        let values = match self.cache[side as usize] {
            Some((number, values)) if number == generated => values,
            _ => {
                let values = self.run(side, deal)?;
                self.cache[side as usize] = Some((generated, values));
                values
            }
        };
        Ok(values[strain.map_or(5, Strain::index)])
    }

    /// Runs the program once for `side`.
    fn run(&self, side: Side, deal: &Deal) -> Result<OpcValues> {
        let (first, second) = match side {
            Side::NS => (("-N", Seat::North), ("-S", Seat::South)),
            Side::EW => (("-E", Seat::East), ("-W", Seat::West)),
        };
        let program = self.config.program.display();
        if !cfg!(feature = "os") {
            return Err(Error::new(
                ErrorKind::NotAvailable,
                format!("opc: {program}: running external programs is not available in this build (the browser)"),
            ));
        }
        let failed = |what: String| Error::new(ErrorKind::Run, format!("opc: {program}: {what}"));
        let mut command = Command::new(&self.config.program);
        command
            .arg(format!("-O{}", self.config.opener))
            .args([first.0, &dop_hand(deal.hand(first.1)), second.0, &dop_hand(deal.hand(second.1)), "-q"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped());
        // Its own process group, so that ending it ends whatever it started too.
        #[cfg(unix)]
        command.process_group(0);
        let mut child = command.spawn().map_err(|e| failed(format!("cannot start: {e}")))?;
        let out = child.stdout.take().expect("stdout is piped");
        let ended = self.exchange(&mut child, out);
        // Whatever the program left behind (a child still holding the pipe …) goes with it: the
        // unreaped program keeps its process group's number from being reused until then.
        #[cfg(unix)]
        {
            // SAFETY: kill(2) on the child's own process group has no memory effects.
            unsafe { libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL) };
        }
        // Windows has no process groups to end: the program itself is ended (an error only
        // says that it had exited already).
        #[cfg(not(unix))]
        let _ = child.kill();
        let status = child.wait().map_err(|e| failed(e.to_string()))?;
        let text = match ended {
            Exchange::Answer(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Exchange::TimedOut => {
                return Err(failed(format!("no answer within {:.1} s", self.config.timeout.as_secs_f64())))
            }
            Exchange::TooLong => return Err(failed(format!("answer too long (more than {ANSWER_CAP} bytes)"))),
            Exchange::Interrupted => return Err(Error::new(ErrorKind::Interrupted, "interrupted")),
            Exchange::Failed(e) => return Err(failed(format!("unreadable output: {e}"))),
        };
        // DealerV2 ignores the exit status (the real `dop -q` always exits with 1): eight numbers
        // are an answer whatever the status, but a program killed by a signal has failed.
        #[cfg(unix)]
        if status.signal().is_some() {
            return Err(failed(format!("killed by {status}")));
        }
        parse_values(&text).ok_or_else(|| {
            let status = if status.success() { String::new() } else { format!(" ({status})") };
            failed(format!("expected eight numbers 'C D H S NT LONG QL_SUIT QL_NT', got '{}'{status}", text.trim()))
        })
    }
}

/// How the exchange with a running program ended.
enum Exchange {
    /// The program exited; what it wrote (up to [`ANSWER_CAP`] bytes).
    Answer(Vec<u8>),
    /// The time limit passed first.
    TimedOut,
    /// The program wrote more than [`ANSWER_CAP`] bytes.
    TooLong,
    /// The session was interrupted (the interruption is consumed).
    Interrupted,
    /// Reading its output failed.
    Failed(std::io::Error),
}

/// The most bytes an answer may have (the real one is one line of about 50).
pub const ANSWER_CAP: usize = 65_536;

/// How long one wait lasts between looks at the clock, the program and the interrupter.
const SLICE: Duration = Duration::from_millis(10);

impl Opc {
    /// Reads the program's output while it runs, until it has exited and its output is drained
    /// (output still held open by something it left behind is not waited for), within the time
    /// limit and the size cap, and as long as the session is not interrupted. The program is
    /// left unreaped: the caller ends its process group, then reaps it.
    #[cfg(unix)]
    fn exchange(&self, child: &mut std::process::Child, mut out: std::process::ChildStdout) -> Exchange {
        let deadline = Instant::now() + self.config.timeout;
        let pid = child.id() as libc::id_t;
        let out = &mut out;
        let mut text = Vec::new();
        let mut eof = false;
        let mut buffer = [0u8; 8192];
        loop {
            let exited = has_exited(pid);
            if eof && exited {
                return Exchange::Answer(text);
            }
            let now = Instant::now();
            if now >= deadline {
                return Exchange::TimedOut;
            }
            if self.config.interrupter.as_ref().is_some_and(|i| i.check().is_err()) {
                return Exchange::Interrupted;
            }
            if eof {
                // The pipe is closed but the program still runs: wait for it to end.
                std::thread::sleep(Duration::from_millis(1));
                continue;
            }
            // Once the program has exited, everything it wrote is in the pipe already: read what
            // is there without waiting.
            let wait = if exited { Duration::ZERO } else { SLICE.min(deadline - now) };
            let mut poll = libc::pollfd { fd: out.as_raw_fd(), events: libc::POLLIN, revents: 0 };
            // SAFETY: one valid pollfd.
            let ready = unsafe { libc::poll(&mut poll, 1, wait.as_millis() as libc::c_int) };
            if ready < 0 {
                let e = std::io::Error::last_os_error();
                if e.kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return Exchange::Failed(e);
            }
            if ready == 0 {
                if exited {
                    return Exchange::Answer(text);
                }
                continue;
            }
            match out.read(&mut buffer) {
                Ok(0) => eof = true,
                Ok(n) => {
                    text.extend_from_slice(&buffer[..n]);
                    if text.len() > ANSWER_CAP {
                        return Exchange::TooLong;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Exchange::Failed(e),
            }
        }
    }

    /// The same exchange where pipes cannot be polled (Windows): a thread reads the program's
    /// output and hands it over in chunks, while this one watches the clock, the program and
    /// the interrupter. Once the program has exited, what it wrote is taken until the pipe
    /// closes or nothing more comes for [`EXITED_GRACE`]; a reading thread left waiting on a
    /// pipe held open by something the program started ends when that pipe closes.
    #[cfg(not(unix))]
    fn exchange(&self, child: &mut std::process::Child, mut out: std::process::ChildStdout) -> Exchange {
        use std::sync::mpsc::{channel, RecvTimeoutError};
        let (sender, chunks) = channel::<std::io::Result<Vec<u8>>>();
        let reader = std::thread::Builder::new().name("opc-output".into()).spawn(move || {
            let mut buffer = [0u8; 8192];
            loop {
                let chunk = match out.read(&mut buffer) {
                    Ok(n) => Ok(buffer[..n].to_vec()),
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => Err(e),
                };
                let last = !matches!(&chunk, Ok(bytes) if !bytes.is_empty());
                if sender.send(chunk).is_err() || last {
                    return;
                }
            }
        });
        if let Err(e) = reader {
            return Exchange::Failed(e);
        }
        let deadline = Instant::now() + self.config.timeout;
        let mut text = Vec::new();
        let mut eof = false;
        let mut exited = false;
        loop {
            exited = exited || matches!(child.try_wait(), Ok(Some(_)));
            if eof && exited {
                return Exchange::Answer(text);
            }
            let now = Instant::now();
            if now >= deadline {
                return Exchange::TimedOut;
            }
            if self.config.interrupter.as_ref().is_some_and(|i| i.check().is_err()) {
                return Exchange::Interrupted;
            }
            if eof {
                std::thread::sleep(Duration::from_millis(1));
                continue;
            }
            let wait = if exited { EXITED_GRACE } else { SLICE }.min(deadline - now);
            match chunks.recv_timeout(wait) {
                Ok(Ok(bytes)) if bytes.is_empty() => eof = true,
                Ok(Ok(bytes)) => {
                    text.extend_from_slice(&bytes);
                    if text.len() > ANSWER_CAP {
                        return Exchange::TooLong;
                    }
                }
                Ok(Err(e)) => return Exchange::Failed(e),
                Err(RecvTimeoutError::Disconnected) => eof = true,
                Err(RecvTimeoutError::Timeout) if exited => return Exchange::Answer(text),
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }
}

/// Where pipes cannot be polled: how long output is still awaited after the program has exited
/// while its pipe stays open (held by something it started).
#[cfg(not(unix))]
const EXITED_GRACE: Duration = Duration::from_millis(100);

/// Whether the child `pid` has exited, without reaping it (so that its pid, and its process
/// group's number, stay taken until it is reaped).
#[cfg(unix)]
pub(crate) fn has_exited(pid: libc::id_t) -> bool {
    // SAFETY: an all-zero siginfo_t is valid; waitid writes it.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: waitid on our own child with WNOWAIT only reports its state.
    let r = unsafe { libc::waitid(libc::P_PID, pid, &mut info, libc::WEXITED | libc::WNOHANG | libc::WNOWAIT) };
    // SAFETY: waitid filled in the siginfo_t (si_pid stays 0 while the child runs).
    r == 0 && unsafe { info.si_pid() } != 0
}

/// A hand as DOP reads it: spades to clubs separated by `/`, `-` for a void.
pub fn dop_hand(hand: Hand) -> String {
    let mut out = Vec::with_capacity(20);
    for (i, suit) in Suit::PRINT_ORDER.into_iter().enumerate() {
        if i > 0 {
            out.push(b'/');
        }
        if hand.len(suit) == 0 {
            out.push(b'-');
        } else {
            hand.write_suit(suit, &mut out);
        }
    }
    String::from_utf8(out).expect("card letters are ASCII")
}

/// Reads `a b c d e f g h` or `a b c d e f : g h` as DealerV2 does (`"%5f %5f %5f %5f %5f %5f :"`
/// then `" %5f %5f"`: the `:` may be missing, what follows the eighth number is ignored) and
/// keeps each as `(int)(value * 100)` in single precision. Each number is a whole word (up to
/// white space or `:`). `None` unless all eight are there.
pub fn parse_values(text: &str) -> Option<OpcValues> {
    let mut values = [0i32; 8];
    let mut rest = text;
    for (i, value) in values.iter_mut().enumerate() {
        rest = rest.trim_start();
        if i == 6 {
            rest = rest.strip_prefix(':').unwrap_or(rest).trim_start();
        }
        let end = rest.find(|c: char| c.is_whitespace() || c == ':').unwrap_or(rest.len());
        let number: f32 = rest[..end].parse().ok()?;
        *value = (number * 100.0) as i32;
        rest = &rest[end..];
    }
    Some(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_read_like_dealerv2() {
        let values = Some([2130, 2200, 2325, 2475, 2500, 2650, 150, 200]);
        assert_eq!(parse_values(" 21.30 22.00 23.25 24.75 25.00 26.50 :  1.50  2.00\n"), values);
        assert_eq!(parse_values("21.30 22.00 23.25 24.75 25.00 26.50: 1.50 2.00"), values);
        // The real `dop -q`: no ':' before the quick losers.
        assert_eq!(parse_values("21.30 22.00 23.25 24.75 25.00 26.50  1.50  2.00\n"), values);
        assert_eq!(parse_values("21.30 22.00 23.25 24.75 25.00 26.50 1.50 2.00 9 x\n"), values, "the rest ignored");
        assert_eq!(parse_values("21 22 23 24 25 :1 2"), None, "five numbers before the colon");
        assert_eq!(parse_values("21 22 23 24 25 26 1"), None, "seven numbers");
        assert_eq!(parse_values("21 22 23 24 25 26 : 1"), None, "seven numbers and the colon");
        assert_eq!(parse_values("21 22 23 24 25 26 1 : 2"), None, "the colon after the seventh");
        assert_eq!(parse_values("21 22 23 24 25 26 :: 1 2"), None, "two colons");
        assert_eq!(parse_values("nothing"), None);
        assert_eq!(parse_values(""), None);
    }

    /// A fresh, empty folder for one test, named after `tag` and this process.
    #[cfg(unix)]
    fn scratch_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("libdealer-opc-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    #[cfg(unix)]
    fn answers_and_failures_of_the_program() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch_dir("run");
        let fake = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/opc/fake_dop.sh");
        // Every stand-in is written before any runs (a file still open for writing cannot run).
        let programs = ["real", "colon", "fail", "short", "signal"].map(|mode| {
            let path = dir.join(mode);
            std::fs::write(&path, format!("#!/bin/sh\nFAKE_DOP_MODE={mode} exec '{fake}' \"$@\"\n")).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
            path
        });
        let deal = Deal::from_slots(&std::array::from_fn(crate::cards::Card::from_ordinal));
        let run = |program: &std::path::Path| {
            let config =
                OpcConfig { program: program.into(), opener: 'W', timeout: Duration::from_secs(30), interrupter: None };
            Opc::new(config).value(Side::NS, Some(Strain::Notrump), &deal, 1).map_err(|e| e.message)
        };
        let name = |mode: &str| dir.join(mode).display().to_string();
        let expected = "expected eight numbers 'C D H S NT LONG QL_SUIT QL_NT'";
        assert_eq!(run(&programs[0]), Ok(2500), "the real program's answer, exit status 1");
        assert_eq!(run(&programs[1]), Ok(2500), "the documented answer, exit status 0");
        assert_eq!(run(&programs[2]), Err(format!("opc: {}: {expected}, got '' (exit status: 1)", name("fail"))));
        assert_eq!(
            run(&programs[3]),
            Err(format!(
                "opc: {}: {expected}, got '21.30 22.00 23.25 24.75 25.00 26.50  1.50' (exit status: 1)",
                name("short")
            ))
        );
        assert_eq!(run(&programs[4]), Err(format!("opc: {}: killed by signal: 9 (SIGKILL)", name("signal"))));
        let missing = dir.join("missing").join("dop");
        let e = run(&missing).unwrap_err();
        assert!(e.starts_with(&format!("opc: {}: cannot start: ", missing.display())), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Writes an executable stand-in `dir/name` running tests/opc/fake_dop.sh in `mode`, with
    /// `FAKE_DOP_PIDFILE` set to `dir/name.pid`.
    #[cfg(unix)]
    fn stand_in(dir: &std::path::Path, name: &str, mode: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let fake = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/opc/fake_dop.sh");
        let path = dir.join(name);
        let pidfile = dir.join(format!("{name}.pid"));
        let text =
            format!("#!/bin/sh\nFAKE_DOP_MODE={mode} FAKE_DOP_PIDFILE='{}' exec '{fake}' \"$@\"\n", pidfile.display());
        std::fs::write(&path, text).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// Whether process `pid` is gone (or only a zombie waiting for its new parent).
    #[cfg(unix)]
    fn process_gone(pid: &str) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => true,
            Ok(stat) => stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')),
        }
    }

    #[test]
    #[cfg(unix)]
    fn the_time_limit_bounds_the_whole_exchange() {
        let dir = scratch_dir("bounds");
        let programs =
            [("orphan", "orphan"), ("long", "long"), ("hang", "hang")].map(|(name, mode)| stand_in(&dir, name, mode));
        let deal = Deal::from_slots(&std::array::from_fn(crate::cards::Card::from_ordinal));
        let run = |program: &std::path::Path, timeout: f64, interrupter: Option<Interrupter>| {
            let timeout = Duration::from_secs_f64(timeout);
            let config = OpcConfig { program: program.into(), opener: 'W', timeout, interrupter };
            let started = Instant::now();
            let result = Opc::new(config).value(Side::NS, None, &deal, 1).map_err(|e| (e.kind, e.message));
            (result, started.elapsed())
        };
        // A child left holding the pipe: the answer counts once the program has exited, and the
        // child is ended with it.
        let (result, took) = run(&programs[0], 20.0, None);
        assert_eq!(result, Ok(2650));
        assert!(took < Duration::from_secs(5), "took {took:?}");
        let pid = std::fs::read_to_string(dir.join("orphan.pid")).unwrap();
        let started = Instant::now();
        while !process_gone(pid.trim()) && started.elapsed() < Duration::from_secs(1) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(process_gone(pid.trim()), "the program's child {} still runs", pid.trim());
        // More than fits in a pipe, and more than the cap: a clear error, not a time-out.
        let (result, took) = run(&programs[1], 20.0, None);
        let message = format!("opc: {}: answer too long (more than {ANSWER_CAP} bytes)", programs[1].display());
        assert_eq!(result, Err((ErrorKind::Run, message)));
        assert!(took < Duration::from_secs(5), "took {took:?}");
        // A program that hangs: the time limit, within 0.3 s.
        let (result, took) = run(&programs[2], 0.5, None);
        let message = format!("opc: {}: no answer within 0.5 s", programs[2].display());
        assert_eq!(result, Err((ErrorKind::Run, message)));
        assert!(took < Duration::from_millis(800), "took {took:?}");
        // ... or an interruption, at once.
        let interrupter = Interrupter::default();
        let trigger = interrupter.clone();
        let thread = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            trigger.interrupt();
        });
        let (result, took) = run(&programs[2], 20.0, Some(interrupter.clone()));
        thread.join().unwrap();
        assert_eq!(result, Err((ErrorKind::Interrupted, "interrupted".to_string())));
        assert!(took < Duration::from_secs(2), "took {took:?}");
        assert!(interrupter.check().is_ok(), "the interruption was used up");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn hands_are_written_for_dop() {
        let mut hand = Hand::EMPTY;
        for (suit, rank) in [(Suit::Spades, 12), (Suit::Spades, 0), (Suit::Diamonds, 8), (Suit::Clubs, 10)] {
            hand.insert(crate::cards::Card::new(suit, rank));
        }
        assert_eq!(dop_hand(hand), "A2/-/T/Q");
    }
}
