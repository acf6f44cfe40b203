//! Image control statements: SYNC ALL, SYNC IMAGES, SYNC MEMORY.

use super::errors::finish;
use super::generation::{self, Generation};
use super::ErrMsg;
use crate::engine::stats::WaitKind;
use crate::runtime;
use crate::runtime::statement::After;
use std::ffi::{c_char, c_int};

/// The ERRMSG= buffer of the three SYNC statements. gfortran 8 to 15 pass a pointer to the
/// buffer's address (`&&msg` in their tree dumps), unlike every other entry point; gfortran 16
/// passes the buffer itself (`&msg`), as libcaf.h always declared.
///
/// # Safety
/// `errmsg` is null, or (gfortran 16) a buffer, or (earlier) points to a readable buffer address.
unsafe fn sync_errmsg(errmsg: *mut *mut c_char) -> ErrMsg {
    if errmsg.is_null() || generation::current() >= Generation::Gcc16 {
        errmsg.cast()
    } else {
        // SAFETY: guaranteed by the caller.
        unsafe { *errmsg }
    }
}

/// SYNC ALL (Fortran 2018 11.6.3): waits until every image of the current team has executed it.
///
/// # Safety
/// `stat` null or writable; `errmsg` null or ERRMSG= as `sync_errmsg` decodes it (`errmsg_len`
/// writable bytes).
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_sync_all(
    stat: *mut c_int,
    errmsg: *mut *mut c_char,
    errmsg_len: usize,
) {
    let rt = runtime::get();
    let _kind = rt.stats.during(WaitKind::Sync);
    // gfortran 12's SYNC ALL at the end of an ALLOCATE of a coarray has neither STAT= nor
    // ERRMSG= (runtime/statement.rs).
    let after = if stat.is_null() && errmsg.is_null() {
        rt.pending.take()
    } else {
        After::Nothing
    };
    let r = rt.barrier.sync(rt.tp, &rt.waiter, &rt.team);
    let what = match after {
        After::Reported if r.is_err() => return,
        After::Nothing => "SYNC ALL",
        After::Allocate | After::Reported => "ALLOCATE",
    };
    // SAFETY: forwarded from the caller.
    unsafe { finish(r, stat, sync_errmsg(errmsg), errmsg_len, what) };
}

/// SYNC IMAGES (Fortran 2018 11.6.4); `count < 0` means `SYNC IMAGES (*)`.
///
/// # Safety
/// `images` points to `count` integers when `count > 0`; stat/errmsg as for sync_all.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_sync_images(
    count: c_int,
    images: *const c_int,
    stat: *mut c_int,
    errmsg: *mut *mut c_char,
    errmsg_len: usize,
) {
    let rt = runtime::get();
    let list = match count {
        c if c < 0 => None,
        0 => Some(&[][..]),
        // SAFETY: gfortran passes `count` image indices.
        c => Some(unsafe { std::slice::from_raw_parts(images, c as usize) }),
    };
    let _kind = rt.stats.during(WaitKind::Sync);
    let r = rt.sync_images.sync(rt.tp, &rt.waiter, &rt.team, list);
    // SAFETY: forwarded from the caller.
    unsafe { finish(r, stat, sync_errmsg(errmsg), errmsg_len, "SYNC IMAGES") };
}

/// SYNC MEMORY (Fortran 2018 11.6.5): orders this image's memory accesses.
///
/// # Safety
/// stat/errmsg as for sync_all.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_sync_memory(
    stat: *mut c_int,
    errmsg: *mut *mut c_char,
    errmsg_len: usize,
) {
    let rt = runtime::get();
    rt.tp.fence();
    super::accessor::serve_pending(rt);
    // SAFETY: forwarded from the caller.
    unsafe { finish(Ok(()), stat, sync_errmsg(errmsg), errmsg_len, "SYNC MEMORY") };
}
