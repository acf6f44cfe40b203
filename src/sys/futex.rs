//! Process-shared futex wait and wake on a 32-bit word in shared memory.

use std::sync::atomic::AtomicU32;
use std::time::Duration;

/// Sleeps while `*word == expected`, for at most `timeout`. Spurious wake-ups are possible;
/// callers re-check their condition.
pub fn wait(word: &AtomicU32, expected: u32, timeout: Duration) {
    let ts = libc::timespec {
        tv_sec: timeout.as_secs() as libc::time_t,
        tv_nsec: timeout.subsec_nanos() as libc::c_long,
    };
    // SAFETY: `word` is a live, aligned 32-bit atomic; FUTEX_WAIT only reads it, and the
    // timespec outlives the call. A shared (non-private) futex is required because the word
    // lives in memory mapped by several processes.
    unsafe {
        libc::syscall(
            libc::SYS_futex,
            word.as_ptr(),
            libc::FUTEX_WAIT,
            expected,
            &ts as *const libc::timespec,
        );
    }
}

/// Wakes every process sleeping on `word`.
pub fn wake_all(word: &AtomicU32) {
    // SAFETY: `word` is a live, aligned 32-bit atomic; FUTEX_WAKE does not access user memory
    // beyond using its address as a key.
    unsafe {
        libc::syscall(libc::SYS_futex, word.as_ptr(), libc::FUTEX_WAKE, i32::MAX);
    }
}
