//! LOCK and UNLOCK (Fortran 2018 11.6.10): an eventually fair lock per LOCK_TYPE element
//! that sleeps while it waits (the scheme of Rust's parking_lot).
//!
//! A running image may take a free lock even when others wait (barging): with more images
//! than cores, a strict queue hands the lock to a waiter that is not running and every image
//! waits for the scheduler (a ticket lock took 64 us per critical section at 8 images on 2
//! cores). A waiter that has waited `FAIR_AFTER` names itself the heir, and the next UNLOCK
//! hands the lock to the heir directly instead of freeing it, so no image starves.
//!
//! Slot layout (128 bytes, in the segment of the image that owns the lock variable), all
//! 4-byte words: `state` (+0: bits 0-12 the holder, 1 + its initial index, 0 when free; bit 13
//! parked; bits 14.. the number of registered waiters), `heir` (+4: 1 + index of the waiter
//! owed the next hand-off, 0 for none), `cursor` (+8: where UNLOCK starts looking for a waiter
//! to wake), and a table of `ENTRIES` waiters from +12, each 1 + index of a waiting image, 0
//! when empty. An uncontended LOCK is one compare-and-swap, an UNLOCK a load and an AND.
//!
//! A waiter writes its entry, then counts itself in `state`. As in glibc's mutex, a waiter
//! that finds the lock held sets the parked bit before it sleeps (only then: while it polls,
//! the holder's UNLOCK stays the direct one), and one that takes the lock
//! while others are counted sets it too; an UNLOCK that clears a set parked bit wakes one
//! waiter, taken in turn from the cursor on (all images of the team when more waiters than
//! entries are counted). A holder that re-takes the lock before the woken waiter runs pays no
//! wake-up until that waiter has parked again. Every compare-and-swap is on 4 bytes: Open MPI
//! 4.1 crashes on 8-byte ones over shared memory (`transport/mpi/atomics.rs`).
//!
//! A holder that fails (FAIL IMAGE) never releases: the first waiter (or LOCK with
//! ACQUIRED_LOCK=) that sees the failed holder names itself holder with a compare-and-swap,
//! releases the lock at once, and its LOCK reports the error (Fortran 2018 11.6.10: the lock
//! becomes unlocked, STAT_UNLOCKED_FAILED_IMAGE).
//!
//! A holder that stops (STOP, END PROGRAM) never releases either, and nothing in the standard
//! unlocks a lock of a stopped image: the lock stays locked, so every LOCK that would have to
//! wait for it reports STAT_STOPPED_IMAGE (the stat 11.6.11 gives a statement that depends on
//! an image that initiated normal termination) instead of waiting forever; without STAT= that
//! is error termination. CRITICAL is lowered to LOCK and behaves the same way.

use super::status::{check_alive, news, JOB_FAILED};
use super::team::Team;
use super::wait::Waiter;
use crate::error::{
    CafError, CafResult, STAT_LOCKED, STAT_LOCKED_OTHER_IMAGE, STAT_STOPPED_IMAGE, STAT_UNLOCKED,
    STAT_UNLOCKED_FAILED_IMAGE,
};
use crate::transport::control::status::{ERROR_STOPPED, FAILED, STOPPED};
use crate::transport::cpu_atomic::{compare_swap as cas_at, fetch_op as rmw_at};
use crate::transport::{AtomicOp, Transport};
use std::time::{Duration, Instant};

/// Bytes per lock slot.
pub const SLOT: usize = 128;
const HEIR: usize = 4;
const CURSOR: usize = 8;
const TABLE: usize = 12;
/// Waiter entries per slot.
const ENTRIES: usize = (SLOT - TABLE) / 4;
/// The holder's bits of `state` (1 + initial index: a job has at most 4096 images).
const HOLDER: u64 = (1 << 13) - 1;
/// The parked bit of `state`: a waiter may sleep, the next UNLOCK wakes one.
const PARKED: u64 = 1 << 13;
/// One registered waiter in `state`.
const WAITER: u64 = 1 << 14;
/// How long a waiter lets running images barge before it claims the next hand-off
/// (parking_lot's eventual fairness uses about 0.5 ms too).
const FAIR_AFTER: Duration = Duration::from_micros(500);
// The table fills the slot; holder, parked bit and waiter count do not overlap.
const _: () = assert!(TABLE + ENTRIES * 4 == SLOT);
const _: () = assert!(HOLDER > 4096 && HOLDER < PARKED && PARKED < WAITER);

