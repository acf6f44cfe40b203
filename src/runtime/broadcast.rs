//! CO_BROADCAST (Fortran 2018 16.9.46): "A becomes defined, as if by intrinsic assignment, on
//! all images of the current team with the value of A on image SOURCE_IMAGE". The first round
//! broadcasts the source's byte count (or that its argument is unallocated) together with its
//! data when both fit one slot; a larger value follows in a second round of exactly that many
//! bytes on every image, so every image runs the same collectives whatever its own argument.
//!
//! gfortran 12 broadcasts a derived type component by component, through copies of the
//! components' descriptors, so the runtime cannot change a component's allocation status. As
//! intrinsic assignment (10.2.1.3) leaves an allocatable component unallocated when it is
//! unallocated in the expression, an argument unallocated on the source and on this image is a
//! no-op; where intrinsic assignment would allocate or deallocate this image's argument, or its
//! shape differs from the source's, this image reports an error (STAT= or error termination).

use super::collective::copy;
use super::Runtime;
use crate::engine::coll_small::Inline;
use crate::engine::collective::Kind;
use crate::error::{CafError, CafResult};
use crate::transport::control::SLOT_BYTES;
use crate::transport::plan::{contiguous, count};
use crate::transport::Dim;

/// The first round's count when the source's argument is unallocated.
const MISSING: u64 = u64::MAX;
/// Bytes of the count in front of inline data.
const HEAD: usize = 8;

impl Runtime {
    /// Broadcasts the array at `base` (layout `dims`, `elem`-byte elements; a null `base` is an
    /// unallocated argument) from team rank `root`.
    pub(super) fn broadcast(
        &self,
        base: usize,
        dims: &[Dim],
        elem: usize,
        root: usize,
    ) -> CafResult<()> {
        let n = if base == 0 { 0 } else { count(dims) };
        let own = (base != 0).then_some(n * elem);
        let packed = contiguous(n, elem);
        let inline = |bytes: usize| HEAD + bytes <= SLOT_BYTES;
        let source = root == self.team.rank;
        let kind = || Kind::Broadcast { root };
        let mut line = Inline::default();
        if source {
            let head = own.map_or(MISSING, |b| b as u64);
            line.0[..HEAD].copy_from_slice(&head.to_ne_bytes());
            if own.is_some_and(inline) {
                let at = line.0[HEAD..].as_mut_ptr() as usize;
                // SAFETY: `base`/`dims` describe the caller's array; `at` has room for it.
                unsafe { copy(elem, at, &packed, base, dims) };
            }
        }
        let at = line.0.as_mut_ptr() as usize;
        self.run_packed(
            SLOT_BYTES,
            kind(),
            // SAFETY: both are SLOT_BYTES bytes.
            |to| unsafe {
                std::ptr::copy_nonoverlapping(at as *const u8, to as *mut u8, SLOT_BYTES)
            },
            // SAFETY: as above.
            |from| unsafe {
                std::ptr::copy_nonoverlapping(from as *const u8, at as *mut u8, SLOT_BYTES)
            },
        )?;
        let mut head = [0; HEAD];
        head.copy_from_slice(&line.0[..HEAD]);
        let head = u64::from_ne_bytes(head);
        if head == MISSING {
            return match own {
                None => Ok(()),
                Some(_) => Err(CafError::InvalidArgument(
                    "the argument is allocated on this image but not on the source image".into(),
                )),
            };
        }
        let bytes = head as usize;
        let mine = own == Some(bytes);
        if inline(bytes) {
            if mine && !source {
                let at = line.0[HEAD..].as_ptr() as usize;
                // SAFETY: the slot holds the source's `bytes` packed bytes, as many as `dims`.
                unsafe { copy(elem, base, dims, at, &packed) };
            }
        } else {
            self.run_packed(
                bytes,
                kind(),
                |at| {
                    if source {
                        // SAFETY: `base`/`dims` describe the caller's array; `at` has `bytes`.
                        unsafe { copy(elem, at, &packed, base, dims) };
                    }
                },
                |at| {
                    if mine && !source {
                        // SAFETY: as above, in the other direction.
                        unsafe { copy(elem, base, dims, at, &packed) };
                    }
                },
            )?;
        }
        match own {
            None => Err(CafError::InvalidArgument(
                "the argument is not allocated on this image but is on the source image".into(),
            )),
            Some(b) if b != bytes => Err(CafError::InvalidArgument(format!(
                "the argument has {b} bytes on this image but {bytes} on the source image"
            ))),
            Some(_) => Ok(()),
        }
    }
}
