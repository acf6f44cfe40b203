//! Program start and end, and the image inquiry functions.

use super::teams::{self, CafTeam};
use super::teams16;
use crate::runtime;
use std::ffi::{c_char, c_int};

/// Program start (Fortran 2018 5.3.5: all images begin execution): joins the job, or runs the
/// program on N images when started directly; then synchronises all images once so that
/// static coarrays are registered everywhere before any image accesses them. From here on this
/// image serves the accessors other images run on it (`accessor/serve.rs`).
#[no_mangle]
pub extern "C" fn _gfortran_caf_init(_argc: *mut c_int, _argv: *mut *mut *mut c_char) {
    let rt = runtime::get();
    super::accessor::serve_owner_calls();
    if let Err(e) = rt.barrier.sync(rt.tp, &rt.waiter, &rt.team) {
        rt.fatal(&e, "program start");
    }
}

/// END PROGRAM (Fortran 2018 5.3.7: normal termination waits until all images have initiated
/// termination).
#[no_mangle]
pub extern "C" fn _gfortran_caf_finalize() {
    runtime::get().terminate_normally(0);
}

/// THIS_IMAGE(\[team\]) (Fortran 2018 16.9.190): this image's index in the team, by default the
/// current team. gfortran 16 passes the team value (null when absent); older compilers pass an
/// integer distance, always 0 (see [`teams16::team_of_value`]).
#[no_mangle]
pub extern "C" fn _gfortran_caf_this_image(team: CafTeam) -> c_int {
    let rt = runtime::get();
    teams16::team_of_value(rt, team)
        .map(|t| t.rank as c_int + 1)
        .unwrap_or_else(|e| rt.fatal(&e, "THIS_IMAGE"))
}

/// NUM_IMAGES() (Fortran 2018 16.9.145). gfortran 16 passes `(team, team_number)`: the
/// number of images of the team value, or of the team numbered `*team_number` (-1: the initial
/// team; else a team formed with the current team), or of the current team. gfortran 8 to 15
/// pass `(distance, failed)`: with FAILED= (`failed` 0 or 1) it counts the non-failed or
/// failed images of the current team (`failed` -1: absent).
///
/// # Safety
/// As gfortran passes them: for gfortran 16 `second` is null or points to an integer.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_num_images(first: CafTeam, second: *const i32) -> c_int {
    let rt = runtime::get();
    if !teams::gcc16() {
        return num_images_failed(rt, second as usize as c_int);
    }
    let r = if !first.is_null() {
        teams16::team_of_value(rt, first).map(|t| t.len())
    } else if !second.is_null() {
        // SAFETY: guaranteed by the caller.
        rt.team.size_of_number(unsafe { *second } as i64)
    } else {
        Ok(rt.team.len())
    };
    r.map(|n| n as c_int)
        .unwrap_or_else(|e| rt.fatal(&e, "NUM_IMAGES"))
}

/// NUM_IMAGES with the FAILED= argument of gfortran 8 to 15 (-1 when absent).
fn num_images_failed(rt: &crate::runtime::Runtime, failed: c_int) -> c_int {
    let n = rt.team.len() as c_int;
    if failed < 0 {
        return n;
    }
    let nfailed = rt.images_that(true).len() as c_int;
    match failed {
        1 => nfailed,
        0 => n - nfailed,
        _ => n,
    }
}