/// Why a LOCK or UNLOCK did not do what was asked (delivered as the standard's stat values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockStat {
    /// LOCK of a lock this image already holds (STAT_LOCKED).
    Locked,
    /// UNLOCK of a lock held by another image (STAT_LOCKED_OTHER_IMAGE).
    LockedOtherImage,
    /// UNLOCK of a lock nobody holds (STAT_UNLOCKED).
    Unlocked,
    /// LOCK of a lock held by a failed image, which it unlocked (STAT_UNLOCKED_FAILED_IMAGE).
    UnlockedFailedImage,
}

impl LockStat {
    /// The stat value and message.
    pub fn into_error(self, image: usize) -> CafError {
        let (stat, what) = match self {
            LockStat::Locked => (STAT_LOCKED, "the lock is already held by this image"),
            LockStat::LockedOtherImage => {
                (STAT_LOCKED_OTHER_IMAGE, "the lock is held by another image")
            }
            LockStat::Unlocked => (STAT_UNLOCKED, "the lock is not locked"),
            LockStat::UnlockedFailedImage => (
                STAT_UNLOCKED_FAILED_IMAGE,
                "the lock was held by a failed image and is now unlocked",
            ),
        };
        CafError::Lock {
            stat,
            message: format!("{what} (lock variable on image {image})"),
        }
    }
}

/// 4-byte read of the word at `off` of the lock's image.
fn load(tp: &dyn Transport, image: usize, off: usize) -> u64 {
    tp.fetch_op(image, off, 4, AtomicOp::Load, 0)
}

/// Makes `me` the holder of the free lock whose state was `cur`, setting the parked bit with
/// `park`; the state found (`cur` on success).
fn take(tp: &dyn Transport, image: usize, slot: usize, cur: u64, me: u64, park: bool) -> u64 {
    let new = cur | me | if park { PARKED } else { 0 };
    tp.compare_swap(image, slot, 4, cur, new)
}

/// A registered waiter's attempt: takes the lock if it is free (setting the parked bit when
/// other waiters are counted, so that its UNLOCK wakes one), else, when it is about to sleep
/// (`park`), sets the parked bit so that the holder's UNLOCK wakes a waiter. Whether it took
/// the lock. A waiter that still polls leaves the bit alone: the holder's UNLOCK then stays
/// the direct one ([`unlock_at`]), with no wake-up to look for.
fn acquire_or_park(tp: &dyn Transport, image: usize, slot: usize, me: u64, park: bool) -> bool {
    let mut cur = load(tp, image, slot);
    loop {
        // A failed swap is retried against what it found: the last poll before a sleep must
        // not sleep on a lock that was freed meanwhile (its UNLOCK, finding no parked bit,
        // wakes nobody).
        let found = if cur & HOLDER == 0 {
            take(tp, image, slot, cur, me, cur / WAITER > 1)
        } else if park && cur & PARKED == 0 {
            tp.compare_swap(image, slot, 4, cur, cur | PARKED)
        } else {
            return false;
        };
        if found == cur {
            return cur & HOLDER == 0;
        }
        cur = found;
    }
}

/// The failed holder (1 + index) of the lock at `(image, slot)`, if it is held by a failed
/// image. One local load while no image has terminated.
fn failed_holder(tp: &dyn Transport, image: usize, slot: usize) -> Option<u64> {
    if news(tp) == 0 || load(tp, 0, JOB_FAILED) == 0 {
        return None;
    }
    let holder = load(tp, image, slot) & HOLDER;
    (holder != 0 && super::status::of(tp, holder as usize - 1) == FAILED).then_some(holder)
}

/// `Err` (STAT_STOPPED_IMAGE) if the lock at `(image, slot)` is held by a stopped image, which
/// will never release it. One local load while no image has terminated.
fn holder_stopped(tp: &dyn Transport, image: usize, slot: usize) -> CafResult<()> {
    if news(tp) == 0 {
        return Ok(());
    }
    let holder = (load(tp, image, slot) & HOLDER) as usize;
    if holder == 0 || !matches!(super::status::of(tp, holder - 1), STOPPED | ERROR_STOPPED) {
        return Ok(());
    }
    Err(CafError::Lock {
        stat: STAT_STOPPED_IMAGE,
        message: format!(
            "the lock is held by image {holder}, which has stopped (lock variable on image {})",
            image + 1
        ),
    })
}

