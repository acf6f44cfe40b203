//! The `_gfortran_caf_*` entry points gfortran emits for `-fcoarray=lib`: the only place with
//! `#[no_mangle]` functions and gfortran's data layouts. Each shim decodes its arguments, calls
//! the runtime or engine, and turns errors into `stat`/`errmsg` or error termination.

pub mod accessor;
pub mod atomics;
pub mod by_ref;
pub mod cfi;
pub mod co_reduce;
pub mod collectives;
pub mod descriptor;
pub mod errors;
pub mod ext;
pub mod generation;
pub mod images;
pub mod memory;
pub mod near;
pub mod random;
pub mod realloc;
pub mod refs;
pub mod segment;
pub mod status;
pub mod stop;
pub mod sync;
pub mod sync_objects;
pub mod teams;
pub mod teams16;
pub mod transfer;
mod transfer_fast;
pub mod vector;

use std::ffi::c_char;

/// gfortran's opaque coarray token.
pub type CafToken = *mut std::ffi::c_void;
/// `errmsg=` buffer (blank padded, not NUL terminated).
pub type ErrMsg = *mut c_char;

/// The runtime's record behind a gfortran token.
///
/// # Safety
/// `t` is a non-null token created by this runtime's `_gfortran_caf_register` and not yet
/// deregistered.
pub unsafe fn token<'a>(t: CafToken) -> &'a crate::runtime::registry::Token {
    // SAFETY: guaranteed by the caller.
    unsafe { &*(t as *const crate::runtime::registry::Token) }
}
