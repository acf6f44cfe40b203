//! The doorbell protocol that lets a waiter sleep without missing a wake-up: a waiter announces
//! itself (`sleepers += 1`), reads the bell's sequence, re-checks its condition, and only then
//! sleeps while the sequence is unchanged; a poster publishes its change, then (after a full
//! fence) bumps the sequence and wakes sleepers only if someone announced itself. With
//! a full fence on each side between the write and the read, either the poster sees the
//! announcement or the waiter's re-check sees the change. The futex is a trait so that loom can model it (`loom_tests`).
//!
//! Keys: a sleeper announces what it waits for, an event's key ([`event_key`]) or any change
//! that is not an event's post ([`NO_EVENT`]); an event's poster rings with that event's key
//! and wakes nobody who waits for something else: a post to an image asleep in a barrier, a
//! collective or another event's wait costs the poster no system call and the image no
//! wake-up. Every other ring ([`ANY`]) wakes every sleeper. Sleepers with different keys
//! share [`ANY`] (every ring wakes them). A key that names the wrong wait costs latency, not
//! a hang: every sleep is bounded ([`OsFutex`]'s timeout).

use crate::sync::{fence, AtomicU32, AtomicU64, Ordering};

/// The key of a ring that wakes every sleeper, and the interest of sleepers woken by every
/// ring.
pub const ANY: u32 = 0;
/// The interest of a sleeper that waits for anything but an event's post (a barrier, a
/// collective, SYNC IMAGES, a lock): only rings with the key [`ANY`] wake it.
pub const NO_EVENT: u32 = u32::MAX;

/// The key of the event at byte `offset` of an image's segment: never [`ANY`] or [`NO_EVENT`];
/// two events may share one (their posts then wake each other's waits).
pub fn event_key(offset: usize) -> u32 {
    ((offset / 8) as u64 % (u32::MAX as u64 - 1)) as u32 + 1
}

/// Sleeping on and waking a 32-bit word (futex semantics: `wait` returns at once if the word
/// no longer holds `expected`; wake-ups may be spurious).
pub trait Futex {
    /// Sleeps while `*word == expected` (bounded by the implementation's timeout, if any).
    fn wait(&self, word: &AtomicU32, expected: u32);
    /// Wakes every sleeper on `word`.
    fn wake_all(&self, word: &AtomicU32);
}

/// An image's doorbell: the sequence word sleepers wait on and its announced sleepers.
pub struct Bell<'a> {
    /// Bumped by every ring that finds a sleeper it wakes.
    pub seq: &'a AtomicU32,
    /// The threads announced as about to sleep: their count (low 32 bits) and the key they
    /// all wait for (high 32 bits; [`ANY`] when they differ).
    pub sleepers: &'a AtomicU64,
}

impl Bell<'_> {
    /// One sleep waiting for `key` ([`NO_EVENT`] or an [`event_key`]): announce, re-check
    /// `ready`, sleep unless it holds. Returns whether `ready` held at the re-check (the
    /// caller polls again either way).
    pub fn sleep(&self, f: &impl Futex, key: u32, ready: impl FnOnce() -> bool) -> bool {
        self.announce(key);
        // Pairs with the fence in `ring` (store-buffering pattern): needed under the C++ model
        // when the other accesses are weaker than SeqCst, and what loom checks.
        fence(Ordering::SeqCst);
        let seq = self.seq.load(Ordering::SeqCst);
        let r = ready();
        if !r {
            f.wait(self.seq, seq);
        }
        self.sleepers.fetch_sub(1, Ordering::SeqCst);
        r
    }

    /// Counts one more sleeper, waiting for `key`: the sleepers' key stays `key` if they all
    /// wait for it (or there were none), else becomes [`ANY`].
    fn announce(&self, key: u32) {
        let mut now = self.sleepers.load(Ordering::SeqCst);
        loop {
            let (count, theirs) = (now as u32, (now >> 32) as u32);
            let shared = if count == 0 || theirs == key {
                key
            } else {
                ANY
            };
            let next = (u64::from(shared) << 32) | u64::from(count + 1);
            match self
                .sleepers
                .compare_exchange(now, next, Ordering::SeqCst, Ordering::SeqCst)
            {
                Ok(_) => return,
                Err(seen) => now = seen,
            }
        }
    }

    /// Wakes the owner if it sleeps or is about to (call after publishing the change), unless
    /// every sleeper waits for something other than `key` (an [`event_key`] of the event
    /// posted, or [`ANY`]).
    pub fn ring(&self, f: &impl Futex, key: u32) {
        fence(Ordering::SeqCst);
        let sleepers = self.sleepers.load(Ordering::SeqCst);
        let (count, theirs) = (sleepers as u32, (sleepers >> 32) as u32);
        if count > 0 && (key == ANY || theirs == ANY || theirs == key) {
            self.seq.fetch_add(1, Ordering::SeqCst);
            f.wake_all(self.seq);
        }
    }
}

/// The operating system's process-shared futex, with a bound on each sleep.
#[cfg(not(loom))]
pub struct OsFutex(pub std::time::Duration);

