//! The common case of GET and SEND, tried before the general path: no vector subscript, both
//! sides contiguous in array element order, the same number of elements of the same
//! representation. Such an access is one bounds check and one [`Transport::copy_bytes`], with
//! no copy plan and no allocation (through the general path, a put of one REAL(8) cost about
//! 1800 instructions, a third of them in `malloc`/`free`).
//!
//! [`Transport::copy_bytes`]: crate::transport::Transport::copy_bytes

use super::descriptor::{desc, GfcDescriptor};
use super::near::address;
use super::transfer::inside;
use super::vector::CafVector;
use super::CafToken;
use crate::error::CafResult;
use crate::runtime::Runtime;
use crate::transport::Place;
use std::ffi::c_int;

/// The bytes of the section `d` describes, if its elements are contiguous in array element
/// order (a scalar is) and there is at least one; `None` otherwise.
pub(super) fn packed_bytes(d: &GfcDescriptor) -> Option<usize> {
    let elem = d.dtype.elem_len;
    if elem == 0 {
        return None;
    }
    let span = d.span();
    let mut bytes = elem;
    for k in 0..d.rank() {
        let g = d.dim_at(k);
        let extent = g.ubound.checked_sub(g.lbound)?.checked_add(1)?;
        if extent <= 0 || (extent > 1 && g.stride.checked_mul(span)? != bytes as isize) {
            return None;
        }
        bytes = bytes.checked_mul(extent as usize)?;
    }
    Some(bytes)
}

/// Whether `r` and `l` are scalars of one type and kind (`x = y[j]`, `y[j] = x`): their bytes
/// are copied as they are, with no section walk and no type comparison.
#[inline(always)]
fn same_scalar(r: &GfcDescriptor, l: &GfcDescriptor, r_kind: c_int, l_kind: c_int) -> bool {
    r.dtype.rank == 0
        && l.dtype.rank == 0
        && r_kind == l_kind
        && r.dtype.type_ == l.dtype.type_
        && r.dtype.elem_len == l.dtype.elem_len
        && l.dtype.elem_len != 0
}

/// One coindexed access through the fast path: the section `remote` (with `remote_vector`) at
/// byte `offset` of the coarray of `token` on team image `image`, read into (`is_get`) or
/// written from the local section `local`. `None` if the access needs the general path.
///
/// # Safety
/// Arguments as gfortran 12 passes them to `_gfortran_caf_get`/`_gfortran_caf_send`.
#[allow(clippy::too_many_arguments)] // one per gfortran argument describing the two sides
pub(super) unsafe fn access(
    rt: &Runtime,
    token: CafToken,
    offset: usize,
    image: c_int,
    remote: *const GfcDescriptor,
    remote_vector: *const CafVector,
    remote_kind: c_int,
    local: *const GfcDescriptor,
    local_kind: c_int,
    is_get: bool,
) -> Option<CafResult<()>> {
    if !remote_vector.is_null() {
        return None;
    }
    // SAFETY: valid descriptors, guaranteed by the caller.
    let (r, l) = unsafe { (desc(remote), desc(local)) };
    let n = if same_scalar(r, l, remote_kind, local_kind) {
        l.dtype.elem_len
    } else {
        let n = packed_bytes(l)?;
        if packed_bytes(r)? != n || !r.ty(remote_kind).same_repr(&l.ty(local_kind)) {
            return None;
        }
        n
    };
    let run = || {
        let img = rt.target(image as i64)?;
        // SAFETY: `token` was created by this runtime (caller's guarantee).
        let t = unsafe { super::token(token) };
        inside(t, offset, (0, n as isize))?;
        let at = t.offset + offset;
        let (there, here) = (
            Place::Remote {
                image: img,
                offset: at,
            },
            Place::Local(l.base_addr as usize),
        );
        if is_get {
            rt.tp.copy_bytes(here, there, n);
        } else if let Some(r) = rt.put_posting(img, at, l.base_addr as usize, n) {
            rt.stats.access(false, n as u64);
            return r;
        } else {
            rt.tp.copy_bytes(there, here, n);
        }
        rt.stats.access(is_get, n as u64);
        if rt.attachments.any() {
            return rt.after_bytes(img, t.span(), Some((at, at + n)), is_get);
        }
        Ok(())
    };
    Some(run())
}

/// Copies the `n` bytes of a scalar: one load and one store for 4 and 8 bytes (the common
/// kinds), `memmove` otherwise (`x = x[j]` on image j reads and writes the same bytes).
///
/// # Safety
/// `n` readable bytes at `from`, `n` writable bytes at `to`.
#[inline(always)]
unsafe fn copy_scalar(from: *const u8, to: *mut u8, n: usize) {
    // SAFETY: guaranteed by the caller (unaligned accesses of exactly `n` bytes).
    unsafe {
        match n {
            8 => to
                .cast::<u64>()
                .write_unaligned(from.cast::<u64>().read_unaligned()),
            4 => to
                .cast::<u32>()
                .write_unaligned(from.cast::<u32>().read_unaligned()),
            _ => std::ptr::copy(from, to, n),
        }
    }
}

