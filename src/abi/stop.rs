//! STOP, ERROR STOP and FAIL IMAGE.

use crate::runtime;
use crate::sys::proc::say;
use std::ffi::c_char;

/// Reads a Fortran string argument.
///
/// # Safety
/// `s` is null or points to `len` readable bytes.
unsafe fn text<'a>(s: *const c_char, len: usize) -> Option<std::borrow::Cow<'a, str>> {
    if s.is_null() {
        return None;
    }
    // SAFETY: guaranteed by the caller.
    Some(String::from_utf8_lossy(unsafe {
        std::slice::from_raw_parts(s as *const u8, len)
    }))
}

/// STOP with an integer code (Fortran 2018 11.4: normal termination, code as exit status).
#[no_mangle]
pub extern "C" fn _gfortran_caf_stop_numeric(code: i32, quiet: bool) {
    runtime::get().stop(code, None, quiet)
}

/// STOP with a character code, or a bare STOP when `s` is null (Fortran 2018 11.4: normal
/// termination, exit status 0).
///
/// # Safety
/// `s` is null or points to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_stop_str(s: *const c_char, len: usize, quiet: bool) {
    // SAFETY: forwarded from the caller.
    let t = unsafe { text(s, len) };
    runtime::get().stop(0, t.as_deref(), quiet)
}

/// FAIL IMAGE (Fortran 2018 11.5): this image fails; the others continue.
#[no_mangle]
pub extern "C" fn _gfortran_caf_fail_image() {
    runtime::get().fail_image()
}

/// ERROR STOP with an integer code (Fortran 2018 11.4: error termination of all images).
#[no_mangle]
pub extern "C" fn _gfortran_caf_error_stop(code: i32, quiet: bool) {
    runtime::get().error_stop(code, None, quiet)
}

/// ERROR STOP with a character code, or bare (Fortran 2018 11.4: error termination of all
/// images, exit status 1).
///
/// # Safety
/// `s` is null or points to `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_error_stop_str(s: *const c_char, len: usize, quiet: bool) {
    // SAFETY: forwarded from the caller.
    let t = unsafe { text(s, len) };
    let rt = runtime::get();
    match t {
        Some(t) => rt.error_stop(1, Some(&t), quiet),
        None => {
            if !quiet {
                say("ERROR STOP");
            }
            rt.abort(1)
        }
    }
}
