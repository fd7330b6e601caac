//! `opc(side[, strain])`: the Optimal Point Count of a side from DealerV2's external `dop`
//! program, run as `dop -O<opener> -N <hand> -S <hand> -q` (`-E`/`-W` for East–West) with hands
//! written `AKQJ2/-/T54/Q6542` (spades to clubs, `-` for a void). The program prints eight
//! numbers, `C D H S NT LONG : QL_SUIT QL_NT`; each is kept ×100. `opc(side)` is the value in
//! the side's longest fit, `opc(side, suit|notrump)` the value in that strain. Results are
//! cached per side for the deal being judged.

use std::io::Read;
use std::os::unix::process::CommandExt;
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
        if !status.success() {
            return Err(failed(format!("exited with {status}")));
        }
        parse_values(&text).ok_or_else(|| failed(format!("expected 'C D H S NT LONG : QL QL', got '{}'", text.trim())))
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

/// Reads `a b c d e f : g h` (DealerV2's `"%5f %5f %5f %5f %5f %5f :"` then `" %5f %5f"`) and
/// keeps each as `(int)(value * 100)` in single precision, as DealerV2 does.
pub fn parse_values(text: &str) -> Option<OpcValues> {
    let (left, right) = text.split_once(':')?;
    let numbers: Vec<f32> = left
        .split_whitespace()
        .chain(right.split_whitespace().take(2))
        .map(|w| w.parse().ok())
        .collect::<Option<_>>()?;
    let values: [f32; 8] = numbers.try_into().ok()?;
    Some(values.map(|v| (v * 100.0) as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_read_like_dealerv2() {
        assert_eq!(
            parse_values(" 21.30 22.00 23.25 24.75 25.00 26.50 :  1.50  2.00\n"),
            Some([2130, 2200, 2325, 2475, 2500, 2650, 150, 200])
        );
        assert_eq!(parse_values("21 22 23 24 25 :1 2"), None, "five numbers before the colon");
        assert_eq!(parse_values("nothing"), None);
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
