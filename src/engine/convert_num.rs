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