/// Makes `me` the holder in place of `from`; whether it did (no other image got there first).
fn replace_holder(tp: &dyn Transport, image: usize, slot: usize, from: u64, me: u64) -> bool {
    let mut cur = load(tp, image, slot);
    while cur & HOLDER == from {
        match tp.compare_swap(image, slot, 4, cur, cur & !HOLDER | me) {
            found if found == cur => return true,
            found => cur = found,
        }
    }
    false
}

/// How a waiting LOCK ended.
enum Got {
    /// It took the free lock, or the previous holder handed it over.
    Lock,
    /// It took the lock over from the failed holder.
    TookOver,
}

/// Writes `me` into a free entry of the waiter table (from `me`'s own position on); the
/// entry's offset, or `None` when every entry is taken.
fn claim_entry(tp: &dyn Transport, image: usize, slot: usize, me: u64) -> Option<usize> {
    (0..ENTRIES)
        .map(|k| slot + TABLE + (me as usize + k) % ENTRIES * 4)
        .find(|&at| tp.compare_swap(image, at, 4, 0, me) == 0)
}

/// Acquires the lock at `(image, slot)`. With `try_only`, returns `Ok(false)` instead of
/// waiting when another image holds it (LOCK with ACQUIRED_LOCK=). A lock held by a failed
/// image is unlocked and reported as [`LockStat::UnlockedFailedImage`].
pub fn lock(
    tp: &dyn Transport,
    w: &Waiter,
    image: usize,
    slot: usize,
    try_only: bool,
    team: &Team,
) -> CafResult<bool> {
    let me = tp.this_image() as u64 + 1;
    check_alive(tp, image)?;
    let mut cur = take(tp, image, slot, 0, me, false);
    if cur == 0 {
        return Ok(true);
    }
    if cur & HOLDER == me {
        return Err(LockStat::Locked.into_error(image + 1));
    }
    while cur & HOLDER == 0 {
        match take(tp, image, slot, cur, me, false) {
            found if found == cur => return Ok(true),
            found => cur = found,
        }
    }
    if try_only {
        return match failed_holder(tp, image, slot) {
            Some(f) if replace_holder(tp, image, slot, f, me) => {
                release_failed(tp, image, slot, team)
            }
            _ => Ok(false),
        };
    }
    let mut entry = claim_entry(tp, image, slot, me);
    tp.fetch_op(image, slot, 4, AtomicOp::Add, WAITER);
    let (since, mut heir) = (Instant::now(), false);
    let got = w.block_lock(|| {
        if heir && load(tp, image, slot) & HOLDER == me {
            return Some(Ok(Got::Lock));
        }
        if acquire_or_park(tp, image, slot, me, w.parking()) {
            return Some(Ok(Got::Lock));
        }
        if let Err(e) = check_alive(tp, image).and(holder_stopped(tp, image, slot)) {
            return Some(Err(e));
        }
        if let Some(f) = failed_holder(tp, image, slot) {
            if replace_holder(tp, image, slot, f, me) {
                return Some(Ok(Got::TookOver));
            }
        }
        if entry.is_none() {
            entry = claim_entry(tp, image, slot, me);
        }
        if !heir && since.elapsed() >= FAIR_AFTER {
            heir = tp.compare_swap(image, slot + HEIR, 4, 0, me) == 0;
        }
        None
    });
    if let Some(at) = entry {
        tp.fetch_op(image, at, 4, AtomicOp::Swap, 0);
    }
    tp.fetch_op(
        image,
        slot,
        4,
        AtomicOp::Add,
        0u32.wrapping_sub(WAITER as u32) as u64,
    );
    if heir {
        // A hand-off cleared `heir`; otherwise this image (holding the lock, or giving up) is
        // the only one that could.
        tp.compare_swap(image, slot + HEIR, 4, me, 0);
    }
    match got? {
        Got::Lock => Ok(true),
        Got::TookOver => release_failed(tp, image, slot, team),
    }
}

