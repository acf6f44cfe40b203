//! The loads the reference walk of `*_by_ref` makes on the target image. Pointers and array
//! descriptors of allocatable components hold addresses the target stored, valid in its own
//! process: each is checked to lie in the target's segment (as that image sees it,
//! [`Transport::home`]), turned into a segment offset, and read with a plain load where this
//! process maps that segment (shm, the MPI shared window) or through the transport otherwise
//! (MPI_Get). An address outside the segment is an error, never an access.

use super::descriptor::{GfcDescriptor, DIM, HEADER};
use crate::engine::refs::{ArrayDim, Chase};
use crate::error::{CafError, CafResult};
use crate::transport::plan::contiguous;
use crate::transport::{CopyPlan, Place, Transport};
use std::mem::size_of;

/// The highest array rank.
const MAX_RANK: usize = 15;

/// One image's segment, `[lo, hi)` in that image's address space.
pub struct Segment<'a> {
    tp: &'a dyn Transport,
    image: usize,
    /// First byte of the segment, as the image itself addresses it.
    pub lo: usize,
    /// One past its last byte.
    pub hi: usize,
}

impl<'a> Segment<'a> {
    /// The segment of 0-based `image`, `size` bytes, reached through `tp`.
    pub fn new(tp: &'a dyn Transport, image: usize, size: usize) -> Segment<'a> {
        let lo = tp.home(image);
        Segment {
            tp,
            image,
            lo,
            hi: lo + size,
        }
    }

    /// Checks that `len` bytes at `addr` lie in the segment.
    pub fn check(&self, addr: usize, len: usize) -> CafResult<()> {
        if addr >= self.lo && addr.checked_add(len).is_some_and(|e| e <= self.hi) {
            Ok(())
        } else {
            Err(CafError::InvalidArgument(format!(
                "a component reference leads outside image {}'s coarray memory (address {addr:#x})",
                self.image + 1
            )))
        }
    }

    /// The place of the image's address `addr` (not checked: see [`Segment::check`]).
    pub fn place(&self, addr: usize) -> Place {
        Place::Remote {
            image: self.image,
            offset: addr.wrapping_sub(self.lo),
        }
    }

    /// Copies `buf.len()` bytes at the image's address `addr` into `buf`.
    fn read(&self, addr: usize, buf: &mut [u8]) -> CafResult<()> {
        self.check(addr, buf.len())?;
        let offset = addr - self.lo;
        match self.tp.direct(self.image, offset) {
            // SAFETY: the bytes lie in the image's segment (checked above), which this process
            // maps at `p` for its whole life; `buf` is private and does not overlap it.
            Some(p) => unsafe {
                std::ptr::copy_nonoverlapping(p as *const u8, buf.as_mut_ptr(), buf.len())
            },
            None => {
                let bytes = contiguous(buf.len(), 1);
                self.tp.copy(
                    Place::Local(buf.as_mut_ptr() as usize),
                    self.place(addr),
                    &CopyPlan::new(1, &bytes, &bytes),
                );
            }
        }
        Ok(())
    }
}

impl Chase for Segment<'_> {
    fn load_ptr(&self, addr: usize) -> CafResult<usize> {
        let mut word = [0u8; size_of::<usize>()];
        self.read(addr, &mut word)?;
        Ok(usize::from_ne_bytes(word))
    }

    fn array(&self, addr: usize) -> CafResult<(usize, Vec<ArrayDim>)> {
        self.check(addr, HEADER)?;
        if let Some(p) = self.tp.direct(self.image, addr - self.lo) {
            // SAFETY: the header lies in a mapped segment (checked above); `dims` reads no
            // dimension before checking that it lies there too.
            return self.dims(addr, unsafe { &*(p as *const GfcDescriptor) });
        }
        // One read of the largest descriptor that fits (one round trip); the rank found in
        // it says how much of it is real.
        let len = size_of::<GfcDescriptor>().min(self.hi - addr);
        // SAFETY: a descriptor is integers and a raw pointer: all-zero bytes are a valid value.
        let mut d: GfcDescriptor = unsafe { std::mem::zeroed() };
        // SAFETY: `len` bytes of `d`'s own storage, written only as bytes.
        let bytes =
            unsafe { std::slice::from_raw_parts_mut((&mut d as *mut GfcDescriptor).cast(), len) };
        self.read(addr, bytes)?;
        self.dims(addr, &d)
    }
}

impl Segment<'_> {
    /// The data address and dimensions of descriptor `d`, the image's descriptor at `addr` or
    /// a copy of it: `(0, [])` when unallocated; its dimensions must lie in the segment.
    fn dims(&self, addr: usize, d: &GfcDescriptor) -> CafResult<(usize, Vec<ArrayDim>)> {
        if d.base_addr.is_null() {
            // An unallocated array: the rest of its descriptor may be uninitialised.
            return Ok((0, Vec::new()));
        }
        if d.rank() > MAX_RANK {
            return Err(CafError::InvalidArgument(format!(
                "a component reference leads to a malformed array descriptor on image {} (rank {})",
                self.image + 1,
                d.rank()
            )));
        }
        self.check(addr, HEADER + DIM * d.rank())?;
        Ok((d.base_addr as usize, d.array_dims()))
    }
}
