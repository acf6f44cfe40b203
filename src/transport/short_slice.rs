//! A short scheduler time slice while this image's waits see outside load.
//!
//! Beside CPU-bound processes, a woken image placed on a CPU that one of them runs waits out
//! its slice (about 1.4 ms) unless it may preempt it; under EEVDF (Linux 6.13+, PREEMPT_SHORT)
//! a woken task with a shorter slice than the running one preempts it when eligible. So while
//! the image's [`YieldGate`](super::yield_gate::YieldGate) is closed a wait's sleep runs with
//! [`SHORT`] ([`YieldGate::sleep_slice`](super::yield_gate::YieldGate::sleep_slice)), and the
//! thread goes back to the kernel's default once it runs: a `sched_setattr` only when the
//! slice changes, none while the gate is open. A kernel or policy that refuses the call
//! (older kernels, a policy other than the normal one) is remembered and never asked again.

use crate::sys::sched;
use std::sync::atomic::{AtomicU8, Ordering};

/// The slice while the gate is closed (nanoseconds; the kernel accepts 100 µs to 100 ms).
pub const SHORT: u64 = 300_000;

/// The thread runs with the kernel's default slice.
const DEFAULT: u8 = 0;
/// The thread runs with [`SHORT`].
const SHORTENED: u8 = 1;
/// The kernel refused a slice: never asked again.
const UNSUPPORTED: u8 = 2;

/// Which slice the sleeping thread runs with, and how it is set.
pub struct Slice {
    state: AtomicU8,
    /// Sets the calling thread's slice in nanoseconds (0: default); `Err` with the errno.
    set: fn(u64) -> Result<(), i32>,
}

impl Slice {
    /// A slice set with `sched_setattr`, at the kernel's default now.
    pub fn new() -> Slice {
        Slice::with(sched::set_slice)
    }

    /// A slice set with `set` (tests count the calls).
    pub fn with(set: fn(u64) -> Result<(), i32>) -> Slice {
        Slice {
            state: AtomicU8::new(DEFAULT),
            set,
        }
    }

    /// Runs the calling thread with [`SHORT`] (`short`) or the default slice, calling the
    /// kernel only when that changes what it runs with; a refusal makes every later call a
    /// no-op, at the default.
    pub fn shorten(&self, short: bool) {
        let (from, to, ns) = if short {
            (DEFAULT, SHORTENED, SHORT)
        } else {
            (SHORTENED, DEFAULT, 0)
        };
        if self
            .state
            .compare_exchange(from, to, Ordering::Relaxed, Ordering::Relaxed)
            .is_err()
        {
            return;
        }
        if (self.set)(ns).is_err() {
            self.state.store(UNSUPPORTED, Ordering::Relaxed);
        }
    }
}

impl Default for Slice {
    fn default() -> Self {
        Slice::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;
    use std::sync::Mutex;

    /// The tests' fake kernel: every slice asked for, and whether it refuses.
    static ASKED: Mutex<Vec<u64>> = Mutex::new(Vec::new());
    static REFUSE: AtomicU64 = AtomicU64::new(0);
    /// Serialises the tests sharing the fake kernel.
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

    fn fake(ns: u64) -> Result<(), i32> {
        ASKED.lock().unwrap().push(ns);
        if REFUSE.load(Ordering::Relaxed) == 1 {
            Err(libc::EINVAL)
        } else {
            Ok(())
        }
    }

    fn asked() -> Vec<u64> {
        std::mem::take(&mut *ASKED.lock().unwrap())
    }

    #[test]
    fn the_kernel_is_asked_only_at_transitions() {
        let _one = ONE_AT_A_TIME.lock().unwrap();
        REFUSE.store(0, Ordering::Relaxed);
        asked();
        let s = Slice::with(fake);
        s.shorten(false);
        s.shorten(true);
        s.shorten(true);
        s.shorten(false);
        s.shorten(false);
        s.shorten(true);
        assert_eq!(asked(), vec![SHORT, 0, SHORT]);
    }

    #[test]
    fn a_refusal_is_never_asked_again() {
        let _one = ONE_AT_A_TIME.lock().unwrap();
        REFUSE.store(1, Ordering::Relaxed);
        asked();
        let s = Slice::with(fake);
        s.shorten(true);
        s.shorten(false);
        s.shorten(true);
        assert_eq!(asked(), vec![SHORT]);
        REFUSE.store(0, Ordering::Relaxed);
    }
}