/// LOCK of a free lock on a slot this process maps at `addr`, as a running image may take it
/// even while others wait (barging; no transport call): whether it took it. Otherwise
/// [`lock`] decides (waits, or reports what is wrong).
///
/// # Safety
/// `addr` is the address in this process of a lock slot of a segment mapped here, whose words
/// every image accesses with the processor's atomics (as the transports do for mapped words,
/// `transport/cpu_atomic.rs`), and no image has terminated.
#[inline]
pub unsafe fn try_lock_at(addr: usize, me: usize) -> bool {
    let me = me as u64 + 1;
    // SAFETY: guaranteed by the caller.
    unsafe {
        let cur = cas_at(addr, 4, 0, me);
        cur == 0 || cur & HOLDER == 0 && cas_at(addr, 4, cur, cur | me) == cur
    }
}

/// UNLOCK of a lock this image holds when no waiter has parked and none claimed the next
/// hand-off, on a slot this process maps at `addr` (no transport call): frees it; whether it
/// did. Otherwise [`unlock`] decides (hands over, wakes a waiter, or reports what is wrong).
///
/// # Safety
/// As for [`try_lock_at`].
#[inline]
pub unsafe fn unlock_at(addr: usize, me: usize) -> bool {
    let me = me as u64 + 1;
    // SAFETY: guaranteed by the caller.
    unsafe {
        let cur = rmw_at(addr, 4, AtomicOp::Load, 0);
        cur & (HOLDER | PARKED) == me
            && rmw_at(addr + HEIR, 4, AtomicOp::Load, 0) == 0
            && cas_at(addr, 4, cur, cur & !HOLDER) == cur
    }
}

/// Releases the lock this image took over from a failed holder: it becomes unlocked and this
/// LOCK reports [`LockStat::UnlockedFailedImage`].
fn release_failed(tp: &dyn Transport, image: usize, slot: usize, team: &Team) -> CafResult<bool> {
    unlock(tp, image, slot, team)?;
    Err(LockStat::UnlockedFailedImage.into_error(image + 1))
}

