//! Program start and end, and the image inquiry functions.

use crate::runtime;
use std::ffi::{c_char, c_int};

/// Program start (Fortran 2018 5.3.5: all images begin execution): joins the job, or runs the
/// program on N images when started directly; then synchronises all images once so that
/// static coarrays are registered everywhere before any image accesses them.
#[no_mangle]
pub extern "C" fn _gfortran_caf_init(_argc: *mut c_int, _argv: *mut *mut *mut c_char) {
    let rt = runtime::get();
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

/// THIS_IMAGE() without arguments (Fortran 2018 16.9.190): this image's index in the current team.
#[no_mangle]
pub extern "C" fn _gfortran_caf_this_image(_distance: c_int) -> c_int {
    runtime::get().team.rank as c_int + 1
}

/// NUM_IMAGES() (Fortran 2018 16.9.145); with FAILED= it counts failed (or non-failed) images.
#[no_mangle]
pub extern "C" fn _gfortran_caf_num_images(_distance: c_int, failed: c_int) -> c_int {
    let rt = runtime::get();
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
