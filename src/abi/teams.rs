//! FORM TEAM, CHANGE TEAM, END TEAM, SYNC TEAM and TEAM_NUMBER. A `caf_team_t` is the address
//! of a runtime-owned team.
//!
//! The entry points keep their names across ABI generations but not their arguments
//! (docs/ARCHITECTURE.md, "ABI generations"): gfortran 8 to 15 emit them without STAT= or
//! ERRMSG= (absent from their libcaf.h) and pass team variables by address; gfortran 16 passes
//! team values, NEW_INDEX=, STAT= and ERRMSG= ([`super::teams16`] decodes what only it passes).
//! Each entry point reads only the arguments its caller's generation passes; the registers
//! beyond them hold garbage for older callers.

use super::errors::finish;
use super::generation::{self, Generation};
use super::teams16;
use super::ErrMsg;
use crate::engine::team::Team;
use crate::error::{CafError, CafResult};
use crate::runtime::teams::UNDEFINED_TEAM;
use crate::runtime::{self, Runtime};
use std::ffi::{c_int, c_void};

/// gfortran's opaque team value.
pub type CafTeam = *mut c_void;

/// Whether the running program passes gfortran 16's team arguments.
pub(crate) fn gcc16() -> bool {
    generation::current() >= Generation::Gcc16
}

/// The team a team value names; null means the current team.
pub(crate) fn team_value(rt: &Runtime, team: CafTeam) -> CafResult<&'static Team> {
    if team.is_null() {
        Ok(rt.team.current())
    } else {
        rt.team.known(team as usize)
    }
}

/// The team a team variable at `team` holds (checked against the teams this image has).
///
/// # Safety
/// `team` is null or points to a readable team variable.
pub(crate) unsafe fn team_of(team: *const CafTeam) -> CafResult<&'static Team> {
    let rt = runtime::get();
    if team.is_null() {
        return Err(CafError::InvalidArgument("no team variable".into()));
    }
    // SAFETY: guaranteed by the caller.
    let t = unsafe { team.read() };
    if t.is_null() {
        return Err(CafError::InvalidArgument(UNDEFINED_TEAM.into()));
    }
    team_value(rt, t)
}

/// Delivers the result of a team statement: through STAT=/ERRMSG= when gfortran 16 passed
/// them, else (or without STAT=) error termination on failure.
///
/// # Safety
/// For gfortran 16 callers `stat` is null or writable and `errmsg` null or `len` writable
/// bytes; for older callers they are not read.
unsafe fn deliver<T>(
    r: CafResult<T>,
    stat: *mut c_int,
    errmsg: ErrMsg,
    len: usize,
    what: &str,
) -> Option<T> {
    if gcc16() {
        // SAFETY: guaranteed by the caller.
        unsafe { finish(r, stat, errmsg, len, what) }
    } else {
        Some(r.unwrap_or_else(|e| crate::runtime::get().fatal(&e, what)))
    }
}

/// FORM TEAM (Fortran 2018 11.6.9): collective over the current team; defines `team` as this
/// image's new team numbered `team_number`, ordered by NEW_INDEX= when given. gfortran 16
/// passes NEW_INDEX=, STAT= and ERRMSG= (`new_index` is then null when absent); older
/// compilers pass an integer 0 in its place and nothing after it.
///
/// # Safety
/// `team` points to a writable team variable; the rest as gfortran passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_form_team(
    team_number: c_int,
    team: *mut CafTeam,
    new_index: *const c_int,
    stat: *mut c_int,
    errmsg: ErrMsg,
    len: usize,
) {
    let rt = runtime::get();
    let index = if gcc16() {
        // SAFETY: gfortran 16 passes NEW_INDEX= as teams16::new_index decodes it.
        unsafe { teams16::new_index(new_index, rt.team.current().len()) }
    } else {
        0
    };
    let r = rt.form_team(team_number as i64, index);
    // SAFETY: forwarded from the caller.
    if let Some(t) = unsafe { deliver(r, stat, errmsg, len, "FORM TEAM") } {
        // SAFETY: guaranteed by the caller.
        unsafe { team.write(t as *const Team as CafTeam) };
    }
}

/// CHANGE TEAM (Fortran 2018 11.1.5.2): makes the team current and synchronises its images.
/// gfortran 16 passes the team value, STAT= and ERRMSG=; older compilers the team variable's
/// address and an integer 0.
///
/// # Safety
/// As gfortran passes them: `team` a team value (16) or the address of a team variable.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_change_team(
    team: *mut c_void,
    stat: *mut c_int,
    errmsg: ErrMsg,
    len: usize,
) {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let r = unsafe { team_argument(rt, team) }.and_then(|t| rt.change_team(t));
    // SAFETY: forwarded from the caller.
    unsafe { deliver(r, stat, errmsg, len, "CHANGE TEAM") };
}

/// END TEAM (Fortran 2018 11.1.5.2): synchronises the team's images, deallocates coarrays
/// allocated in it, and returns to the parent team. gfortran 16 passes STAT= and ERRMSG=;
/// older compilers a null team pointer (so `stat` is null for them too).
///
/// # Safety
/// As gfortran passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_end_team(stat: *mut c_int, errmsg: ErrMsg, len: usize) {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    unsafe { deliver(rt.end_team(), stat, errmsg, len, "END TEAM") };
}

/// SYNC TEAM (Fortran 2018 11.6.6): synchronises the images of the team; arguments as for
/// [`_gfortran_caf_change_team`].
///
/// # Safety
/// As for [`_gfortran_caf_change_team`].
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_sync_team(
    team: *mut c_void,
    stat: *mut c_int,
    errmsg: ErrMsg,
    len: usize,
) {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let r = unsafe { team_argument(rt, team) }.and_then(|t| rt.sync_team(t));
    // SAFETY: forwarded from the caller.
    unsafe { deliver(r, stat, errmsg, len, "SYNC TEAM") };
}

/// The team of CHANGE TEAM and SYNC TEAM: a team value (gfortran 16) or the address of a
/// team variable (older).
///
/// # Safety
/// As for [`_gfortran_caf_change_team`].
unsafe fn team_argument(rt: &Runtime, team: *mut c_void) -> CafResult<&'static Team> {
    if team.is_null() {
        return Err(CafError::InvalidArgument(UNDEFINED_TEAM.into()));
    }
    if gcc16() {
        team_value(rt, team)
    } else {
        // SAFETY: older compilers pass the address of the team variable.
        unsafe { team_of(team as *const CafTeam) }
    }
}

/// TEAM_NUMBER(\[team\]) (Fortran 2018 16.9.189): the team's number, -1 for the initial team;
/// a null `team` means the current team (every generation passes the value; gfortran 8 to 15
/// pass an integer 0 for the current team).
#[no_mangle]
pub extern "C" fn _gfortran_caf_team_number(team: CafTeam) -> c_int {
    let rt = runtime::get();
    team_value(rt, team)
        .map(|t| t.number as c_int)
        .unwrap_or_else(|e| rt.fatal(&e, "TEAM_NUMBER"))
}
