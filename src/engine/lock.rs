//! LOCK and UNLOCK (Fortran 2018 11.6.10): a fair ticket lock per LOCK_TYPE element that
//! sleeps while it waits.
//!
//! Slot layout (128 bytes, in the segment of the image that owns the lock variable), all
//! 4-byte words: `word` (+0: next ticket in the high 16 bits, ticket being served in the low
//! 16), `owner` (+4: 1 + initial index of the holder, 0 when free), and `WAITERS` entries from
//! +8, each `(ticket << 16) | (1 + image)` of a sleeping waiter. On release the holder looks up
//! the next ticket's waiter and rings only that image; if the entry was overwritten (more than
//! `WAITERS` waiters queued), it rings every image of the team instead.
//!
//! Tickets are 16 bits: at most one per image is outstanding (a LOCK of a lock the image holds
//! is an error), and a job has at most 4096 images, so `next - serving` never wraps. Every
//! compare-and-swap is on 4 bytes: Open MPI 4.1 crashes on 8-byte ones over shared memory
//! (`transport/mpi/atomics.rs`).
//!
//! A holder that fails (FAIL IMAGE) never releases: the waiter next in line sees the failed
//! owner, takes the lock over and releases it at once, and its LOCK reports the error
//! (Fortran 2018 11.6.10: the lock becomes unlocked, STAT_UNLOCKED_FAILED_IMAGE).
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
use crate::transport::{AtomicOp, Transport};

/// Bytes per lock slot.
pub const SLOT: usize = 128;
const OWNER: usize = 4;
const TABLE: usize = 8;
/// Waiter entries per slot.
const WAITERS: usize = (SLOT - TABLE) / 4;
/// One ticket: the next-ticket half of the lock word.
const TICKET: u64 = 1 << 16;

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

/// The lock word's halves: (next ticket, ticket being served).
fn split(word: u64) -> (u16, u16) {
    ((word >> 16) as u16, word as u16)
}

/// The lock word with `serving` moved on by one, `next` unchanged.
fn served_next(word: u64) -> u64 {
    let (next, serving) = split(word);
    (next as u64) << 16 | serving.wrapping_add(1) as u64
}

/// The waiter-table entry of `ticket` for `image` (0-based).
fn entry_of(ticket: u16, image: usize) -> u64 {
    (ticket as u64) << 16 | (image as u64 + 1)
}

/// Offset of the waiter-table entry that `ticket` uses.
fn entry_at(slot: usize, ticket: u16) -> usize {
    slot + TABLE + (ticket as usize % WAITERS) * 4
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
        let cur = tp.fetch_op(image, slot, 4, AtomicOp::Load, 0);
        let (next, serving) = split(cur);
        let queue = |cur: u64| {
            tp.compare_swap(image, slot, 4, cur, cur.wrapping_add(TICKET) & 0xffff_ffff) == cur
        };
        if next != serving || !queue(cur) {
            // Queue behind a failed holder only when nobody else waits for it.
            if next == serving.wrapping_add(1) && holder_failed(tp, image, slot, next) && queue(cur)
            {
                return take_over(tp, image, slot, next, team);
            }
            return Ok(false);
        }
    } else {
        let ticket = split(tp.fetch_op(image, slot, 4, AtomicOp::Add, TICKET)).0;
        let served = || split(tp.fetch_op(image, slot, 4, AtomicOp::Load, 0)).1 == ticket;
        if !served() {
            let (at, entry) = (entry_at(slot, ticket), entry_of(ticket, tp.this_image()));
            tp.fetch_op(image, at, 4, AtomicOp::Swap, entry);
            let abandoned = w.block_remote(|| {
                if served() {
                    return Some(Ok(false));
                }
                if let Err(e) = check_alive(tp, image).and(holder_stopped(tp, image, slot)) {
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

/// `Err` (STAT_STOPPED_IMAGE) if the lock at `(image, slot)` is held by a stopped image, which
/// will never release it. One local load while no image has terminated.
fn holder_stopped(tp: &dyn Transport, image: usize, slot: usize) -> CafResult<()> {
    if news(tp) == 0 {
        return Ok(());
    }
    let owner = tp.fetch_op(image, slot + OWNER, 4, AtomicOp::Load, 0) as usize;
    if owner == 0 || !matches!(super::status::of(tp, owner - 1), STOPPED | ERROR_STOPPED) {
        return Ok(());
    }
    Err(CafError::Lock {
        stat: STAT_STOPPED_IMAGE,
        message: format!(
            "the lock is held by image {owner}, which has stopped (lock variable on image {})",
            image + 1
        ),
    })
}

/// Whether the lock at `(image, slot)` is held by a failed image and `ticket` is next in line.
/// One local load while no image has terminated.
fn holder_failed(tp: &dyn Transport, image: usize, slot: usize, ticket: u16) -> bool {
    if news(tp) == 0 || tp.fetch_op(0, JOB_FAILED, 4, AtomicOp::Load, 0) == 0 {
        return false;
    }
    let serving = split(tp.fetch_op(image, slot, 4, AtomicOp::Load, 0)).1;
    let owner = tp.fetch_op(image, slot + OWNER, 4, AtomicOp::Load, 0) as usize;
    serving.wrapping_add(1) == ticket && owner != 0 && super::status::of(tp, owner - 1) == FAILED
}

/// Serves `ticket` in place of the failed holder, then releases the lock at once: it becomes
/// unlocked and this LOCK reports [`LockStat::UnlockedFailedImage`].
fn take_over(
    tp: &dyn Transport,
    image: usize,
    slot: usize,
    ticket: u16,
    team: &Team,
) -> CafResult<bool> {
    // Owner first: once it no longer names the failed image, the waiter behind this one cannot
    // mistake itself for the next in line when `serving` moves.
    let me = tp.this_image() as u64 + 1;
    tp.fetch_op(image, slot + OWNER, 4, AtomicOp::Swap, me);
    let mut cur = tp.fetch_op(image, slot, 4, AtomicOp::Load, 0);
    // Only the next in line gets here, and nobody else moves `serving` while the holder is
    // failed; other images may still take tickets (the high half).
    while split(cur).1.wrapping_add(1) == ticket {
        match tp.compare_swap(image, slot, 4, cur, served_next(cur)) {
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
    let mut cur = tp.fetch_op(image, slot, 4, AtomicOp::Load, 0);
    loop {
        match tp.compare_swap(image, slot, 4, cur, served_next(cur)) {
            found if found == cur => break,
            found => cur = found,
        }
    }
    let (next, serving) = split(cur);
    let successor = serving.wrapping_add(1);
    if next == successor {
        return Ok(());
    }
    let entry = tp.fetch_op(image, entry_at(slot, successor), 4, AtomicOp::Load, 0);
    if (entry >> 16) as u16 == successor {
        tp.alert((entry as u16 - 1) as usize);
    } else {
        team.members.iter().for_each(|&j| tp.alert(j));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serving_wraps_without_touching_next() {
        let w = 7u64 << 16 | 0xffff;
        assert_eq!(split(served_next(w)), (7, 0));
        assert_eq!(split((0xffff_0003 + TICKET) & 0xffff_ffff), (0, 3));
    }

    #[test]
    fn table_entries_name_ticket_and_image() {
        let e = entry_of(0xfffe, 4095);
        assert_eq!(((e >> 16) as u16, e as u16 - 1), (0xfffe, 4095));
        assert!(e <= u32::MAX as u64);
        assert_eq!(entry_at(1024, WAITERS as u16 + 2), 1024 + TABLE + 8);
        assert!(entry_at(0, WAITERS as u16 - 1) + 4 <= SLOT);
    }
}
