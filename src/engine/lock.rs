//! LOCK and UNLOCK (Fortran 2018 11.6.10): a fair ticket lock per LOCK_TYPE element that
//! sleeps while it waits.
//!
//! Slot layout (128 bytes, in the segment of the image that owns the lock variable):
//! `word` (u64 at +0: next ticket in the high half, ticket being served in the low half),
//! `owner` (u32 at +8: 1 + initial index of the holder, 0 when free), and `WAITERS` entries at
//! +16, each `(ticket << 32) | (1 + image)` of a sleeping waiter. On release the holder looks up
//! the next ticket's waiter and rings only that image; if the entry was overwritten (more than
//! `WAITERS` waiters queued), it rings every image of the team instead.
//!
//! A holder that fails (FAIL IMAGE) never releases: the waiter next in line sees the failed
//! owner, takes the lock over and releases it at once, and its LOCK reports the error
//! (Fortran 2018 11.6.10: the lock becomes unlocked, STAT_UNLOCKED_FAILED_IMAGE).

use super::status::{check_alive, JOB_FAILED};
use super::team::Team;
use super::wait::Waiter;
use crate::error::{
    CafError, CafResult, STAT_FAILED_IMAGE, STAT_LOCKED, STAT_LOCKED_OTHER_IMAGE, STAT_UNLOCKED,
};
use crate::transport::control::status::FAILED;
use crate::transport::{AtomicOp, Transport};

/// Bytes per lock slot.
pub const SLOT: usize = 128;
/// Waiter entries per slot.
const WAITERS: usize = (SLOT - 16) / 8;
const OWNER: usize = 8;
const TABLE: usize = 16;

/// Why a LOCK or UNLOCK did not do what was asked (delivered as the standard's stat values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockStat {
    /// LOCK of a lock this image already holds (STAT_LOCKED).
    Locked,
    /// UNLOCK of a lock held by another image (STAT_LOCKED_OTHER_IMAGE).
    LockedOtherImage,
    /// UNLOCK of a lock nobody holds (STAT_UNLOCKED).
    Unlocked,
    /// LOCK of a lock held by a failed image, which it unlocked (STAT_UNLOCKED_FAILED_IMAGE;
    /// gfortran 12's `iso_fortran_env` lacks that constant, so STAT_FAILED_IMAGE).
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
                STAT_FAILED_IMAGE,
                "the lock was held by a failed image and is now unlocked",
            ),
        };
        CafError::Lock {
            stat,
            message: format!("{what} (lock variable on image {image})"),
        }
    }
}

fn split(word: u64) -> (u32, u32) {
    ((word >> 32) as u32, word as u32)
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
    if tp.fetch_op(image, slot + OWNER, 4, AtomicOp::Load, 0) == me {
        return Err(LockStat::Locked.into_error(image + 1));
    }
    check_alive(tp, image)?;
    if try_only {
        let cur = tp.fetch_op(image, slot, 8, AtomicOp::Load, 0);
        let (next, serving) = split(cur);
        let queue =
            |cur: u64| tp.compare_swap(image, slot, 8, cur, cur.wrapping_add(1 << 32)) == cur;
        if next != serving || !queue(cur) {
            // Queue behind a failed holder only when nobody else waits for it.
            if next == serving.wrapping_add(1) && holder_failed(tp, image, slot, next) && queue(cur)
            {
                return take_over(tp, image, slot, next, team);
            }
            return Ok(false);
        }
    } else {
        let ticket = split(tp.fetch_op(image, slot, 8, AtomicOp::Add, 1 << 32)).0;
        let entry = slot + TABLE + (ticket as usize % WAITERS) * 8;
        let served = || split(tp.fetch_op(image, slot, 8, AtomicOp::Load, 0)).1 == ticket;
        if !served() {
            tp.fetch_op(image, entry, 8, AtomicOp::Swap, (ticket as u64) << 32 | me);
            let abandoned = w.block(|| {
                if served() {
                    return Some(Ok(false));
                }
                if let Err(e) = check_alive(tp, image) {
                    return Some(if served() { Ok(false) } else { Err(e) });
                }
                holder_failed(tp, image, slot, ticket).then_some(Ok(true))
            })?;
            if abandoned {
                return take_over(tp, image, slot, ticket, team);
            }
        }
    }
    tp.fetch_op(image, slot + OWNER, 4, AtomicOp::Swap, me);
    Ok(true)
}

