//! Read-modify-writes of a 4- or 8-byte word with the processor's atomic instructions, for
//! transports that map the word's memory in this process (shm always; MPI when every image
//! shares this node's window).

use super::AtomicOp;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// `op` with operand `v` on the atomic `w` in ordering `o`; the old value.
macro_rules! rmw {
    ($w:expr, $op:expr, $v:expr, $o:expr) => {
        match $op {
            AtomicOp::Add => $w.fetch_add($v, $o),
            AtomicOp::And => $w.fetch_and($v, $o),
            AtomicOp::Or => $w.fetch_or($v, $o),
            AtomicOp::Xor => $w.fetch_xor($v, $o),
            AtomicOp::Swap => $w.swap($v, $o),
            AtomicOp::Load => $w.load($o),
        }
    };
}

/// `op` with operand `v` on the `width`-byte word at `addr`; returns the old value.
///
/// # Safety
/// `addr` is mapped for the life of the process, aligned to `width` (4 or 8), and every
/// concurrent access to the word, by any process, is atomic.
#[inline]
pub unsafe fn fetch_op(addr: usize, width: usize, op: AtomicOp, v: u64) -> u64 {
    debug_assert!(
        addr.is_multiple_of(width),
        "atomic word not naturally aligned"
    );
    let o = Ordering::SeqCst;
    if width == 4 {
        // SAFETY: the caller guarantees a mapped, 4-byte aligned, only atomically accessed word.
        let w = unsafe { &*(addr as *const AtomicU32) };
        rmw!(w, op, v as u32, o) as u64
    } else {
        // SAFETY: as above, for an 8-byte aligned word.
        let w = unsafe { &*(addr as *const AtomicU64) };
        rmw!(w, op, v, o)
    }
}

/// Compare-and-swap of the `width`-byte word at `addr`; returns the value found.
///
/// # Safety
/// As for [`fetch_op`].
#[inline]
pub unsafe fn compare_swap(addr: usize, width: usize, exp: u64, new: u64) -> u64 {
    debug_assert!(
        addr.is_multiple_of(width),
        "atomic word not naturally aligned"
    );
    let o = Ordering::SeqCst;
    if width == 4 {
        // SAFETY: the caller guarantees a mapped, 4-byte aligned, only atomically accessed word.
        let w = unsafe { &*(addr as *const AtomicU32) };
        match w.compare_exchange(exp as u32, new as u32, o, o) {
            Ok(v) | Err(v) => v as u64,
        }
    } else {
        // SAFETY: as above, for an 8-byte aligned word.
        let w = unsafe { &*(addr as *const AtomicU64) };
        match w.compare_exchange(exp, new, o, o) {
            Ok(v) | Err(v) => v,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_op_on_both_widths() {
        let w8 = AtomicU64::new(0b1100);
        let a8 = &w8 as *const AtomicU64 as usize;
        let w4 = AtomicU32::new(0b1100);
        let a4 = &w4 as *const AtomicU32 as usize;
        for (a, width) in [(a8, 8), (a4, 4)] {
            // SAFETY: live, aligned atomics of this test, used only through atomics.
            unsafe {
                assert_eq!(fetch_op(a, width, AtomicOp::Add, 1), 0b1100);
                assert_eq!(fetch_op(a, width, AtomicOp::And, 0b0101), 0b1101);
                assert_eq!(fetch_op(a, width, AtomicOp::Or, 0b1000), 0b0101);
                assert_eq!(fetch_op(a, width, AtomicOp::Xor, 0b0001), 0b1101);
                assert_eq!(fetch_op(a, width, AtomicOp::Swap, 7), 0b1100);
                assert_eq!(fetch_op(a, width, AtomicOp::Load, 99), 7);
                assert_eq!(compare_swap(a, width, 6, 9), 7);
                assert_eq!(compare_swap(a, width, 7, 9), 7);
                assert_eq!(fetch_op(a, width, AtomicOp::Load, 0), 9);
            }
        }
        // SAFETY: as above.
        unsafe { assert_eq!(fetch_op(a4, 4, AtomicOp::Add, u64::MAX), 9) };
        assert_eq!(w4.load(Ordering::SeqCst), 8, "4-byte add wraps in 32 bits");
    }
}
