//! Coindexed access through reference chains: derived-type coarrays with allocatable or
//! pointer components, `y = c(i)[j]%b(1:n)`, `c(i)[j]%b(1:n) = y`, `c[i]%b = d[j]%b` and
//! `allocated(c[j]%b)`.

use super::descriptor::GfcDescriptor;
use super::errors::finish;
use super::realloc::fit;
use super::refs::{decode, CafRef};
use super::segment::Segment;
use super::transfer::local;
use super::CafToken;
use crate::engine::refs::{walk, Target};
use crate::engine::transfer::{transfer, Side};
use crate::engine::types::{Class, Ty};
use crate::error::{CafError, CafResult};
use crate::runtime::{self, Runtime};
use crate::transport::Layout;
use std::ffi::c_int;

/// Walks `refs` on image `image` of the coarray of `token`: `Ok(None)` if an allocatable
/// component on the way is not allocated; otherwise the target (in that image's address
/// space), its segment and the item size.
///
/// # Safety
/// `token` was created by this runtime; `refs` is a valid chain.
unsafe fn locate(
    rt: &Runtime,
    token: CafToken,
    image: c_int,
    refs: *const CafRef,
) -> CafResult<(Option<Target>, Segment<'static>, usize)> {
    let img = rt.target(image as i64)?;
    // SAFETY: guaranteed by the caller.
    let (t, (chain, item)) = unsafe { (super::token(token), decode(refs)?) };
    // The walk follows pointers the target stored in its own memory, so it runs in the
    // target's address space; the segment translates and reads.
    let seg = Segment::new(rt.tp, img, rt.seg_size);
    // SAFETY: a recorded descriptor is the allocatable coarray variable itself, valid while
    // the coarray is allocated (it is: compiled code holds its token).
    let own = (t.desc != 0).then(|| unsafe { &*(t.desc as *const GfcDescriptor) }.array_dims());
    Ok((
        walk(seg.lo + t.offset, own.as_deref(), &chain, &seg)?,
        seg,
        item,
    ))
}

/// The remote side designated by `refs` on `image`, with elements of BT_* `type_` and `kind`;
/// also the shape of the result.
///
/// # Safety
/// As for [`locate`].
unsafe fn remote(
    rt: &Runtime,
    token: CafToken,
    image: c_int,
    refs: *const CafRef,
    type_: c_int,
    kind: c_int,
) -> CafResult<(Side, Vec<usize>)> {
    // SAFETY: forwarded from the caller.
    let (target, seg, item) = unsafe { locate(rt, token, image, refs) }?;
    let target = target.ok_or_else(|| {
        CafError::InvalidArgument(format!(
            "an allocatable component is not allocated on image {image}"
        ))
    })?;
    let (shift, layout) = Layout::from_lists(target.lists);
    let addr = target.addr.wrapping_add(shift as usize);
    if layout.count() > 0 {
        let (lo, hi) = layout.span(item);
        seg.check(addr.wrapping_add(lo as usize), (hi - lo) as usize)?;
    }
    let class = Class::from_code(type_ as i8);
    let kind = if class == Class::Bytes {
        1
    } else {
        kind.clamp(1, 255) as u8
    };
    let side = Side {
        place: seg.place(addr),
        layout,
        ty: Ty::new(class, kind, item),
    };
    Ok((side, target.shape))
}

/// A coindexed data reference through components on the right-hand side,
/// `y = c(i)[j]%b(...)` (Fortran 2018 9.6 and 10.2.1.3; an allocatable `y` is (re)allocated
/// to the shape of the value, 10.2.1.3 paragraph 3).
///
/// # Safety
/// Arguments as gfortran 12 passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_get_by_ref(
    token: CafToken,
    image: c_int,
    dst: *mut GfcDescriptor,
    refs: *const CafRef,
    dst_kind: c_int,
    src_kind: c_int,
    may_require_tmp: bool,
    dst_reallocatable: bool,
    stat: *mut c_int,
    src_type: c_int,
) {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let r = unsafe { remote(rt, token, image, refs, src_type, src_kind) }.and_then(|(s, shape)| {
        // SAFETY: gfortran passes the destination's own descriptor when it may reallocate.
        unsafe { fit(dst, &shape, dst_reallocatable) }?;
        // SAFETY: forwarded from the caller.
        let d = unsafe { local(dst, dst_kind) };
        transfer(rt.tp, &d, &s, may_require_tmp)?;
        // SAFETY: forwarded from the caller.
        rt.after_access(unsafe { super::token(token) }.span(), &s, true)
    });
    // SAFETY: forwarded from the caller.
    unsafe { finish(r, stat, std::ptr::null_mut(), 0, "coindexed component read") };
}

