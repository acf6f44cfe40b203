//! ferrocaf: a coarray Fortran runtime for `gfortran -fcoarray=lib`.
//!
//! Layers, data flowing down only: [`abi`] (the `_gfortran_caf_*` entry points) →
//! [`runtime`] (process-wide state) → [`engine`] (what operations mean) → [`transport`] (how
//! bytes move). [`launch`] starts jobs; [`sys`] wraps the few libc calls.
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod abi;
pub mod engine;
pub mod error;
pub mod launch;
pub mod runtime;
pub mod sync;
pub mod sys;
pub mod transport;
