//! Atomic subroutines on coarray words (Fortran 2018 16.5.5): ATOMIC_DEFINE, ATOMIC_REF,
//! ATOMIC_CAS, ATOMIC_ADD/AND/OR/XOR and their FETCH forms, lock-free on 4- and 8-byte words.

use crate::error::{CafError, CafResult};
use crate::transport::{cpu_atomic, AtomicOp, Transport};

/// Checks that a word of `kind` bytes at segment offset `offset` can be used atomically.
fn check(offset: usize, kind: usize) -> CafResult<()> {
    if kind != 4 && kind != 8 {
        return Err(CafError::InvalidArgument(format!(
            "atomic variables of kind {kind} are not supported (use 4 or 8)"
        )));
    }
    if !offset.is_multiple_of(kind) {
        return Err(CafError::InvalidArgument(format!(
            "atomic variable at offset {offset} is not aligned to {kind} bytes"
        )));
    }
    Ok(())
}

/// Sign-extends a `kind`-byte value read as u64 into the caller's representation.
fn widen(v: u64, kind: usize) -> u64 {
    if kind == 4 {
        v as u32 as i32 as i64 as u64
    } else {
        v
    }
}

/// Applies `op` with `operand` to the word at `(image, offset)`; returns the old value.
pub fn rmw(
    tp: &dyn Transport,
    image: usize,
    offset: usize,
    kind: usize,
    op: AtomicOp,
    operand: u64,
) -> CafResult<u64> {
    check(offset, kind)?;
    Ok(widen(tp.fetch_op(image, offset, kind, op, operand), kind))
}

/// Applies `op` with `operand` to the `kind`-byte word at `addr` in this process with the
/// processor's atomics (what every transport that maps the word does); returns the old value.
///
/// # Safety
/// `addr` is an aligned 4- or 8-byte (`kind`) atomic word of a segment mapped in this process
/// (every process accesses such words only atomically).
#[inline]
pub unsafe fn rmw_at(addr: usize, kind: usize, op: AtomicOp, operand: u64) -> u64 {
    // SAFETY: guaranteed by the caller.
    widen(
        unsafe { cpu_atomic::fetch_op(addr, kind, op, operand) },
        kind,
    )
}

/// Compare-and-swap on the `kind`-byte word at `addr` in this process; returns the value
/// found.
///
/// # Safety
/// As for [`rmw_at`].
#[inline]
pub unsafe fn cas_at(addr: usize, kind: usize, expected: u64, new: u64) -> u64 {
    let mask = if kind == 4 { u32::MAX as u64 } else { u64::MAX };
    // SAFETY: guaranteed by the caller.
    widen(
        unsafe { cpu_atomic::compare_swap(addr, kind, expected & mask, new & mask) },
        kind,
    )
}

/// Compare-and-swap on the word at `(image, offset)`; returns the value found.
pub fn cas(
    tp: &dyn Transport,
    image: usize,
    offset: usize,
    kind: usize,
    expected: u64,
    new: u64,
) -> CafResult<u64> {
    check(offset, kind)?;
    let mask = if kind == 4 { u32::MAX as u64 } else { u64::MAX };
    Ok(widen(
        tp.compare_swap(image, offset, kind, expected & mask, new & mask),
        kind,
    ))
}

/// The operation of gfortran's `atomic_op` code (1 ADD, 2 AND, 3 OR, 4 XOR).
pub fn op_from_code(code: i32) -> CafResult<AtomicOp> {
    Ok(match code {
        1 => AtomicOp::Add,
        2 => AtomicOp::And,
        3 => AtomicOp::Or,
        4 => AtomicOp::Xor,
        _ => {
            return Err(CafError::InvalidArgument(format!(
                "unknown atomic operation code {code}"
            )))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_codes_are_distinct() {
        assert_eq!(op_from_code(1), Ok(AtomicOp::Add));
        assert_eq!(op_from_code(2), Ok(AtomicOp::And));
        assert_eq!(op_from_code(3), Ok(AtomicOp::Or));
        assert_eq!(op_from_code(4), Ok(AtomicOp::Xor));
        assert!(op_from_code(5).is_err());
    }

    #[test]
    fn alignment_and_kind_checked() {
        assert!(check(4, 4).is_ok());
        assert!(check(4, 8).is_err());
        assert!(check(0, 2).is_err());
    }

    #[test]
    fn widening_sign_extends_kind4() {
        assert_eq!(widen(0xffff_ffff, 4) as i64, -1);
        assert_eq!(widen(7, 4), 7);
        assert_eq!(widen(u64::MAX, 8), u64::MAX);
    }
}
