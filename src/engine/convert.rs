//! Kind conversion between packed arrays of intrinsic types (Fortran 2018 10.2.1.3 and
//! Table 10.8: intrinsic assignment converts the value to the type and kind of the variable).
//!
//! What happens outside the standard's rules, by choice:
//! - INTEGER to a narrower INTEGER keeps the low bytes (wraps, two's complement).
//! - REAL or COMPLEX to INTEGER truncates toward zero like INT; a value outside the
//!   destination's range saturates to its most negative or most positive value, a NaN gives 0.
//! - LOGICAL of any kind is `.true.` when any byte is nonzero, and `.true.` is written as 1.
//! - CHARACTER of kind 4 to kind 1 turns a code point above 255 into `?`.

use super::convert_char::strings;
use super::convert_num::scalars;
use super::scalar::{check_len, int_kind, map, name, Fmt};
use super::types::{Class, Ty};
use crate::error::{CafError, CafResult};

/// Converts `n` packed elements of type `from` in `src` to type `to` in `dst`, as intrinsic
/// assignment does (Fortran 2018 10.2.1.3). INTEGER, REAL and COMPLEX convert among each
/// other; LOGICAL only to LOGICAL and CHARACTER only to CHARACTER. Any other pair, an unknown
/// kind or a buffer shorter than `n` elements is an `InvalidArgument` error.
pub fn convert(dst: &mut [u8], to: Ty, src: &[u8], from: Ty, n: usize) -> CafResult<()> {
    check_len(dst.len(), to, src.len(), from, n)?;
    if to.same_repr(&from) {
        dst[..n * to.size].copy_from_slice(&src[..n * to.size]);
        return Ok(());
    }
    match (from.class, to.class) {
        (Class::Logical, Class::Logical) => logical(dst, to, src, from, n),
        (Class::Character, Class::Character) => character(dst, to, src, from, n),
        _ => numeric(dst, to, src, from, n),
    }
}

/// INTEGER, REAL and COMPLEX to each other. A complex source gives its real part to a real or
/// integer destination; a real or integer source gives a complex with imaginary part +0.
fn numeric(dst: &mut [u8], to: Ty, src: &[u8], from: Ty, n: usize) -> CafResult<()> {
    let ((tf, tparts), (ff, fparts)) = match (Fmt::of(to), Fmt::of(from)) {
        (Some(t), Some(f)) => (t, f),
        _ => return Err(cannot(to, from)),
    };
    match (fparts, tparts) {
        (2, 2) => scalars(dst, tf, tf.size(), src, ff, ff.size(), 2 * n),
        (1, 2) => {
            dst[..n * to.size].fill(0);
            scalars(dst, tf, to.size, src, ff, from.size, n)
        }
        _ => scalars(dst, tf, to.size, src, ff, from.size, n),
    }
    Ok(())
}

/// LOGICAL to LOGICAL of another kind: nonzero is `.true.`, written as 1.
fn logical(dst: &mut [u8], to: Ty, src: &[u8], from: Ty, n: usize) -> CafResult<()> {
    let valid = |t: Ty| matches!(t.kind, 1 | 2 | 4 | 8 | 16) && t.size == t.kind as usize;
    if !valid(to) || !valid(from) {
        return Err(cannot(to, from));
    }
    let (ds, ss) = (to.size, from.size);
    int_kind!(from.kind, S => int_kind!(to.kind, D => map(dst, ds, src, ss, n, |x: S| D::from(x != 0))));
    Ok(())
}

/// CHARACTER to CHARACTER of another length or kind.
fn character(dst: &mut [u8], to: Ty, src: &[u8], from: Ty, n: usize) -> CafResult<()> {
    let valid = |t: Ty| matches!(t.kind, 1 | 4) && t.size.is_multiple_of(t.kind as usize);
    if !valid(to) || !valid(from) {
        return Err(cannot(to, from));
    }
    strings(dst, (to.kind, to.len()), src, (from.kind, from.len()), n);
    Ok(())
}

/// The error for a pair intrinsic assignment does not define (or a kind ferrocaf lacks).
fn cannot(to: Ty, from: Ty) -> CafError {
    CafError::InvalidArgument(format!(
        "cannot convert {} to {}: intrinsic assignment does not define this conversion",
        name(from),
        name(to)
    ))
}

#[cfg(test)]
mod tests {
    use super::super::types::{Class, Ty};
    use super::*;
    use crate::engine::scalar::testing::*;

    #[test]
    fn integer_kind_pairs_keep_values_that_fit() {
        let v = [0, 1, -1, 100, -100, 127, -128];
        for a in INT_KINDS {
            for b in INT_KINDS {
                let out = conv(ty(Class::Integer, b), ty(Class::Integer, a), &ints(a, &v));
                assert_eq!(read_ints(b, &out), v, "INTEGER({a}) to INTEGER({b})");
            }
        }
    }

    #[test]
    fn integer_narrowing_wraps_and_widening_sign_extends() {
        let int = |k| ty(Class::Integer, k);
        let (i1, i4, i8, i16) = (int(1), int(4), int(8), int(16));
        assert_eq!(
            read_ints(1, &conv(i1, i4, &ints(4, &[300, -129]))),
            [44, 127]
        );
        let big = (1i128 << 100) + 5;
        assert_eq!(
            read_ints(8, &conv(i8, i16, &ints(16, &[big, -big]))),
            [5, -5]
        );
        let wide = conv(i16, i1, &ints(1, &[-2]));
        assert_eq!(i128::from_le_bytes(wide.try_into().unwrap()), -2);
    }

    #[test]
    fn logical_kinds_normalise_true_to_one() {
        for a in INT_KINDS {
            for b in INT_KINDS {
                let v = if a == 1 {
                    vec![0, 1, 7]
                } else {
                    vec![0, 1, 0x100]
                };
                let out = conv(ty(Class::Logical, b), ty(Class::Logical, a), &ints(a, &v));
                let want = if a == b {
                    ints(b, &v)
                } else {
                    ints(b, &[0, 1, 1])
                };
                assert_eq!(
                    out, want,
                    "LOGICAL({a}) to LOGICAL({b}), same kind copies bits"
                );
            }
        }
    }

    #[test]
    fn undefined_pairs_and_bad_arguments_are_errors() {
        let cases = [
            (
                ty(Class::Integer, 4),
                ty(Class::Logical, 4),
                "LOGICAL(4) to INTEGER(4)",
            ),
            (
                ty(Class::Logical, 1),
                ty(Class::Real, 8),
                "REAL(8) to LOGICAL(1)",
            ),
            (
                Ty::new(Class::Character, 1, 4),
                ty(Class::Integer, 4),
                "CHARACTER(LEN=4,KIND=1)",
            ),
            (
                ty(Class::Real, 8),
                Ty::new(Class::Integer, 3, 3),
                "INTEGER(3) to REAL(8)",
            ),
            (
                ty(Class::Real, 8),
                Ty::new(Class::Bytes, 0, 16),
                "derived type of 16 bytes",
            ),
        ];
        for (to, from, text) in cases {
            let mut dst = vec![0; to.size];
            let err = convert(&mut dst, to, &[0; 16], from, 1).unwrap_err();
            assert!(err.to_string().contains(text), "{err}");
        }
        let (i4, r8) = (ty(Class::Integer, 4), ty(Class::Real, 8));
        assert!(convert(&mut [0; 4], i4, &[0; 8], r8, 2).is_err());
    }
}
