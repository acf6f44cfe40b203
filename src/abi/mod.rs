//! The `_gfortran_caf_*` entry points gfortran emits for `-fcoarray=lib`: the only place with
//! `#[no_mangle]` functions and gfortran's data layouts. Each shim decodes its arguments, calls
//! the runtime or engine, and turns errors into `stat`/`errmsg` or error termination.

pub mod descriptor;
pub mod errors;
pub mod images;
pub mod memory;
pub mod stop;
pub mod sync;
pub mod transfer;

use std::ffi::c_char;

/// gfortran's opaque coarray token.
pub type CafToken = *mut std::ffi::c_void;
/// `errmsg=` buffer (blank padded, not NUL terminated).
pub type ErrMsg = *mut c_char;