/// Whether the lock at `(image, slot)` is held by a failed image and `ticket` is next in line.
/// One load of the job's failed count while no image has failed.
fn holder_failed(tp: &dyn Transport, image: usize, slot: usize, ticket: u32) -> bool {
    if tp.fetch_op(0, JOB_FAILED, 4, AtomicOp::Load, 0) == 0 {
        return false;
    }
    let serving = split(tp.fetch_op(image, slot, 8, AtomicOp::Load, 0)).1;
    let owner = tp.fetch_op(image, slot + OWNER, 4, AtomicOp::Load, 0) as usize;
    serving.wrapping_add(1) == ticket && owner != 0 && super::status::of(tp, owner - 1) == FAILED
}

/// Serves `ticket` in place of the failed holder, then releases the lock at once: it becomes
/// unlocked and this LOCK reports [`LockStat::UnlockedFailedImage`].
fn take_over(
    tp: &dyn Transport,
    image: usize,
    slot: usize,
    ticket: u32,
    team: &Team,
) -> CafResult<bool> {
    // Owner first: once it no longer names the failed image, the waiter behind this one cannot
    // mistake itself for the next in line when `serving` moves.
    let me = tp.this_image() as u64 + 1;
    tp.fetch_op(image, slot + OWNER, 4, AtomicOp::Swap, me);
    let mut cur = tp.fetch_op(image, slot, 8, AtomicOp::Load, 0);
    // Only the next in line gets here, and nobody else moves `serving` while the holder is
    // failed; other images may still take tickets (the high half).
    while split(cur).1.wrapping_add(1) == ticket {
        match tp.compare_swap(image, slot, 8, cur, cur + 1) {
            found if found == cur => break,
            found => cur = found,
        }
    }
    unlock(tp, image, slot, team)?;
    Err(LockStat::UnlockedFailedImage.into_error(image + 1))
}

/// Releases the lock at `(image, slot)` and wakes the next waiter.
pub fn unlock(tp: &dyn Transport, image: usize, slot: usize, team: &Team) -> CafResult<()> {
    let me = tp.this_image() as u64 + 1;
    match tp.fetch_op(image, slot + OWNER, 4, AtomicOp::Load, 0) {
        0 => return Err(LockStat::Unlocked.into_error(image + 1)),
        o if o != me => return Err(LockStat::LockedOtherImage.into_error(image + 1)),
        _ => {}
    }
    tp.fetch_op(image, slot + OWNER, 4, AtomicOp::Swap, 0);
    let mut cur = tp.fetch_op(image, slot, 8, AtomicOp::Load, 0);
    loop {
        let (next, serving) = split(cur);
        let new = (next as u64) << 32 | serving.wrapping_add(1) as u64;
        match tp.compare_swap(image, slot, 8, cur, new) {
            found if found == cur => break,
            found => cur = found,
        }
    }
    let (next, serving) = split(cur);
    let successor = serving.wrapping_add(1);
    if next == successor {
        return Ok(());
    }
    let entry = tp.fetch_op(
        image,
        slot + TABLE + (successor as usize % WAITERS) * 8,
        8,
        AtomicOp::Load,
        0,
    );
    if (entry >> 32) as u32 == successor {
        tp.ring((entry as u32 - 1) as usize);
    } else {
        team.members.iter().for_each(|&j| tp.ring(j));
    }
    Ok(())
}
