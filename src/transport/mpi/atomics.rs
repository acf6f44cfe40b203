//! Remote read-modify-writes as MPI atomics (`MPI_Fetch_and_op`, `MPI_Compare_and_swap` on
//! `MPI_UINT32_T`/`MPI_UINT64_T`), each completed with `MPI_Win_flush` before it returns.
//! Swap is `MPI_Fetch_and_op` with `MPI_REPLACE` (from `ops.c`: mpi-sys does not export it).
//!
//! The runtime's own protocols use 4-byte compare-and-swap only: Open MPI 4.1's osc/rdma runs
//! an 8-byte `MPI_Compare_and_swap` on a window in shared memory (`MPI_Win_allocate` with every
//! rank on one node) through the BTL's emulated atomics, passing the origin's address of the
//! target word, which the target then dereferences (SIGSEGV; to itself there is no endpoint at
//! all). A 4-byte one, like every `MPI_Fetch_and_op`, takes the locked shared-memory path.

use super::world::check;
use super::Mpi;
use mpi_sys as m;

extern "C" {
    /// `MPI_REPLACE` (src/transport/mpi/ops.c).
    fn ferrocaf_mpi_replace() -> m::MPI_Op;
}

/// A remote read-modify-write: `MPI_Fetch_and_op` with an op and operand, or
/// `MPI_Compare_and_swap` (expected, new).
pub(super) type Rmw = crate::transport::one_sided::Rmw<m::MPI_Op>;

/// `v` in the first `width` bytes of an 8-byte buffer (the layout MPI reads for that width).
fn encode(v: u64, width: usize) -> [u8; 8] {
    let mut b = [0u8; 8];
    if width == 4 {
        b[..4].copy_from_slice(&(v as u32).to_ne_bytes());
    } else {
        b = v.to_ne_bytes();
    }
    b
}

impl Mpi {
    /// One MPI atomic on the 4- or 8-byte word at `offset` of `image`; returns the old value.
    pub(super) fn atomic(&self, image: usize, offset: usize, width: usize, op: Rmw) -> u64 {
        debug_assert!(
            offset.is_multiple_of(width),
            "atomic word not naturally aligned"
        );
        let mut old = [0u8; 8];
        let (win, r, d) = (self.w.win, image as i32, self.disp(image, offset));
        // SAFETY: predefined datatypes; origin, compare and result buffers are 8 bytes, of
        // which MPI uses the first `width`; the word lies in `image`'s window, in the
        // window's lock_all epoch.
        unsafe {
            let dt = if width == 4 {
                m::RSMPI_UINT32_T
            } else {
                m::RSMPI_UINT64_T
            };
            let res = old.as_mut_ptr().cast();
            let rc = match op {
                Rmw::Op(mop, v) => {
                    let v = encode(v, width);
                    m::MPI_Fetch_and_op(v.as_ptr().cast(), res, dt, r, d, mop, win)
                }
                Rmw::Cas(exp, new) => {
                    let (e, v) = (encode(exp, width), encode(new, width));
                    let (e, v) = (e.as_ptr().cast(), v.as_ptr().cast());
                    m::MPI_Compare_and_swap(v, e, res, dt, r, d, win)
                }
            };
            check(rc, "MPI atomic");
            check(m::MPI_Win_flush(r, win), "MPI_Win_flush");
        }
        if width == 4 {
            u32::from_ne_bytes(old[..4].try_into().expect("4 bytes")) as u64
        } else {
            u64::from_ne_bytes(old)
        }
    }

    /// Atomic exchange: `MPI_Fetch_and_op` with `MPI_REPLACE`.
    pub(super) fn swap(&self, image: usize, offset: usize, width: usize, v: u64) -> u64 {
        // SAFETY: returns a predefined operation handle, valid after MPI_Init.
        let replace = unsafe { ferrocaf_mpi_replace() };
        self.atomic(image, offset, width, Rmw::Op(replace, v))
    }
}
