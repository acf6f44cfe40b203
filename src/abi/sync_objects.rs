//! LOCK/UNLOCK (and CRITICAL, which gfortran lowers to them) and EVENT POST/WAIT/EVENT_QUERY.

use super::errors::{finish, set_ok};
use super::generation::{self, Generation};
use super::near::address;
use super::{token, CafToken, ErrMsg};
use crate::engine::stats::{Counter, WaitKind};
use crate::engine::{event, lock};
use crate::error::{CafError, CafResult, STAT_FAILED_IMAGE, STAT_UNLOCKED_FAILED_IMAGE};
use crate::runtime::{self, Runtime};
use std::ffi::c_int;

/// The image (image 0 = this one) and segment offset of the element of a lock or event coarray
/// that lies `at` bytes into it.
///
/// # Safety
/// `tok` was created by this runtime.
unsafe fn element(
    rt: &Runtime,
    tok: CafToken,
    at: usize,
    image: c_int,
) -> CafResult<(usize, usize)> {
    let img = if image == 0 {
        rt.me
    } else {
        rt.team.resolve(image as i64)?
    };
    // SAFETY: guaranteed by the caller.
    Ok((img, unsafe { token(tok) }.offset + at))
}

/// STAT_UNLOCKED_FAILED_IMAGE as the program's compiler knows it: 6002 for gfortran 16 (GCC
/// 16's libcaf.h), STAT_FAILED_IMAGE for older ones, whose libcaf.h has no such code (no
/// gfortran up to 16 puts the constant in `iso_fortran_env`).
fn unlocked_failed_image(e: CafError) -> CafError {
    match e {
        CafError::Lock { stat, message }
            if stat == STAT_UNLOCKED_FAILED_IMAGE && generation::current() < Generation::Gcc16 =>
        {
            CafError::Lock {
                stat: STAT_FAILED_IMAGE,
                message,
            }
        }
        e => e,
    }
}

/// LOCK (Fortran 2018 11.6.10); with ACQUIRED_LOCK= it does not wait.
///
/// # Safety
/// Arguments as gfortran passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_lock(
    tok: CafToken,
    index: usize,
    image: c_int,
    acquired: *mut c_int,
    stat: *mut c_int,
    errmsg: ErrMsg,
    len: usize,
) {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let slot = unsafe { address(rt, tok, index * lock::SLOT, image) };
    // SAFETY: the slot's address in a mapped segment while no image has terminated.
    if slot.is_some_and(|a| unsafe { lock::try_lock_at(a, rt.me) }) {
        // SAFETY: STAT= and ACQUIRED_LOCK= as gfortran passes them.
        unsafe {
            set_ok(stat);
            if !acquired.is_null() {
                *acquired = 1;
            }
        }
        return;
    }
    let _kind = rt.stats.during(WaitKind::Lock);
    // SAFETY: forwarded from the caller.
    let r = unsafe { element(rt, tok, index * lock::SLOT, image) }
        .and_then(|(img, off)| {
            lock::lock(rt.tp, &rt.waiter, img, off, !acquired.is_null(), &rt.team)
        })
        .map_err(unlocked_failed_image);
    // SAFETY: forwarded from the caller.
    if let Some(got) = unsafe { finish(r, stat, errmsg, len, "LOCK") } {
        if !acquired.is_null() {
            // SAFETY: ACQUIRED_LOCK is writable when present.
            unsafe { *acquired = got as c_int };
        }
    }
}

/// UNLOCK (Fortran 2018 11.6.10).
///
/// # Safety
/// Arguments as gfortran passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_unlock(
    tok: CafToken,
    index: usize,
    image: c_int,
    stat: *mut c_int,
    errmsg: ErrMsg,
    len: usize,
) {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let slot = unsafe { address(rt, tok, index * lock::SLOT, image) };
    // SAFETY: the slot's address in a mapped segment while no image has terminated.
    if slot.is_some_and(|a| unsafe { lock::unlock_at(a, rt.me) }) {
        // SAFETY: STAT= as gfortran passes it.
        unsafe { set_ok(stat) };
        return;
    }
    // SAFETY: forwarded from the caller.
    let r = unsafe { element(rt, tok, index * lock::SLOT, image) }
        .and_then(|(img, off)| lock::unlock(rt.tp, img, off, &rt.team));
    // SAFETY: forwarded from the caller.
    unsafe { finish(r, stat, errmsg, len, "UNLOCK") };
}

/// EVENT POST (Fortran 2018 11.6.7): atomically increments the event's count on `image`.
///
/// # Safety
/// Arguments as gfortran passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_event_post(
    tok: CafToken,
    index: usize,
    image: c_int,
    stat: *mut c_int,
    errmsg: ErrMsg,
    len: usize,
) {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let r = unsafe { element(rt, tok, event::slot(index), image) }
        .and_then(|(img, off)| rt.events().post(img, off));
    // SAFETY: forwarded from the caller.
    unsafe { finish(r, stat, errmsg, len, "EVENT POST") };
}

/// EVENT WAIT (Fortran 2018 11.6.8): waits until this image's event count reaches
/// UNTIL_COUNT (at least 1), then decrements it by that much.
///
/// # Safety
/// Arguments as gfortran passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_event_wait(
    tok: CafToken,
    index: usize,
    until_count: c_int,
    stat: *mut c_int,
    errmsg: ErrMsg,
    len: usize,
) {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let r = unsafe { element(rt, tok, event::slot(index), 0) }
        .and_then(|(_, off)| rt.events().wait(off, until_count as i64))
        .inspect(|_| {
            rt.stats
                .add(Counter::EventsWaited, until_count.max(1) as u64)
        });
    // SAFETY: forwarded from the caller.
    unsafe { finish(r, stat, errmsg, len, "EVENT WAIT") };
}

/// EVENT_QUERY (Fortran 2018 16.9.72): the event's current count.
///
/// # Safety
/// Arguments as gfortran passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_event_query(
    tok: CafToken,
    index: usize,
    image: c_int,
    count: *mut c_int,
    stat: *mut c_int,
) {
    let rt = runtime::get();
    super::accessor::serve_pending(rt);
    // SAFETY: forwarded from the caller.
    let r = unsafe { element(rt, tok, event::slot(index), image) }
        .map(|(img, off)| rt.events().query(img, off));
    // SAFETY: forwarded from the caller.
    if let Some(c) = unsafe { finish(r, stat, std::ptr::null_mut(), 0, "EVENT_QUERY") } {
        // SAFETY: COUNT is writable.
        unsafe { *count = c.min(i32::MAX as u64) as c_int };
    }
}
