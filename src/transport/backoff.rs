//! The pause between two polls of a wait that cannot sleep until woken and has nothing of its
//! own to spin on: an owner-side call's caller waiting for its reply (`carrier::call`), an MPI
//! get waiting for its request (`mpi::complete`). It yields the core, through the image's
//! [`YieldGate`], while that pays: a yield that proved slow (a CPU-bound process beside the
//! job took the core for its slice, about 1.4 ms) or a gate closed by earlier slow yields ends
//! the yielding of this wait, which then naps, [`FIRST_NAP`] doubling to [`LONGEST_NAP`]. A
//! napper is woken by its timer with preemption, a yielder waits for the neighbour's slice to
//! end; and the slow yields counted here close the gate for the image's other waits too.

use super::yield_gate::{self, YieldGate};
use std::time::Duration;

/// The first nap once yielding stopped.
const FIRST_NAP: Duration = Duration::from_micros(20);
/// The longest nap.
const LONGEST_NAP: Duration = Duration::from_millis(1);

/// What a wait did before its next poll.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    /// Yielded the core, and it came back fast.
    Yielded,
    /// Naps this long.
    Nap(Duration),
}

/// Where a wait stands in its yields and naps.
pub(crate) struct Backoff {
    /// Yields left before the wait naps.
    yields: u32,
    /// The next nap.
    nap: Duration,
}

impl Backoff {
    /// A new wait that yields at most `yields` times before it naps.
    pub(crate) fn new(yields: u32) -> Backoff {
        Backoff {
            yields,
            nap: FIRST_NAP,
        }
    }

    /// Waits once before the next poll: yields through this image's gate, or naps.
    pub(crate) fn pause(&mut self) {
        if let Step::Nap(nap) = self.step(yield_gate::image()) {
            std::thread::sleep(nap);
        }
    }

    /// Yields once through `gate` if this wait still yields; otherwise (or when the gate
    /// refused, or the yield was slow) returns the nap to take and doubles the next.
    fn step(&mut self, gate: &YieldGate) -> Step {
        if self.yields > 0 {
            if gate.yield_now() {
                self.yields -= 1;
                return Step::Yielded;
            }
            self.yields = 0;
        }
        let nap = self.nap;
        self.nap = (nap * 2).min(LONGEST_NAP);
        Step::Nap(nap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_gate_yields_the_budget_then_naps_doubling_to_the_cap() {
        let (gate, mut b) = (YieldGate::new(false), Backoff::new(3));
        let steps: Vec<_> = (0..10).map(|_| b.step(&gate)).collect();
        // A yield of this test's thread may be slow on a loaded machine: then naps start early.
        let yields = steps.iter().take_while(|s| **s == Step::Yielded).count();
        assert!(yields <= 3);
        let naps = &steps[yields..];
        assert_eq!(naps[0], Step::Nap(FIRST_NAP));
        assert_eq!(naps[1], Step::Nap(2 * FIRST_NAP));
        assert_eq!(naps[naps.len() - 1], Step::Nap(LONGEST_NAP));
    }

    #[test]
    fn a_closed_gate_makes_the_wait_nap_at_once_and_for_good() {
        let (gate, mut b) = (YieldGate::new(false), Backoff::new(u32::MAX));
        gate.close();
        assert_eq!(b.step(&gate), Step::Nap(FIRST_NAP));
        assert_eq!(b.yields, 0);
        let reopened = YieldGate::new(false);
        assert_eq!(b.step(&reopened), Step::Nap(2 * FIRST_NAP));
    }
}
