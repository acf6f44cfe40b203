//! gfortran array descriptors (`gfc_descriptor_t`, GCC 8+ layout) and their translation into
//! engine sections.

use crate::engine::refs::ArrayDim;
use crate::engine::types::{Class, Ty};
use crate::transport::{Dim, Dims};
use std::ffi::c_void;

/// One dimension: stride in elements (of `span` bytes), bounds inclusive.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GfcDim {
    /// Stride in units of the descriptor's span.
    pub stride: isize,
    /// Lower bound.
    pub lbound: isize,
    /// Upper bound.
    pub ubound: isize,
}

/// `dtype` of a descriptor.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GfcDtype {
    /// Bytes per element.
    pub elem_len: usize,
    /// Descriptor version (0).
    pub version: i32,
    /// Array rank.
    pub rank: i8,
    /// BT_* type code.
    pub type_: i8,
    /// Attribute bits.
    pub attribute: i16,
}

/// Bytes of a descriptor header: its `rank` dimensions follow at this offset.
pub const HEADER: usize = 40;

/// Bytes of one dimension of a descriptor.
pub const DIM: usize = std::mem::size_of::<GfcDim>();

/// A descriptor header; `rank` dimensions follow at byte [`HEADER`].
#[repr(C)]
#[derive(Debug)]
pub struct GfcDescriptor {
    /// Address of the first element.
    pub base_addr: *mut c_void,
    /// Index offset (unused for sections passed to the runtime).
    pub offset: usize,
    /// Element type and rank.
    pub dtype: GfcDtype,
    /// Bytes between elements whose index differs by one stride unit.
    pub span: isize,
    /// The dimensions (really `rank` of them; 15 is the maximum rank).
    pub dim: [GfcDim; 15],
}

impl GfcDescriptor {
    /// The array rank.
    pub fn rank(&self) -> usize {
        self.dtype.rank.max(0) as usize
    }

    /// Bytes per unit of stride.
    pub fn span(&self) -> isize {
        if self.span != 0 {
            self.span
        } else {
            self.dtype.elem_len as isize
        }
    }

    /// The dimensions of a collective's argument: none for an unallocated array (null base
    /// address; its bounds and span are stale), else [`Self::dims`].
    pub fn allocated_dims(&self) -> Dims {
        if self.base_addr.is_null() {
            return Dims::default();
        }
        self.dims()
    }

    /// The dimensions as engine dims (extents and byte strides), fastest first.
    pub fn dims(&self) -> Dims {
        let span = self.span();
        (0..self.rank())
            .map(|k| {
                let d = self.dim_at(k);
                Dim {
                    extent: (d.ubound - d.lbound + 1).max(0) as usize,
                    stride: d.stride * span,
                }
            })
            .collect()
    }

    /// The dimensions with bounds (as the reference walk checks subscripts), byte strides.
    pub fn array_dims(&self) -> Vec<ArrayDim> {
        (0..self.rank())
            .map(|k| {
                let g = self.dim_at(k);
                ArrayDim {
                    lbound: g.lbound as i64,
                    ubound: g.ubound as i64,
                    stride: g.stride.wrapping_mul(self.span()),
                }
            })
            .collect()
    }

    /// Dimension `k` (< rank), read without forming a reference past the real descriptor.
    pub fn dim_at(&self, k: usize) -> GfcDim {
        let p = std::ptr::addr_of!(self.dim) as *const GfcDim;
        // SAFETY: gfortran descriptors carry `rank` dimensions after the header; k < rank.
        unsafe { p.add(k).read() }
    }

    /// Number of elements.
    pub fn count(&self) -> usize {
        (0..self.rank())
            .map(|k| {
                let d = self.dim_at(k);
                (d.ubound - d.lbound + 1).max(0) as usize
            })
            .product()
    }

    /// The element type, given the kind argument gfortran passes alongside.
    pub fn ty(&self, kind: i32) -> Ty {
        let class = Class::from_code(self.dtype.type_);
        let kind = if class == Class::Bytes {
            1
        } else {
            kind.clamp(1, 255) as u8
        };
        Ty::new(class, kind, self.dtype.elem_len)
    }
}

/// Reads a descriptor pointer.
///
/// # Safety
/// `p` is a valid gfortran descriptor for the duration of the call chain using the result.
pub unsafe fn desc<'a>(p: *const GfcDescriptor) -> &'a GfcDescriptor {
    // SAFETY: guaranteed by the caller.
    unsafe { &*p }
}
