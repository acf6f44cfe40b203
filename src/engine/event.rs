//! EVENT POST, EVENT WAIT and EVENT_QUERY (Fortran 2018 11.6.7–11.6.9, 16.9.72) with the
//! RMA-atomic strategy: a 64-bit counter in the segment of the image owning the event; post is
//! a fetch-add (release) plus a doorbell ring, wait sleeps until the count reaches the
//! threshold and takes it with a fetch-sub (acquire).

use super::status::{check_others, ready_or_gone};
use super::team::Team;
use super::wait::Waiter;
use crate::error::CafResult;
use crate::transport::{AtomicOp, Transport};
use std::sync::atomic::{AtomicU64, Ordering};

/// Bytes per event slot.
pub const SLOT: usize = 8;

/// Posts the event at `(image, slot)`.
pub fn post(tp: &dyn Transport, image: usize, slot: usize) -> CafResult<()> {
    super::status::check_alive(tp, image)?;
    tp.fetch_op(image, slot, 8, AtomicOp::Add, 1);
    tp.ring(image);
    Ok(())
}

/// Waits until this image's event at `slot` has at least `threshold` posts, then consumes them.
/// A threshold below 1 means 1 (Fortran 2018 11.6.8). Fails if every other image of `team` has
/// terminated, since no one is left to post.
pub fn wait(
    tp: &dyn Transport,
    w: &Waiter,
    team: &Team,
    slot: usize,
    threshold: i64,
) -> CafResult<()> {
    let need = threshold.max(1) as u64;
    let me = tp.this_image();
    let addr = tp.direct(me, slot).expect("own segment is mapped");
    // SAFETY: event slots are aligned u64 counters inside this image's mapped segment.
    let count = unsafe { &*(addr as *const AtomicU64) };
    w.block(|| {
        ready_or_gone(
            || count.load(Ordering::Acquire) >= need,
            || check_others(tp, team),
        )
    })?;
    tp.fetch_op(me, slot, 8, AtomicOp::Add, need.wrapping_neg());
    Ok(())
}

/// The count of the event at `(image, slot)`.
pub fn query(tp: &dyn Transport, image: usize, slot: usize) -> u64 {
    tp.fetch_op(image, slot, 8, AtomicOp::Load, 0)
}
