//! The C shim's functions (`shim.c`): every libfabric call of the transport goes through them.

use std::ffi::{c_char, c_int, c_void, CStr};

/// The shim's endpoint state (opaque: all libfabric structures stay in C).
#[repr(C)]
pub(super) struct Ff {
    _private: [u8; 0],
}

/// One local piece of an RMA operation (`struct iovec`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(super) struct Iov {
    /// Local address.
    pub base: usize,
    /// Bytes.
    pub len: usize,
}

/// One remote piece of an RMA operation (`struct fi_rma_iov`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub(super) struct RmaIov {
    /// Remote address (virtual, or offset in the region, as the provider's mr_mode says).
    pub addr: u64,
    /// Bytes.
    pub len: usize,
    /// Remote key of the region.
    pub key: u64,
}

extern "C" {
    pub(super) fn ff_strerror(rc: c_int) -> *const c_char;
    pub(super) fn ff_providers(out: *mut c_char, len: usize) -> c_int;
    pub(super) fn ff_open(
        out: *mut *mut Ff,
        seg: *mut c_void,
        len: usize,
        name: *mut c_void,
        namelen: *mut usize,
        counting: c_int,
        cname: *mut c_void,
        cnamelen: *mut usize,
    ) -> c_int;
    pub(super) fn ff_provider(f: *const Ff) -> *const c_char;
    pub(super) fn ff_key(f: *const Ff) -> u64;
    pub(super) fn ff_virt_addr(f: *const Ff) -> c_int;
    pub(super) fn ff_cq_data_size(f: *const Ff) -> usize;
    pub(super) fn ff_iov_limit(f: *const Ff) -> usize;
    pub(super) fn ff_auto_progress(f: *const Ff) -> c_int;
    pub(super) fn ff_insert(
        f: *mut Ff,
        names: *const c_void,
        namelen: usize,
        n: usize,
        k: usize,
    ) -> c_int;
    pub(super) fn ff_counted(f: *mut Ff) -> u64;
    pub(super) fn ff_count_add(f: *mut Ff) -> c_int;
    pub(super) fn ff_wait(f: *mut Ff) -> c_int;
    pub(super) fn ff_rma(
        f: *mut Ff,
        write: c_int,
        peer: usize,
        local: *const Iov,
        n: usize,
        remote: *const RmaIov,
        m: usize,
        data: u64,
        to: c_int,
    ) -> c_int;
    pub(super) fn ff_send(f: *mut Ff, peer: usize, cell: *const c_void) -> c_int;
    pub(super) fn ff_atomics_valid(f: *mut Ff) -> c_int;
    pub(super) fn ff_fetch(
        f: *mut Ff,
        peer: usize,
        addr: u64,
        key: u64,
        width: c_int,
        op: c_int,
        operand: *const c_void,
        old: *mut c_void,
    ) -> c_int;
    pub(super) fn ff_cswap(
        f: *mut Ff,
        peer: usize,
        addr: u64,
        key: u64,
        width: c_int,
        expected: *const c_void,
        desired: *const c_void,
        old: *mut c_void,
    ) -> c_int;
    pub(super) fn ff_receive(f: *mut Ff, cell: *mut c_void, data: *mut u64) -> c_int;
    pub(super) fn ff_close(f: *mut Ff);
}

/// libfabric's message for error code `rc` (negative).
pub(super) fn strerror(rc: c_int) -> String {
    // SAFETY: fi_strerror returns a static NUL-terminated string for any code.
    unsafe { CStr::from_ptr(ff_strerror(rc)) }
        .to_string_lossy()
        .into_owned()
}

/// Panics with the failing call's name and libfabric's message when `rc` is an error (the
/// panic hook turns it into the runtime's one-line message and error termination of the job).
pub(super) fn check(rc: c_int, what: &str) -> c_int {
    if rc < 0 {
        panic!("{what} failed: {}", strerror(rc));
    }
    rc
}

/// The providers fi_getinfo offers for the transport's needs (FI_PROVIDER applied), or why
/// there are none.
pub fn providers() -> Result<Vec<String>, String> {
    let mut buf = vec![0u8; 1024];
    // SAFETY: `buf` holds `len` writable bytes; the shim NUL-terminates what it writes.
    let rc = unsafe { ff_providers(buf.as_mut_ptr().cast(), buf.len()) };
    if rc < 0 {
        return Err(strerror(rc));
    }
    let s = CStr::from_bytes_until_nul(&buf).map_err(|e| e.to_string())?;
    Ok(s.to_string_lossy()
        .split(' ')
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect())
}
