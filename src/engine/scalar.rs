//! Scalar formats of the numeric kinds and the tight loops the kernels are built from.

use super::types::{Class, Ty};
use crate::error::{CafError, CafResult};

/// The storage format of one numeric scalar (a complex element holds two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fmt {
    /// Two's-complement integer of the kind (1, 2, 4, 8 or 16 bytes).
    Int(u8),
    /// IEEE binary32, REAL(4).
    F32,
    /// IEEE binary64, REAL(8).
    F64,
    /// x87 80-bit extended in 16 bytes, REAL(10).
    F80,
    /// IEEE binary128, REAL(16).
    F128,
}

impl Fmt {
    /// Bytes one scalar occupies.
    pub(crate) fn size(self) -> usize {
        match self {
            Fmt::Int(k) => k as usize,
            Fmt::F32 => 4,
            Fmt::F64 => 8,
            Fmt::F80 | Fmt::F128 => 16,
        }
    }

    /// The scalar format of an INTEGER, REAL or COMPLEX type and the scalars per element, or
    /// `None` for another class, an unknown kind or a size that does not match the kind.
    pub(crate) fn of(ty: Ty) -> Option<(Fmt, usize)> {
        let (fmt, parts) = match (ty.class, ty.kind) {
            (Class::Integer, k @ (1 | 2 | 4 | 8 | 16)) => (Fmt::Int(k), 1),
            (Class::Real | Class::Complex, k) => {
                (Fmt::real(k)?, 1 + (ty.class == Class::Complex) as usize)
            }
            _ => return None,
        };
        (fmt.size() * parts == ty.size).then_some((fmt, parts))
    }

    /// The format of REAL(`kind`).
    fn real(kind: u8) -> Option<Fmt> {
        match kind {
            4 => Some(Fmt::F32),
            8 => Some(Fmt::F64),
            10 => Some(Fmt::F80),
            16 => Some(Fmt::F128),
            _ => None,
        }
    }
}

/// A primitive scalar read from and written to native-endian bytes.
pub(crate) trait Scalar: Copy {
    /// Reads the scalar from the first bytes of `b`.
    fn get(b: &[u8]) -> Self;
    /// Writes the scalar to the first bytes of `b`.
    fn put(self, b: &mut [u8]);
}

macro_rules! impl_scalar {
    ($($t:ty),*) => {$(
        impl Scalar for $t {
            #[inline(always)]
            fn get(b: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(&b[..std::mem::size_of::<$t>()]);
                <$t>::from_ne_bytes(a)
            }
            #[inline(always)]
            fn put(self, b: &mut [u8]) {
                b[..std::mem::size_of::<$t>()].copy_from_slice(&self.to_ne_bytes());
            }
        }
    )*};
}
impl_scalar!(i8, i16, i32, i64, i128, u32, f32, f64);

/// Runs `$body` with `$t` bound to the Rust integer type of INTEGER kind `$k` (1, 2, 4, 8, 16).
macro_rules! int_kind {
    ($k:expr, $t:ident => $body:expr) => {
        match $k {
            1 => {
                type $t = i8;
                $body
            }
            2 => {
                type $t = i16;
                $body
            }
            4 => {
                type $t = i32;
                $body
            }
            8 => {
                type $t = i64;
                $body
            }
            _ => {
                type $t = i128;
                $body
            }
        }
    };
}
pub(crate) use int_kind;

/// `d[i*ds..] = f(s[i*ss..])` for `m` scalars: the loop every numeric conversion runs.
#[inline(always)]
pub(crate) fn map<S: Scalar, D: Scalar>(
    d: &mut [u8],
    ds: usize,
    s: &[u8],
    ss: usize,
    m: usize,
    f: impl Fn(S) -> D,
) {
    let (dw, sw) = (std::mem::size_of::<D>(), std::mem::size_of::<S>());
    if (ds, ss) == (dw, sw) {
        // Packed on both sides: constant-size chunks let the compiler vectorise the loop.
        for (dc, sc) in d.chunks_exact_mut(dw).zip(s.chunks_exact(sw)).take(m) {
            f(S::get(sc)).put(dc);
        }
    } else {
        for (dc, sc) in d.chunks_mut(ds).zip(s.chunks(ss)).take(m) {
            f(S::get(sc)).put(dc);
        }
    }
}