/// Assignment to a coindexed data reference through components, `c(i)[j]%b(...) = y`
/// (Fortran 2018 10.2.1.3: the remote component must be allocated with the shape of `y`).
///
/// # Safety
/// Arguments as gfortran 12 passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_send_by_ref(
    token: CafToken,
    image: c_int,
    src: *const GfcDescriptor,
    refs: *const CafRef,
    dst_kind: c_int,
    src_kind: c_int,
    may_require_tmp: bool,
    _dst_reallocatable: bool,
    stat: *mut c_int,
    dst_type: c_int,
) {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let r = unsafe { remote(rt, token, image, refs, dst_type, dst_kind) }.and_then(|(d, _)| {
        // SAFETY: forwarded from the caller.
        let s = unsafe { local(src, src_kind) };
        transfer(rt.tp, &d, &s, may_require_tmp)?;
        // SAFETY: forwarded from the caller.
        rt.after_access(unsafe { super::token(token) }.span(), &d, false)
    });
    // SAFETY: forwarded from the caller.
    unsafe {
        finish(
            r,
            stat,
            std::ptr::null_mut(),
            0,
            "coindexed component write",
        )
    };
}

/// Assignment between two coindexed data references through components,
/// `c(i)[j]%b(...) = d(k)[l]%e(...)` (Fortran 2018 10.2.1.3).
///
/// # Safety
/// Arguments as gfortran 12 passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_sendget_by_ref(
    dst_token: CafToken,
    dst_image: c_int,
    dst_refs: *const CafRef,
    src_token: CafToken,
    src_image: c_int,
    src_refs: *const CafRef,
    dst_kind: c_int,
    src_kind: c_int,
    may_require_tmp: bool,
    dst_stat: *mut c_int,
    src_stat: *mut c_int,
    dst_type: c_int,
    src_type: c_int,
) {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let s = unsafe { remote(rt, src_token, src_image, src_refs, src_type, src_kind) };
    // SAFETY: forwarded from the caller.
    let s = match unsafe { finish(s, src_stat, std::ptr::null_mut(), 0, "coindexed copy") } {
        Some((s, _)) => s,
        None => return,
    };
    // SAFETY: forwarded from the caller.
    let r = unsafe { remote(rt, dst_token, dst_image, dst_refs, dst_type, dst_kind) }.and_then(
        |(d, _)| {
            transfer(rt.tp, &d, &s, may_require_tmp)?;
            // SAFETY: forwarded from the caller.
            let (from, to) = unsafe { (super::token(src_token), super::token(dst_token)) };
            rt.after_access(from.span(), &s, true)?;
            rt.after_access(to.span(), &d, false)
        },
    );
    // SAFETY: forwarded from the caller.
    unsafe { finish(r, dst_stat, std::ptr::null_mut(), 0, "coindexed copy") };
}

/// `allocated(c[j]%b)` for a component of a coindexed object (Fortran 2018 16.9.11): whether
/// every allocatable component on the way, the last included, is allocated on image `j`.
///
/// # Safety
/// Arguments as gfortran 12 passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_is_present(
    token: CafToken,
    image: c_int,
    refs: *const CafRef,
) -> c_int {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let r = unsafe { locate(rt, token, image, refs) }.map(|(t, ..)| t.is_some() as c_int);
    // No STAT=: an error terminates the program.
    r.unwrap_or_else(|e| rt.fatal(&e, "ALLOCATED"))
}
