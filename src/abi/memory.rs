//! Coarray registration: ALLOCATE/DEALLOCATE of coarrays and static coarrays, locks, events
//! and allocatable components.

use super::descriptor::GfcDescriptor;
use super::errors::finish;
use super::{CafToken, ErrMsg};
use crate::runtime::statement::check_running;
use crate::runtime::{self, coarrays::Register};
use std::ffi::c_int;

/// ALLOCATE of a coarray, or a static coarray before `main` (Fortran 2018 9.7.1.2: allocation
/// of a coarray is collective and gives every image the same bounds); from gfortran 16 also a
/// name associated with a coarray by ASSOCIATE or CHANGE TEAM (11.1.3, 11.1.5; type 9,
/// MAP_EXISTING).
///
/// # Safety
/// Arguments as gfortran passes them: valid token and descriptor pointers, optional stat and
/// errmsg of `errmsg_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_register(
    size: usize,
    kind: c_int,
    token: *mut CafToken,
    desc: *mut GfcDescriptor,
    stat: *mut c_int,
    errmsg: ErrMsg,
    errmsg_len: usize,
) {
    let rt = runtime::get();
    // SAFETY: gfortran passes a valid token slot.
    let old = unsafe { *token } as *mut _;
    // COARRAY_ALLOC, LOCK_ALLOC and EVENT_ALLOC come from an ALLOCATE statement (unless the slot
    // holds a component's token, see `Runtime::register`), which synchronises the team: with a
    // terminated member it fails before allocating (Fortran 2018 9.7.4, STAT_STOPPED_IMAGE).
    let statement = matches!(kind, 1 | 3 | 6) && !rt.registry.is_component(old as usize);
    let r = if statement {
        check_running(rt.tp, &rt.team)
    } else {
        Ok(())
    };
    // SAFETY: gfortran passes back tokens this runtime created (or null), and a descriptor
    // whose data pointer lies in the aliased coarray for MAP_EXISTING.
    let r = r
        .and_then(|()| Register::from_code(kind))
        .and_then(|how| unsafe {
            match how {
                Register::MapExisting if !desc.is_null() => {
                    rt.map_existing(old, (*desc).base_addr as usize)
                }
                _ => rt.register(size, how, old, desc as usize, plain(desc)),
            }
        });
    if statement {
        rt.pending.allocate(r.is_err() && !stat.is_null());
    }
    // SAFETY: stat/errmsg as gfortran passes them.
    if let Some((tok, addr)) = unsafe { finish(r, stat, errmsg, errmsg_len, "ALLOCATE") } {
        // SAFETY: token and descriptor are valid for writing, per gfortran.
        unsafe {
            *token = tok as CafToken;
            if !desc.is_null() && addr != 0 {
                (*desc).base_addr = addr as *mut _;
            }
        }
    }
}

/// Whether the registration's descriptor `desc` (null or valid) names an intrinsic type:
/// BT_INTEGER, BT_LOGICAL, BT_REAL, BT_COMPLEX or BT_CHARACTER (gfortran sets the type code of
/// the descriptors it registers coarrays with, static and allocatable).
///
/// # Safety
/// `desc` is null or a valid descriptor.
unsafe fn plain(desc: *const GfcDescriptor) -> bool {
    // SAFETY: as the caller guarantees.
    unsafe { desc.as_ref() }.is_some_and(|d| matches!(d.dtype.type_, 1..=4 | 6))
}

/// DEALLOCATE of a coarray (Fortran 2018 9.7.3.2: deallocation of a coarray synchronises all
/// images), or of an allocatable component's memory (type 1, DEALLOCATE_ONLY).
///
/// # Safety
/// As for [`_gfortran_caf_register`].
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_deregister(
    token: *mut CafToken,
    kind: c_int,
    stat: *mut c_int,
    errmsg: ErrMsg,
    errmsg_len: usize,
) {
    let rt = runtime::get();
    let tok = if token.is_null() {
        std::ptr::null_mut()
    } else {
        // SAFETY: a non-null token slot is readable.
        unsafe { *token }
    };
    let keep = kind == 1;
    // SAFETY: gfortran passes back tokens this runtime created (or null).
    let r = unsafe { rt.deregister(tok as *mut _, keep) };
    // SAFETY: stat/errmsg as gfortran passes them.
    if unsafe { finish(r, stat, errmsg, errmsg_len, "DEALLOCATE") }.is_some() && !keep {
        // SAFETY: the token slot is writable.
        unsafe { *token = std::ptr::null_mut() };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_intrinsic_types_are_plain() {
        // SAFETY: a descriptor is integers and a raw pointer: all-zero bytes are a valid value.
        let mut d: GfcDescriptor = unsafe { std::mem::zeroed() };
        for code in [1, 2, 3, 4, 6] {
            d.dtype.type_ = code;
            // SAFETY: `d` is a valid descriptor.
            assert!(unsafe { plain(&d) }, "type code {code}");
        }
        for code in [0, 5, 7, 8, 11] {
            d.dtype.type_ = code;
            // SAFETY: as above.
            assert!(!unsafe { plain(&d) }, "type code {code}");
        }
        // SAFETY: null is allowed.
        assert!(!unsafe { plain(std::ptr::null()) });
    }
}
