//! Image status as other images see it: running, stopped, error-stopped, failed.

use super::team::Team;
use crate::error::{CafError, CafResult};
use crate::transport::control::{status, Header, Layout, Published, HEADER};
use crate::transport::{AtomicOp, Transport};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

/// Offset of [`crate::transport::control::Header::status`] in a segment.
pub const STATUS: usize = HEADER + 8;
/// Offset of [`crate::transport::control::Header::code`] in a segment.
pub const CODE: usize = HEADER + 12;
/// Offset of [`crate::transport::control::Header::news`] in a segment.
pub const NEWS: usize = HEADER + std::mem::offset_of!(Header, news);

/// Terminations announced to this image so far (a local load): zero means that every image
/// is still running.
pub fn news(tp: &dyn Transport) -> u32 {
    let a = tp
        .direct(tp.this_image(), NEWS)
        .expect("own segment is mapped");
    // SAFETY: `news` is an aligned u32 in this image's mapped control block.
    unsafe { &*(a as *const AtomicU32) }.load(Ordering::Acquire)
}

/// Tells every image that this one has terminated (once its status and the job block say
/// so), then alerts them.
pub fn announce(tp: &dyn Transport) {
    for j in 0..tp.num_images() {
        tp.fetch_op(j, NEWS, 4, AtomicOp::Add, 1);
        tp.alert(j);
    }
}

/// Whether a status word read by this image ([`of`]) has shown a terminated image.
static SEEN: AtomicBool = AtomicBool::new(false);

/// Reads the status word of initial-team image `image` (and remembers a termination seen).
pub fn of(tp: &dyn Transport, image: usize) -> u32 {
    let s = tp.fetch_op(image, STATUS, 4, AtomicOp::Load, 0) as u32;
    if s != status::RUNNING {
        SEEN.store(true, Ordering::Relaxed);
    }
    s
}

/// Whether this image knows of a terminated image: one was announced to it ([`news`]), or a
/// status word it read ([`of`]: IMAGE_STATUS, STOPPED_IMAGES, a statement's check) said so.
/// A local load and a process flag; false means every status word still reads running as far
/// as this image can tell without asking.
pub fn termination_known(tp: &dyn Transport) -> bool {
    news(tp) != 0 || SEEN.load(Ordering::Relaxed)
}

/// `Err` if `image` has stopped or failed, for operations that need it running. No remote
/// read while no termination has been announced.
pub fn check_alive(tp: &dyn Transport, image: usize) -> CafResult<()> {
    if news(tp) == 0 {
        return Ok(());
    }
    match of(tp, image) {
        status::STOPPED | status::ERROR_STOPPED => Err(CafError::StoppedImage { image: image + 1 }),
        status::FAILED => Err(CafError::FailedImage { image: image + 1 }),
        _ => Ok(()),
    }
}

/// `Err` if `image` has failed, for coindexed accesses (Fortran 2018 9.6 note and 16.5: an
/// access to a failed image gives STAT_FAILED_IMAGE). A stopped image's memory stays
/// accessible. One local load while no image has terminated, then one load of the job's
/// failed count while none has failed.
pub fn check_failed(tp: &dyn Transport, image: usize) -> CafResult<()> {
    if news(tp) == 0
        || tp.fetch_op(0, JOB_FAILED, 4, AtomicOp::Load, 0) == 0
        || of(tp, image) != status::FAILED
    {
        return Ok(());
    }
    Err(CafError::FailedImage { image: image + 1 })
}

/// Offset of [`crate::transport::control::JobBlock::stopped`] (image 0 holds the job block).
pub const JOB_STOPPED: usize = crate::transport::control::JOB;
/// Offset of [`crate::transport::control::JobBlock::failed`].
pub const JOB_FAILED: usize = crate::transport::control::JOB + 4;
/// Offset of [`crate::transport::control::JobBlock::abort`].
pub const JOB_ABORT: usize = crate::transport::control::JOB + 8;
/// Offset of [`crate::transport::control::JobBlock::abort_claim`].
pub const JOB_ABORT_CLAIM: usize = crate::transport::control::JOB
    + std::mem::offset_of!(crate::transport::control::JobBlock, abort_claim);

/// Which of a team's operations a wait belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// SYNC ALL, SYNC TEAM and the implicit team synchronisations.
    Barrier,
    /// Collective subroutines (and FORM TEAM's exchange).
    Collective,
}

/// Publishes, in this image's control block, how many barriers and collectives of `team` it has
/// entered (call after counting the one being entered, before signalling anyone). Peers read it
/// only after seeing this image terminated, whose status store (SeqCst) orders these stores before
/// it.
pub fn publish(tp: &dyn Transport, team: &Team) {
    let a = tp
        .direct(tp.this_image(), Layout::published(team.level))
        .expect("own segment is mapped");
    // SAFETY: the Published line is aligned and inside this image's mapped control block.
    let p = unsafe { &*(a as *const Published) };
    let (b, c) = team.entered();
    p.team.store(team.id, Ordering::Relaxed);
    p.barriers.store(b, Ordering::Relaxed);
    p.collectives.store(c, Ordering::Relaxed);
}

/// `Err` if a member of `team` has terminated without entering operation number `epoch` of
/// kind `op` of that team, so that it can never take part. A terminated member's own record
/// for the team's level tells: if it names another team, the member never entered this one
/// (it stopped before CHANGE TEAM, or before the team was formed). Costs one local load while
/// no image has terminated.
pub fn check_team(tp: &dyn Transport, team: &Team, op: Op, epoch: u64) -> CafResult<()> {
    if news(tp) == 0 {
        return Ok(());
    }
    let gone = tp.fetch_op(0, JOB_STOPPED, 4, AtomicOp::Load, 0)
        + tp.fetch_op(0, JOB_FAILED, 4, AtomicOp::Load, 0);
    if gone == 0 {
        return Ok(());
    }
    let line = Layout::published(team.level);
    let count = line
        + match op {
            Op::Barrier => 8,
            Op::Collective => 16,
        };
    team.members
        .iter()
        .try_for_each(|&j| match check_alive(tp, j) {
            Err(e)
                if tp.fetch_op(j, line, 8, AtomicOp::Load, 0) != team.id
                    || tp.fetch_op(j, count, 8, AtomicOp::Load, 0) < epoch =>
            {
                Err(e)
            }
            _ => Ok(()),
        })
}

/// `Err` if every member of `team` other than this image has terminated: nobody is left who
/// could make a local wait (EVENT WAIT) succeed.
pub fn check_others(tp: &dyn Transport, team: &Team) -> CafResult<()> {
    if (news(tp) as usize) < team.len() - 1 {
        return Ok(());
    }
    let gone = tp.fetch_op(0, JOB_STOPPED, 4, AtomicOp::Load, 0)
        + tp.fetch_op(0, JOB_FAILED, 4, AtomicOp::Load, 0);
    if (gone as usize) < team.len() - 1 {
        return Ok(());
    }
    let me = tp.this_image();
    let mut last = Ok(());
    for &j in team.members.iter().filter(|&&j| j != me) {
        match check_alive(tp, j) {
            Ok(()) => return Ok(()),
            e => last = e,
        }
    }
    last
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
