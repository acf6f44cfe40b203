//! The doorbell protocol that lets a waiter sleep without missing a wake-up: a waiter announces
//! itself (`sleepers += 1`), reads the bell's sequence, re-checks its condition, and only then
//! sleeps while the sequence is unchanged; a poster publishes its change, then (after a full
//! fence) bumps the sequence and wakes sleepers only if someone announced itself. With
//! a full fence on each side between the write and the read, either the poster sees the
//! announcement or the waiter's re-check sees the change. The futex is a trait so that loom can model it (`loom_tests`).

use crate::sync::{fence, AtomicU32, Ordering};

/// Sleeping on and waking a 32-bit word (futex semantics: `wait` returns at once if the word
/// no longer holds `expected`; wake-ups may be spurious).
pub trait Futex {
    /// Sleeps while `*word == expected` (bounded by the implementation's timeout, if any).
    fn wait(&self, word: &AtomicU32, expected: u32);
    /// Wakes every sleeper on `word`.
    fn wake_all(&self, word: &AtomicU32);
}

/// An image's doorbell: the sequence word sleepers wait on and the count of announced sleepers.
pub struct Bell<'a> {
    /// Bumped by every ring that finds a sleeper.
    pub seq: &'a AtomicU32,
    /// Threads announced as about to sleep.
    pub sleepers: &'a AtomicU32,
}

impl Bell<'_> {
    /// One sleep: announce, re-check `ready`, sleep unless it holds. Returns whether `ready`
    /// held at the re-check (the caller polls again either way).
    pub fn sleep(&self, f: &impl Futex, ready: impl FnOnce() -> bool) -> bool {
        self.sleepers.fetch_add(1, Ordering::SeqCst);
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

    /// Wakes the owner if it sleeps or is about to (call after publishing the change).
    pub fn ring(&self, f: &impl Futex) {
        fence(Ordering::SeqCst);
        if self.sleepers.load(Ordering::SeqCst) > 0 {
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
        seq: AtomicU32,
        sleepers: AtomicU32,
        futex: ModelFutex,
    }

    /// A waiter that sleeps until a flag is set never misses the poster's ring (loom reports a
    /// deadlock if it could sleep forever).
    #[test]
    fn no_lost_wakeup() {
        loom::model(|| {
            let s = Arc::new(Shared::default());
            let p = s.clone();
            let poster = loom::thread::spawn(move || {
                p.flag.store(1, Ordering::SeqCst);
                Bell {
                    seq: &p.seq,
                    sleepers: &p.sleepers,
                }
                .ring(&p.futex);
            });
            let bell = Bell {
                seq: &s.seq,
                sleepers: &s.sleepers,
            };
            while s.flag.load(Ordering::SeqCst) == 0 {
                bell.sleep(&s.futex, || s.flag.load(Ordering::SeqCst) != 0);
            }
            poster.join().unwrap();
        });
    }
}
