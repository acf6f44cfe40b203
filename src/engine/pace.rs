//! The pace of a wait over a transport that cannot wake (`wait.rs`, `Waiter::poll_with_naps`):
//! between two polls it spins, up to the configured count, then naps. With more images than
//! cores (spin budget 0) each nap without news doubles the next, up to [`MAX_POLL_NAP`]:
//! waiters that woke every 20 µs took the cores from the images they waited for. News (the
//! bell moved) makes the next nap the shortest again; an owner-side call served starts the
//! spins afresh too, since its caller is likely to call again at once (a loop of coindexed
//! references through GCC 15+ accessors: an owner that napped between polls made every call
//! wait for its nap, bench/NOTES.md). An endless pace ([`Pace::endless`], FERROCAF_WAIT=active)
//! never naps: it spins, and when the job's images outnumber the cores yields every
//! [`YIELD_EVERY`] steps, as the active wait of a transport that can wake does (16 images on 2
//! cores under Open MPI with `mpi_yield_when_idle=0` did not finish 2000 SYNC ALLs in 60 s
//! without these yields, 2.6 s with them).

use std::time::Duration;

/// One nap of a polling wait: short enough for latency, long enough to leave the core to
/// another image.
pub(super) const POLL_NAP: Duration = Duration::from_micros(20);
/// The longest nap of a polling wait.
pub(super) const MAX_POLL_NAP: Duration = Duration::from_millis(1);
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
    /// Whether the wait spins for good, never napping.
    endless: bool,
    /// Whether an endless wait yields every [`YIELD_EVERY`] steps.
    yields: bool,
}

impl Pace {
    /// The pace of a new wait with spin budget `spin`.
    pub(super) fn new(spin: u32) -> Pace {
        Pace {
            spin,
            spins: 0,
            nap: POLL_NAP,
            endless: false,
            yields: false,
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

    /// The bell moved: the next nap is the shortest.
    pub(super) fn news(&mut self) {
        self.nap = POLL_NAP;
    }

    /// This image served an owner-side call: spin again, then nap from the shortest.
    pub(super) fn served(&mut self) {
        (self.spins, self.nap) = (0, POLL_NAP);
    }

    /// What to do before the next poll.
    pub(super) fn step(&mut self) -> Step {
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
        let nap = self.nap;
        if self.spin == 0 {
            self.nap = (nap * 2).min(MAX_POLL_NAP);
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
            [p.step(), p.step(), p.step()],
            [Step::Spin, Step::Spin, Step::Spin]
        );
        assert_eq!(p.step(), Step::Nap(POLL_NAP));
        assert_eq!(p.step(), Step::Nap(POLL_NAP));
    }

    #[test]
    fn an_endless_pace_never_naps() {
        let mut p = Pace::endless(false);
        p.news();
        p.served();
        assert!((0..10_000).all(|_| p.step() == Step::Spin));
    }

    #[test]
    fn an_endless_pace_of_an_oversubscribed_job_yields_every_few_steps() {
        let mut p = Pace::endless(true);
        let steps: Vec<_> = (0..10 * YIELD_EVERY).map(|_| p.step()).collect();
        let yields = steps.iter().filter(|s| **s == Step::Yield).count();
        assert_eq!(yields, 10);
        assert!(steps.iter().all(|s| matches!(s, Step::Spin | Step::Yield)));
        assert_eq!(steps[YIELD_EVERY as usize - 1], Step::Yield);
    }

    #[test]
    fn a_served_call_spins_again() {
        let mut p = Pace::new(2);
        while p.step() == Step::Spin {}
        p.served();
        assert_eq!([p.step(), p.step()], [Step::Spin, Step::Spin]);
        assert_eq!(p.step(), Step::Nap(POLL_NAP));
    }

    #[test]
    fn without_spins_naps_double_to_the_cap_until_news() {
        let mut p = Pace::new(0);
        let naps: Vec<_> = (0..8).map(|_| p.step()).collect();
        assert_eq!(naps[0], Step::Nap(POLL_NAP));
        assert_eq!(naps[1], Step::Nap(2 * POLL_NAP));
        assert_eq!(naps[7], Step::Nap(MAX_POLL_NAP));
        p.news();
        assert_eq!(p.step(), Step::Nap(POLL_NAP));
        p.step();
        p.served();
        assert_eq!(p.step(), Step::Nap(POLL_NAP));
    }
}
