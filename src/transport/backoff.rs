//! The pause between two polls of a wait that cannot sleep until woken and has nothing of its
//! own to spin on: an owner-side call's caller waiting for its reply (`carrier::call`), an MPI
//! get waiting for its request (`mpi::complete`), the fabric shim waiting for this image's own
//! operations (`fabric/pause.rs`). Each use names a [`Schedule`], counted in empty polls: a
//! first stretch of polls that do not pause, then yields of the core through the image's
//! [`YieldGate`] while they pay, then naps from a first length doubling to a longest.
//!
//! A yield that proved slow (a CPU-bound process beside the job took the core for its slice,
//! about 1.4 ms) or a gate closed by earlier slow yields ends the yielding of that wait, which
//! naps from then on: a napper is woken by its timer with preemption, a yielder waits for the
//! neighbour's slice to end; and the slow yields counted here close the gate for the image's
//! other waits too.

use super::yield_gate::{self, YieldGate};
use std::time::Duration;

/// When a wait pauses and how, by the count of its empty polls.
#[derive(Debug)]
pub(crate) struct Schedule {
    /// Empty polls that do not pause.
    polls: u32,
    /// Empty polls after those that yield, while the yields come back fast.
    yields: u32,
    /// The first nap once yielding stopped.
    first_nap: Duration,
    /// The longest nap: naps double from the first up to it.
    longest_nap: Duration,
}

/// What a wait did before its next poll.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    /// Nothing: it polls again at once.
    Poll,
    /// Yielded the core, and it came back fast.
    Yielded,
    /// Naps this long.
    Nap(Duration),
}

/// Yields that, at any speed of a fast yield, last longer than any wait: a schedule with this
/// many yields yields for as long as its yields stay fast.
pub(crate) const YIELDS_WHILE_FAST: u32 = u32::MAX / 2;

impl Schedule {
    /// A schedule of `polls` polls without a pause, then at most `yields` yields (fewer than
    /// [`YIELDS_WHILE_FAST`] + 1), then naps from `first_nap` doubling to `longest_nap`.
    pub(crate) const fn new(
        polls: u32,
        yields: u32,
        first_nap: Duration,
        longest_nap: Duration,
    ) -> Schedule {
        assert!(polls <= u32::MAX / 4 && yields <= YIELDS_WHILE_FAST);
        Schedule {
            polls,
            yields,
            first_nap,
            longest_nap,
        }
    }

    /// Pauses a wait after `*idle` empty polls (0 for a new wait) and counts this one: polls
    /// on, yields through this image's gate, or naps.
    pub(crate) fn pause(&self, idle: &mut u32) {
        if let Step::Nap(nap) = self.step(idle, yield_gate::image()) {
            std::thread::sleep(nap);
        }
    }

    /// Counts an empty poll in `*idle` and yields through `gate` if it is a yield; returns
    /// what to do before the next poll. A yield that the gate refused or that was slow moves
    /// the count to the first nap.
    fn step(&self, idle: &mut u32, gate: &YieldGate) -> Step {
        *idle = idle.saturating_add(1);
        if *idle <= self.polls {
            return Step::Poll;
        }
        let naps_from = self.polls + self.yields;
        if *idle <= naps_from {
            if gate.yield_now() {
                return Step::Yielded;
            }
            *idle = naps_from + 1;
        }
        let doublings = (*idle - naps_from - 1).min(16);
        Step::Nap((self.first_nap * (1 << doublings)).min(self.longest_nap))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAP: Duration = Duration::from_micros(20);

    /// The steps of `n` pauses of a new wait under `s` through `gate`.
    fn steps(s: &Schedule, gate: &YieldGate, n: usize) -> Vec<Step> {
        let mut idle = 0;
        (0..n).map(|_| s.step(&mut idle, gate)).collect()
    }

    #[test]
    fn polls_then_yields_while_the_gate_is_open_then_naps_doubling_to_the_cap() {
        let s = Schedule::new(5, 3, NAP, 8 * NAP);
        let got = steps(&s, &YieldGate::new(false), 14);
        assert!(got[..5].iter().all(|x| *x == Step::Poll));
        // A yield of this test's thread may be slow on a loaded machine: then naps start early.
        let yields = got[5..].iter().take_while(|x| **x == Step::Yielded).count();
        assert!(yields <= 3);
        let naps: Vec<_> = got[5 + yields..].iter().take(5).collect();
        let want = [NAP, 2 * NAP, 4 * NAP, 8 * NAP, 8 * NAP].map(Step::Nap);
        assert_eq!(naps, want.iter().collect::<Vec<_>>());
    }

    #[test]
    fn a_closed_gate_makes_the_wait_nap_once_it_would_yield_and_for_good() {
        let s = Schedule::new(2, YIELDS_WHILE_FAST, NAP, NAP * 4);
        let closed = YieldGate::new(false);
        closed.shut();
        let got = steps(&s, &closed, 4);
        assert_eq!(got[..2], [Step::Poll, Step::Poll]);
        assert_eq!(got[2..], [Step::Nap(NAP), Step::Nap(2 * NAP)]);
        let mut idle = 3;
        s.step(&mut idle, &closed);
        assert_eq!(
            s.step(&mut idle, &YieldGate::new(false)),
            Step::Nap(2 * NAP)
        );
    }

    #[test]
    fn a_constant_nap_and_a_count_that_saturates_stay_put() {
        let s = Schedule::new(0, 0, NAP, NAP);
        let mut idle = u32::MAX - 1;
        let gate = YieldGate::new(false);
        assert_eq!(s.step(&mut idle, &gate), Step::Nap(NAP));
        assert_eq!(s.step(&mut idle, &gate), Step::Nap(NAP));
        assert_eq!(idle, u32::MAX);
    }
}
