//! Collective subroutines on a (possibly strided) local array: pack once into a buffer in this
//! image's segment, run the engine's tree, unpack once where the result is defined.

use super::Runtime;
use crate::engine::coll_small::{self, Inline};
use crate::engine::collective::{Combine, Kind};
use crate::engine::stats::WaitKind;
use crate::error::{CafError, CafResult};
use crate::transport::plan::{contiguous, count};
use crate::transport::{CopyPlan, Dim};

/// Which collective to run, with image numbers as the program gave them (1-based, team).
pub enum CoOp<'a> {
    /// CO_SUM/CO_MIN/CO_MAX/CO_REDUCE: result on `result_image`, or everywhere if 0.
    Reduce {
        /// RESULT_IMAGE= (0 when absent).
        result_image: i64,
        /// The operator on packed elements.
        combine: Combine<'a>,
    },
    /// CO_BROADCAST from `source_image`.
    Broadcast {
        /// SOURCE_IMAGE=.
        source_image: i64,
    },
}

impl Runtime {
    /// Runs a collective over the current team on the array at `base` with layout `dims` and
    /// `elem`-byte elements.
    pub fn collective(&self, base: usize, dims: &[Dim], elem: usize, op: CoOp) -> CafResult<()> {
        let rank_of = |image: i64| -> CafResult<usize> {
            self.team.resolve(image)?;
            Ok(image as usize - 1)
        };
        let (kind, receives) = match op {
            CoOp::Reduce {
                result_image: 0,
                combine,
            } => (
                Kind::Reduce {
                    root: None,
                    combine,
                },
                true,
            ),
            CoOp::Reduce {
                result_image,
                combine,
            } => {
                let root = rank_of(result_image)?;
                (
                    Kind::Reduce {
                        root: Some(root),
                        combine,
                    },
                    root == self.team.rank,
                )
            }
            CoOp::Broadcast { source_image } => {
                return self.broadcast(base, dims, elem, rank_of(source_image)?)
            }
        };
        // An unallocated allocatable argument (the only way to get a null base: even zero-size
        // arrays have an address; its bounds and element size are then stale): take part with
        // no data, so the collective stays matched on every image, then report it.
        let missing = base == 0;
        let n = if missing { 0 } else { count(dims) };
        let packed = contiguous(n, elem);
        let r = self.run_packed(
            n * elem,
            kind,
            |at| {
                if !missing {
                    // SAFETY: `base`/`dims` describe the caller's array; `at` has room for it.
                    unsafe { copy(elem, at, &packed, base, dims) };
                }
            },
            |at| {
                if receives && !missing {
                    // SAFETY: as above, in the other direction.
                    unsafe { copy(elem, base, dims, at, &packed) };
                }
            },
        );
        finish(r, missing)
    }

    /// Runs `kind` on `bytes` packed bytes: on the stack and inline when they fit one slot,
    /// else in a buffer in this image's segment. `fill` writes this image's value at the
    /// address it is given; `take` reads the result there once the collective succeeded.
    pub(super) fn run_packed(
        &self,
        bytes: usize,
        kind: Kind,
        fill: impl FnOnce(usize),
        take: impl FnOnce(usize),
    ) -> CafResult<()> {
        if coll_small::fits(&self.team, bytes) {
            let mut inline = Inline::default();
            let data = &mut inline.0[..bytes];
            let at = data.as_mut_ptr() as usize;
            fill(at);
            {
                let _kind = self.stats.during(WaitKind::Collective);
                self.collectives
                    .run_small(self.tp, &self.waiter, &self.team, data, kind)?;
            }
            take(at);
            return Ok(());
        }
        let off = Runtime::heap(&self.local).alloc(bytes)?;
        let buf = self.local_addr(off);
        fill(buf);
        let r = {
            let _kind = self.stats.during(WaitKind::Collective);
            self.collectives
                .run(self.tp, &self.waiter, &self.team, off, bytes, kind)
        };
        if r.is_ok() {
            take(buf);
        }
        Runtime::heap(&self.local).free(off);
        r
    }
}

/// The collective's outcome on this image: an unallocated argument is an error once the
/// collective has run.
fn finish(r: CafResult<()>, missing: bool) -> CafResult<()> {
    if r.is_ok() && missing {
        return Err(CafError::InvalidArgument(
            "the collective's argument is not allocated on this image".into(),
        ));
    }
    r
}

/// Copies `elem`-byte elements from `src` (layout `from`) to `dst` (layout `to`): one
/// `memcpy` when both are dense, else through a copy plan.
///
/// # Safety
/// Both layouts must describe memory valid for the copy, with the same element count.
pub(super) unsafe fn copy(elem: usize, dst: usize, to: &[Dim], src: usize, from: &[Dim]) {
    if dense(to, elem) && dense(from, elem) {
        // SAFETY: the caller's contract; dense layouts are `count * elem` contiguous bytes.
        unsafe {
            std::ptr::copy_nonoverlapping(src as *const u8, dst as *mut u8, count(to) * elem)
        };
        return;
    }
    // SAFETY: the caller's contract.
    unsafe { CopyPlan::new(elem, to, from).run(dst, src) };
}

/// Whether `dims` lays its elements out contiguously, in order, from offset 0.
fn dense(dims: &[Dim], elem: usize) -> bool {
    let mut next = elem as isize;
    for d in dims.iter().filter(|d| d.extent != 1) {
        if d.stride != next {
            return false;
        }
        next *= d.extent as isize;
    }
    true
}