#[cfg(not(loom))]
impl Futex for OsFutex {
    fn wait(&self, word: &AtomicU32, expected: u32) {
        crate::sys::futex::wait(word, expected, self.0);
    }
    fn wake_all(&self, word: &AtomicU32) {
        crate::sys::futex::wake_all(word);
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// Counts wake-ups; never sleeps.
    #[derive(Default)]
    struct Counting(Cell<u32>);

    impl Futex for Counting {
        fn wait(&self, _: &AtomicU32, _: u32) {}
        fn wake_all(&self, _: &AtomicU32) {
            self.0.set(self.0.get() + 1);
        }
    }

    /// An event's post wakes a sleeper waiting for that event or for any change, not one
    /// waiting for another event or for a barrier; an unkeyed ring wakes everyone; sleepers
    /// with different keys are woken by every ring.
    #[test]
    fn rings_wake_the_sleepers_whose_key_they_carry() {
        let (seq, sleepers, f) = (AtomicU32::new(0), AtomicU64::new(0), Counting::default());
        let bell = Bell {
            seq: &seq,
            sleepers: &sleepers,
        };
        let (a, b) = (event_key(64), event_key(72));
        assert!(a != b && ![a, b].contains(&ANY) && ![a, b].contains(&NO_EVENT));
        bell.ring(&f, a);
        assert_eq!(f.0.get(), 0, "nobody sleeps");
        bell.announce(a);
        bell.ring(&f, b);
        assert_eq!(
            (f.0.get(), seq.load(Ordering::SeqCst)),
            (0, 0),
            "another event's post"
        );
        bell.ring(&f, a);
        bell.ring(&f, ANY);
        assert_eq!((f.0.get(), seq.load(Ordering::SeqCst)), (2, 2));
        bell.announce(a);
        bell.ring(&f, b);
        assert_eq!(f.0.get(), 2, "two sleepers of event a");
        bell.announce(NO_EVENT);
        bell.ring(&f, b);
        assert_eq!(
            f.0.get(),
            3,
            "sleepers of different keys wake on every ring"
        );
        sleepers.store(0, Ordering::SeqCst);
        bell.announce(NO_EVENT);
        bell.ring(&f, a);
        assert_eq!(f.0.get(), 3, "a barrier's sleeper and an event's post");
        bell.ring(&f, ANY);
        assert_eq!(f.0.get(), 4);
        sleepers.fetch_sub(1, Ordering::SeqCst);
        bell.announce(b);
        bell.ring(&f, b);
        assert_eq!(
            f.0.get(),
            5,
            "the key of the only sleeper, not of those before it"
        );
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use loom::sync::{Arc, Condvar, Mutex};

    /// A futex modelled faithfully: the value check and the sleep are atomic with respect to
    /// wakers (who take the same lock), and there is no timeout to hide a lost wake-up.
    #[derive(Default)]
    struct ModelFutex {
        lock: Mutex<()>,
        cv: Condvar,
    }

    impl Futex for ModelFutex {
        fn wait(&self, word: &AtomicU32, expected: u32) {
            let g = self.lock.lock().unwrap();
            if word.load(Ordering::SeqCst) == expected {
                drop(self.cv.wait(g).unwrap());
            }
        }
        fn wake_all(&self, word: &AtomicU32) {
            let _ = word;
            let _g = self.lock.lock().unwrap();
            self.cv.notify_all();
        }
    }

    #[derive(Default)]
    struct Shared {
        flag: AtomicU32,
        other: AtomicU32,
        seq: AtomicU32,
        sleepers: AtomicU64,
        futex: ModelFutex,
    }

    impl Shared {
        fn bell(&self) -> Bell<'_> {
            Bell {
                seq: &self.seq,
                sleepers: &self.sleepers,
            }
        }

        /// Sleeps, waiting for `key`, until `flag` is set.
        fn await_flag(&self, flag: &AtomicU32, key: u32) {
            while flag.load(Ordering::SeqCst) == 0 {
                self.bell()
                    .sleep(&self.futex, key, || flag.load(Ordering::SeqCst) != 0);
            }
        }
    }

    /// A waiter that sleeps until a flag is set never misses the poster's ring (loom reports a
    /// deadlock if it could sleep forever): an unkeyed ring and a barrier's sleeper, an
    /// event's post and its waiter.
    #[test]
    fn no_lost_wakeup() {
        for (ring, wait) in [(ANY, NO_EVENT), (event_key(8), event_key(8))] {
            loom::model(move || {
                let s = Arc::new(Shared::default());
                let p = s.clone();
                let poster = loom::thread::spawn(move || {
                    p.flag.store(1, Ordering::SeqCst);
                    p.bell().ring(&p.futex, ring);
                });
                s.await_flag(&s.flag, wait);
                poster.join().unwrap();
            });
        }
    }

    /// Two threads asleep for different events, each posted with its own key: neither misses
    /// its post (the sleepers' shared key becomes ANY while both sleep).
    #[test]
    fn sleepers_of_two_events_both_wake() {
        // Three threads: bounded preemptions keep the exploration to seconds.
        let mut model = loom::model::Builder::new();
        model.preemption_bound = Some(2);
        model.check(|| {
            let s = Arc::new(Shared::default());
            let (p, o) = (s.clone(), s.clone());
            let other = loom::thread::spawn(move || o.await_flag(&o.other, event_key(16)));
            let poster = loom::thread::spawn(move || {
                p.flag.store(1, Ordering::SeqCst);
                p.bell().ring(&p.futex, event_key(8));
                p.other.store(1, Ordering::SeqCst);
                p.bell().ring(&p.futex, event_key(16));
            });
            s.await_flag(&s.flag, event_key(8));
            poster.join().unwrap();
            other.join().unwrap();
        });
    }
}
