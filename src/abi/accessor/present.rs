//! `_gfortran_caf_is_present_on_remote`: ALLOCATED() of a component of a coindexed object.

use super::guard::call;
use super::table::presence;
use super::target::{resolve, Origin};
use super::wire::{desc_bytes, desc_from};
use super::Present;
use crate::abi::descriptor::GfcDescriptor;
use crate::abi::generation::{current, Generation};
use crate::abi::CafToken;
use crate::error::CafResult;
use crate::runtime::{self, Runtime};
use std::ffi::{c_int, c_void};

/// Runs presence accessor `index` against image `image`'s object of `token` (on the owner
/// when it is away, `away.rs`).
///
/// # Safety
/// Arguments as gfortran passes them to `_gfortran_caf_is_present_on_remote`.
unsafe fn present(
    rt: &Runtime,
    token: CafToken,
    image: c_int,
    index: c_int,
    add_data: *mut c_void,
    add_data_size: usize,
) -> CafResult<i32> {
    let f = presence(index)?;
    // SAFETY: forwarded from the caller.
    let target = unsafe { resolve(rt, token, image, std::ptr::null(), std::ptr::null()) }?;
    let origin = Origin::here(rt, add_data, add_data_size);
    // SAFETY: a recorded descriptor is the allocatable coarray itself, live while its token is.
    let desc = unsafe { desc_bytes(target.token.map_or(0, |t| t.desc) as *const GfcDescriptor) };
    if target.away {
        // SAFETY: forwarded from the caller.
        return unsafe { super::away::present(rt, index, &target, desc, &origin) };
    }
    // SAFETY: the object at `target.addr` is what the accessor expects.
    Ok(unsafe { run_present(f, target.image, target.addr, desc, &origin) })
}

/// Calls presence accessor `f` on image `image`'s object at `addr`: an allocatable coarray
/// array (whose descriptor's bytes are `desc`, else empty) is passed as a copy of its
/// descriptor pointing there; else gfortran 15 passes the object's address, gfortran 16 the
/// address of a pointer to it.
///
/// # Safety
/// `f` is a presence accessor and `addr` holds the object it expects.
pub(super) unsafe fn run_present(
    f: Present,
    image: usize,
    addr: usize,
    desc: &[u8],
    origin: &Origin,
) -> i32 {
    let mut addr = addr as *mut c_void;
    let mut copy = desc_from(desc);
    let arg: *mut c_void = if !desc.is_empty() {
        copy.base_addr = addr;
        (&mut *copy as *mut GfcDescriptor).cast()
    } else if current() >= Generation::Gcc16 {
        (&mut addr as *mut *mut c_void).cast()
    } else {
        addr
    };
    let mut result = 0i32;
    call(image, || {
        // SAFETY: the accessor's own convention; every pointer is live for the call.
        unsafe {
            f(
                origin.add_data,
                &origin.image,
                &mut result,
                arg,
                origin.token(),
                0,
            )
        }
    });
    result
}

/// `ALLOCATED(x[j]%c...)` (Fortran 2018 16.9.11; GCC 15+): runs presence accessor
/// `present_index` against image `image_index`'s object; an unregistered token is not present.
/// gfortran 15 passes the object's address, gfortran 16 the address of a pointer to it.
///
/// # Safety
/// Arguments as gfortran 15+ passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_is_present_on_remote(
    token: CafToken,
    image_index: c_int,
    present_index: c_int,
    add_data: *mut c_void,
    add_data_size: usize,
) -> i32 {
    if token.is_null() {
        return 0;
    }
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let r = unsafe {
        present(
            rt,
            token,
            image_index,
            present_index,
            add_data,
            add_data_size,
        )
    };
    // No STAT=: an error terminates the program.
    r.unwrap_or_else(|e| rt.fatal(&e, "ALLOCATED"))
}
