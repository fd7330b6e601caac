//! How much stack the current thread has left, so that the recursive walks over expression trees
//! (compiling, evaluating) stop with an error instead of overflowing, whatever stack the host
//! gave the thread that calls the library.
//!
//! The parser bounds a tree's depth (10,000 levels, the peers' parser-stack limit), but a level
//! of compilation or evaluation takes about a kilobyte of stack, and host threads may have as
//! little as a few hundred kilobytes. Each level of those walks asks [`enough`] first.

use std::cell::Cell;

/// Stack kept free below the deepest level a walk may reach: room for the calls a level makes
/// (the analysis functions, DDS is not called from inside a walk) and for dropping a tree.
const RESERVE: usize = 192 * 1024;

thread_local! {
    /// The lowest usable address of this thread's stack; 0 until first asked, `usize::MAX`
    /// when the system cannot tell (then no limit is applied).
    static STACK_LOW: Cell<usize> = const { Cell::new(0) };
}

/// Whether the current thread has enough stack left for one more level of a recursive walk.
#[inline]
pub fn enough() -> bool {
    let marker = 0u8;
    let here = std::hint::black_box(&marker) as *const u8 as usize;
    let low = STACK_LOW.with(|low| {
        if low.get() == 0 {
            low.set(lowest_address());
        }
        low.get()
    });
    low == usize::MAX || here.saturating_sub(low) >= RESERVE
}

/// The lowest address of the current thread's stack, from the system (`usize::MAX` when it
/// cannot tell).
fn lowest_address() -> usize {
    #[cfg(target_os = "linux")]
    // SAFETY: the attribute object is initialised by pthread_getattr_np before it is read and
    // destroyed once; the out-parameters are valid locals.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return usize::MAX;
        }
        let mut addr: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let got = libc::pthread_attr_getstack(&attr, &mut addr, &mut size);
        libc::pthread_attr_destroy(&mut attr);
        if got != 0 || addr.is_null() {
            return usize::MAX;
        }
        addr as usize
    }
    #[cfg(windows)]
    {
        #[link(name = "kernel32")]
        extern "system" {
            /// Windows 8 and later: the lowest and highest addresses of the thread's reserved
            /// stack (the guard pages are within the lowest [`RESERVE`] bytes).
            fn GetCurrentThreadStackLimits(low: *mut usize, high: *mut usize);
        }
        let (mut low, mut high) = (0usize, 0usize);
        // SAFETY: the function writes the two out-parameters, valid locals.
        unsafe { GetCurrentThreadStackLimits(&mut low, &mut high) };
        if low == 0 {
            usize::MAX
        } else {
            low
        }
    }
    #[cfg(not(any(target_os = "linux", windows)))]
    usize::MAX
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Recurses until [`enough`] says no; returns the depth reached.
    fn descend(depth: usize) -> usize {
        if !enough() {
            return depth;
        }
        let pad = std::hint::black_box([0u8; 512]);
        descend(depth + 1) + (pad[0] as usize)
    }

    #[test]
    fn the_guard_stops_before_the_stack_ends() {
        for stack in [256 * 1024, 1 << 20, 4 << 20] {
            let depth = std::thread::Builder::new().stack_size(stack).spawn(|| descend(0)).unwrap().join().unwrap();
            // Returning at all shows the guard stopped within the stack (the system may give
            // a larger stack than asked for, from its cache); a level takes at most 4 KB, even
            // unoptimised, so it did not stop early.
            assert!(depth >= (stack - RESERVE) / 4096, "stack {stack}: stopped early at {depth}");
        }
    }
}
