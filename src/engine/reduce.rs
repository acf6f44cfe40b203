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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scalar::testing::{conv, ints, read_f64, reals, ty, INT_KINDS, REAL_KINDS};

    fn apply(op: ReduceOp, ty: Ty, mut acc: Vec<u8>, other: &[u8]) -> Vec<u8> {
        let n = acc.len() / ty.size;
        combine(op, ty, &mut acc, other, n).unwrap();
        acc
    }

    #[test]
    fn integer_sum_min_max_every_kind_with_wrapping() {
        for k in INT_KINDS {
            let t = ty(Class::Integer, k);
            let (a, b) = (ints(k, &[5, -3, 100, -1]), ints(k, &[-7, 2, 27, 1]));
            let sum = apply(ReduceOp::Sum, t, a.clone(), &b);
            assert_eq!(sum, ints(k, &[-2, -1, 127, 0]), "SUM INTEGER({k})");
            let min = apply(ReduceOp::Min, t, a.clone(), &b);
            assert_eq!(min, ints(k, &[-7, -3, 27, -1]), "MIN INTEGER({k})");
            let max = apply(ReduceOp::Max, t, a, &b);
            assert_eq!(max, ints(k, &[5, 2, 100, 1]), "MAX INTEGER({k})");
        }
        assert_eq!(
            apply(ReduceOp::Sum, ty(Class::Integer, 1), vec![127], &[1]),
            [0x80]
        );
        let wrapped = apply(
            ReduceOp::Sum,
            ty(Class::Integer, 16),
            ints(16, &[i128::MAX]),
            &ints(16, &[1]),
        );
        assert_eq!(wrapped, ints(16, &[i128::MIN]));
    }

    #[test]
    fn real_sum_min_max_every_kind_with_nan() {
        let nan = f64::NAN;
        for k in REAL_KINDS {
            let t = ty(Class::Real, k);
            let a = reals(Class::Real, k, &[1.5, nan, 4.0, nan]);
            let b = reals(Class::Real, k, &[2.25, -1.0, nan, nan]);
            let sum = read_f64(Class::Real, k, &apply(ReduceOp::Sum, t, a.clone(), &b));
            assert_eq!(sum[0], 3.75, "SUM REAL({k})");
            let min = read_f64(Class::Real, k, &apply(ReduceOp::Min, t, a.clone(), &b));
            assert_eq!(min[..3], [1.5, -1.0, 4.0], "MIN REAL({k})");
            assert!(min[3].is_nan());
            let max = read_f64(Class::Real, k, &apply(ReduceOp::Max, t, a, &b));
            assert_eq!(max[..3], [2.25, -1.0, 4.0], "MAX REAL({k})");
            assert!(max[3].is_nan());
        }
    }

    #[test]
    fn extended_sums_keep_their_precision() {
        for (k, big) in [(10u8, 1i128 << 62), (16, 1 << 100)] {
            let (t, i16) = (ty(Class::Real, k), ty(Class::Integer, 16));
            let (a, b) = (
                conv(t, i16, &ints(16, &[big])),
                conv(t, i16, &ints(16, &[1])),
            );
            let sum = apply(ReduceOp::Sum, t, a, &b);
            assert_eq!(conv(i16, t, &sum), ints(16, &[big + 1]), "REAL({k})");
        }
    }

    #[test]
    fn complex_sum_every_kind() {
        for k in REAL_KINDS {
            let t = ty(Class::Complex, k);
            let a = reals(Class::Complex, k, &[1.0, 2.0, -3.0, 0.5]);
            let b = reals(Class::Complex, k, &[0.5, -4.0, 3.0, 0.25]);
            let sum = apply(ReduceOp::Sum, t, a, &b);
            let want = reals(Class::Complex, k, &[1.5, -2.0, 0.0, 0.75]);
            assert_eq!(sum, want, "COMPLEX({k})");
        }
    }

    #[test]
    fn character_min_max_by_code_point() {
        let c1 = Ty::new(Class::Character, 1, 3);
        let (a, b) = (b"abcZZZa\xF1 ".to_vec(), b"abbzzzaz ");
        assert_eq!(apply(ReduceOp::Min, c1, a.clone(), b), b"abbZZZaz ");
        assert_eq!(apply(ReduceOp::Max, c1, a, b), b"abczzza\xF1 ");
        let c4 = Ty::new(Class::Character, 4, 8);
        let wide = |s: &str| {
            s.chars()
                .flat_map(|c| u32::from(c).to_ne_bytes())
                .collect::<Vec<_>>()
        };
        let (a, b) = (wide("€a𝄞bxy"), wide("zz𝄞axz"));
        assert_eq!(apply(ReduceOp::Min, c4, a.clone(), &b), wide("zz𝄞axy"));
        assert_eq!(apply(ReduceOp::Max, c4, a, &b), wide("€a𝄞bxz"));
    }

    #[test]
    fn undefined_combinations_are_errors() {
        let cases = [
            (
                ReduceOp::Sum,
                Ty::new(Class::Character, 1, 4),
                "Sum is not defined for CHARACTER",
            ),
            (
                ReduceOp::Min,
                ty(Class::Complex, 8),
                "Min is not defined for COMPLEX(8)",
            ),
            (ReduceOp::Max, ty(Class::Logical, 4), "LOGICAL(4)"),
            (ReduceOp::Sum, Ty::new(Class::Real, 2, 2), "REAL(2)"),
            (ReduceOp::Sum, Ty::new(Class::Bytes, 0, 8), "derived type"),
        ];
        for (op, t, text) in cases {
            let err = combine(op, t, &mut [0; 16], &[0; 16], 1).unwrap_err();
            assert!(err.to_string().contains(text), "{err}");
        }
        let i4 = ty(Class::Integer, 4);
        assert!(combine(ReduceOp::Sum, i4, &mut [0; 4], &[0; 8], 2).is_err());
    }
}
