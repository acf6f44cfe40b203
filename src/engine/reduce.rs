//! TEMPORARY local stand-in until the kernels branch lands (integer/real sum/min/max only).

use super::types::{Class, Ty};
use crate::error::{CafError, CafResult};

/// Reduction operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceOp {
    /// Sum.
    Sum,
    /// Minimum.
    Min,
    /// Maximum.
    Max,
}

/// `acc[i] = op(acc[i], other[i])`.
pub fn combine(op: ReduceOp, ty: Ty, acc: &mut [u8], other: &[u8], n: usize) -> CafResult<()> {
    match (ty.class, ty.size) {
        (Class::Integer, 4) => {
            for i in 0..n {
                let a = i32::from_ne_bytes(acc[4 * i..4 * i + 4].try_into().unwrap());
                let b = i32::from_ne_bytes(other[4 * i..4 * i + 4].try_into().unwrap());
                let r = match op {
                    ReduceOp::Sum => a.wrapping_add(b),
                    ReduceOp::Min => a.min(b),
                    ReduceOp::Max => a.max(b),
                };
                acc[4 * i..4 * i + 4].copy_from_slice(&r.to_ne_bytes());
            }
            Ok(())
        }
        (Class::Real, 8) => {
            for i in 0..n {
                let a = f64::from_ne_bytes(acc[8 * i..8 * i + 8].try_into().unwrap());
                let b = f64::from_ne_bytes(other[8 * i..8 * i + 8].try_into().unwrap());
                let r = match op {
                    ReduceOp::Sum => a + b,
                    ReduceOp::Min => a.min(b),
                    ReduceOp::Max => a.max(b),
                };
                acc[8 * i..8 * i + 8].copy_from_slice(&r.to_ne_bytes());
            }
            Ok(())
        }
        _ => Err(CafError::InvalidArgument("unsupported".into())),
    }
}
