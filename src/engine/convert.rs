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
    use super::*;

    const INT_KINDS: [u8; 5] = [1, 2, 4, 8, 16];
    const REAL_KINDS: [u8; 4] = [4, 8, 10, 16];

    fn ty(class: Class, kind: u8) -> Ty {
        let real = if kind == 10 { 16 } else { kind as usize };
        let size = match class {
            Class::Real => real,
            Class::Complex => 2 * real,
            _ => kind as usize,
        };
        Ty::new(class, kind, size)
    }

    fn conv(to: Ty, from: Ty, src: &[u8]) -> Vec<u8> {
        let n = src.len() / from.size;
        let mut dst = vec![0xA5; n * to.size];
        convert(&mut dst, to, src, from, n).unwrap();
        dst
    }

    fn ints(kind: u8, v: &[i128]) -> Vec<u8> {
        v.iter()
            .flat_map(|x| x.to_le_bytes()[..kind as usize].to_vec())
            .collect()
    }

    fn read_ints(kind: u8, b: &[u8]) -> Vec<i128> {
        let i16 = ty(Class::Integer, 16);
        let wide = conv(i16, ty(Class::Integer, kind), b);
        wide.chunks(16)
            .map(|c| i128::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    fn reals(class: Class, kind: u8, v: &[f64]) -> Vec<u8> {
        let src: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        conv(ty(class, kind), ty(Class::Real, 8), &src)
    }

    fn read_f64(class: Class, kind: u8, b: &[u8]) -> Vec<f64> {
        let out = conv(ty(Class::Real, 8), ty(class, kind), b);
        out.chunks(8)
            .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    /// 1/3 in binary128, correctly rounded.
    const THIRD_F128: u128 = 0x3FFD_5555_5555_5555_5555_5555_5555_5555;

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
    fn real_kind_pairs_round_trip_exact_values() {
        let v = [0.0, -1.5, 0.25, 1e10, f32::MAX as f64, f64::INFINITY];
        for a in REAL_KINDS {
            for b in REAL_KINDS {
                let there = conv(
                    ty(Class::Real, b),
                    ty(Class::Real, a),
                    &reals(Class::Real, a, &v),
                );
                assert_eq!(
                    read_f64(Class::Real, b, &there),
                    v,
                    "REAL({a}) to REAL({b})"
                );
            }
        }
    }

    #[test]
    fn real16_third_rounds_correctly_to_every_kind() {
        let q = THIRD_F128.to_le_bytes();
        let r16 = ty(Class::Real, 16);
        assert_eq!(read_f64(Class::Real, 16, &q), [1.0 / 3.0]);
        let x = conv(ty(Class::Real, 10), r16, &q);
        assert_eq!(
            x[..10],
            [0xAB, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xFD, 0x3F]
        );
        let s = conv(ty(Class::Real, 4), r16, &q);
        assert_eq!(f32::from_le_bytes(s.try_into().unwrap()), 1.0f32 / 3.0);
        assert_eq!(read_f64(Class::Real, 10, &x), [1.0 / 3.0]);
        assert_ne!(
            conv(r16, ty(Class::Real, 8), &(1.0f64 / 3.0).to_le_bytes()),
            q
        );
    }

    #[test]
    fn extended_kinds_do_not_go_through_real8() {
        let (r10, r16) = (ty(Class::Real, 10), ty(Class::Real, 16));
        let (i8, i16) = (ty(Class::Integer, 8), ty(Class::Integer, 16));
        let near = ints(8, &[i64::MAX as i128, (1 << 62) + 1]);
        assert_eq!(conv(i8, r10, &conv(r10, i8, &near)), near);
        assert_eq!(conv(i8, r10, &conv(r10, r16, &conv(r16, i8, &near))), near);
        let big = ints(16, &[(1 << 100) + 1, (1 << 64) + 1]);
        assert_eq!(conv(i16, r16, &conv(r16, i16, &big)), big);
        let rounded = read_ints(16, &conv(i16, r10, &conv(r10, i16, &big)));
        assert_eq!(
            rounded,
            [1 << 100, 1 << 64],
            "65 significant bits round to even in REAL(10)"
        );
    }

    #[test]
    fn integer_to_real_rounds_once() {
        let v = ints(8, &[-7, (1 << 53) + 1]);
        assert_eq!(
            read_f64(
                Class::Real,
                8,
                &conv(ty(Class::Real, 8), ty(Class::Integer, 8), &v)
            ),
            [-7.0, 9007199254740992.0]
        );
        let f = conv(
            ty(Class::Real, 4),
            ty(Class::Integer, 16),
            &ints(16, &[(1 << 24) + 1, -3]),
        );
        assert_eq!(
            f,
            [16777216.0f32, -3.0]
                .iter()
                .flat_map(|x| x.to_le_bytes())
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn real_to_integer_truncates_and_saturates_for_every_pair() {
        let v = [2.7, -2.7, f64::NAN, 1e300, -1e300];
        for r in REAL_KINDS {
            for k in INT_KINDS {
                let out = conv(
                    ty(Class::Integer, k),
                    ty(Class::Real, r),
                    &reals(Class::Real, r, &v),
                );
                let lo = i128::MIN >> (128 - 8 * k as u32);
                let hi = !lo;
                assert_eq!(
                    read_ints(k, &out),
                    [2, -2, 0, hi, lo],
                    "REAL({r}) to INTEGER({k})"
                );
            }
        }
    }

    #[test]
    fn complex_conversions_take_the_real_part_or_add_zero_imaginary() {
        let c8 = reals(Class::Real, 8, &[1.5, -2.5]);
        for k in REAL_KINDS {
            let c = conv(ty(Class::Complex, k), ty(Class::Complex, 8), &c8);
            assert_eq!(
                read_f64(Class::Complex, k, &c),
                [1.5],
                "COMPLEX({k}) real part"
            );
            let back = conv(ty(Class::Complex, 8), ty(Class::Complex, k), &c);
            assert_eq!(back, c8, "COMPLEX(8) to COMPLEX({k}) and back");
            let i = conv(ty(Class::Integer, 4), ty(Class::Complex, k), &c);
            assert_eq!(read_ints(4, &i), [1]);
            let z = conv(
                ty(Class::Complex, k),
                ty(Class::Real, 8),
                &2.5f64.to_le_bytes(),
            );
            let parts = conv(ty(Class::Real, 8), ty(Class::Real, k), &z);
            assert_eq!(
                parts,
                reals(Class::Real, 8, &[2.5, 0.0]),
                "REAL(8) to COMPLEX({k})"
            );
        }
        let from_int = conv(
            ty(Class::Complex, 16),
            ty(Class::Integer, 2),
            &ints(2, &[-9]),
        );
        let parts = conv(ty(Class::Real, 8), ty(Class::Real, 16), &from_int);
        assert_eq!(parts, reals(Class::Real, 8, &[-9.0, 0.0]));
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
    fn long_arrays_cross_the_staging_buffer() {
        let v: Vec<i128> = (0..1000).map(|i| i * 1_000_003 - 7_000_000).collect();
        let (r10, i4) = (ty(Class::Real, 10), ty(Class::Integer, 4));
        assert_eq!(
            read_ints(4, &conv(i4, r10, &conv(r10, i4, &ints(4, &v)))),
            v
        );
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
