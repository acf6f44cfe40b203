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

/// A registered coarray's place in every image's segment.
#[derive(Clone, Copy, Debug)]
pub(super) struct Object {
    /// Byte offset in the segment.
    pub offset: usize,
    /// Bytes.
    pub size: usize,
    /// Address of the allocatable coarray's descriptor in this process, or 0.
    pub desc: usize,
    /// Of an intrinsic type: holds no pointer (`Token::plain`).
    pub plain: bool,
}

impl Object {
    /// Its segment bytes `[offset, offset + size)` (`Runtime::after_bytes`).
    pub fn span(&self) -> (usize, usize) {
        (self.offset, self.offset + self.size)
    }
}

/// The object an accessor works on.
pub(super) struct Target {
    /// 0-based initial-team index of the image (this image for the add_data token).
    pub image: usize,
    /// Address of the object in this process; for an object `away`, the add_data's address
    /// in its image's process (`token` is `None`) or 0.
    pub addr: usize,
    /// The registered coarray, `None` for an add_data token.
    pub token: Option<Object>,
    /// This process does not map the object at its owner's address: the accessor runs on
    /// its image (`away.rs`).
    pub away: bool,
}

/// The calling image as an accessor sees it: its number, its add_data and the token through
/// which the accessor reads the add_data.
pub(super) struct Origin {
    /// The caller's image number in its current team (the accessor's `caller_image`).
    pub image: c_int,
    /// The add_data (in this process).
    pub add_data: *mut c_void,
    /// The add_data token.
    pub token: Token,
}

impl Origin {
    /// This image, calling with `add_data` of `size` bytes.
    pub fn here(rt: &Runtime, add_data: *mut c_void, size: usize) -> Origin {
        Origin {
            image: (rt.team.rank + 1) as c_int,
            add_data,
            token: caller_token(add_data, size),
        }
    }

    /// Image `source` (0-based), number `image` in its team, whose add_data (at `addr` in
    /// its process) was copied to `add_data` here.
    pub fn away(
        source: usize,
        image: c_int,
        add_data: *mut c_void,
        size: usize,
        addr: usize,
    ) -> Origin {
        Origin {
            image,
            add_data,
            token: Token {
                offset: addr,
                size,
                kind: RegKind::Coarray,
                heap: HeapKind::CallerOn(source),
                desc: 0,
                plain: false,
            },
        }
    }

    /// The add_data token as the accessor receives it.
    pub fn token(&self) -> CafToken {
        &self.token as *const Token as CafToken
    }
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
    match t.heap {
        HeapKind::Caller => {
            return Ok(Target {
                image: rt.me,
                addr: t.offset,
                token: None,
                away: false,
            })
        }
        HeapKind::CallerOn(j) => {
            return Ok(Target {
                image: j,
                addr: t.offset,
                token: None,
                away: true,
            })
        }
        _ => {}
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
    let object = Some(Object {
        offset: t.offset,
        size: t.size,
        desc: t.desc,
        plain: t.plain,
    });
    // This image's pointers are valid in its own process; another's only where its segment is
    // at the same address as in its owner's.
    let here = rt
        .tp
        .direct(j, t.offset)
        .filter(|_| j == rt.me || same_addresses(rt));
    match here {
        Some(addr) => Ok(Target {
            image: j,
            addr,
            token: object,
            away: false,
        }),
        None if rt.tp.owner_calls().is_some() => Ok(Target {
            image: j,
            addr: 0,
            token: object,
            away: true,
        }),
        None => Err(CafError::InvalidArgument(format!(
            "coindexed access to image {} through a GCC 15+ accessor needs its memory at the \
             same address in this process, and this transport neither maps it so nor runs \
             accessors on the owner: use ferrocaf's own launcher or gfortran 14 or older",
            j + 1
        ))),
    }
}

/// Whether every segment this process maps is at the address its owner uses (shm: always;
/// an MPI shared window: where the library placed it), so that the pointers an image stores in
/// its coarrays (allocatable components) are valid here too. Found once.
pub(super) fn same_addresses(rt: &Runtime) -> bool {
    static SAME: OnceLock<bool> = OnceLock::new();
    *SAME.get_or_init(|| (0..rt.n).all(|j| rt.tp.direct(j, 0).is_none_or(|a| a == rt.tp.home(j))))
}

/// [`caller_token`] of an absent add_data (null, 0 bytes, what gfortran passes for a reference
/// with no caller-side data), made once: the fast paths pass its address instead of building
/// the same token per call.
pub(super) static NO_DATA: Token = Token {
    offset: 0,
    size: 0,
    kind: RegKind::Coarray,
    heap: HeapKind::Caller,
    desc: 0,
    plain: false,
};

/// The token an accessor receives for the caller's `add_data` (at `add_data`, `size` bytes):
/// a nested `get_from_remote` on it reads the caller's own memory.
pub(super) fn caller_token(add_data: *mut c_void, size: usize) -> Token {
    Token {
        offset: add_data as usize,
        size,
        kind: RegKind::Coarray,
        heap: HeapKind::Caller,
        desc: 0,
        plain: false,
    }
}

/// The caller token of the fast paths: [`NO_DATA`] for an absent add_data (no stores), else
/// [`caller_token`] built in `slot`.
#[inline(always)]
pub(super) fn caller_token_in(
    add_data: *mut c_void,
    size: usize,
    slot: &mut std::mem::MaybeUninit<Token>,
) -> &Token {
    if (add_data as usize | size) == 0 {
        &NO_DATA
    } else {
        slot.write(caller_token(add_data, size))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_data_is_the_caller_token_of_nothing() {
        let t = caller_token(std::ptr::null_mut(), 0);
        let n = &NO_DATA;
        assert_eq!(
            (t.offset, t.size, t.kind, t.heap, t.desc),
            (n.offset, n.size, n.kind, n.heap, n.desc)
        );
    }
}
