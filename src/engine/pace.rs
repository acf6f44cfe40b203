//! The pace of a wait over a transport that cannot wake (`wait.rs`, `Waiter::poll_with_naps`):
//! between two polls it spins, up to the configured count; an `auto` pace ([`Pace::yielding`])
//! then yields the core through the image's yield gate for up to a window, as the shared
//! memory's `auto` wait does before it sleeps (8 images on 2 cores over MPI reach each other
//! within a few yields: SYNC ALL took 7–16 µs so, 52–55 µs when every wait napped at once; a
//! yield the gate finds slow ends the window); then it naps. With more images than cores
//! (spin budget 0) each nap without news doubles the next, up to [`MAX_POLL_NAP`] (`passive`)
//! or [`MAX_AUTO_NAP`] (`auto`): waiters that woke every 20 µs took the cores from the images
//! they waited for. News (the bell moved) makes the next nap the shortest again and opens the
//! yield window anew; an owner-side call served starts the spins afresh too, since its caller
//! is likely to call again at once (a loop of coindexed references through GCC 15+
//! accessors: an owner that napped between polls made every call wait for its nap,
//! bench/NOTES.md). An endless pace ([`Pace::endless`], FERROCAF_WAIT=active) never naps: it
//! spins, and when the job's images outnumber the cores yields every [`YIELD_EVERY`] steps, as
//! the active wait of a transport that can wake does (16 images on 2 cores under Open MPI with
//! `mpi_yield_when_idle=0` did not finish 2000 SYNC ALLs in 60 s without these yields, 2.6 s
//! with them).

use std::time::{Duration, Instant};

/// One nap of a polling wait: short enough for latency, long enough to leave the core to
/// another image.
pub(super) const POLL_NAP: Duration = Duration::from_micros(20);
/// The longest nap of a `passive` polling wait.
pub(super) const MAX_POLL_NAP: Duration = Duration::from_millis(1);
/// The longest nap of an `auto` polling wait: a nap delays the wait's answer by up to its
/// length, and with 1 ms a 4-image event pipeline over MPI on 2 cores took 2.3–2.7 ms per
/// step against 1.8–2.0 with 100 µs (bench/NOTES.md, branch mpiyield).
pub(super) const MAX_AUTO_NAP: Duration = Duration::from_micros(100);
/// Polls between two `sched_yield` calls of a spinning wait (`wait.rs`; an endless pace's
/// steps when images outnumber the cores).
pub(super) const YIELD_EVERY: u32 = 64;

/// What a polling wait does before its next poll.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Spins once (`spin_loop`).
    Spin,
    /// Yields the core (`sched_yield`).
    Yield,
    /// Yields the core through the image's yield gate; a yield the gate finds slow (or a
    /// closed gate) is reported with [`Pace::slow_yield`].
    GateYield,
    /// Sleeps this long.
    Nap(Duration),
}

/// Where a polling wait stands in its spins and naps.
pub(super) struct Pace {
    /// The spin budget (`FERROCAF_SPIN`).
    spin: u32,
    /// Spins since the wait began or last served a call.
    spins: u32,
    /// The next nap.
    nap: Duration,
    /// The longest nap.
    max_nap: Duration,
    /// Whether the wait spins for good, never napping.
    endless: bool,
    /// Whether an endless wait yields every [`YIELD_EVERY`] steps.
    yields: bool,
    /// How long an `auto` wait yields after its spins before it naps (zero: it naps at once).
    window: Duration,
    /// When the current yield phase ends, once it has begun.
    until: Option<Instant>,
    /// Whether the yield phase is over (its window passed, or a yield was slow) until news.
    yielded: bool,
}

impl Pace {
    /// The pace of a new wait with spin budget `spin`.
    pub(super) fn new(spin: u32) -> Pace {
        Pace {
            spin,
            spins: 0,
            nap: POLL_NAP,
            max_nap: MAX_POLL_NAP,
            endless: false,
            yields: false,
            window: Duration::ZERO,
            until: None,
            yielded: false,
        }
    }

    /// The pace of an `auto` wait: spins up to `spin`, then yields through the gate for up to
    /// `window`, then naps (up to [`MAX_AUTO_NAP`]); news or a served call start the yields
    /// afresh.
    pub(super) fn yielding(spin: u32, window: Duration) -> Pace {
        Pace {
            window,
            max_nap: MAX_AUTO_NAP,
            ..Pace::new(spin)
        }
    }

    /// The pace of a wait that spins until answered, never napping; `shared`: the job's images
    /// outnumber the cores, and it yields every [`YIELD_EVERY`] steps (the awaited image may
    /// need this very core).
    pub(super) fn endless(shared: bool) -> Pace {
        Pace {
            endless: true,
            yields: shared,
            ..Pace::new(0)
        }
    }

    /// The bell moved: yield again, then nap from the shortest nap.
    pub(super) fn news(&mut self) {
        (self.nap, self.until, self.yielded) = (POLL_NAP, None, false);
    }

    /// This image served an owner-side call: spin and yield again, then nap from the shortest.
    pub(super) fn served(&mut self) {
        (self.spins, self.nap, self.until, self.yielded) = (0, POLL_NAP, None, false);
    }