/// `acc[i] = f(acc[i], other[i])` over `m` packed scalars of type `T`.
#[inline(always)]
pub(crate) fn zip<T: Scalar>(acc: &mut [u8], other: &[u8], m: usize, f: impl Fn(T, T) -> T) {
    let w = std::mem::size_of::<T>();
    for (a, b) in acc.chunks_exact_mut(w).zip(other.chunks_exact(w)).take(m) {
        f(T::get(a), T::get(b)).put(a);
    }
}

/// Checks that `dst` and `src` hold `n` elements of their types.
pub(crate) fn check_len(dst: usize, to: Ty, src: usize, from: Ty, n: usize) -> CafResult<()> {
    let need = |ty: Ty| n.saturating_mul(ty.size);
    if dst < need(to) || src < need(from) {
        return Err(CafError::InvalidArgument(format!(
            "buffers of {dst} and {src} bytes cannot hold {n} elements of {} and {}",
            name(to),
            name(from)
        )));
    }
    Ok(())
}

/// The Fortran spelling of a type for messages, e.g. `REAL(8)` or `CHARACTER(LEN=5,KIND=4)`.
pub(crate) fn name(ty: Ty) -> String {
    match ty.class {
        Class::Integer => format!("INTEGER({})", ty.kind),
        Class::Logical => format!("LOGICAL({})", ty.kind),
        Class::Real => format!("REAL({})", ty.kind),
        Class::Complex => format!("COMPLEX({})", ty.kind),
        Class::Character => format!("CHARACTER(LEN={},KIND={})", ty.len(), ty.kind),
        Class::Bytes => format!("a derived type of {} bytes", ty.size),
    }
}

/// Builders and readers of packed test arrays, shared by the kernels' tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::super::convert::convert;
    use super::super::types::{Class, Ty};

    /// The INTEGER and LOGICAL kinds.
    pub(crate) const INT_KINDS: [u8; 5] = [1, 2, 4, 8, 16];
    /// The REAL and COMPLEX kinds.
    pub(crate) const REAL_KINDS: [u8; 4] = [4, 8, 10, 16];

    /// The type of `class` and `kind` as the runtime describes it (REAL(10) in 16 bytes).
    pub(crate) fn ty(class: Class, kind: u8) -> Ty {
        let real = if kind == 10 { 16 } else { kind as usize };
        let size = match class {
            Class::Real => real,
            Class::Complex => 2 * real,
            _ => kind as usize,
        };
        Ty::new(class, kind, size)
    }

    /// `src` (of type `from`) converted to `to`.
    pub(crate) fn conv(to: Ty, from: Ty, src: &[u8]) -> Vec<u8> {
        let n = src.len() / from.size;
        let mut dst = vec![0xA5; n * to.size];
        convert(&mut dst, to, src, from, n).unwrap();
        dst
    }

    /// `v` as integers of `kind` bytes.
    pub(crate) fn ints(kind: u8, v: &[i128]) -> Vec<u8> {
        v.iter()
            .flat_map(|x| x.to_le_bytes()[..kind as usize].to_vec())
            .collect()
    }

    /// The integers of `kind` bytes in `b`.
    pub(crate) fn read_ints(kind: u8, b: &[u8]) -> Vec<i128> {
        let i16 = ty(Class::Integer, 16);
        let wide = conv(i16, ty(Class::Integer, kind), b);
        wide.chunks(16)
            .map(|c| i128::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    /// `v` as `class` values of `kind`.
    pub(crate) fn reals(class: Class, kind: u8, v: &[f64]) -> Vec<u8> {
        let src: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        conv(ty(class, kind), ty(class, 8), &src)
    }

    /// The `class` values of `kind` in `b`, as `f64`.
    pub(crate) fn read_f64(class: Class, kind: u8, b: &[u8]) -> Vec<f64> {
        let out = conv(ty(Class::Real, 8), ty(class, kind), b);
        out.chunks(8)
            .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }
}
