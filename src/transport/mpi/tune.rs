//! Control variables of the MPI library that ferrocaf's windows need changed, set through the
//! MPI tool interface (`MPI_T_cvar_write`) after `MPI_Init` and before any window exists. A
//! library without the variable (another implementation or version) is left as it is; a
//! variable the user set in the environment wins.

use mpi_sys as m;
use std::ffi::{c_int, CString};
use std::ptr::null_mut;

/// MPICH 4 tries to place every rank's part of a window at one address in every process (its
/// "symmetric heap"), and tests each candidate range for overlap with `msync` page by page, up
/// to this many times: a 2-image program with the default heap (2 GiB segments) took 12.9 s to
/// start instead of 0.8 s, and the cost grows with the ranks per node. ferrocaf does not need
/// equal addresses (it allgathers every segment's displacement), so it asks for no attempt.
const SYMHEAP_RETRY: &str = "SHM_SYMHEAP_RETRY";

/// Applies ferrocaf's settings (see [`SYMHEAP_RETRY`]). Must be called after MPI_Init and
/// before the windows are created.
pub(super) fn apply() {
    if user_set(SYMHEAP_RETRY) {
        return;
    }
    let mut provided = 0;
    // SAFETY: MPI is initialised; the out-pointer is valid. MPI_T may be initialised more than
    // once (each call is paired with MPI_T_finalize below).
    if unsafe { m::MPI_T_init_thread(super::world::thread_level(), &mut provided) } != 0 {
        return;
    }
    write_int(&format!("MPIR_CVAR_{SYMHEAP_RETRY}"), 0);
    // SAFETY: paired with the successful MPI_T_init_thread above.
    unsafe { m::MPI_T_finalize() };
}

/// Whether the environment sets MPICH's variable `name` under any of its prefixes.
fn user_set(name: &str) -> bool {
    ["MPIR_CVAR_", "MPICH_", "MPIR_PARAM_"]
        .iter()
        .any(|p| std::env::var_os(format!("{p}{name}")).is_some())
}

/// Writes `value` to the integer control variable `name` if the library has one by that name
/// (not bound to any object); does nothing otherwise.
fn write_int(name: &str, value: c_int) {
    let cname = CString::new(name).expect("no NUL in a variable name");
    let (mut index, mut count) = (0, 0);
    let mut handle: m::MPI_T_cvar_handle = super::world::null_handle();
    // SAFETY: MPI_T is initialised; the name is NUL-terminated; out-pointers are valid. The
    // handle is allocated only for a variable that exists, checked to hold one value before
    // the write reads `value`, and freed before returning.
    unsafe {
        if m::MPI_T_cvar_get_index(cname.as_ptr(), &mut index) != 0 {
            return;
        }
        if m::MPI_T_cvar_handle_alloc(index, null_mut(), &mut handle, &mut count) != 0 {
            return;
        }
        if count == 1 {
            m::MPI_T_cvar_write(handle, (&value as *const c_int).cast());
        }
        m::MPI_T_cvar_handle_free(&mut handle);
    }
}
