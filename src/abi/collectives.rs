//! Collective subroutines: CO_SUM, CO_MIN, CO_MAX, CO_BROADCAST.

use super::descriptor::{desc, GfcDescriptor};
use super::errors::{collective_errmsg, finish};
use super::ErrMsg;
use crate::engine::reduce::{combine, ReduceOp};
use crate::engine::types::{Class, Ty};
use crate::runtime::{self, collective::CoOp};
use crate::transport::plan::count;
use std::ffi::c_int;

/// The element type of a collective argument. gfortran passes no kind: it is the element size
/// (half of it for COMPLEX; for CHARACTER the size over `a_len`). REAL(10) and REAL(16) both
/// have 16-byte elements, and 16 is assumed (see docs/ARCHITECTURE.md, "ABI limits").
fn element_type(d: &GfcDescriptor, a_len: c_int) -> Ty {
    let class = Class::from_code(d.dtype.type_);
    let size = d.dtype.elem_len;
    let kind = match class {
        Class::Complex => size / 2,
        Class::Character if a_len > 0 => size / a_len as usize,
        Class::Character => 1,
        _ => size,
    };
    Ty::new(class, kind.clamp(1, 255) as u8, size)
}

/// Shared body of CO_SUM/CO_MIN/CO_MAX (the entry points' own arguments plus the operator).
///
/// # Safety
/// `a` is a valid descriptor; stat/errmsg as gfortran passes them.
#[allow(clippy::too_many_arguments)]
unsafe fn reduce(
    op: ReduceOp,
    a: *mut GfcDescriptor,
    result_image: c_int,
    stat: *mut c_int,
    errmsg: ErrMsg,
    a_len: c_int,
    errmsg_len: usize,
    what: &str,
) {
    let rt = runtime::get();
    let (errmsg, a_len, errmsg_len) = collective_errmsg(errmsg, a_len, errmsg_len);
    // SAFETY: guaranteed by the caller.
    let d = unsafe { desc(a) };
    let ty = element_type(d, a_len);
    let dims = d.allocated_dims();
    let n = if d.base_addr.is_null() {
        0
    } else {
        count(&dims)
    };
    let f = |acc: &mut [u8], other: &[u8]| combine(op, ty, acc, other, n);
    let r = rt.collective(
        d.base_addr as usize,
        &dims,
        ty.size,
        CoOp::Reduce {
            result_image: result_image as i64,
            combine: &f,
        },
    );
    // SAFETY: forwarded from the caller.
    unsafe { finish(r, stat, errmsg, errmsg_len, what) };
}

/// CO_SUM (Fortran 2018 16.9.50): elementwise sum over the current team.
///
/// # Safety
/// Arguments as gfortran passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_co_sum(
    a: *mut GfcDescriptor,
    result_image: c_int,
    stat: *mut c_int,
    errmsg: ErrMsg,
    errmsg_len: usize,
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        reduce(
            ReduceOp::Sum,
            a,
            result_image,
            stat,
            errmsg,
            0,
            errmsg_len,
            "CO_SUM",
        )
    }
}

/// CO_MIN (Fortran 2018 16.9.49): elementwise minimum (CHARACTER: lexical).
///
/// # Safety
/// Arguments as gfortran passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_co_min(
    a: *mut GfcDescriptor,
    result_image: c_int,
    stat: *mut c_int,
    errmsg: ErrMsg,
    a_len: c_int,
    errmsg_len: usize,
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        reduce(
            ReduceOp::Min,
            a,
            result_image,
            stat,
            errmsg,
            a_len,
            errmsg_len,
            "CO_MIN",
        )
    }
}

/// CO_MAX (Fortran 2018 16.9.48): elementwise maximum (CHARACTER: lexical).
///
/// # Safety
/// Arguments as gfortran passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_co_max(
    a: *mut GfcDescriptor,
    result_image: c_int,
    stat: *mut c_int,
    errmsg: ErrMsg,
    a_len: c_int,
    errmsg_len: usize,
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        reduce(
            ReduceOp::Max,
            a,
            result_image,
            stat,
            errmsg,
            a_len,
            errmsg_len,
            "CO_MAX",
        )
    }
}

/// CO_BROADCAST (Fortran 2018 16.9.46): every image receives SOURCE_IMAGE's value.
///
/// # Safety
/// Arguments as gfortran passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_co_broadcast(
    a: *mut GfcDescriptor,
    source_image: c_int,
    stat: *mut c_int,
    errmsg: ErrMsg,
    errmsg_len: usize,
) {
    let rt = runtime::get();
    let (errmsg, _, errmsg_len) = collective_errmsg(errmsg, 0, errmsg_len);
    // SAFETY: guaranteed by the caller.
    let d = unsafe { desc(a) };
    let r = rt.collective(
        d.base_addr as usize,
        &d.allocated_dims(),
        d.dtype.elem_len,
        CoOp::Broadcast {
            source_image: source_image as i64,
        },
    );
    // SAFETY: forwarded from the caller.
    unsafe { finish(r, stat, errmsg, errmsg_len, "CO_BROADCAST") };
}
