//! Element-wise combination of two packed arrays: the arithmetic step of the collective
//! subroutines CO_SUM, CO_MIN and CO_MAX (Fortran 2018 16.9.49, 16.9.48, 16.9.47).

use super::float_ext;
use super::scalar::{check_len, int_kind, name, zip, Fmt, Scalar};
use super::types::{Class, Ty};
use crate::error::{CafError, CafResult};

/// The operation of a collective reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceOp {
    /// CO_SUM: integer (wrapping on overflow), real and complex addition.
    Sum,
    /// CO_MIN: Fortran MIN of integers, reals (a NaN operand yields the other) and characters.
    Min,
    /// CO_MAX: Fortran MAX of integers, reals (a NaN operand yields the other) and characters.
    Max,
}

/// `acc[i] = op(acc[i], other[i])` over `n` packed elements of type `ty`. Characters compare
/// lexically by code point (both operands have the same length). Any other type and operation
/// pair, an unknown kind or a buffer shorter than `n` elements is an `InvalidArgument` error.
pub fn combine(op: ReduceOp, ty: Ty, acc: &mut [u8], other: &[u8], n: usize) -> CafResult<()> {
    check_len(acc.len(), ty, other.len(), ty, n)?;
    let unsupported =
        || CafError::InvalidArgument(format!("{op:?} is not defined for {}", name(ty)));
    match (ty.class, op) {
        (Class::Integer | Class::Real, _) | (Class::Complex, ReduceOp::Sum) => {
            let (fmt, parts) = Fmt::of(ty).ok_or_else(unsupported)?;
            numbers(op, fmt, acc, other, n * parts);
        }
        (Class::Character, ReduceOp::Min | ReduceOp::Max) if matches!(ty.kind, 1 | 4) => {
            strings(op, ty, acc, other, n);
        }
        _ => return Err(unsupported()),
    }
    Ok(())
}

/// `m` scalars of format `fmt`.
fn numbers(op: ReduceOp, fmt: Fmt, acc: &mut [u8], other: &[u8], m: usize) {
    match (fmt, op) {
        (Fmt::Int(k), ReduceOp::Sum) => int_kind!(k, T => zip(acc, other, m, T::wrapping_add)),
        (Fmt::Int(k), ReduceOp::Min) => int_kind!(k, T => zip(acc, other, m, T::min)),
        (Fmt::Int(k), ReduceOp::Max) => int_kind!(k, T => zip(acc, other, m, T::max)),
        (Fmt::F32, ReduceOp::Sum) => zip(acc, other, m, |a: f32, b| a + b),
        (Fmt::F32, ReduceOp::Min) => zip(acc, other, m, f32::min),
        (Fmt::F32, ReduceOp::Max) => zip(acc, other, m, f32::max),
        (Fmt::F64, ReduceOp::Sum) => zip(acc, other, m, |a: f64, b| a + b),
        (Fmt::F64, ReduceOp::Min) => zip(acc, other, m, f64::min),
        (Fmt::F64, ReduceOp::Max) => zip(acc, other, m, f64::max),
        (Fmt::F80 | Fmt::F128, _) => float_ext::combine(op, fmt, acc, other, m),
    }
}

/// `n` CHARACTER elements of `ty` (kind 1 or 4): keep the lesser (MIN) or greater (MAX).
fn strings(op: ReduceOp, ty: Ty, acc: &mut [u8], other: &[u8], n: usize) {
    let w = ty.size;
    if w == 0 {
        return;
    }
    let wanted = if op == ReduceOp::Min {
        std::cmp::Ordering::Less
    } else {
        std::cmp::Ordering::Greater
    };
    for (a, b) in acc.chunks_exact_mut(w).zip(other.chunks_exact(w)).take(n) {
        let order = if ty.kind == 1 {
            b.cmp(a)
        } else {
            code_points(b).cmp(code_points(a))
        };
        if order == wanted {
            a.copy_from_slice(b);
        }
    }
}

/// The code points of a kind-4 string.
fn code_points(s: &[u8]) -> impl Iterator<Item = u32> + '_ {
    s.chunks_exact(4).map(u32::get)
}
