//! Unit tests of a wait's choice between yielding and sleeping (`transport/on_cpu.rs`), over
//! a fake 2-image transport whose headers live in this process.

use super::*;
use crate::transport::on_cpu::this_cpu;
use crate::transport::{AtomicOp, CopyPlan, Full, Notification, Place};

/// Two images' headers in this process; this thread is image 0.
struct Pair {
    headers: [&'static Header; 2],
}

impl Pair {
    fn new() -> &'static Pair {
        // SAFETY: a Header is plain atomics and padding, for which all-zero bytes are valid.
        let h = || -> &'static Header { Box::leak(Box::new(unsafe { std::mem::zeroed() })) };
        Box::leak(Box::new(Pair {
            headers: [h(), h()],
        }))
    }

    /// A waiter of image 0, with a spin budget of 2000 and `shared` as given.
    fn waiter(&'static self, shared: bool) -> Waiter {
        let stats: &'static Stats = Box::leak(Box::new(Stats::new(false)));
        Waiter::new(self.headers[0], None, self, (2000, shared), stats)
    }

    /// A waiter of image 0 whose gate is closed (outside load) for a minute, so that its waits
    /// neither yield nor depend on how fast yields are on this machine.
    fn loaded_waiter(&'static self) -> Waiter {
        let gate: &'static YieldGate = Box::leak(Box::default());
        gate.close();
        Waiter {
            gate,
            ..self.waiter(false)
        }
    }
}

impl Transport for Pair {
    fn num_images(&self) -> usize {
        2
    }
    fn this_image(&self) -> usize {
        0
    }
    fn copy(&self, _: Place, _: Place, _: &CopyPlan) {
        unreachable!("no data moves")
    }
    fn fetch_op(&self, _: usize, _: usize, _: usize, _: AtomicOp, _: u64) -> u64 {
        unreachable!("no remote words")
    }
    fn compare_swap(&self, _: usize, _: usize, _: usize, _: u64, _: u64) -> u64 {
        unreachable!("no remote words")
    }
    fn fence(&self) {}
    fn ring(&self, _: usize) {}
    fn direct(&self, image: usize, offset: usize) -> Option<usize> {
        Some(self.headers[image] as *const Header as usize + offset)
    }
    fn notify(&self, _: usize, _: &Notification) -> Result<(), Full> {
        unreachable!("no notifications")
    }
    fn drain(&self, _: &mut dyn FnMut(Notification)) {}
}

/// Whether some of many tries of `f`, each right after image 1 was published running on
/// this thread's CPU (the thread may move in between), returns true.
fn with_partner_here(pair: &Pair, f: impl Fn() -> bool) -> bool {
    (0..100).any(|_| {
        pair.headers[1].cpu.store(this_cpu(), Ordering::Relaxed);
        f()
    })
}

/// How many polls a wait made before its first poll as a sleeper ([`Waiter::parking`]),
/// answering at that poll or at the 300th.
fn polls_before_parking(w: &Waiter) -> u32 {
    let mut n = 0;
    w.block(|| {
        n += 1;
        (w.parking() || n == 300).then_some(Ok(()))
    })
    .unwrap();
    n
}

#[test]
fn a_partner_awake_on_this_cpu_makes_the_wait_sleep_instead_of_yielding() {
    let pair = Pair::new();
    let w = pair.waiter(false);
    assert!(with_partner_here(pair, || w.queued_here()));
    assert!(
        with_partner_here(pair, || polls_before_parking(&w) <= YIELD_EVERY + 1),
        "sleeps at its first yield"
    );
    let w = pair.loaded_waiter();
    assert!(
        with_partner_here(pair, || polls_before_parking(&w) == 1),
        "under outside load, sleeps without spinning"
    );
}

#[test]
fn a_sleeping_partner_or_one_on_another_cpu_is_yielded_to() {
    let pair = Pair::new();
    let w = pair.waiter(false);
    let partner = pair.headers[1];
    partner.sleepers.store(1, Ordering::Relaxed);
    assert!(!with_partner_here(pair, || w.queued_here()), "asleep");
    partner.sleepers.store(0, Ordering::Relaxed);
    partner.cpu.store(this_cpu() + 1, Ordering::Relaxed);
    assert!(!w.queued_here(), "another CPU");
    partner.cpu.store(0, Ordering::Relaxed);
    assert!(!w.queued_here(), "not known yet");
    let w = pair.loaded_waiter();
    assert_eq!(
        polls_before_parking(&w),
        LOADED_SPIN + 2,
        "under outside load, spins before it sleeps"
    );
}

#[test]
fn with_images_outnumbering_the_cores_waits_yield_to_partners_on_their_cpu() {
    let pair = Pair::new();
    let w = pair.waiter(true);
    assert!(!with_partner_here(pair, || w.queued_here()));
}

#[test]
fn a_wait_publishes_its_cpu() {
    for shared in [false, true] {
        let pair = Pair::new();
        let w = pair.waiter(shared);
        let mut during = 0;
        w.block(|| {
            during = pair.headers[0].cpu.load(Ordering::Relaxed);
            Some(Ok(()))
        })
        .unwrap();
        assert_ne!(during, 0, "Linux tells a thread its CPU");
        assert_ne!(pair.headers[0].cpu.load(Ordering::Relaxed), 0);
    }
}
