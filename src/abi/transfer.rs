//! Coindexed reads and writes: `y = x[j]`, `x[j] = y`, `x[i] = y[j]` on scalars and (strided)
//! sections of any rank.

use super::descriptor::{desc, GfcDescriptor};
use super::errors::finish;
use super::CafToken;
use crate::engine::transfer::{transfer, Side};
use crate::error::{CafError, CafResult};
use crate::runtime::{self, Runtime};
use crate::transport::plan::{count, span};
use crate::transport::Place;
use std::ffi::{c_int, c_void};

/// Rejects vector subscripts, which this entry point does not decode yet.
fn no_vector(v: *const c_void) -> CafResult<()> {
    if v.is_null() {
        Ok(())
    } else {
        Err(CafError::InvalidArgument(
            "vector subscripts on coindexed objects are not supported yet".into(),
        ))
    }
}

/// The remote side of an access: image `image` (team numbering), byte `offset` into the
/// coarray of `token`, laid out like `d`.
///
/// # Safety
/// `token` was created by this runtime; `d` is a valid descriptor.
unsafe fn remote(
    rt: &Runtime,
    token: CafToken,
    offset: usize,
    image: c_int,
    d: *const GfcDescriptor,
    kind: c_int,
) -> CafResult<Side> {
    let img = rt.team.resolve(image as i64)?;
    // SAFETY: guaranteed by the caller.
    let (t, d) = unsafe { (super::token(token), desc(d)) };
    let dims = d.dims();
    if count(&dims) > 0 {
        let (lo, hi) = span(&dims, d.dtype.elem_len);
        let (first, end) = (offset as isize + lo, offset as isize + hi);
        if first < 0 || end > t.size as isize {
            return Err(CafError::InvalidArgument(format!(
                "the coindexed section (bytes {first}..{end}) lies outside the coarray ({} bytes)",
                t.size
            )));
        }
    }
    Ok(Side {
        place: Place::Remote {
            image: img,
            offset: t.offset + offset,
        },
        dims,
        ty: d.ty(kind),
    })
}

/// The local side of an access, laid out like `d`.
///
/// # Safety
/// `d` is a valid descriptor.
unsafe fn local(d: *const GfcDescriptor, kind: c_int) -> Side {
    // SAFETY: guaranteed by the caller.
    let d = unsafe { desc(d) };
    Side {
        place: Place::Local(d.base_addr as usize),
        dims: d.dims(),
        ty: d.ty(kind),
    }
}

/// A coindexed object on the right-hand side, `y = x(...)[j]` (Fortran 2018 9.6: the value of
/// image j's coarray, converted to the kind of `y`).
///
/// # Safety
/// Arguments as gfortran 12 passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_get(
    token: CafToken,
    offset: usize,
    image: c_int,
    src: *const GfcDescriptor,
    src_vector: *const c_void,
    dst: *const GfcDescriptor,
    src_kind: c_int,
    dst_kind: c_int,
    may_require_tmp: bool,
    stat: *mut c_int,
) {
    let rt = runtime::get();
    let r = no_vector(src_vector).and_then(|_| {
        // SAFETY: forwarded from the caller.
        let (s, d) = unsafe {
            (
                remote(rt, token, offset, image, src, src_kind)?,
                local(dst, dst_kind),
            )
        };
        transfer(&*rt.tp, &d, &s, may_require_tmp)?;
        rt.after_access(&s, true)
    });
    // SAFETY: forwarded from the caller.
    unsafe { finish(r, stat, std::ptr::null_mut(), 0, "coindexed read") };
}

/// Assignment to a coindexed object, `x(...)[j] = y` (Fortran 2018 10.2.1.3, converting `y` to
/// the kind of `x`; a scalar `y` is broadcast).
///
/// # Safety
/// Arguments as gfortran 12 passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_send(
    token: CafToken,
    offset: usize,
    image: c_int,
    dst: *const GfcDescriptor,
    dst_vector: *const c_void,
    src: *const GfcDescriptor,
    dst_kind: c_int,
    src_kind: c_int,
    may_require_tmp: bool,
    stat: *mut c_int,
    _team: *const c_void,
) {
    let rt = runtime::get();
    let r = no_vector(dst_vector).and_then(|_| {
        // SAFETY: forwarded from the caller.
        let (d, s) = unsafe {
            (
                remote(rt, token, offset, image, dst, dst_kind)?,
                local(src, src_kind),
            )
        };
        transfer(&*rt.tp, &d, &s, may_require_tmp)?;
        rt.after_access(&d, false)
    });
    // SAFETY: forwarded from the caller.
    unsafe { finish(r, stat, std::ptr::null_mut(), 0, "coindexed write") };
}

/// Assignment between two coindexed objects, `x(...)[i] = y(...)[j]`.
///
/// # Safety
/// Arguments as gfortran 12 passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_sendget(
    dst_token: CafToken,
    dst_offset: usize,
    dst_image: c_int,
    dst: *const GfcDescriptor,
    dst_vector: *const c_void,
    src_token: CafToken,
    src_offset: usize,
    src_image: c_int,
    src: *const GfcDescriptor,
    src_vector: *const c_void,
    dst_kind: c_int,
    src_kind: c_int,
    may_require_tmp: bool,
    stat: *mut c_int,
) {
    let rt = runtime::get();
    let r = no_vector(dst_vector)
        .and(no_vector(src_vector))
        .and_then(|_| {
            // SAFETY: forwarded from the caller.
            let (d, s) = unsafe {
                (
                    remote(rt, dst_token, dst_offset, dst_image, dst, dst_kind)?,
                    remote(rt, src_token, src_offset, src_image, src, src_kind)?,
                )
            };
            transfer(&*rt.tp, &d, &s, may_require_tmp)?;
            rt.after_access(&s, true)?;
            rt.after_access(&d, false)
        });
    // SAFETY: forwarded from the caller.
    unsafe { finish(r, stat, std::ptr::null_mut(), 0, "coindexed copy") };
}
