//! How the shim's waits for this image's own operations (`ff_wait` in `shim.c`, and a post the
//! provider refused for now) pause between empty polls: they poll at once [`SPINS`] times,
//! then yield the processor through the image's [`YieldGate`] until poll [`YIELDS`], then nap
//! [`NAP`] before each poll. A yield that the gate refused or that proved slow ends the
//! yielding of that wait: beside CPU-bound processes a yield hands the core to one of them for
//! its slice, while a napper is woken by its timer with preemption. Over the shm provider an
//! owner-side call's owner waits here for its reply's delivery, which needs its caller to run:
//! its ungated yields were most of the 1.4 ms such a call cost beside 2 CPU-bound processes
//! (bench/NOTES.md, branch fabshm). The slow yields counted here close the gate for the image's
//! other waits too.

use crate::transport::yield_gate::{self, YieldGate};
use std::ffi::c_uint;
use std::time::Duration;

/// Empty polls before a wait yields.
const SPINS: c_uint = 64;
/// Empty polls before a wait naps (if its yields stayed fast).
const YIELDS: c_uint = 1024;
/// The nap between two polls once a wait stopped yielding.
const NAP: Duration = Duration::from_micros(20);

/// What a wait did before its next poll.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    /// Nothing: it polls again at once.
    Poll,
    /// Yielded the core, and it came back fast.
    Yielded,
    /// Naps [`NAP`].
    Nap,
}

/// Pauses a wait of the shim after `*idle` empty polls, and counts this one.
pub(super) extern "C" fn pause(idle: *mut c_uint) {
    // SAFETY: the shim passes the counter of its running wait, a live local of this thread.
    let idle = unsafe { &mut *idle };
    if step(idle, yield_gate::image()) == Step::Nap {
        std::thread::sleep(NAP);
    }
}

/// The pause after `*idle` empty polls, yielding through `gate` when it is a yield; counts
/// this poll, and skips the rest of the yields when the gate refused or the yield was slow.
fn step(idle: &mut c_uint, gate: &YieldGate) -> Step {
    *idle = idle.saturating_add(1);
    if *idle < SPINS {
        return Step::Poll;
    }
    if *idle < YIELDS {
        if gate.yield_now() {
            return Step::Yielded;
        }
        *idle = YIELDS;
    }
    Step::Nap
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polls_then_yields_while_the_gate_is_open_then_naps() {
        let (gate, mut idle) = (YieldGate::new(false), 0);
        let steps: Vec<_> = (0..YIELDS + 1).map(|_| step(&mut idle, &gate)).collect();
        assert!(steps[..SPINS as usize - 1].iter().all(|s| *s == Step::Poll));
        // A yield of this test's thread may be slow on a loaded machine: then naps start early.
        let rest = &steps[SPINS as usize - 1..];
        let yields = rest.iter().take_while(|s| **s == Step::Yielded).count();
        assert!(yields < (YIELDS - SPINS + 1) as usize);
        assert!(rest[yields..].iter().all(|s| *s == Step::Nap));
    }

    #[test]
    fn a_closed_gate_makes_the_wait_nap_for_good_once_it_would_yield() {
        let (gate, mut idle) = (YieldGate::new(false), SPINS - 1);
        gate.close();
        assert_eq!(step(&mut idle, &gate), Step::Nap);
        assert_eq!(idle, YIELDS);
        let open = YieldGate::new(false);
        assert_eq!(step(&mut idle, &open), Step::Nap);
    }
}
