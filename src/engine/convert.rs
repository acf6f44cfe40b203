//! Kind conversion between packed arrays of intrinsic types (Fortran 2018 10.2.1.3: intrinsic
//! assignment converts the value to the type and kind of the variable).

use super::types::{Class, Ty};
use crate::error::{CafError, CafResult};

/// Converts `n` packed elements of type `from` in `src` to type `to` in `dst`.
pub fn convert(dst: &mut [u8], to: Ty, src: &[u8], from: Ty, n: usize) -> CafResult<()> {
    debug_assert!(dst.len() >= n * to.size && src.len() >= n * from.size);
    for i in 0..n {
        let s = &src[i * from.size..(i + 1) * from.size];
        let d = &mut dst[i * to.size..(i + 1) * to.size];
        match (from.class, to.class) {
            (Class::Integer, Class::Integer) => write_int(d, read_int(s)),
            (Class::Real, Class::Real) => write_real(d, to.kind, read_real(s, from.kind)),
            (Class::Integer, Class::Real) => write_real(d, to.kind, read_int(s) as f64),
            (Class::Real, Class::Integer) => write_int(d, read_real(s, from.kind) as i128),
            _ => {
                return Err(CafError::InvalidArgument(format!(
                    "cannot convert {:?}({}) to {:?}({})",
                    from.class, from.kind, to.class, to.kind
                )))
            }
        }
    }
    Ok(())
}

fn read_int(s: &[u8]) -> i128 {
    match s.len() {
        1 => s[0] as i8 as i128,
        2 => i16::from_ne_bytes(s.try_into().unwrap()) as i128,
        4 => i32::from_ne_bytes(s.try_into().unwrap()) as i128,
        8 => i64::from_ne_bytes(s.try_into().unwrap()) as i128,
        _ => i128::from_ne_bytes(s.try_into().unwrap()),
    }
}

fn write_int(d: &mut [u8], v: i128) {
    let b = v.to_ne_bytes();
    let n = d.len();
    d.copy_from_slice(&b[..n]);
}

fn read_real(s: &[u8], kind: u8) -> f64 {
    match kind {
        4 => f32::from_ne_bytes(s[..4].try_into().unwrap()) as f64,
        _ => f64::from_ne_bytes(s[..8].try_into().unwrap()),
    }
}

fn write_real(d: &mut [u8], kind: u8, v: f64) {
    match kind {
        4 => d[..4].copy_from_slice(&(v as f32).to_ne_bytes()),
        _ => d[..8].copy_from_slice(&v.to_ne_bytes()),
    }
}
