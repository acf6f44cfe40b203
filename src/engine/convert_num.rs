//! Numeric scalar conversion, one tight loop per (source, destination) format pair. INTEGER to
//! INTEGER wraps (keeps the low bytes, two's complement); REAL to INTEGER truncates toward zero
//! like INT, saturates to the destination's range when out of range and gives 0 for a NaN;
//! everything else rounds to nearest, ties to even.

use super::float_ext;
use super::scalar::{int_kind, map, Fmt};

/// Scalars staged per round when an INTEGER of kind 1..8 meets REAL(10)/REAL(16).
const STAGE: usize = 64;

/// Converts `m` scalars `s[i*ss..]` of format `from` to `d[i*ds..]` of format `to`.
pub(crate) fn scalars(d: &mut [u8], to: Fmt, ds: usize, s: &[u8], from: Fmt, ss: usize, m: usize) {
    use Fmt::*;
    match (from, to) {
        _ if from == to => copy(d, ds, s, ss, m, to.size()),
        (Int(a), Int(b)) => {
            int_kind!(a, S => int_kind!(b, D => map(d, ds, s, ss, m, |x: S| x as D)))
        }
        (Int(a), F32) => int_kind!(a, S => map(d, ds, s, ss, m, |x: S| x as f32)),
        (Int(a), F64) => int_kind!(a, S => map(d, ds, s, ss, m, |x: S| x as f64)),
        (F32, Int(b)) => int_kind!(b, D => map(d, ds, s, ss, m, |x: f32| x as D)),
        (F64, Int(b)) => int_kind!(b, D => map(d, ds, s, ss, m, |x: f64| x as D)),
        (F32, F64) => map(d, ds, s, ss, m, |x: f32| x as f64),
        (F64, F32) => map(d, ds, s, ss, m, |x: f64| x as f32),
        (Int(a), _) if a < 16 => widen_then_extended(d, to, ds, s, a, ss, m),
        (_, Int(b)) if b < 16 => extended_then_narrow(d, b, ds, s, from, ss, m),
        _ => float_ext::convert(d, to, ds, s, from, ss, m),
    }
}

/// Strided copy of `m` scalars of `size` bytes.
fn copy(d: &mut [u8], ds: usize, s: &[u8], ss: usize, m: usize, size: usize) {
    for (dc, sc) in d.chunks_mut(ds).zip(s.chunks(ss)).take(m) {
        dc[..size].copy_from_slice(&sc[..size]);
    }
}

/// INTEGER(`kind` < 16) to REAL(10)/REAL(16): widen exactly to INTEGER(16) in a stack buffer,
/// then round once in C.
fn widen_then_extended(d: &mut [u8], to: Fmt, ds: usize, s: &[u8], kind: u8, ss: usize, m: usize) {
    let mut wide = [0u8; STAGE * 16];
    for start in (0..m).step_by(STAGE) {
        let c = STAGE.min(m - start);
        int_kind!(kind, S => map(&mut wide, 16, &s[start * ss..], ss, c, widen::<S>));
        float_ext::convert(&mut d[start * ds..], to, ds, &wide, Fmt::Int(16), 16, c);
    }
}

/// REAL(10)/REAL(16) to INTEGER(`kind` < 16): truncate to INTEGER(16) in C, then saturate to
/// the destination's range (so a large real gives HUGE, as for REAL(8) to INTEGER(4)).
fn extended_then_narrow(
    d: &mut [u8],
    kind: u8,
    ds: usize,
    s: &[u8],
    from: Fmt,
    ss: usize,
    m: usize,
) {
    let mut wide = [0u8; STAGE * 16];
    for start in (0..m).step_by(STAGE) {
        let c = STAGE.min(m - start);
        float_ext::convert(&mut wide, Fmt::Int(16), 16, &s[start * ss..], from, ss, c);
        int_kind!(kind, D => map(&mut d[start * ds..], ds, &wide, 16, c, |x: i128| {
            saturate(x, D::MIN, D::MAX)
        }));
    }
}

/// An integer widened exactly to INTEGER(16).
fn widen<S: Into<i128>>(x: S) -> i128 {
    x.into()
}

/// `x` clamped to the range `lo..=hi` of the narrower integer type `D`.
fn saturate<D: TryFrom<i128>>(x: i128, lo: D, hi: D) -> D {
    D::try_from(x).unwrap_or(if x < 0 { lo } else { hi })
}

#[cfg(test)]
mod tests {
    use crate::engine::scalar::testing::*;
    use crate::engine::types::Class;

    /// 1/3 in binary128, correctly rounded.
    const THIRD_F128: u128 = 0x3FFD_5555_5555_5555_5555_5555_5555_5555;

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
    fn long_arrays_cross_the_staging_buffer() {
        let v: Vec<i128> = (0..1000).map(|i| i * 1_000_003 - 7_000_000).collect();
        let (r10, i4) = (ty(Class::Real, 10), ty(Class::Integer, 4));
        assert_eq!(
            read_ints(4, &conv(i4, r10, &conv(r10, i4, &ints(4, &v)))),
            v
        );
    }
}
