//! Where every image's segment lies in this process, found once, for the fast paths of scalar
//! gets, puts and atomics: with it, the address of `(image, offset)` is one load and one add
//! instead of a call through the transport (`Transport::direct`), and whether GCC 15+ accessors
//! may run here is one field instead of a lookup per access.

use super::CafToken;
use crate::engine::team::{Placement, Team};
use crate::runtime::Runtime;
use std::ffi::c_int;
use std::sync::atomic::Ordering;
use std::sync::OnceLock;

/// Every segment starts at a multiple of this (the fast paths rely on it: an address is
/// aligned as its segment offset is).
const ALIGN: usize = 16;

/// Every image's segment mapped in this process.
pub struct Near {
    /// Address of image `j`'s segment (0-based initial-team index) in this process.
    pub bases: Box<[usize]>,
    /// Whether every segment is at the address its owner uses (pointers stored in coarrays
    /// are valid here: GCC 15+ accessors may run on them).
    pub same: bool,
}

/// The segments' addresses, or `None` when some image's memory is not mapped here (MPI across
/// nodes, or without the shared window) or a segment is not `ALIGN`ed: then every access
/// takes the general path.
#[inline]
pub fn near(rt: &Runtime) -> Option<&'static Near> {
    static NEAR: OnceLock<Option<Near>> = OnceLock::new();
    NEAR.get_or_init(|| find(rt)).as_ref()
}

/// The current team's [`Placement`] (found once per team), or `None` when some image's memory
/// is not mapped here.
#[inline(always)]
pub fn placement(rt: &Runtime) -> Option<(&'static Team, &'static Placement)> {
    let team = rt.team.current();
    let p = team.placement.get_or_init(|| place(rt, team)).as_ref()?;
    Some((team, p))
}

#[cold]
fn place(rt: &Runtime, team: &Team) -> Option<Placement> {
    let near = near(rt)?;
    Some(Placement {
        members: team.members.iter().map(|&j| (near.bases[j], j)).collect(),
        same: near.same,
        me: (team.rank + 1) as std::ffi::c_int,
    })
}

/// The address in this process of byte `at` of `token`'s coarray on image `image` of the
/// current team (0: this image), when every segment is mapped here, no image has terminated
/// yet and the image index is valid; `None` otherwise (the general path decides, and reports
/// what is wrong).
///
/// # Safety
/// `token` was created by this runtime.
#[inline(always)]
pub unsafe fn address(rt: &Runtime, token: CafToken, at: usize, image: c_int) -> Option<usize> {
    let (team, p) = placement(rt)?;
    if rt.header.news.load(Ordering::Acquire) != 0 {
        return None;
    }
    let k = if image == 0 {
        team.rank
    } else {
        (image as usize).wrapping_sub(1)
    };
    // SAFETY: guaranteed by the caller.
    let offset = unsafe { super::token(token) }.offset + at;
    Some(p.members.get(k)?.0 + offset)
}

#[cold]
fn find(rt: &Runtime) -> Option<Near> {
    let bases = (0..rt.n)
        .map(|j| rt.tp.direct(j, 0).filter(|b| b.is_multiple_of(ALIGN)))
        .collect::<Option<Box<[usize]>>>()?;
    let same = bases.iter().enumerate().all(|(j, &b)| b == rt.tp.home(j));
    Some(Near { bases, same })
}
