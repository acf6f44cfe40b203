//! FORM TEAM, CHANGE TEAM, END TEAM, SYNC TEAM and TEAM_NUMBER. These entry points are
//! emitted by gfortran 12 but absent from GCC's libcaf.h; gfortran 12 accepts no STAT= on them,
//! so errors end the program. A `caf_team_t` is the address of a runtime-owned team.

use crate::engine::team::Team;
use crate::error::{CafError, CafResult};
use crate::runtime::{self, Runtime};
use std::ffi::{c_int, c_void};

/// gfortran's opaque team value.
pub type CafTeam = *mut c_void;

/// Ends the program if `r` failed, in statement `what`.
fn check<T>(rt: &Runtime, r: CafResult<T>, what: &str) -> T {
    r.unwrap_or_else(|e| rt.fatal(&e, what))
}

/// The team a team variable holds.
///
/// # Safety
/// `team` is null or points to a team variable that is null or was defined by FORM TEAM.
pub(crate) unsafe fn team_of(team: *const CafTeam) -> CafResult<&'static Team> {
    let t = if team.is_null() {
        std::ptr::null()
    } else {
        // SAFETY: guaranteed by the caller.
        unsafe { team.read() }.cast_const()
    };
    // SAFETY: non-null team values are leaked `Team`s made by `_gfortran_caf_form_team`.
    unsafe { t.cast::<Team>().as_ref() }
        .ok_or_else(|| CafError::InvalidArgument("the team variable is undefined".into()))
}

/// FORM TEAM (Fortran 2018 11.6.9): collective over the current team; defines `team` as this
/// image's new team numbered `team_number` (NEW_INDEX= is `new_index`, 0 when absent).
///
/// # Safety
/// `team` points to a writable team variable.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_form_team(
    team_number: c_int,
    team: *mut CafTeam,
    new_index: c_int,
) {
    let rt = runtime::get();
    let t = check(
        rt,
        rt.form_team(team_number as i64, new_index as i64),
        "FORM TEAM",
    );
    // SAFETY: guaranteed by the caller.
    unsafe { team.write(t as *const Team as CafTeam) };
}

/// CHANGE TEAM (Fortran 2018 11.1.5.2): makes `team` current and synchronises its images.
///
/// # Safety
/// `team` points to a team variable defined by FORM TEAM.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_change_team(team: *mut CafTeam, _flags: c_int) {
    let rt = runtime::get();
    // SAFETY: guaranteed by the caller.
    let r = unsafe { team_of(team) }.and_then(|t| rt.change_team(t));
    check(rt, r, "CHANGE TEAM");
}

/// END TEAM (Fortran 2018 11.1.5.2): synchronises the team's images, deallocates coarrays
/// allocated in it, and returns to the parent team.
#[no_mangle]
pub extern "C" fn _gfortran_caf_end_team(_team: *mut CafTeam) {
    let rt = runtime::get();
    check(rt, rt.end_team(), "END TEAM");
}

/// SYNC TEAM (Fortran 2018 11.6.6): synchronises the images of `team`.
///
/// # Safety
/// `team` points to a team variable defined by FORM TEAM.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_sync_team(team: *mut CafTeam, _flags: c_int) {
    let rt = runtime::get();
    // SAFETY: guaranteed by the caller.
    let r = unsafe { team_of(team) }.and_then(|t| rt.sync_team(t));
    check(rt, r, "SYNC TEAM");
}

/// TEAM_NUMBER([team]) (Fortran 2018 16.9.189): the team's number, -1 for the initial team;
/// a null `team` means the current team.
///
/// # Safety
/// `team` is null or a team value defined by FORM TEAM.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_team_number(team: CafTeam) -> c_int {
    let rt = runtime::get();
    if team.is_null() {
        return rt.team.number as c_int;
    }
    // SAFETY: non-null team values are leaked `Team`s made by `_gfortran_caf_form_team`.
    unsafe { &*(team as *const Team) }.number as c_int
}
