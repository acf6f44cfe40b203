//! ferrocaf: a coarray Fortran runtime for `gfortran -fcoarray=lib`.
//!
//! Layers, data flowing down only: [`abi`] (the `_gfortran_caf_*` entry points) →
//! [`runtime`] (process-wide state) → [`engine`] (what operations mean) → [`transport`] (how
//! bytes move). [`launch`] starts jobs; [`sys`] wraps the few libc calls.
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

#[cfg(not(loom))]
pub mod abi;
#[cfg(not(loom))]
pub mod engine;
#[cfg(not(loom))]
pub mod error;
#[cfg(not(loom))]
pub mod launch;
#[cfg(not(loom))]
pub mod runtime;
pub mod sync;
#[cfg(not(loom))]
pub mod sys;
#[cfg(not(loom))]
pub mod transport;

/// Under `--cfg loom` only the lock-free pieces with loom models are built:
/// `RUSTFLAGS="--cfg loom" cargo test --release --lib`.
#[cfg(loom)]
pub mod transport {
    pub mod doorbell;
    pub mod ring;
}