/// `_gfortran_caf_get` of a scalar into a scalar of the same type (`x = y[j]`) from a segment
/// mapped in this process (the current team's placement, as for atomics): one copy from the
/// target's address, without the transport, and STAT= 0. `false` (nothing done) when that does
/// not apply: a vector subscript, other types or ranks, an image terminated, a segment not
/// mapped here, an event attached somewhere, or an image index or offset out of range (the
/// general path reports those).
///
/// # Safety
/// Arguments as gfortran 12 passes them to `_gfortran_caf_get`.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // gfortran's arguments
pub(super) unsafe fn scalar_get(
    token: CafToken,
    offset: usize,
    image: c_int,
    src: *const GfcDescriptor,
    src_vector: *const CafVector,
    dst: *const GfcDescriptor,
    src_kind: c_int,
    dst_kind: c_int,
    stat: *mut c_int,
) -> bool {
    // Image 0 is not an image here (the general path reports it).
    if !src_vector.is_null() || image == 0 {
        return false;
    }
    // SAFETY: valid descriptors, guaranteed by the caller.
    let (r, l) = unsafe { (desc(src), desc(dst)) };
    if !same_scalar(r, l, src_kind, dst_kind) {
        return false;
    }
    let rt = crate::runtime::get();
    if rt.attachments.any() {
        return false;
    }
    let n = l.dtype.elem_len;
    // SAFETY: `token` was created by this runtime (caller's guarantee).
    let t = unsafe { super::token(token) };
    if offset.checked_add(n).is_none_or(|end| end > t.size) {
        return false;
    }
    // SAFETY: as above.
    let Some(from) = (unsafe { address(rt, token, offset, image) }) else {
        return false;
    };
    // SAFETY: `n` bytes inside the coarray on the target, mapped here; the destination is the
    // local scalar of `n` bytes (caller's guarantee).
    unsafe { copy_scalar(from as *const u8, l.base_addr as *mut u8, n) };
    // SAFETY: stat as gfortran passes it.
    unsafe { crate::abi::errors::set_ok(stat) };
    if rt.stats_on {
        rt.stats.access(true, n as u64);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::descriptor::{GfcDim, GfcDtype};

    fn descriptor(elem: usize, span: isize, dims: &[(isize, isize, isize)]) -> GfcDescriptor {
        let mut d = GfcDescriptor {
            base_addr: std::ptr::null_mut(),
            offset: 0,
            dtype: GfcDtype {
                elem_len: elem,
                version: 0,
                rank: dims.len() as i8,
                type_: 3,
                attribute: 0,
            },
            span,
            dim: [GfcDim {
                stride: 0,
                lbound: 0,
                ubound: 0,
            }; 15],
        };
        for (k, &(stride, lbound, ubound)) in dims.iter().enumerate() {
            d.dim[k] = GfcDim {
                stride,
                lbound,
                ubound,
            };
        }
        d
    }

    #[test]
    fn scalars_of_one_type_only() {
        let int8 = descriptor(8, 8, &[]);
        assert!(same_scalar(&int8, &int8, 8, 8));
        assert!(!same_scalar(&int8, &int8, 8, 4), "kinds differ");
        let mut real8 = descriptor(8, 8, &[]);
        real8.dtype.type_ = 4;
        assert!(!same_scalar(&int8, &real8, 8, 8), "types differ");
        assert!(
            !same_scalar(&int8, &descriptor(4, 4, &[]), 8, 8),
            "sizes differ"
        );
        assert!(
            !same_scalar(&int8, &descriptor(8, 8, &[(1, 1, 1)]), 8, 8),
            "an array"
        );
        let empty = descriptor(0, 0, &[]);
        assert!(!same_scalar(&empty, &empty, 1, 1), "zero-length");
    }

    #[test]
    fn recognises_contiguous_sections_only() {
        assert_eq!(packed_bytes(&descriptor(8, 8, &[])), Some(8), "scalar");
        assert_eq!(packed_bytes(&descriptor(8, 8, &[(1, 1, 10)])), Some(80));
        assert_eq!(
            packed_bytes(&descriptor(4, 4, &[(1, 1, 3), (3, 1, 2)])),
            Some(24),
            "a whole 3x2 array"
        );
        assert_eq!(
            packed_bytes(&descriptor(4, 4, &[(7, 1, 1), (1, 1, 2)])),
            Some(8),
            "unit extents do not break contiguity"
        );
        assert_eq!(
            packed_bytes(&descriptor(8, 8, &[(2, 1, 10)])),
            None,
            "strided"
        );
        assert_eq!(
            packed_bytes(&descriptor(8, 8, &[(-1, 1, 10)])),
            None,
            "reversed"
        );
        assert_eq!(
            packed_bytes(&descriptor(4, 4, &[(1, 1, 3), (4, 1, 2)])),
            None,
            "gap"
        );
        assert_eq!(packed_bytes(&descriptor(8, 8, &[(1, 1, 0)])), None, "empty");
        assert_eq!(
            packed_bytes(&descriptor(8, 24, &[(1, 1, 3)])),
            None,
            "component (span)"
        );
        assert_eq!(
            packed_bytes(&descriptor(0, 0, &[])),
            None,
            "zero-length elements"
        );
    }
}
