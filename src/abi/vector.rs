//! Vector subscripts on coindexed objects (`caf_vector_t`, Fortran 2018 9.5.3.3.3): decoding
//! gfortran's per-dimension index vectors and triplets into a gather/scatter layout, with every
//! index checked against the array's bounds.

use super::descriptor::GfcDescriptor;
use crate::engine::refs::triplet;
use crate::error::{CafError, CafResult};
use std::ffi::{c_int, c_void};

/// gfortran's `caf_vector_t`: with `nvec > 0` a vector of `nvec` indices of integer kind
/// `kind`; with `nvec == 0` a triplet `lower:upper:stride`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CafVector {
    /// Number of indices, or 0 for a triplet.
    pub nvec: usize,
    /// The vector or the triplet.
    pub u: CafVectorU,
}

/// The payload of [`CafVector`].
#[repr(C)]
#[derive(Clone, Copy)]
pub union CafVectorU {
    /// `nvec > 0`: the indices.
    pub v: VectorRef,
    /// `nvec == 0`: `[lower, upper, stride]`.
    pub triplet: [isize; 3],
}

impl std::fmt::Debug for CafVectorU {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CafVectorU")
    }
}

/// A vector of indices: its address and integer kind.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VectorRef {
    /// First index.
    pub vector: *const c_void,
    /// Integer kind (1, 2, 4 or 8) of the indices.
    pub kind: c_int,
}

/// Reads `n` contiguous integers of kind `kind` at `p`.
///
/// # Safety
/// `p` points to `n` readable integers of that kind.
pub unsafe fn read_indices(p: *const c_void, kind: c_int, n: usize) -> CafResult<Vec<i64>> {
    macro_rules! read {
        ($t:ty) => {
            (0..n)
                .map(|i| {
                    // SAFETY: guaranteed by the caller: element i < n is readable.
                    unsafe { (p as *const $t).add(i).read_unaligned() as i64 }
                })
                .collect()
        };
    }
    Ok(match kind {
        1 => read!(i8),
        2 => read!(i16),
        4 => read!(i32),
        8 => read!(i64),
        _ => {
            return Err(CafError::InvalidArgument(format!(
                "vector subscript of unsupported integer kind {kind}"
            )))
        }
    })
}

/// The indices dimension `k` selects.
///
/// # Safety
/// `v` is a valid `caf_vector_t` whose vector (if any) is readable.
unsafe fn indices(v: &CafVector) -> CafResult<Vec<i64>> {
    if v.nvec > 0 {
        // SAFETY: nvec > 0 selects the vector member; the caller vouches for the vector.
        unsafe { read_indices(v.u.v.vector, v.u.v.kind, v.nvec) }
    } else {
        // SAFETY: nvec == 0 selects the triplet member.
        let [lo, hi, st] = unsafe { v.u.triplet };
        triplet(lo as i64, hi as i64, st as i64)
    }
}

/// The byte offsets, relative to the array's first element, of the elements that `vecs` (one
/// per dimension of `d`) select, as per-dimension lists (fastest first).
///
/// gfortran passes the whole array: `base_addr` is its first element, `lbound` and `stride`
/// are the declared ones, but `ubound` is not (for a static coarray it describes the result).
/// So an index is checked against the lower bound, against the extent implied by the next
/// dimension's stride (all but the last dimension), and the caller checks the whole selection
/// against the coarray's memory.
///
/// # Safety
/// `vecs` points to `d.rank()` valid `caf_vector_t`.
pub unsafe fn offsets(d: &GfcDescriptor, vecs: *const CafVector) -> CafResult<Vec<Vec<isize>>> {
    let (rank, span) = (d.rank(), d.span());
    (0..rank)
        .map(|k| {
            // SAFETY: gfortran passes one caf_vector_t per dimension.
            let idx = unsafe { indices(&*vecs.add(k)) }?;
            let dim = d.dim_at(k);
            let next = (k + 1 < rank).then(|| d.dim_at(k + 1).stride);
            let extent = next
                .filter(|n| dim.stride > 0 && *n % dim.stride == 0 && *n > 0)
                .map(|n| (n / dim.stride) as i64);
            idx.iter()
                .map(|&i| {
                    let rel = i - dim.lbound as i64;
                    if rel < 0 || extent.is_some_and(|e| rel >= e) {
                        let hi =
                            extent.map_or("".into(), |e| format!(":{}", dim.lbound as i64 + e - 1));
                        return Err(CafError::InvalidArgument(format!(
                            "subscript {i} of dimension {} is out of bounds ({}{hi})",
                            k + 1,
                            dim.lbound
                        )));
                    }
                    Ok(rel as isize * dim.stride * span)
                })
                .collect()
        })
        .collect()
}
