//! Whether handing the core over with `sched_yield` pays on this machine right now.
//!
//! A yield is cheap when the only other runnable processes are images of this job that poll
//! briefly (more images than CPUs on an idle machine): the core comes back within
//! microseconds. With CPU-bound processes beside the job (outside load), the scheduler may
//! give the core to one of them for its whole slice (about 1.6 ms per wait measured under
//! CFS/EEVDF), while a futex sleeper is woken with preemption as soon as a poster rings. So a
//! wait times its yields and the gate keeps an account in time: a yield that kept the image
//! off the core for longer than `SLOW_YIELD` ends that wait's polling (it sleeps) and adds
//! the time it took; a fast one takes off what it saved: about a futex sleep and wake-up
//! (`FAST_CREDIT`) when each image has a core, half a slice (`FAST_CREDIT_SHARED`) when
//! images outnumber the cores and yields are how they take turns. When the account reaches
//! `CLOSE_AT` (yields lost more than they saved), the gate closes: waits no longer yield
//! (the engine's poll a few hundred times, then sleep; the transports' nap), for a pause that
//! doubles (from `PAUSE_MIN` up to `PAUSE_MAX`) while the probes after each pause are slow
//! again. With a core per image, the count this replaced (+2 per
//! slow yield, −1 per fast one) kept the gate open while fast yields came between slices lost
//! to a CPU-bound neighbour.
//!
//! The gate sees only load in the job's own session: with the kernel's autogroups (on by
//! default) each session is a scheduling group, and a yield hands the CPU only to tasks of
//! the yielder's group; beside a CPU-bound process of another session a yield returns in
//! about a microsecond, and only the rare yield that meets the end of the group's share is
//! slow (bench/NOTES.md, "strided_put at 2 images beside 2 burners").
//!
//! One gate per image ([`image`]): the engine's waits (`engine/wait.rs`) and the transports'
//! waits that cannot sleep until woken (`backoff.rs`: an owner-side call's caller, an MPI get)
//! all yield through it, so each learns of the outside load the others met. Under
//! FERROCAF_WAIT=passive the image shuts its gate for good ([`YieldGate::shut`]): those waits
//! nap instead of yielding.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A yield that took longer than this handed the core to a process that ran on.
const SLOW_YIELD: Duration = Duration::from_micros(100);
/// What a fast yield saved when each image has a core: about a futex sleep and wake-up
/// (nanoseconds).
const FAST_CREDIT: u64 = 5_000;
/// What a fast yield saved when images outnumber cores (nanoseconds): it ran another image of
/// the job, which is how such a job progresses, while a sleeper waits for a wake-up among all
/// the machine's processes (SYNC ALL at 8 images on 2 cores, among other jobs: 80 µs with
/// yields, 2 ms once the gate closed with [`FAST_CREDIT`]). Half a slow yield, as the count
/// this account replaced (+2 per slow yield, −1 per fast one).
const FAST_CREDIT_SHARED: u64 = 700_000;
/// The account (nanoseconds lost in slow yields, less the credits) at which the gate closes.
const CLOSE_AT: u64 = 2_000_000;
/// The first pause of yielding after the gate closed.
const PAUSE_MIN: Duration = Duration::from_millis(10);
/// The longest pause: a probe (one slow yield, about one time slice) per pause costs at most
/// a fraction of a percent, and the machine is re-checked this often once the load is gone.
const PAUSE_MAX: Duration = Duration::from_secs(1);

/// This image's record of how its recent yields went.
pub struct YieldGate {
    epoch: Instant,
    /// Nanoseconds after `epoch` until which waits sleep at once (0: yielding is fine).
    closed_until: AtomicU64,
    /// The current pause, in nanoseconds.
    pause: AtomicU64,
    /// Nanoseconds lost in slow yields less `credit` per fast one (not below 0).
    score: AtomicU64,
    /// What a fast yield takes off the account ([`FAST_CREDIT`] or [`FAST_CREDIT_SHARED`]).
    credit: AtomicU64,
}

/// This image's gate.
static IMAGE: OnceLock<YieldGate> = OnceLock::new();

/// This image's gate, open and for a job with a core per image until [`YieldGate::set_shared`].
pub fn image() -> &'static YieldGate {
    IMAGE.get_or_init(YieldGate::default)
}

impl YieldGate {
    /// A gate that is open (yields allowed) until yields prove slow, for an image of a job
    /// whose images outnumber the cores (`shared`) or not.
    pub fn new(shared: bool) -> YieldGate {
        YieldGate {
            credit: AtomicU64::new(credit(shared)),
            epoch: Instant::now(),
            closed_until: AtomicU64::new(0),
            pause: AtomicU64::new(PAUSE_MIN.as_nanos() as u64),
            score: AtomicU64::new(0),
        }
    }

    /// Tells the gate whether the job's images outnumber the cores ([`YieldGate::new`]).
    pub fn set_shared(&self, shared: bool) {
        self.credit.store(credit(shared), Ordering::Relaxed);
    }

    fn now(&self) -> u64 {
        self.epoch.elapsed().as_nanos() as u64
    }

    /// Whether waits may spin and yield (false: the machine is oversubscribed, sleep at once).
    pub fn open(&self) -> bool {
        let until = self.closed_until.load(Ordering::Relaxed);
        until == 0 || self.now() >= until
    }

