//! IMAGE_STATUS, FAILED_IMAGES and STOPPED_IMAGES (Fortran 2018 16.9.74, 16.9.77, 16.9.183).
//! gfortran 16 passes the address of a TEAM= variable or null; gfortran 8 to 15 accept no team
//! (their team arguments are null or -1): the current team ([`teams16::team_of_argument`]).

use super::descriptor::GfcDescriptor;
use super::teams::CafTeam;
use super::teams16;
use crate::runtime;
use std::ffi::c_int;

/// IMAGE_STATUS(image [, team]) (Fortran 2018 16.9.98): 0, STAT_STOPPED_IMAGE or
/// STAT_FAILED_IMAGE.
///
/// # Safety
/// As gfortran passes them (see [`teams16::team_of_argument`]).
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_image_status(image: c_int, team: *const CafTeam) -> c_int {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    unsafe { teams16::team_of_argument(rt, team) }
        .and_then(|t| rt.image_status_in(t, image as i64))
        .unwrap_or_else(|e| rt.fatal(&e, "IMAGE_STATUS"))
}

/// Fills gfortran's result descriptor of a rank-1 integer array with `images`: the runtime
/// allocates the data with malloc (compiled code frees it) and sets the bounds to
/// `0..len-1`, from which the compiled code derives its own.
///
/// # Safety
/// `result` is a writable rank-1 descriptor; `kind` is null or points to 4 or 8.
unsafe fn fill(result: *mut GfcDescriptor, kind: *const c_int, images: &[i64]) {
    // SAFETY: guaranteed by the caller.
    let k = if kind.is_null() { 4 } else { unsafe { *kind } };
    let elem = if k == 8 { 8 } else { 4 };
    // SAFETY: malloc of at least one byte, so an empty result is still allocated.
    let data = unsafe { libc::malloc((images.len() * elem).max(1)) };
    if data.is_null() {
        runtime::get().fatal(
            &crate::error::CafError::InvalidArgument("out of memory for the image list".into()),
            "FAILED_IMAGES/STOPPED_IMAGES",
        );
    }
    for (i, &v) in images.iter().enumerate() {
        // SAFETY: `data` has room for `images.len()` elements of `elem` bytes.
        unsafe {
            if elem == 8 {
                (data as *mut i64).add(i).write_unaligned(v);
            } else {
                (data as *mut i32).add(i).write_unaligned(v as i32);
            }
        }
    }
    // SAFETY: guaranteed by the caller; only the header and dim[0] are written.
    unsafe {
        std::ptr::addr_of_mut!((*result).base_addr).write(data);
        std::ptr::addr_of_mut!((*result).offset).write(0);
        std::ptr::addr_of_mut!((*result).dtype.elem_len).write(elem);
        std::ptr::addr_of_mut!((*result).span).write(elem as isize);
        let d = std::ptr::addr_of_mut!((*result).dim[0]);
        (*d).lbound = 0;
        (*d).ubound = images.len() as isize - 1;
        (*d).stride = 1;
    }
}

/// FAILED_IMAGES([team, kind]) (Fortran 2018 16.9.77): the failed images of the team, in
/// increasing order.
///
/// # Safety
/// As gfortran passes them: a rank-1 result descriptor, optional team and kind.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_failed_images(
    result: *mut GfcDescriptor,
    team: *const CafTeam,
    kind: *const c_int,
) {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let list = match unsafe { teams16::team_of_argument(rt, team) } {
        Ok(t) => rt.images_in(t, true),
        Err(e) => rt.fatal(&e, "FAILED_IMAGES"),
    };
    // SAFETY: forwarded from the caller.
    unsafe { fill(result, kind, &list) };
}

/// STOPPED_IMAGES([team, kind]) (Fortran 2018 16.9.183): the images of the team that initiated
/// normal termination.
///
/// # Safety
/// As for [`_gfortran_caf_failed_images`].
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_stopped_images(
    result: *mut GfcDescriptor,
    team: *const CafTeam,
    kind: *const c_int,
) {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let list = match unsafe { teams16::team_of_argument(rt, team) } {
        Ok(t) => rt.images_in(t, false),
        Err(e) => rt.fatal(&e, "STOPPED_IMAGES"),
    };
    // SAFETY: forwarded from the caller.
    unsafe { fill(result, kind, &list) };
}
