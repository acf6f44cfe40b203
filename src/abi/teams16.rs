//! What only gfortran 16 passes to the team entry points: GET_TEAM, NEW_INDEX= of FORM TEAM
//! and team arguments of the image inquiry functions (libcaf.h of GCC 16, checked against
//! gfortran 16.2's calls).

use super::teams::{gcc16, team_of, team_value, CafTeam};
use crate::engine::team::Team;
use crate::error::{CafError, CafResult};
use crate::runtime::{self, Runtime};
use std::ffi::c_int;

/// GET_TEAM's LEVEL= values (`caf_team_level_t`; INITIAL_TEAM, PARENT_TEAM and CURRENT_TEAM
/// of gfortran 16's `iso_fortran_env`).
const INITIAL_TEAM: i32 = 0;
const PARENT_TEAM: i32 = 1;
const CURRENT_TEAM: i32 = 2;

/// GET_TEAM(\[level\]) (Fortran 2018 16.9.85): the current team when `level` is null or
/// CURRENT_TEAM, the initial team for INITIAL_TEAM, the parent team for PARENT_TEAM (the
/// initial team has none: it is its own). Emitted by gfortran 16 only.
///
/// # Safety
/// `level` is null or points to a readable integer.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_get_team(level: *const i32) -> CafTeam {
    let rt = runtime::get();
    let cur = rt.team.current();
    let team = if level.is_null() {
        cur
    } else {
        // SAFETY: guaranteed by the caller.
        match unsafe { *level } {
            INITIAL_TEAM => rt.team.initial(),
            PARENT_TEAM => cur.parent.unwrap_or(cur),
            CURRENT_TEAM => cur,
            other => rt.fatal(
                &CafError::InvalidArgument(format!(
                    "GET_TEAM: LEVEL= is {other}, not INITIAL_TEAM, PARENT_TEAM or CURRENT_TEAM"
                )),
                "GET_TEAM",
            ),
        }
    };
    team as *const Team as CafTeam
}

/// The team a `caf_team_t *` argument of IMAGE_STATUS, FAILED_IMAGES or STOPPED_IMAGES
/// names: the team variable's address from gfortran 16, null for the current team. gfortran 8
/// to 15 accept no team there and pass null or the integer -1: the current team.
///
/// # Safety
/// For gfortran 16 callers `team` is null or points to a readable team variable.
pub unsafe fn team_of_argument(rt: &Runtime, team: *const CafTeam) -> CafResult<&'static Team> {
    if gcc16() && !team.is_null() {
        // SAFETY: guaranteed by the caller.
        unsafe { team_of(team) }
    } else {
        Ok(rt.team.current())
    }
}

/// The team of THIS_IMAGE and NUM_IMAGES: a team value from gfortran 16 (null: the current
/// team); older compilers pass an integer distance, always 0, and mean the current team.
pub fn team_of_value(rt: &Runtime, team: CafTeam) -> CafResult<&'static Team> {
    if gcc16() {
        team_value(rt, team)
    } else {
        Ok(rt.team.current())
    }
}

/// NEW_INDEX= of FORM TEAM from gfortran 16: null when absent, else the address of the value
/// (of an INTEGER of any kind; the low four bytes hold it on a little-endian machine), except
/// that gfortran 16.2 passes a constant (`new_index=1`, a named constant) through one more
/// indirection: the address of a stack temporary holding the value's address (`D.2 = &D.1;
/// form_team (..., &D.2, ...)` in its tree dump). A value outside `1..=num_images()` is taken
/// as such an address when the argument lies on this thread's stack and holds an address on
/// it (between this frame and the stack's top, so mapped); otherwise it is returned as is
/// (FORM TEAM then reports it out of range). `n` is num_images() of the current team.
///
/// # Safety
/// `p` is null or points to a readable integer (or to such an address, as described).
pub unsafe fn new_index(p: *const c_int, n: usize) -> i64 {
    if p.is_null() {
        return 0;
    }
    // SAFETY: guaranteed by the caller.
    let v = unsafe { p.read() };
    if v >= 1 && v as usize <= n {
        return v as i64;
    }
    let Some((_, high)) = crate::sys::mem::thread_stack() else {
        return v as i64;
    };
    // The caller's temporaries lie between this frame and the top of the stack, all mapped.
    let here = 0u8;
    let low = std::hint::black_box(&here) as *const u8 as usize;
    let on_stack = |a: usize, bytes: usize| a >= low && a.saturating_add(bytes) <= high;
    let a = p as usize;
    if !a.is_multiple_of(8) || !on_stack(a, 8) {
        return v as i64;
    }
    // SAFETY: `a` is 8-aligned and its 8 bytes lie within this thread's mapped stack.
    let q = unsafe { (a as *const usize).read() };
    if !q.is_multiple_of(4) || !on_stack(q, 4) {
        return v as i64;
    }
    // SAFETY: `q` is 4-aligned and its 4 bytes lie within this thread's mapped stack.
    unsafe { (q as *const c_int).read() as i64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_index_by_address_and_through_a_stack_temporary() {
        let v: c_int = 3;
        let direct: *const c_int = &v;
        // SAFETY: `direct` points to a live integer.
        assert_eq!(unsafe { new_index(direct, 4) }, 3);
        // gfortran 16.2's constant NEW_INDEX=: the address of a stack slot holding `direct`.
        let slot: *const c_int = std::hint::black_box(direct);
        let indirect = (&slot as *const *const c_int).cast::<c_int>();
        // SAFETY: `indirect` points to a live pointer to a live integer, both on this stack.
        assert_eq!(unsafe { new_index(indirect, 4) }, 3);
        // SAFETY: null is allowed.
        assert_eq!(unsafe { new_index(std::ptr::null(), 4) }, 0);
        // An out-of-range value off the stack is returned as is, for FORM TEAM to report.
        let heap = Box::new(9 as c_int);
        // SAFETY: `heap` points to a live integer.
        assert_eq!(unsafe { new_index(&*heap, 4) }, 9);
    }
}
