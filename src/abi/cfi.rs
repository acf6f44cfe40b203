//! ISO_Fortran_binding descriptors (`CFI_cdesc_t`), which gfortran passes to `bind(C)`
//! procedures with assumed-rank (`dimension(..)`) dummies — the extension API's arguments.

use crate::transport::{Dim, Dims};
use std::ffi::c_void;

/// `CFI_dim_t`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CfiDim {
    /// Lower bound.
    pub lower_bound: isize,
    /// Number of elements.
    pub extent: isize,
    /// Distance in bytes between elements ("stride multiplier").
    pub sm: isize,
}

/// `CFI_cdesc_t` (dimensions follow the header).
#[repr(C)]
#[derive(Debug)]
pub struct CfiDesc {
    /// Address of the first element.
    pub base_addr: *mut c_void,
    /// Bytes per element.
    pub elem_len: usize,
    /// CFI_VERSION.
    pub version: i32,
    /// Rank.
    pub rank: i8,
    /// CFI_attribute_*.
    pub attribute: i8,
    /// CFI_type_*.
    pub type_: i16,
    /// The dimensions (really `rank` of them).
    pub dim: [CfiDim; 15],
}

impl CfiDesc {
    /// The dimensions as engine dims.
    pub fn dims(&self) -> Dims {
        let p = std::ptr::addr_of!(self.dim) as *const CfiDim;
        (0..self.rank.max(0) as usize)
            .map(|k| {
                // SAFETY: a CFI descriptor carries `rank` dimensions after its header.
                let d = unsafe { p.add(k).read() };
                Dim {
                    extent: d.extent.max(0) as usize,
                    stride: d.sm,
                }
            })
            .collect()
    }
}
