//! Where each image runs: one word in its header ([`Header::cpu`]), 1 + the CPU it was on when
//! it last started or ended a blocking wait (0: not known). Stored only when it changed, and
//! read by other images only when they are about to yield (and by large puts,
//! `shm/stream.rs`), so the line is not one that others poll.
//!
//! A wait about to hand its CPU over with `sched_yield` asks [`runnable_beside`] whether
//! another image last ran on the CPU it runs on and is not asleep on its doorbell: that image
//! is then queued behind it (two images of a job with a core each share one CPU only beside
//! outside load), and the wait sleeps instead. Handing the CPU back and forth by yields would
//! keep both images runnable there, which the kernel's load balancer reads as the busier CPU
//! and splits the pair, each then beside a CPU-bound process (bench/NOTES.md, branches apart
//! and cpuside).

use crate::transport::control::Header;
use std::sync::atomic::Ordering;

/// 1 + the CPU this thread runs on (0 when the kernel does not say). glibc reads it from the
/// thread's rseq area where the kernel registered one, else through the vDSO's `getcpu`.
pub fn this_cpu() -> u32 {
    // SAFETY: no arguments, no memory handed over; returns -1 on failure.
    let c = unsafe { libc::sched_getcpu() };
    u32::try_from(c).map_or(0, |c| c.wrapping_add(1))
}

/// Records in this image's `header` the CPU it runs on (a blocking wait starts or ends).
/// Stores only when it changed, so the line stays shared with the images that read it.
pub fn publish(header: &Header) {
    let c = this_cpu();
    if header.cpu.load(Ordering::Relaxed) != c {
        header.cpu.store(c, Ordering::Relaxed);
    }
}

/// Whether one of `peers`, each an image's `(cpu word, sleepers)` ([`Header::cpu`],
/// [`Header::sleepers`]), last ran on `cpu` (1 + the CPU of the image asking; 0, unknown,
/// never matches) and is not asleep on its doorbell: it is then runnable on that CPU.
pub fn runnable_beside(cpu: u32, peers: impl IntoIterator<Item = (u32, u32)>) -> bool {
    cpu != 0
        && peers
            .into_iter()
            .any(|(w, sleepers)| w == cpu && sleepers == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_awake_peer_on_this_cpu_is_runnable_beside_it() {
        assert!(runnable_beside(3, [(1, 0), (3, 0)]));
    }

    #[test]
    fn a_sleeping_peer_or_one_on_another_cpu_is_not() {
        assert!(!runnable_beside(3, [(3, 1), (2, 0)]));
        assert!(!runnable_beside(3, []));
    }

    #[test]
    fn an_unknown_cpu_never_matches() {
        assert!(!runnable_beside(0, [(0, 0)]));
        assert!(!runnable_beside(2, [(0, 0)]));
    }

    #[test]
    fn publish_records_this_cpu() {
        // SAFETY: a Header is plain atomics and padding, for which all-zero bytes are valid.
        let h: Header = unsafe { std::mem::zeroed() };
        publish(&h);
        assert_ne!(
            h.cpu.load(Ordering::Relaxed),
            0,
            "Linux tells a thread its CPU"
        );
        let seen = (0..100).any(|_| {
            publish(&h);
            h.cpu.load(Ordering::Relaxed) == this_cpu()
        });
        assert!(
            seen,
            "the thread may move in between: one of many tries sees it stay"
        );
    }
}
