//! GCC 15+ remote accessors: gfortran compiles every coindexed reference into a small function
//! (an accessor) that runs the rest of the reference (components, subscripts, allocatable hops)
//! against the target image's object. The functions are registered by hash before `main`
//! ([`table`]), identified across images by their index in the hash-sorted table, and called by
//! the runtime for `_gfortran_caf_get_from_remote`, `_send_to_remote`,
//! `_transfer_between_remotes` and `_is_present_on_remote`.
//!
//! Where every image maps every segment at the same address, the caller runs the accessor
//! itself against the target's memory, as GCC 16's libcaf_shmem does: a coindexed read is a
//! call and a load. Where this process does not map the target's segment at its owner's address
//! (an MPI peer on another node, or every peer with FERROCAF_MPI_SHM=0) the accessor runs on
//! the owner (`away` asks, `serve` answers).

mod attach;
mod away;
mod fast;
pub mod get;
mod guard;
pub mod present;
pub mod send;
mod serve;
mod shadow;
pub mod table;
mod target;
pub mod transfer;
mod wire;

use super::CafToken;

/// Serves the accessors other images have asked this image to run, if any arrived: for the
/// statements a program may spin on without entering a wait (atomics, EVENT_QUERY, SYNC
/// MEMORY), so that an image spinning on a flag still answers the image that will set it.
#[inline]
pub fn serve_pending(rt: &crate::runtime::Runtime) {
    if crate::transport::owner::serving() {
        if let Some(calls) = rt.tp.owner_calls() {
            calls.serve();
        }
    }
}

/// Makes this image serve the accessors other images run on it (registered once the runtime
/// exists, so that a request never meets a half-started image).
pub fn serve_owner_calls() {
    crate::transport::owner::set_server(serve::serve);
}
use std::ffi::{c_int, c_void};

/// A getter: `(add_data, caller_image, dst, free_buffer, base, add_data_token, offset,
/// dst_charlen, src_charlen)`. `dst` is the destination descriptor or the address of the result
/// pointer; the getter may point the latter into the target's memory (scalars, no copy) or
/// allocate, setting `free_buffer`.
pub type Getter = unsafe extern "C" fn(
    *mut c_void,
    *const c_int,
    *mut c_void,
    *mut i32,
    *mut c_void,
    CafToken,
    usize,
    *mut usize,
    *const usize,
);

/// A receiver (send accessor): `(add_data, caller_image, base, src, add_data_token, offset,
/// dst_charlen, src_charlen)`; `src` is a descriptor or the address of the value.
pub type Receiver = unsafe extern "C" fn(
    *mut c_void,
    *const c_int,
    *mut c_void,
    *const c_void,
    CafToken,
    usize,
    *const usize,
    *const usize,
);

/// A presence accessor: `(add_data, caller_image, result, base, add_data_token, offset)`.
pub type Present =
    unsafe extern "C" fn(*mut c_void, *const c_int, *mut i32, *mut c_void, CafToken, usize);
