//! `_gfortran_caf_is_present_on_remote`: ALLOCATED() of a component of a coindexed object.

use super::guard::call;
use super::table::function;
use super::target::{caller_token, resolve};
use super::Present;
use crate::abi::descriptor::{GfcDescriptor, GfcDim};
use crate::abi::errors::finish;
use crate::abi::generation::{current, Generation};
use crate::abi::CafToken;
use crate::error::CafResult;
use crate::runtime::{self, Runtime};
use std::ffi::{c_int, c_void};
use std::mem::size_of;

/// Bytes of a descriptor header (before its dimensions).
const HEADER: usize = 40;

/// Runs presence accessor `index` against image `image`'s object of `token`.
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
    // SAFETY: the table holds the functions gfortran registered; this index names a presence
    // accessor.
    let f: Present = unsafe { std::mem::transmute::<usize, Present>(function(index)?) };
    // SAFETY: forwarded from the caller.
    let target = unsafe { resolve(rt, token, image, std::ptr::null(), std::ptr::null()) }?;
    let cb = caller_token(add_data, add_data_size);
    let caller = (rt.team.rank + 1) as c_int;
    let mut addr = target.addr as *mut c_void;
    // An allocatable coarray array is passed as its descriptor, pointing at the target's copy.
    // SAFETY: a descriptor is integers and a raw pointer: all-zero bytes are a valid value.
    let mut desc: GfcDescriptor = unsafe { std::mem::zeroed() };
    let arg: *mut c_void = match target.token.map_or(0, |t| t.desc) {
        0 if current() >= Generation::Gcc16 => (&mut addr as *mut *mut c_void).cast(),
        0 => addr,
        d => {
            // SAFETY: a recorded descriptor is the allocatable coarray itself, live while its
            // token is; only its real header and dimensions are copied.
            unsafe {
                let rank = (*(d as *const GfcDescriptor)).rank();
                std::ptr::copy_nonoverlapping(
                    d as *const u8,
                    (&mut desc as *mut GfcDescriptor).cast::<u8>(),
                    (HEADER + rank * size_of::<GfcDim>()).min(size_of::<GfcDescriptor>()),
                );
            }
            desc.base_addr = addr;
            (&mut desc as *mut GfcDescriptor).cast()
        }
    };
    let mut result = 0i32;
    call(target.image, || {
        // SAFETY: the accessor's own convention; every pointer is live for the call.
        unsafe {
            f(
                add_data,
                &caller,
                &mut result,
                arg,
                &cb as *const _ as CafToken,
                0,
            )
        }
    });
    Ok(result)
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
    // SAFETY: no stat: an error terminates the program.
    unsafe {
        finish(
            r,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            0,
            "ALLOCATED",
        )
    }
    .unwrap_or(0)
}
