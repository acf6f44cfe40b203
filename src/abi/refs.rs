//! gfortran's `caf_reference_t` chains (the `*_by_ref` entry points) decoded into engine
//! [`Ref`]s (the loads the walk makes on the target image are `abi/segment.rs`).

use super::vector::read_indices;
use crate::engine::refs::{Ref, Sub};
use crate::error::{CafError, CafResult};
use std::ffi::{c_int, c_void};

/// One link of gfortran's reference chain (`caf_reference_t`).
#[repr(C)]
pub struct CafRef {
    /// The next link, or null.
    pub next: *const CafRef,
    /// 0 COMPONENT, 1 ARRAY, 2 STATIC_ARRAY.
    pub type_: c_int,
    /// Bytes per item of the referenced object.
    pub item_size: usize,
    /// Component or array data.
    pub u: RefU,
}

/// The payload of a [`CafRef`].
#[repr(C)]
pub union RefU {
    /// COMPONENT: `[offset, caf_token_offset]` (a token offset of 0: not allocatable).
    pub c: [isize; 2],
    /// ARRAY and STATIC_ARRAY.
    pub a: std::mem::ManuallyDrop<ArrRef>,
}

/// The array part of a [`CafRef`].
#[repr(C)]
pub struct ArrRef {
    /// Per-dimension mode: 0 NONE (end), 1 VECTOR, 2 FULL, 3 RANGE, 4 SINGLE, 5 OPEN_END,
    /// 6 OPEN_START.
    pub mode: [u8; 15],
    /// BT_* type of a STATIC_ARRAY's elements.
    pub static_array_type: c_int,
    /// Per-dimension subscripts.
    pub dim: [ArrDim; 15],
}

/// One dimension of an [`ArrRef`]: `[start, end, stride]` or a vector.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ArrDim {
    /// Triplet-like modes.
    pub s: [i64; 3],
    /// VECTOR.
    pub v: VecDim,
}

/// A vector subscript inside an [`ArrDim`].
#[repr(C)]
#[derive(Clone, Copy)]
pub struct VecDim {
    /// The indices.
    pub vector: *const c_void,
    /// Number of indices.
    pub nvec: usize,
    /// Their integer kind.
    pub kind: c_int,
}

/// Decodes a chain; also returns the item size of its last link (the element size).
///
/// # Safety
/// `r` is a valid chain as gfortran 12 builds it (vectors readable).
pub unsafe fn decode(mut r: *const CafRef) -> CafResult<(Vec<Ref>, usize)> {
    let (mut out, mut item) = (Vec::new(), 0);
    while !r.is_null() {
        // SAFETY: guaranteed by the caller.
        let l = unsafe { &*r };
        item = l.item_size;
        out.push(match l.type_ {
            0 => {
                // SAFETY: type 0 selects the component member.
                let [offset, tok] = unsafe { l.u.c };
                Ref::Component {
                    offset,
                    allocatable: tok > 0,
                }
            }
            // SAFETY: types 1 and 2 select the array member.
            1 => Ref::Array(unsafe { subs(&l.u.a, false) }?),
            // SAFETY: as above.
            2 => Ref::StaticArray(unsafe { subs(&l.u.a, true) }?, l.item_size),
            t => {
                return Err(CafError::InvalidArgument(format!(
                    "unknown reference type {t}"
                )))
            }
        });
        r = l.next;
    }
    Ok((out, item))
}

/// The subscripts of an array link; for arrays without descriptor FULL carries its range, for
/// arrays with one only its stride (gfortran 12 leaves the bounds of `c(::2)` to the runtime).
///
/// # Safety
/// As for [`decode`].
unsafe fn subs(a: &ArrRef, stat: bool) -> CafResult<Vec<Sub>> {
    let mut out = Vec::new();
    for (k, &m) in a.mode.iter().enumerate().take_while(|(_, m)| **m != 0) {
        // SAFETY: modes other than VECTOR use the triplet member.
        let [s, e, st] = unsafe { a.dim[k].s };
        out.push(match m {
            1 => {
                // SAFETY: VECTOR uses the vector member, which gfortran fills in.
                let v = unsafe { a.dim[k].v };
                // SAFETY: the vector holds nvec integers of its kind.
                Sub::Vector(unsafe { read_indices(v.vector, v.kind, v.nvec) }?)
            }
            2 if stat => Sub::Range(s, e, st),
            2 => Sub::Full(st),
            3 => Sub::Range(s, e, st),
            4 => Sub::Single(s),
            5 => Sub::OpenEnd(s, st),
            6 => Sub::OpenStart(e, st),
            m => {
                return Err(CafError::InvalidArgument(format!(
                    "unknown array reference mode {m}"
                )))
            }
        });
    }
    Ok(out)
}
