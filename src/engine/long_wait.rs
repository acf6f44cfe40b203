//! Which of this image's waits sleep at once: those whose recent predecessors were long and
//! shared the CPU with another runnable task, as an adaptive mutex decides from how long the
//! lock was held.
//!
//! Beside CPU-bound processes, two images that share a CPU hand it back and forth with
//! `sched_yield`: both stay runnable, and the kernel's load balancer moves one of them beside
//! a burner on the other CPU (bench/NOTES.md, branch apart). A waiter whose partner is busy
//! for long (copying a large message) gains nothing from polling meanwhile, so once its
//! recent waits were long, and their yields ran another task, it sleeps at once; waits
//! answered soon keep polling and yielding (small ping-pongs).

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// A wait at least this long is long: far more than a hand-over by yield or futex (1-10 µs)
/// or a 32 KiB copy; a 256 KiB copy beside a burner takes 20-130 µs, 1 MiB 60-200 µs
/// (bench/NOTES.md, branch longwait: 30 µs made the 32 KiB ping-pong beside burners slower).
const LONG_WAIT: Duration = Duration::from_micros(50);

/// A wait shorter than this is short: about a hand-over by yield or by futex.
const SHORT_WAIT: Duration = Duration::from_micros(10);

/// A yield that kept the image off its CPU at least this long (nanoseconds) ran another task
/// there; on an idle CPU a yield returns in under a microsecond.
const YIELD_RAN: u64 = 3_000;

/// How many long waits in a row make the next one sleep at once: beside CPU-bound processes
/// a few waits of a small ping-pong are long too (a burner's slice), a large copy's all are.
const LONG_RUN: u32 = 8;

/// Polls of a wait that sleeps at once, before it sleeps (about 1.6 µs).
pub const SHORT_POLLS: u32 = 64;

/// One wait's record: when it started to take long, and whether a yield in it ran another
/// task on this CPU.
#[derive(Default)]
pub struct Span {
    /// Whether the wait is recorded at all (no clock read when not).
    on: bool,
    start: Option<Instant>,
    ran: bool,
}

impl Span {
    /// A record of a wait, kept when `on` (the image keeps a [`History`]).
    pub fn new(on: bool) -> Span {
        Span {
            on,
            ..Span::default()
        }
    }

    /// Marks the start of the wait's slow part (the first call counts).
    pub fn begin(&mut self) {
        if self.on && self.start.is_none() {
            self.start = Some(Instant::now());
        }
    }

    /// Notes a yield that took `took` nanoseconds.
    pub fn yielded(&mut self, took: u64) {
        self.ran |= took >= YIELD_RAN;
    }

    /// Marks the wait as one that sleeps at once (its predecessors were long and shared).
    pub fn sleeping(&mut self) {
        self.begin();
        self.ran = true;
    }

    /// How the wait, now ended, went.
    fn length(&self) -> Length {
        match self.start {
            Some(t) if self.ran => {
                let took = t.elapsed();
                if took >= LONG_WAIT {
                    Length::Long
                } else if took >= SHORT_WAIT {
                    Length::Between
                } else {
                    Length::Short
                }
            }
            _ => Length::Short,
        }
    }
}

/// This image's count of long waits in a row.
#[derive(Default)]
pub struct History(AtomicU32);

impl History {
    /// Whether the next wait sleeps at once.
    pub fn sleeps_at_once(&self) -> bool {
        sleeps_at_once(self.0.load(Ordering::Relaxed))
    }

    /// Records the wait of `span`, now ended.
    pub fn record(&self, span: &Span) {
        let n = self.0.load(Ordering::Relaxed);
        self.0.store(next(n, span.length()), Ordering::Relaxed);
    }
}

/// Whether a wait after `n` long waits in a row sleeps at once.
fn sleeps_at_once(n: u32) -> bool {
    n >= LONG_RUN
}

/// How long a wait was, against a hand-over.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Length {
    /// About a hand-over or less, or no other task ran on the CPU meanwhile.
    Short,
    /// Longer than a hand-over, not long.
    Between,
    /// Far longer than a hand-over, with another task running on the CPU.
    Long,
}

/// The count of long waits in a row after `n` and a wait of `length`: a long one adds to it,
/// a short one clears it, one between keeps it.
fn next(n: u32, length: Length) -> u32 {
    match length {
        Length::Long => n.saturating_add(1),
        Length::Between => n,
        Length::Short => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A span whose slow part started `ago` and in which another task ran or not.
    fn span(ago: Duration, ran: bool) -> Span {
        Span {
            on: true,
            start: Instant::now().checked_sub(ago),
            ran,
        }
    }

    #[test]
    fn long_waits_in_a_row_make_the_next_sleep_at_once() {
        let h = History::default();
        for _ in 0..LONG_RUN {
            assert!(!h.sleeps_at_once());
            h.record(&span(2 * LONG_WAIT, true));
        }
        assert!(h.sleeps_at_once());
    }

    #[test]
    fn a_short_wait_brings_back_the_polls_and_one_between_keeps_the_count() {
        let h = History::default();
        for _ in 0..LONG_RUN {
            h.record(&span(2 * LONG_WAIT, true));
        }
        h.record(&span((SHORT_WAIT + LONG_WAIT) / 2, true));
        assert!(h.sleeps_at_once());
        h.record(&span(Duration::ZERO, true));
        assert!(!h.sleeps_at_once());
    }

    #[test]
    fn long_waits_that_ran_nothing_else_on_the_cpu_keep_the_polls() {
        let h = History::default();
        for _ in 0..2 * LONG_RUN {
            h.record(&span(2 * LONG_WAIT, false));
        }
        assert!(!h.sleeps_at_once());
        h.record(&Span::default());
        assert!(!h.sleeps_at_once());
    }

    #[test]
    fn a_yield_counts_as_running_another_task_only_when_it_kept_the_image_off() {
        let mut s = Span::default();
        s.yielded(YIELD_RAN - 1);
        assert!(!s.ran);
        s.yielded(YIELD_RAN);
        assert!(s.ran);
        let mut t = Span::new(true);
        t.sleeping();
        assert!(t.ran && t.start.is_some());
        let mut off = Span::new(false);
        off.sleeping();
        assert!(off.start.is_none());
    }

    #[test]
    fn the_decision_thresholds_order_as_documented() {
        assert!(SHORT_WAIT < LONG_WAIT);
        assert_eq!(next(u32::MAX, Length::Long), u32::MAX);
        assert_eq!(next(3, Length::Between), 3);
        assert_eq!(next(3, Length::Short), 0);
        assert!(!sleeps_at_once(LONG_RUN - 1) && sleeps_at_once(LONG_RUN));
    }
}
