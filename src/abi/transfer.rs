//! Coindexed reads and writes: `y = x[j]`, `x[j] = y`, `x[i] = y[j]` on scalars, (strided)
//! sections of any rank and vector-subscripted sections.

use super::descriptor::{desc, GfcDescriptor};
use super::errors::finish;
use super::vector::{offsets, CafVector};
use super::CafToken;
use crate::engine::transfer::{transfer, Side};
use crate::error::{CafError, CafResult};
use crate::runtime::registry::Token;
use crate::runtime::{self, Runtime};
use crate::transport::{Dim, Dims, Layout, Place};
use std::ffi::{c_int, c_void};

/// Checks that bytes `lo..hi` relative to byte `offset` of the coarray of `t` lie inside it.
pub(super) fn inside(t: &Token, offset: usize, (lo, hi): (isize, isize)) -> CafResult<()> {
    let (first, end) = (offset as isize + lo, offset as isize + hi);
    if first < 0 || end > t.size as isize {
        return Err(CafError::InvalidArgument(format!(
            "the coindexed section (bytes {first}..{end}) lies outside the coarray ({} bytes)",
            t.size
        )));
    }
    Ok(())
}

/// The remote side of an access: image `image` (team numbering), byte `offset` into the
/// coarray of `token`, laid out like `d`, or selected by the vector subscripts `vecs`; no
/// elements at all if `empty` (the other side of the transfer has none).
///
/// # Safety
/// `token` was created by this runtime; `d` is a valid descriptor; `vecs` is null or holds one
/// valid `caf_vector_t` per dimension of `d`.
#[allow(clippy::too_many_arguments)] // one per gfortran argument describing the side
unsafe fn remote(
    rt: &Runtime,
    token: CafToken,
    offset: usize,
    image: c_int,
    d: *const GfcDescriptor,
    vecs: *const CafVector,
    kind: c_int,
    empty: bool,
) -> CafResult<Side> {
    let img = rt.target(image as i64)?;
    // SAFETY: guaranteed by the caller.
    let (t, d) = unsafe { (super::token(token), desc(d)) };
    let place = Place::Remote {
        image: img,
        offset: t.offset + offset,
    };
    // An empty transfer moves nothing, and must not decode `vecs`: for an empty vector
    // subscript gfortran passes `nvec == 0`, which otherwise means a triplet, and leaves the
    // triplet fields unset. The caller knows from the other side (the descriptor's bounds do
    // not tell: they describe neither the array nor, reliably, the result).
    let (shift, layout) = if vecs.is_null() || empty {
        (
            0,
            Layout::Strided(if empty {
                Dims::from([Dim {
                    extent: 0,
                    stride: 0,
                }])
            } else {
                d.dims()
            }),
        )
    } else {
        // SAFETY: guaranteed by the caller.
        Layout::from_lists(unsafe { offsets(d, vecs) }?)
    };
    if layout.count() > 0 {
        let (lo, hi) = layout.span(d.dtype.elem_len);
        inside(t, offset, (lo + shift, hi + shift))?;
    }
    Ok(Side {
        place: place.shifted(shift),
        layout,
        ty: d.ty(kind),
    })
}

/// Bytes of a side (for statistics).
fn bytes(s: &Side) -> u64 {
    (s.layout.count() * s.ty.size) as u64
}

/// The local side of an access, laid out like `d`.
///
/// # Safety
/// `d` is a valid descriptor.
pub(super) unsafe fn local(d: *const GfcDescriptor, kind: c_int) -> Side {
    // SAFETY: guaranteed by the caller.
    let d = unsafe { desc(d) };
    Side {
        place: Place::Local(d.base_addr as usize),
        layout: Layout::Strided(d.dims()),
        ty: d.ty(kind),
    }
}

