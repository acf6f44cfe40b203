//! Where an accessor runs: the target image chosen by an image selector (with TEAM= or
//! TEAM_NUMBER=, Fortran 2018 9.6) and the address of its copy of the coarray in this process.

use crate::abi::teams::{team_of, CafTeam};
use crate::abi::CafToken;
use crate::engine::status::check_failed;
use crate::error::{CafError, CafResult};
use crate::runtime::registry::{HeapKind, RegKind, Token};
use crate::runtime::Runtime;
use std::ffi::{c_int, c_void};
use std::sync::atomic::Ordering;
use std::sync::OnceLock;

/// The object an accessor works on.
pub(super) struct Target {
    /// 0-based initial-team index of the image (this image for the add_data token).
    pub image: usize,
    /// Address of the object in this process.
    pub addr: usize,
    /// The token's record (its segment offset and size), `None` for the add_data token.
    pub token: Option<&'static Token>,
}

/// The members (initial-team indices, in team order) of the team an image selector refers to:
/// TEAM= (the current team or an ancestor); TEAM_NUMBER= (-1: the initial team; else the
/// current team, a team formed by the same FORM TEAM as the current one, or, as GCC's runtimes
/// also accept, an ancestor with that number); else the current team.
///
/// # Safety
/// `team` is null or points to a team variable; `team_number` is null or readable.
unsafe fn selected(
    rt: &Runtime,
    team: *const CafTeam,
    team_number: *const c_int,
) -> CafResult<&'static [usize]> {
    let current = rt.team.current();
    if !team.is_null() {
        // SAFETY: guaranteed by the caller.
        let t = unsafe { team_of(team) }?;
        return if current.within(t) {
            Ok(&t.members)
        } else {
            Err(CafError::InvalidArgument(
                "TEAM= in an image selector names neither the current team nor an ancestor".into(),
            ))
        };
    }
    if team_number.is_null() {
        return Ok(&current.members);
    }
    // SAFETY: guaranteed by the caller.
    let n = i64::from(unsafe { team_number.read() });
    let ancestors = || std::iter::successors(Some(current), |t| t.parent);
    if n == -1 || n == current.number {
        let t = if n == -1 { current.root() } else { current };
        return Ok(&t.members);
    }
    if let Some(members) = current.sibling(n) {
        return Ok(members);
    }
    ancestors()
        .find(|t| t.number == n)
        .map(|t| &t.members[..])
        .ok_or_else(|| {
            CafError::InvalidArgument(format!(
                "TEAM_NUMBER={n} in an image selector names no team formed with the current one, \
                 nor the initial team"
            ))
        })
}

/// The object of `token` on image `image` of the selected team.
///
/// # Safety
/// `token` is null or a token of this runtime (or an add_data token, see [`caller_token`]);
/// `team` and `team_number` as for [`selected`].
#[inline]
pub(super) unsafe fn resolve(
    rt: &Runtime,
    token: CafToken,
    image: c_int,
    team: *const CafTeam,
    team_number: *const c_int,
) -> CafResult<Target> {
    if token.is_null() {
        return Err(CafError::InvalidArgument(
            "coindexed access through an unregistered coarray token".into(),
        ));
    }
    // SAFETY: guaranteed by the caller; tokens live as long as compiled code uses them.
    let t: &'static Token = unsafe { &*(token as *const Token) };
    if t.heap == HeapKind::Caller {
        return Ok(Target {
            image: rt.me,
            addr: t.offset,
            token: None,
        });
    }
    // SAFETY: forwarded from the caller.
    let members = unsafe { selected(rt, team, team_number) }?;
    let j = usize::try_from(image)
        .ok()
        .and_then(|k| k.checked_sub(1))
        .and_then(|k| members.get(k).copied())
        .ok_or(CafError::InvalidImage {
            image: image as i64,
            count: members.len(),
        })?;
    // While no image has terminated (`news` of this image's own header is 0) nobody failed.
    if rt.header.news.load(Ordering::Acquire) != 0 {
        check_failed(rt.tp, j)?;
    }
    if t.heap != HeapKind::Symmetric {
        return Err(CafError::InvalidArgument(
            "coindexed access to a coarray that is not allocated".into(),
        ));
    }
    let addr = rt.tp.direct(j, t.offset).ok_or_else(|| {
        CafError::InvalidArgument(format!(
            "coindexed access to image {}, whose memory is not mapped in this process (another \
             node, or FERROCAF_MPI_SHM=0): GCC 15+ accessors run only where the target's memory \
             is mapped (running them on the owner is not implemented); use the shared window on \
             one node, or gfortran 14 or older",
            j + 1
        ))
    })?;
    if !same_addresses(rt) {
        return Err(CafError::InvalidArgument(format!(
            "coindexed access to image {} through a GCC 15+ accessor needs its memory at the \
             same address in every process, and this transport maps it elsewhere (the pointers \
             it stores would be wrong here): use ferrocaf's own launcher or gfortran 14 or older",
            j + 1
        )));
    }
    Ok(Target {
        image: j,
        addr,
        token: Some(t),
    })
}

/// Whether every segment this process maps is at the address its owner uses (shm: always;
/// an MPI shared window: where the library placed it), so that the pointers an image stores in
/// its coarrays (allocatable components) are valid here too. Found once.
pub(super) fn same_addresses(rt: &Runtime) -> bool {
    static SAME: OnceLock<bool> = OnceLock::new();
    *SAME.get_or_init(|| (0..rt.n).all(|j| rt.tp.direct(j, 0).is_none_or(|a| a == rt.tp.home(j))))
}

/// The token an accessor receives for the caller's `add_data` (at `add_data`, `size` bytes):
/// a nested `get_from_remote` on it reads the caller's own memory.
pub(super) fn caller_token(add_data: *mut c_void, size: usize) -> Token {
    Token {
        offset: add_data as usize,
        size,
        kind: RegKind::Coarray,
        heap: HeapKind::Caller,
        desc: 0,
    }
}
