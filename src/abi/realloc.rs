//! (Re)allocation of an allocatable destination before a coindexed read assigns to it
//! (Fortran 2018 10.2.1.3 paragraph 3), with `malloc` because compiled code frees it with `free`.

use super::descriptor::{GfcDescriptor, GfcDim};
use crate::error::{CafError, CafResult};

/// Makes `dst` hold an array of `shape` when `reallocatable` and it is unallocated or of
/// another shape: frees the old data, allocates new with `malloc`, bounds `1:extent`.
///
/// # Safety
/// `dst` is a valid, writable descriptor; its data is null or came from `malloc`.
pub unsafe fn fit(dst: *mut GfcDescriptor, shape: &[usize], reallocatable: bool) -> CafResult<()> {
    // SAFETY: guaranteed by the caller.
    let d = unsafe { &mut *dst };
    let want: Vec<usize> = if d.rank() == 0 {
        Vec::new()
    } else {
        shape.to_vec()
    };
    // The bounds of an unallocated array are undefined: look at them only when allocated.
    let fits = || d.dims().iter().map(|x| x.extent).eq(want.iter().copied());
    if !reallocatable || (!d.base_addr.is_null() && fits()) {
        return Ok(());
    }
    if want.len() != d.rank() {
        return Err(CafError::InvalidArgument(format!(
            "a value of rank {} cannot be assigned to an allocatable of rank {}",
            shape.len(),
            d.rank()
        )));
    }
    let count: usize = want.iter().product();
    let bytes = count.max(1) * d.dtype.elem_len.max(1);
    // SAFETY: the old data, if any, came from malloc (gfortran's allocate or ours).
    unsafe { libc::free(d.base_addr) };
    // SAFETY: plain allocation; checked for null below.
    d.base_addr = unsafe { libc::malloc(bytes) };
    if d.base_addr.is_null() {
        return Err(CafError::OutOfMemory {
            requested: bytes,
            heap: 0,
            which: "process",
        });
    }
    let (mut stride, mut offset) = (1isize, 0isize);
    let p = std::ptr::addr_of_mut!(d.dim) as *mut GfcDim;
    for (k, &e) in want.iter().enumerate() {
        let g = GfcDim {
            stride,
            lbound: 1,
            ubound: e as isize,
        };
        // SAFETY: the descriptor has rank (= want.len()) dimensions.
        unsafe { p.add(k).write(g) };
        offset -= stride;
        stride *= e as isize;
    }
    d.offset = offset as usize;
    d.span = d.dtype.elem_len as isize;
    Ok(())
}
