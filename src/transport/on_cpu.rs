//! Where each image runs: one word in its header ([`Header::cpu`]), 1 + the CPU it was on when
//! it last started or ended a blocking wait (0: the kernel does not say), with [`WAITING`] set
//! from the start of such a wait to its end. Written twice per wait, read by other images only
//! when they are about to yield (and by large puts, `shm/stream.rs`), so the line is not one
//! that others poll. When images outnumber the cores nobody reads the bit (yields are how they
//! take turns), and a wait only records its CPU when it starts, when that changed.
//!
//! A wait about to hand its CPU over with `sched_yield` asks [`runnable_beside`] whether an
//! image that is not waiting last ran on the CPU it runs on: that image is then queued behind
//! it (two images of a job with a core each share one CPU only beside outside load), and the
//! wait sleeps instead. Yielding would keep both images runnable on that CPU, which the
//! kernel's load balancer reads as the busier one and splits the pair, each then beside a
//! CPU-bound process (bench/NOTES.md, branches apart and cpuside).

use crate::transport::control::Header;
use std::sync::atomic::Ordering;

/// The bit of [`Header::cpu`] set while the image is in a blocking wait.
pub const WAITING: u32 = 1 << 31;

/// 1 + the CPU this thread runs on (0 when the kernel does not say). glibc reads it from the
/// thread's rseq area where the kernel registered one, else through the vDSO's `getcpu`.
pub fn this_cpu() -> u32 {
    // SAFETY: no arguments, no memory handed over; returns -1 on failure.
    let c = unsafe { libc::sched_getcpu() };
    u32::try_from(c).map_or(0, |c| (c + 1) & !WAITING)
}

/// The word of an image on `cpu` (1 + CPU, 0: unknown), `waiting` or not.
pub fn word(cpu: u32, waiting: bool) -> u32 {
    if waiting {
        cpu | WAITING
    } else {
        cpu
    }
}

/// 1 + the CPU in `word` (0: unknown).
pub fn cpu_of(word: u32) -> u32 {
    word & !WAITING
}

/// Records in this image's `header` the CPU it runs on and whether it is `waiting` (a blocking
/// wait starts or ends). Stores only when the word changed.
pub fn publish(header: &Header, waiting: bool) {
    let w = word(this_cpu(), waiting);
    if header.cpu.load(Ordering::Relaxed) != w {
        header.cpu.store(w, Ordering::Relaxed);
    }
}

/// Whether one of the words `peers` is that of an image not in a wait on `cpu` (1 + the CPU
/// of the image asking; 0, unknown, never matches).
pub fn runnable_beside(cpu: u32, peers: impl IntoIterator<Item = u32>) -> bool {
    cpu != 0 && peers.into_iter().any(|w| w == cpu)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_peer_running_on_this_cpu_is_queued_beside_it() {
        assert!(runnable_beside(3, [word(1, false), word(3, false)]));
    }

    #[test]
    fn a_waiting_peer_or_one_on_another_cpu_is_not() {
        assert!(!runnable_beside(3, [word(3, true), word(2, false)]));
        assert!(!runnable_beside(3, []));
    }

    #[test]
    fn an_unknown_cpu_never_matches() {
        assert!(!runnable_beside(0, [word(0, false), 0]));
        assert!(!runnable_beside(2, [word(0, false)]));
    }

    #[test]
    fn the_word_keeps_the_cpu_and_the_waiting_bit_apart() {
        assert_eq!(cpu_of(word(5, true)), 5);
        assert_eq!(cpu_of(word(5, false)), 5);
        assert_ne!(word(5, true), word(5, false));
        assert_eq!(this_cpu() & WAITING, 0);
    }

    #[test]
    fn publish_marks_the_wait_and_this_cpu() {
        // SAFETY: a Header is plain atomics and padding, for which all-zero bytes are valid.
        let h: Header = unsafe { std::mem::zeroed() };
        publish(&h, true);
        let w = h.cpu.load(Ordering::Relaxed);
        assert_ne!(w & WAITING, 0);
        publish(&h, false);
        let w = h.cpu.load(Ordering::Relaxed);
        assert_eq!(w & WAITING, 0);
        assert_ne!(cpu_of(w), 0, "Linux tells a thread its CPU");
    }
}