    /// A yield through the gate was slow, or the gate is closed (outside load): nap from now on
    /// until news.
    pub(super) fn slow_yield(&mut self) {
        self.yielded = true;
    }

    /// What to do before the next poll; `now` reads the clock, called only in the yield phase.
    pub(super) fn step(&mut self, now: impl FnOnce() -> Instant) -> Step {
        if self.endless {
            self.spins = self.spins.wrapping_add(1);
            return if self.yields && self.spins.is_multiple_of(YIELD_EVERY) {
                Step::Yield
            } else {
                Step::Spin
            };
        }
        if self.spins < self.spin {
            self.spins += 1;
            return Step::Spin;
        }
        if !self.window.is_zero() && !self.yielded {
            let now = now();
            if now < *self.until.get_or_insert(now + self.window) {
                return Step::GateYield;
            }
            self.yielded = true;
        }
        let nap = self.nap;
        if self.spin == 0 {
            self.nap = (nap * 2).min(self.max_nap);
        }
        Step::Nap(nap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spins_then_naps_the_shortest_nap() {
        let mut p = Pace::new(3);
        assert_eq!(
            [
                p.step(Instant::now),
                p.step(Instant::now),
                p.step(Instant::now)
            ],
            [Step::Spin, Step::Spin, Step::Spin]
        );
        assert_eq!(p.step(Instant::now), Step::Nap(POLL_NAP));
        assert_eq!(p.step(Instant::now), Step::Nap(POLL_NAP));
    }

    #[test]
    fn an_endless_pace_never_naps() {
        let mut p = Pace::endless(false);
        p.news();
        p.served();
        assert!((0..10_000).all(|_| p.step(Instant::now) == Step::Spin));
    }

    #[test]
    fn an_endless_pace_of_an_oversubscribed_job_yields_every_few_steps() {
        let mut p = Pace::endless(true);
        let steps: Vec<_> = (0..10 * YIELD_EVERY)
            .map(|_| p.step(Instant::now))
            .collect();
        let yields = steps.iter().filter(|s| **s == Step::Yield).count();
        assert_eq!(yields, 10);
        assert!(steps.iter().all(|s| matches!(s, Step::Spin | Step::Yield)));
        assert_eq!(steps[YIELD_EVERY as usize - 1], Step::Yield);
    }

    #[test]
    fn a_served_call_spins_again() {
        let mut p = Pace::new(2);
        while p.step(Instant::now) == Step::Spin {}
        p.served();
        assert_eq!(
            [p.step(Instant::now), p.step(Instant::now)],
            [Step::Spin, Step::Spin]
        );
        assert_eq!(p.step(Instant::now), Step::Nap(POLL_NAP));
    }

    #[test]
    fn without_spins_naps_double_to_the_cap_until_news() {
        let mut p = Pace::new(0);
        let naps: Vec<_> = (0..8).map(|_| p.step(Instant::now)).collect();
        assert_eq!(naps[0], Step::Nap(POLL_NAP));
        assert_eq!(naps[1], Step::Nap(2 * POLL_NAP));
        assert_eq!(naps[7], Step::Nap(MAX_POLL_NAP));
        p.news();
        assert_eq!(p.step(Instant::now), Step::Nap(POLL_NAP));
        p.step(Instant::now);
        p.served();
        assert_eq!(p.step(Instant::now), Step::Nap(POLL_NAP));
    }

    #[test]
    fn an_auto_pace_yields_through_the_gate_for_its_window_then_naps() {
        let t0 = Instant::now();
        let w = Duration::from_micros(50);
        let mut p = Pace::yielding(2, w);
        assert_eq!([p.step(|| t0), p.step(|| t0)], [Step::Spin, Step::Spin]);
        assert_eq!(p.step(|| t0), Step::GateYield);
        assert_eq!(p.step(|| t0 + w / 2), Step::GateYield);
        assert_eq!(p.step(|| t0 + w), Step::Nap(POLL_NAP));
        assert_eq!(
            p.step(|| unreachable!("no clock read once the window passed")),
            Step::Nap(POLL_NAP)
        );
        p.news();
        let t1 = t0 + 10 * w;
        assert_eq!(p.step(|| t1), Step::GateYield);
        assert_eq!(p.step(|| t1 + w - Duration::from_nanos(1)), Step::GateYield);
        assert_eq!(p.step(|| t1 + w), Step::Nap(POLL_NAP));
    }

    #[test]
    fn a_slow_yield_ends_the_window_until_news() {
        let t0 = Instant::now();
        let mut p = Pace::yielding(0, Duration::from_micros(50));
        assert_eq!(p.step(|| t0), Step::GateYield);
        p.slow_yield();
        assert_eq!(p.step(|| t0), Step::Nap(POLL_NAP));
        assert_eq!(p.step(|| t0), Step::Nap(2 * POLL_NAP));
        assert!((0..10).all(|_| p.step(|| t0) != Step::Nap(MAX_POLL_NAP)));
        assert_eq!(p.step(|| t0), Step::Nap(MAX_AUTO_NAP));
        p.served();
        assert_eq!(p.step(|| t0), Step::GateYield);
    }

    #[test]
    fn a_passive_pace_never_yields() {
        let mut p = Pace::new(0);
        assert!((0..100).all(|_| matches!(p.step(|| unreachable!()), Step::Nap(_))));
    }
}
