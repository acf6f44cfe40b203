//! LOCK and UNLOCK (Fortran 2018 11.6.10): a fair ticket lock per LOCK_TYPE element that
//! sleeps while it waits.
//!
//! Slot layout (128 bytes, in the segment of the image that owns the lock variable):
//! `word` (u64 at +0: next ticket in the high half, ticket being served in the low half),
//! `owner` (u32 at +8: 1 + initial index of the holder, 0 when free), and `WAITERS` entries at
//! +16, each `(ticket << 32) | (1 + image)` of a sleeping waiter. On release the holder looks up
//! the next ticket's waiter and rings only that image; if the entry was overwritten (more than
//! `WAITERS` waiters queued), it rings every image of the team instead.

use super::status::{check_alive, ready_or_gone};
use super::team::Team;
use super::wait::Waiter;
use crate::error::{CafError, CafResult, STAT_LOCKED, STAT_LOCKED_OTHER_IMAGE, STAT_UNLOCKED};
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
/// waiting when another image holds it (LOCK with ACQUIRED_LOCK=).
pub fn lock(
    tp: &dyn Transport,
    w: &Waiter,
    image: usize,
    slot: usize,
    try_only: bool,
) -> CafResult<bool> {
    let me = tp.this_image() as u64 + 1;
    if tp.fetch_op(image, slot + OWNER, 4, AtomicOp::Load, 0) == me {
        return Err(LockStat::Locked.into_error(image + 1));
    }
    check_alive(tp, image)?;
    if try_only {
        let cur = tp.fetch_op(image, slot, 8, AtomicOp::Load, 0);
        let (next, serving) = split(cur);
        if next != serving || tp.compare_swap(image, slot, 8, cur, cur.wrapping_add(1 << 32)) != cur
        {
            return Ok(false);
        }
    } else {
        let ticket = split(tp.fetch_op(image, slot, 8, AtomicOp::Add, 1 << 32)).0;
        let entry = slot + TABLE + (ticket as usize % WAITERS) * 8;
        let served = || split(tp.fetch_op(image, slot, 8, AtomicOp::Load, 0)).1 == ticket;
        if !served() {
            tp.fetch_op(image, entry, 8, AtomicOp::Swap, (ticket as u64) << 32 | me);
            w.block(|| ready_or_gone(served, || check_alive(tp, image)))?;
        }
    }
    tp.fetch_op(image, slot + OWNER, 4, AtomicOp::Swap, me);
    Ok(true)
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
