//! Safe wrappers over `float_ext.c`: conversions and SUM/MIN/MAX of REAL(10) and REAL(16),
//! which stable Rust cannot compute. All FFI of the kernels is in this file.

use super::reduce::ReduceOp;
use super::scalar::Fmt;

/// A strided conversion of the C file: `(dst, dst_stride, src, src_stride, n)`.
type ConvertFn = unsafe extern "C" fn(*mut u8, usize, *const u8, usize, usize);
/// An element-wise combination of the C file: `(acc, other, n)` over 16-byte scalars.
type CombineFn = unsafe extern "C" fn(*mut u8, *const u8, usize);

extern "C" {
    fn ferrocaf_f80_from_i128(d: *mut u8, ds: usize, s: *const u8, ss: usize, n: usize);
    fn ferrocaf_f80_from_f32(d: *mut u8, ds: usize, s: *const u8, ss: usize, n: usize);
    fn ferrocaf_f80_from_f64(d: *mut u8, ds: usize, s: *const u8, ss: usize, n: usize);
    fn ferrocaf_f80_from_f128(d: *mut u8, ds: usize, s: *const u8, ss: usize, n: usize);
    fn ferrocaf_f128_from_i128(d: *mut u8, ds: usize, s: *const u8, ss: usize, n: usize);
    fn ferrocaf_f128_from_f32(d: *mut u8, ds: usize, s: *const u8, ss: usize, n: usize);
    fn ferrocaf_f128_from_f64(d: *mut u8, ds: usize, s: *const u8, ss: usize, n: usize);
    fn ferrocaf_f128_from_f80(d: *mut u8, ds: usize, s: *const u8, ss: usize, n: usize);
    fn ferrocaf_i128_from_f80(d: *mut u8, ds: usize, s: *const u8, ss: usize, n: usize);
    fn ferrocaf_f32_from_f80(d: *mut u8, ds: usize, s: *const u8, ss: usize, n: usize);
    fn ferrocaf_f64_from_f80(d: *mut u8, ds: usize, s: *const u8, ss: usize, n: usize);
    fn ferrocaf_i128_from_f128(d: *mut u8, ds: usize, s: *const u8, ss: usize, n: usize);
    fn ferrocaf_f32_from_f128(d: *mut u8, ds: usize, s: *const u8, ss: usize, n: usize);
    fn ferrocaf_f64_from_f128(d: *mut u8, ds: usize, s: *const u8, ss: usize, n: usize);
    fn ferrocaf_f80_sum(acc: *mut u8, other: *const u8, n: usize);
    fn ferrocaf_f80_min(acc: *mut u8, other: *const u8, n: usize);
    fn ferrocaf_f80_max(acc: *mut u8, other: *const u8, n: usize);
    fn ferrocaf_f128_sum(acc: *mut u8, other: *const u8, n: usize);
    fn ferrocaf_f128_min(acc: *mut u8, other: *const u8, n: usize);
    fn ferrocaf_f128_max(acc: *mut u8, other: *const u8, n: usize);
}

/// The C conversion from `from` to `to`; one of them is `F80` or `F128` and the other is
/// `Int(16)`, `F32`, `F64` or the other extended format.
fn convert_fn(to: Fmt, from: Fmt) -> Option<ConvertFn> {
    use Fmt::*;
    Some(match (to, from) {
        (F80, Int(16)) => ferrocaf_f80_from_i128,
        (F80, F32) => ferrocaf_f80_from_f32,
        (F80, F64) => ferrocaf_f80_from_f64,
        (F80, F128) => ferrocaf_f80_from_f128,
        (F128, Int(16)) => ferrocaf_f128_from_i128,
        (F128, F32) => ferrocaf_f128_from_f32,
        (F128, F64) => ferrocaf_f128_from_f64,
        (F128, F80) => ferrocaf_f128_from_f80,
        (Int(16), F80) => ferrocaf_i128_from_f80,
        (F32, F80) => ferrocaf_f32_from_f80,
        (F64, F80) => ferrocaf_f64_from_f80,
        (Int(16), F128) => ferrocaf_i128_from_f128,
        (F32, F128) => ferrocaf_f32_from_f128,
        (F64, F128) => ferrocaf_f64_from_f128,
        _ => return None,
    })
}

/// Converts `m` scalars `s[i*ss..]` of format `from` into `d[i*ds..]` of format `to`, where
/// one side is REAL(10) or REAL(16) and the other INTEGER(16) or a real format. Reals round to
/// nearest; reals to INTEGER(16) truncate toward zero, saturate when out of range and give 0
/// for a NaN.
///
/// # Panics
/// If the pair has no C kernel or a buffer is too short for `m` scalars at its stride.
pub(crate) fn convert(d: &mut [u8], to: Fmt, ds: usize, s: &[u8], from: Fmt, ss: usize, m: usize) {
    let f = convert_fn(to, from).expect("no REAL(10)/REAL(16) kernel for this pair");
    if m == 0 {
        return;
    }
    assert!(ds >= to.size() && d.len() >= (m - 1) * ds + to.size());
    assert!(ss >= from.size() && s.len() >= (m - 1) * ss + from.size());
    // SAFETY: the asserts above keep every access `d[i*ds..i*ds+to.size()]` and
    // `s[i*ss..i*ss+from.size()]` for i < m inside the slices; the C loads and stores by memcpy,
    // so no alignment is needed, and `d` is borrowed mutably so it cannot overlap `s`.
    unsafe { f(d.as_mut_ptr(), ds, s.as_ptr(), ss, m) }
}

/// `acc[i] = op(acc[i], other[i])` over `m` packed REAL(10) (`F80`) or REAL(16) (`F128`)
/// scalars, with Fortran MIN/MAX returning the non-NaN operand.
///
/// # Panics
/// If `fmt` is not an extended format or a buffer holds fewer than `m` scalars.
pub(crate) fn combine(op: ReduceOp, fmt: Fmt, acc: &mut [u8], other: &[u8], m: usize) {
    let f: CombineFn = match (fmt, op) {
        (Fmt::F80, ReduceOp::Sum) => ferrocaf_f80_sum,
        (Fmt::F80, ReduceOp::Min) => ferrocaf_f80_min,
        (Fmt::F80, ReduceOp::Max) => ferrocaf_f80_max,
        (Fmt::F128, ReduceOp::Sum) => ferrocaf_f128_sum,
        (Fmt::F128, ReduceOp::Min) => ferrocaf_f128_min,
        (Fmt::F128, ReduceOp::Max) => ferrocaf_f128_max,
        _ => panic!("{fmt:?} is not an extended real format"),
    };
    assert!(acc.len() >= m * 16 && other.len() >= m * 16);
    // SAFETY: the assert keeps the `m` 16-byte scalars the C reads and writes inside both
    // slices; it uses memcpy, so no alignment is needed, and `acc` is borrowed mutably so it
    // cannot overlap `other`.
    unsafe { f(acc.as_mut_ptr(), other.as_ptr(), m) }
}
