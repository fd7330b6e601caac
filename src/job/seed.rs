//! The seed a job deals with: the one the `seed` option or the script fixes, else one chosen
//! when the job starts as the generator's peer chooses one (random bits from the operating
//! system; for classic dealer's glibc generator, the time).

use crate::dealing::GeneratorKind;
use crate::dialect::Dialect;
use crate::job::options::Options;
use crate::program::Program;

/// The seed a job started now under `options` deals with: the one the options or the script
/// (`program`, when one is loaded) fix, else one chosen now as the generator's peer would
/// (random; classic dealer's, the time). A seed the job chooses itself is one that, given back
/// as the `seed` option, deals the same deals (never 0, which would ask for a random seed
/// again).
pub(crate) fn seed_for_next_job(options: &Options, program: Option<&Program>) -> i64 {
    match (fixed_seed(options, program), options.generator) {
        (Some(v), _) => v,
        // srand48 reads the low 32 bits of its seed (DealerV2 seeds a random start with
        // seed48 instead, which no `-s` value repeats).
        (None, GeneratorKind::Drand48) => (random_u64() % 0xFFFF_FFFF + 1) as i64,
        // Classic dealer seeds with the time.
        (None, GeneratorKind::Glibc) => time_seed(),
        (None, GeneratorKind::ChaCha) => std::iter::repeat_with(random_u64).find(|&v| v != 0).unwrap_or(1) as i64,
    }
}

/// The seed the next job will use when `options` or the script (`program`, when one is loaded)
/// fix it: the `seed` option, else the script's `seed` statement (DealerV2 dialect; in library
/// mode either dialect); `None` when the job will choose its seed. Seed 0 asks for a chosen
/// seed, except with the glibc generator, which takes 0 as classic dealer does, and in library
/// mode, where the seed is a block offset into the file.
pub(crate) fn fixed_seed(options: &Options, program: Option<&Program>) -> Option<i64> {
    let o = options;
    let script_seed = program.and_then(|p| p.settings.seed);
    if o.library_file.is_some() {
        return Some(o.seed.or(script_seed).unwrap_or(0).max(0));
    }
    let seed = o.seed.or(if o.dialect() == Dialect::V2 { script_seed } else { None });
    seed.filter(|&v| v != 0 || o.generator == GeneratorKind::Glibc)
}

/// Classic dealer's seed when none is given: the time in seconds.
#[cfg(feature = "os")]
fn time_seed() -> i64 {
    // SAFETY: time(NULL) has no preconditions.
    (unsafe { libc::time(std::ptr::null_mut()) }) as i64
}

/// Without the `os` feature there is no clock: a random seed, as for the other generators.
#[cfg(not(feature = "os"))]
fn time_seed() -> i64 {
    (random_u64() % 0xFFFF_FFFF + 1) as i64
}

/// Without the `os` feature there is no system randomness to read: the host (the WebAssembly
/// binding) always gives a seed; this fixed value is used only if it does not.
#[cfg(not(feature = "os"))]
fn random_u64() -> u64 {
    0x5DEE_CE66_D1CE_F00D
}

/// 64 random bits from the operating system.
#[cfg(feature = "os")]
fn random_u64() -> u64 {
    let mut buf = [0u8; 8];
    #[cfg(unix)]
    // SAFETY: the buffer is valid for 8 bytes of writes.
    let n = unsafe { libc::getrandom(buf.as_mut_ptr().cast(), buf.len(), 0) };
    #[cfg(windows)]
    let n = {
        #[link(name = "advapi32")]
        extern "system" {
            /// `RtlGenRandom`, the system's random bytes (every Windows since XP).
            fn SystemFunction036(buffer: *mut u8, length: u32) -> u8;
        }
        // SAFETY: the buffer is valid for 8 bytes of writes.
        if unsafe { SystemFunction036(buf.as_mut_ptr(), buf.len() as u32) } != 0 {
            8
        } else {
            0
        }
    };
    if n != 8 {
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        return t.as_nanos() as u64 ^ (std::process::id() as u64) << 32;
    }
    u64::from_le_bytes(buf)
}
