//! `opc(side[, strain])`: the Optimal Point Count of a side from DealerV2's external `dop`
//! program, run as `dop -O<opener> -N <hand> -S <hand> -q` (`-E`/`-W` for East–West) with hands
//! written `AKQJ2/-/T54/Q6542` (spades to clubs, `-` for a void). The program prints eight
//! numbers, `C D H S NT LONG QL_SUIT QL_NT` (the real `dop -q` without the `:` DealerV2's format
//! puts before the quick losers, and with exit status 1); each is kept ×100. `opc(side)` is the
//! value in the side's longest fit, `opc(side, suit|notrump)` the value in that strain. Results
//! are cached per side for the deal being judged.

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::cards::{Deal, Hand, Seat, Side, Strain, Suit};
use crate::error::{Error, ErrorKind, Result};

/// How to run the DOP program.
#[derive(Clone, Debug)]
pub struct OpcConfig {
    /// The program (DealerV2's is `/usr/local/games/DealerV2_4/bin/dop`).
    pub program: PathBuf,
    /// The opener's letter passed as `-O<letter>` (`N`, `E`, `S` or `W`).
    pub opener: char,
    /// How long one run may take.
    pub timeout: Duration,
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
        let failed = |what: String| Error::new(ErrorKind::Run, format!("opc: {program}: {what}"));
        let mut child = Command::new(&self.config.program)
            .arg(format!("-O{}", self.config.opener))
            .args([first.0, &dop_hand(deal.hand(first.1)), second.0, &dop_hand(deal.hand(second.1)), "-q"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            // Its own process group, so that a time-out ends whatever it started too.
            .process_group(0)
            .spawn()
            .map_err(|e| failed(format!("cannot start: {e}")))?;
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().map_err(|e| failed(e.to_string()))? {
                break status;
            }
            if started.elapsed() >= self.config.timeout {
                // SAFETY: kill(2) on the child's own process group has no memory effects.
                unsafe { libc::kill(-(child.id() as libc::pid_t), libc::SIGKILL) };
                let _ = child.wait();
                return Err(failed(format!("no answer within {:.1} s", self.config.timeout.as_secs_f64())));
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        let mut text = String::new();
        if let Some(mut out) = child.stdout.take() {
            out.read_to_string(&mut text).map_err(|e| failed(format!("unreadable output: {e}")))?;
        }
        // DealerV2 ignores the exit status (the real `dop -q` always exits with 1): eight numbers
        // are an answer whatever the status, but a program killed by a signal has failed.
        if status.signal().is_some() {
            return Err(failed(format!("killed by {status}")));
        }
        parse_values(&text).ok_or_else(|| {
            let status = if status.success() { String::new() } else { format!(" ({status})") };
            failed(format!("expected eight numbers 'C D H S NT LONG QL_SUIT QL_NT', got '{}'{status}", text.trim()))
        })
    }
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
    fn scratch_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("libdealer-opc-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
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
            let config = OpcConfig { program: program.into(), opener: 'W', timeout: Duration::from_secs(30) };
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

    #[test]
    fn hands_are_written_for_dop() {
        let mut hand = Hand::EMPTY;
        for (suit, rank) in [(Suit::Spades, 12), (Suit::Spades, 0), (Suit::Diamonds, 8), (Suit::Clubs, 10)] {
            hand.insert(crate::cards::Card::new(suit, rank));
        }
        assert_eq!(dop_hand(hand), "A2/-/T/Q");
    }
}