    /// Yields the core once if the gate is open, timing the yield; returns false (without
    /// yielding) when the gate is closed or this yield closed it.
    pub fn yield_now(&self) -> bool {
        self.yield_timed().is_some()
    }

    /// [`YieldGate::yield_now`] that returns how long a fast yield kept the image off the core
    /// (nanoseconds), `None` when the gate is closed or this yield closed it.
    pub fn yield_timed(&self) -> Option<u64> {
        if !self.open() {
            return None;
        }
        let t0 = self.now();
        std::thread::yield_now();
        let t1 = self.now();
        self.record(t0, t1).then_some(t1 - t0)
    }

    /// Closes the gate for the life of the image (FERROCAF_WAIT=passive): no wait yields
    /// through it again, so none can reopen it.
    pub fn shut(&self) {
        self.closed_until.store(u64::MAX, Ordering::Relaxed);
    }

    /// Records a yield from `t0` to `t1` (nanoseconds after the epoch); returns whether it
    /// was fast. A fast one lowers the account, and reopens the gate for good after a pause
    /// and resets the pause; a slow one adds its time, and at [`CLOSE_AT`] closes the gate for
    /// the pause and doubles the next.
    fn record(&self, t0: u64, t1: u64) -> bool {
        let score = self.score.load(Ordering::Relaxed);
        let took = t1 - t0;
        if took <= SLOW_YIELD.as_nanos() as u64 {
            self.score.store(
                score.saturating_sub(self.credit.load(Ordering::Relaxed)),
                Ordering::Relaxed,
            );
            if self.closed_until.load(Ordering::Relaxed) != 0 {
                self.closed_until.store(0, Ordering::Relaxed);
                self.pause
                    .store(PAUSE_MIN.as_nanos() as u64, Ordering::Relaxed);
            }
            return true;
        }
        if score + took < CLOSE_AT {
            self.score.store(score + took, Ordering::Relaxed);
            return false;
        }
        self.score.store(0, Ordering::Relaxed);
        let pause = self.pause.load(Ordering::Relaxed);
        self.closed_until.store(t1 + pause, Ordering::Relaxed);
        let next = (pause * 2).min(PAUSE_MAX.as_nanos() as u64);
        self.pause.store(next, Ordering::Relaxed);
        false
    }
}

/// What a fast yield takes off the account of a gate for a job whose images outnumber the
/// cores (`shared`) or not.
fn credit(shared: bool) -> u64 {
    if shared {
        FAST_CREDIT_SHARED
    } else {
        FAST_CREDIT
    }
}

impl Default for YieldGate {
    fn default() -> Self {
        YieldGate::new(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn many_fast_yields_outweigh_an_occasional_slow_one() {
        let g = YieldGate::new(false);
        for _ in 0..10 {
            assert!(!g.record(0, MS));
            for _ in 0..MS / FAST_CREDIT {
                assert!(g.record(0, 0));
            }
        }
        assert!(g.open());
    }

    #[test]
    fn a_few_fast_yields_do_not_outweigh_lost_slices() {
        let (g, slice) = (YieldGate::new(false), 3 * MS / 2);
        assert!(!g.record(0, slice));
        assert!(g.record(0, 0) && g.record(0, 0) && g.record(0, 0));
        assert_eq!(g.closed_until.load(Ordering::Relaxed), 0);
        assert!(!g.record(0, slice));
        assert_eq!(
            g.closed_until.load(Ordering::Relaxed),
            slice + PAUSE_MIN.as_nanos() as u64
        );
    }

    #[test]
    fn with_images_outnumbering_the_cores_a_few_fast_yields_outweigh_a_lost_slice() {
        let g = YieldGate::new(false);
        g.set_shared(true);
        for _ in 0..10 {
            assert!(!g.record(0, 3 * MS / 2));
            assert!(g.record(0, 0) && g.record(0, 0) && g.record(0, 0));
        }
        assert_eq!(g.closed_until.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn a_fresh_gate_is_open() {
        assert!(YieldGate::new(false).open());
    }

    #[test]
    fn slow_yields_close_the_gate_for_doubling_pauses_and_a_fast_one_resets() {
        let g = YieldGate::new(false);
        assert!(g.record(0, MS / 100));
        assert!(!g.record(0, MS));
        assert!(g.open(), "one slow yield does not close the gate");
        assert!(!g.record(0, MS));
        assert_eq!(g.closed_until.load(Ordering::Relaxed), MS + 10 * MS);
        assert!(!g.record(20 * MS, 21 * MS));
        assert!(!g.record(20 * MS, 21 * MS));
        assert_eq!(g.closed_until.load(Ordering::Relaxed), 21 * MS + 20 * MS);
        for _ in 0..40 {
            g.record(0, MS);
        }
        assert_eq!(g.pause.load(Ordering::Relaxed), PAUSE_MAX.as_nanos() as u64);
        assert!(g.record(0, 0));
        assert_eq!(g.closed_until.load(Ordering::Relaxed), 0);
        assert_eq!(g.pause.load(Ordering::Relaxed), PAUSE_MIN.as_nanos() as u64);
    }

    #[test]
    fn a_closed_gate_refuses_to_yield_and_reopens_after_its_pause() {
        let g = YieldGate::new(false);
        g.shut();
        assert!(!g.open());
        assert!(!g.yield_now());
        g.closed_until.store(1, Ordering::Relaxed);
        assert!(g.open());
    }
}
