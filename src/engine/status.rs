//! Image status as other images see it: running, stopped, error-stopped, failed.

use crate::error::{CafError, CafResult};
use crate::transport::control::{status, HEADER};
use crate::transport::{AtomicOp, Transport};

/// Offset of [`crate::transport::control::Header::status`] in a segment.
pub const STATUS: usize = HEADER + 8;
/// Offset of [`crate::transport::control::Header::code`] in a segment.
pub const CODE: usize = HEADER + 12;

/// Reads the status word of initial-team image `image`.
pub fn of(tp: &dyn Transport, image: usize) -> u32 {
    tp.fetch_op(image, STATUS, 4, AtomicOp::Load, 0) as u32
}

/// `Err` if `image` has stopped or failed, for operations that need it running.
pub fn check_alive(tp: &dyn Transport, image: usize) -> CafResult<()> {
    match of(tp, image) {
        status::STOPPED | status::ERROR_STOPPED => Err(CafError::StoppedImage { image: image + 1 }),
        status::FAILED => Err(CafError::FailedImage { image: image + 1 }),
        _ => Ok(()),
    }
}

/// Offset of [`crate::transport::control::JobBlock::stopped`] (image 0 holds the job block).
const JOB_STOPPED: usize = crate::transport::control::JOB;
/// Offset of [`crate::transport::control::JobBlock::failed`].
const JOB_FAILED: usize = crate::transport::control::JOB + 4;

/// Offset of [`crate::transport::control::Header::barriers`].
pub const BARRIERS: usize = HEADER + 16;
/// Offset of [`crate::transport::control::Header::collectives`].
pub const COLLECTIVES: usize = HEADER + 24;

/// `Err` if a member of `members` has terminated without entering operation number `epoch`
/// (counted in its header word at offset `counter`: [`BARRIERS`] or [`COLLECTIVES`]), so that it
/// can never take part. Costs two loads while no image has terminated.
pub fn check_team(
    tp: &dyn Transport,
    members: &[usize],
    counter: usize,
    epoch: u64,
) -> CafResult<()> {
    let gone = tp.fetch_op(0, JOB_STOPPED, 4, AtomicOp::Load, 0)
        + tp.fetch_op(0, JOB_FAILED, 4, AtomicOp::Load, 0);
    if gone == 0 {
        return Ok(());
    }
    members.iter().try_for_each(|&j| match check_alive(tp, j) {
        Err(e) if tp.fetch_op(j, counter, 8, AtomicOp::Load, 0) < epoch => Err(e),
        _ => Ok(()),
    })
}

/// Waits-for-peer helper: `ready()` is re-checked after a termination is seen, because a peer
/// may signal and then stop between the two loads.
pub fn ready_or_gone(
    ready: impl Fn() -> bool,
    gone: impl Fn() -> CafResult<()>,
) -> Option<CafResult<()>> {
    if ready() {
        return Some(Ok(()));
    }
    let err = gone().err()?;
    Some(if ready() { Ok(()) } else { Err(err) })
}

/// `Err` if every image other than this one has terminated (so nothing can still arrive).
pub fn check_others(tp: &dyn Transport) -> CafResult<()> {
    let n = tp.num_images() as u64;
    let gone = tp.fetch_op(0, JOB_STOPPED, 4, AtomicOp::Load, 0)
        + tp.fetch_op(0, JOB_FAILED, 4, AtomicOp::Load, 0);
    if n < 2 || gone < n - 1 {
        return Ok(());
    }
    let me = tp.this_image();
    (0..tp.num_images())
        .filter(|&j| j != me)
        .try_for_each(|j| check_alive(tp, j))
}
