//! How long a wait polls before it sleeps while the machine has outside load.
//!
//! Beside CPU-bound processes a poll that fails is not free: the image uses up its share of
//! the core, so the scheduler ranks it behind its neighbours and its next futex wake-up is
//! less likely to preempt them. Yet when the awaited image runs at the same time on another
//! core, a few polls catch its answer without a sleep and a wake-up. So the budget adapts, as
//! glibc's adaptive mutexes do: a wait answered while polling doubles it (up to the cap), one
//! that had to sleep halves it, down to [`FLOOR`] polls, which keep probing for a partner that
//! runs. (Measured alone against a fixed 256 polls, on a machine loaded well beyond the 2
//! CPU-bound processes, the two were not distinguishable: bench/NOTES.md.)

use std::sync::atomic::{AtomicU32, Ordering};

/// The fewest polls before sleeping: well under a microsecond, and enough to notice that
/// polling pays again.
pub const FLOOR: u32 = 8;

/// The polling budget of this image's waits under outside load.
pub struct SpinBudget {
    polls: AtomicU32,
}

impl SpinBudget {
    /// A budget starting at [`FLOOR`] polls (load has just been detected: polling failed).
    pub fn new() -> SpinBudget {
        SpinBudget {
            polls: AtomicU32::new(FLOOR),
        }
    }

    /// The polls the next wait may make, at most `cap` (the configured spin count).
    pub fn polls(&self, cap: u32) -> u32 {
        self.polls.load(Ordering::Relaxed).min(cap)
    }

    /// Records a wait answered while polling: the next may poll twice as long, up to `cap`.
    pub fn hit(&self, cap: u32) {
        let p = self.polls.load(Ordering::Relaxed);
        self.polls
            .store(p.saturating_mul(2).min(cap.max(FLOOR)), Ordering::Relaxed);
    }

    /// Records a wait that had to sleep: the next polls half as long, not below [`FLOOR`].
    pub fn miss(&self) {
        let p = self.polls.load(Ordering::Relaxed);
        self.polls.store((p / 2).max(FLOOR), Ordering::Relaxed);
    }
}

impl Default for SpinBudget {
    fn default() -> Self {
        SpinBudget::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hits_double_the_budget_up_to_the_cap() {
        let b = SpinBudget::new();
        for _ in 0..20 {
            b.hit(256);
        }
        assert_eq!(b.polls(1000), 256);
        assert_eq!(b.polls(100), 100, "the configured spin count bounds it");
    }

    #[test]
    fn misses_halve_it_down_to_the_floor() {
        let b = SpinBudget::new();
        for _ in 0..5 {
            b.hit(256);
        }
        assert_eq!(b.polls(256), 256);
        b.miss();
        assert_eq!(b.polls(256), 128);
        for _ in 0..20 {
            b.miss();
        }
        assert_eq!(b.polls(256), FLOOR);
    }

    #[test]
    fn a_zero_spin_count_means_no_polls() {
        let b = SpinBudget::new();
        b.hit(0);
        assert_eq!(b.polls(0), 0);
    }
}