/// One coindexed access between the section `far` (with `far_vector`, kind `far_kind`) at
/// byte `offset` of the coarray of `token` on team image `image` and the local section `near`
/// (kind `near_kind`): a read into `near` if `read`, else a write from it. The fast path is
/// tried first, the general one (copy plan, conversion, broadcast) if it declines.
///
/// # Safety
/// Arguments as gfortran 12 passes them to `_gfortran_caf_get`/`_gfortran_caf_send`.
#[inline(always)] // each entry point keeps its own copy, as when the code was written out twice
#[allow(clippy::too_many_arguments)] // one per gfortran argument describing the two sides
unsafe fn access(
    token: CafToken,
    offset: usize,
    image: c_int,
    far: *const GfcDescriptor,
    far_vector: *const CafVector,
    far_kind: c_int,
    near: *const GfcDescriptor,
    near_kind: c_int,
    read: bool,
    may_require_tmp: bool,
    stat: *mut c_int,
) {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let fast = unsafe {
        super::transfer_fast::access(
            rt, token, offset, image, far, far_vector, far_kind, near, near_kind, read,
        )
    };
    let r = fast.unwrap_or_else(|| {
        // SAFETY: forwarded from the caller.
        let n = unsafe { local(near, near_kind) };
        let empty = n.layout.count() == 0;
        // SAFETY: forwarded from the caller.
        let f = unsafe { remote(rt, token, offset, image, far, far_vector, far_kind, empty) }?;
        let (d, s) = if read { (&n, &f) } else { (&f, &n) };
        transfer(rt.tp, d, s, may_require_tmp)?;
        rt.stats.access(read, bytes(&f));
        // SAFETY: forwarded from the caller.
        rt.after_access(unsafe { super::token(token) }.span(), &f, read)
    });
    let what = if read {
        "coindexed read"
    } else {
        "coindexed write"
    };
    // SAFETY: forwarded from the caller.
    unsafe { finish(r, stat, std::ptr::null_mut(), 0, what) };
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
    src_vector: *const CafVector,
    dst: *const GfcDescriptor,
    src_kind: c_int,
    dst_kind: c_int,
    may_require_tmp: bool,
    stat: *mut c_int,
) {
    // SAFETY: forwarded from the caller.
    if unsafe {
        super::transfer_fast::scalar_get(
            token, offset, image, src, src_vector, dst, src_kind, dst_kind, stat,
        )
    } {
        return;
    }
    // SAFETY: forwarded from the caller.
    unsafe {
        access(
            token,
            offset,
            image,
            src,
            src_vector,
            src_kind,
            dst,
            dst_kind,
            true,
            may_require_tmp,
            stat,
        )
    }
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
    dst_vector: *const CafVector,
    src: *const GfcDescriptor,
    dst_kind: c_int,
    src_kind: c_int,
    may_require_tmp: bool,
    stat: *mut c_int,
    _team: *const c_void,
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        access(
            token,
            offset,
            image,
            dst,
            dst_vector,
            dst_kind,
            src,
            src_kind,
            false,
            may_require_tmp,
            stat,
        )
    }
}

/// Assignment between two coindexed objects, `x(...)[i] = y(...)[j]` (Fortran 2018 10.2.1.3,
/// converting to the kind of `x`).
///
/// # Safety
/// Arguments as gfortran 12 passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_sendget(
    dst_token: CafToken,
    dst_offset: usize,
    dst_image: c_int,
    dst: *const GfcDescriptor,
    dst_vector: *const CafVector,
    src_token: CafToken,
    src_offset: usize,
    src_image: c_int,
    src: *const GfcDescriptor,
    src_vector: *const CafVector,
    dst_kind: c_int,
    src_kind: c_int,
    may_require_tmp: bool,
    stat: *mut c_int,
) {
    let rt = runtime::get();
    // A side without vector subscripts has reliable bounds; if it is empty, so is the other.
    // SAFETY: forwarded from the caller.
    let empty = unsafe {
        (dst_vector.is_null() && desc(dst).count() == 0)
            || (src_vector.is_null() && desc(src).count() == 0)
    };
    // SAFETY: forwarded from the caller.
    let r = unsafe {
        remote(
            rt, dst_token, dst_offset, dst_image, dst, dst_vector, dst_kind, empty,
        )
        .and_then(|d| {
            let s = remote(
                rt, src_token, src_offset, src_image, src, src_vector, src_kind, empty,
            )?;
            transfer(rt.tp, &d, &s, may_require_tmp)?;
            rt.stats.access(true, bytes(&s));
            rt.stats.access(false, bytes(&d));
            let (from, to) = (super::token(src_token), super::token(dst_token));
            rt.after_access(from.span(), &s, true)?;
            rt.after_access(to.span(), &d, false)
        })
    };
    // SAFETY: forwarded from the caller.
    unsafe { finish(r, stat, std::ptr::null_mut(), 0, "coindexed copy") };
}