/// Releases the lock at `(image, slot)`: hands it to the heir if a waiter claimed the
/// hand-off, else frees it and wakes one waiter if one parked.
pub fn unlock(tp: &dyn Transport, image: usize, slot: usize, team: &Team) -> CafResult<()> {
    let me = tp.this_image() as u64 + 1;
    match load(tp, image, slot) & HOLDER {
        0 => return Err(LockStat::Unlocked.into_error(image + 1)),
        h if h != me => return Err(LockStat::LockedOtherImage.into_error(image + 1)),
        _ => {}
    }
    if load(tp, image, slot + HEIR) != 0 {
        let heir = tp.fetch_op(image, slot + HEIR, 4, AtomicOp::Swap, 0);
        if heir != 0 && replace_holder(tp, image, slot, me, heir) {
            tp.alert(heir as usize - 1);
            return Ok(());
        }
    }
    let state = tp.fetch_op(
        image,
        slot,
        4,
        AtomicOp::And,
        !(HOLDER | PARKED) & 0xffff_ffff,
    );
    let waiters = (state / WAITER) as usize;
    if state & PARKED == 0 || waiters == 0 {
        return Ok(());
    }
    if waiters > ENTRIES {
        team.members.iter().for_each(|&j| tp.alert(j));
        return Ok(());
    }
    let start = tp.fetch_op(image, slot + CURSOR, 4, AtomicOp::Add, 1) as usize;
    let woken = (0..ENTRIES)
        .map(|k| load(tp, image, slot + TABLE + (start + k) % ENTRIES * 4))
        .find(|&e| e != 0);
    if let Some(e) = woken {
        tp.alert(e as usize - 1);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::{CopyPlan, Full, Notification, Place};
    use std::sync::atomic::{AtomicU32, Ordering};

    /// A lock slot in this process: `state`, `heir`, `cursor` and the waiter table.
    fn slot() -> Box<[AtomicU32; SLOT / 4]> {
        Box::new(std::array::from_fn(|_| AtomicU32::new(0)))
    }

    /// One image's view of a lock slot held in this process (offset 0): loads and
    /// compare-and-swaps on its words; with `release_first`, the holder releases the lock
    /// right before the next compare-and-swap lands (the race a waiter's last poll can lose).
    struct OneSlot {
        words: Box<[AtomicU32; SLOT / 4]>,
        release_first: std::sync::atomic::AtomicBool,
    }

    impl OneSlot {
        fn held_by(holder: u32) -> OneSlot {
            let s = OneSlot {
                words: slot(),
                release_first: Default::default(),
            };
            s.words[0].store(holder + WAITER as u32, Ordering::SeqCst);
            s
        }
    }

    impl Transport for OneSlot {
        fn num_images(&self) -> usize {
            2
        }
        fn this_image(&self) -> usize {
            0
        }
        fn copy(&self, _: Place, _: Place, _: &CopyPlan) {
            unreachable!("no data moves")
        }
        fn fetch_op(&self, _: usize, offset: usize, _: usize, op: AtomicOp, _: u64) -> u64 {
            assert_eq!(op, AtomicOp::Load);
            self.words[offset / 4].load(Ordering::SeqCst) as u64
        }
        fn compare_swap(&self, _: usize, offset: usize, _: usize, old: u64, new: u64) -> u64 {
            if self.release_first.swap(false, Ordering::SeqCst) {
                self.words[0].fetch_and(!(HOLDER as u32), Ordering::SeqCst);
            }
            match self.words[offset / 4].compare_exchange(
                old as u32,
                new as u32,
                Ordering::SeqCst,
                Ordering::SeqCst,
            ) {
                Ok(v) | Err(v) => v as u64,
            }
        }
        fn fence(&self) {}
        fn ring(&self, _: usize) {}
        fn direct(&self, _: usize, _: usize) -> Option<usize> {
            None
        }
        fn notify(&self, _: usize, _: &Notification) -> Result<(), Full> {
            unreachable!("no notifications")
        }
        fn drain(&self, _: &mut dyn FnMut(Notification)) {}
    }

    #[test]
    fn a_polling_waiter_leaves_the_parked_bit_alone_and_a_parking_one_sets_it() {
        let tp = OneSlot::held_by(2);
        assert!(!acquire_or_park(&tp, 0, 0, 1, false));
        assert_eq!(tp.words[0].load(Ordering::SeqCst), WAITER as u32 + 2);
        assert!(!acquire_or_park(&tp, 0, 0, 1, true));
        assert_eq!(
            tp.words[0].load(Ordering::SeqCst),
            (WAITER | PARKED) as u32 + 2
        );
    }

    #[test]
    fn a_parking_waiter_that_loses_the_race_with_a_release_takes_the_lock() {
        let tp = OneSlot::held_by(2);
        tp.release_first.store(true, Ordering::SeqCst);
        assert!(
            acquire_or_park(&tp, 0, 0, 1, true),
            "the lock was freed under the parking compare-and-swap: take it, do not sleep"
        );
        assert_eq!(tp.words[0].load(Ordering::SeqCst), WAITER as u32 + 1);
    }

    #[test]
    fn direct_lock_takes_free_locks_only() {
        let s = slot();
        let addr = s.as_ptr() as usize;
        // SAFETY: a live, aligned slot accessed only atomically.
        unsafe {
            assert!(try_lock_at(addr, 2), "a free lock");
            assert_eq!(s[0].load(Ordering::SeqCst), 3);
            assert!(
                !try_lock_at(addr, 2),
                "held by this image: the general path reports it"
            );
            assert!(!try_lock_at(addr, 5), "held by another image");
            s[0].store(2 * WAITER as u32, Ordering::SeqCst);
            assert!(
                try_lock_at(addr, 5),
                "free with two waiters counted: barging"
            );
            assert_eq!(s[0].load(Ordering::SeqCst), 2 * WAITER as u32 + 6);
        }
    }

    #[test]
    fn direct_unlock_leaves_hand_offs_and_wake_ups_to_the_general_path() {
        let s = slot();
        let addr = s.as_ptr() as usize;
        // SAFETY: a live, aligned slot accessed only atomically.
        unsafe {
            assert!(!unlock_at(addr, 0), "not locked");
            s[0].store(WAITER as u32 + 2, Ordering::SeqCst);
            assert!(!unlock_at(addr, 0), "held by another image");
            assert!(
                unlock_at(addr, 1),
                "held by this image, one waiter not parked"
            );
            assert_eq!(
                s[0].load(Ordering::SeqCst),
                WAITER as u32,
                "the count stays"
            );
            s[0].store((WAITER | PARKED) as u32 + 2, Ordering::SeqCst);
            assert!(!unlock_at(addr, 1), "a parked waiter is woken by `unlock`");
            s[0].store(2, Ordering::SeqCst);
            s[HEIR / 4].store(4, Ordering::SeqCst);
            assert!(
                !unlock_at(addr, 1),
                "an heir is handed the lock by `unlock`"
            );
            assert_eq!(s[0].load(Ordering::SeqCst), 2, "nothing changed");
        }
    }
}
