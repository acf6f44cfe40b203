//! The C shim's functions (`shim.c`): every libfabric call of the transport goes through them.

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};

/// The shim's endpoint state (opaque: all libfabric structures stay in C).
#[repr(C)]
pub(super) struct Ff {
    _private: [u8; 0],
}

/// Bytes of a receive buffer, the longest message (`SLOT` in `shim.c`).
pub(super) const SLOT: usize = 4096;

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
    /// libfabric's message for the negative code `rc`.
    pub(super) fn ff_strerror(rc: c_int) -> *const c_char;
    /// The providers that fit the shim's hints, as `name1 name2 ...` into `out` (`len` bytes).
    pub(super) fn ff_providers(out: *mut c_char, len: usize) -> c_int;
    /// Opens the endpoint, registers `[seg, seg + len)` for remote reads, writes and atomics,
    /// posts the notification receives and writes the endpoint's name (at most `*namelen`
    /// bytes); with `counting` and a provider offering FI_RMA_EVENT, also opens the counting
    /// endpoint and writes its name to `cname` (`*cnamelen` bytes; 0 without one). Waits for
    /// this process's own operations call `pause` between empty polls.
    pub(super) fn ff_open(
        out: *mut *mut Ff,
        seg: *mut c_void,
        len: usize,
        name: *mut c_void,
        namelen: *mut usize,
        counting: c_int,
        cname: *mut c_void,
        cnamelen: *mut usize,
        pause: extern "C" fn(idle: *mut c_uint),
    ) -> c_int;
    /// The provider's name.
    pub(super) fn ff_provider(f: *const Ff) -> *const c_char;
    /// The remote key of the segment.
    pub(super) fn ff_key(f: *const Ff) -> u64;
    /// Whether remote addresses are virtual addresses (else offsets into the region).
    pub(super) fn ff_virt_addr(f: *const Ff) -> c_int;
    /// Bytes of immediate data a write can carry.
    pub(super) fn ff_cq_data_size(f: *const Ff) -> usize;
    /// Entries per side of one `fi_writemsg`/`fi_readmsg`.
    pub(super) fn ff_iov_limit(f: *const Ff) -> usize;
    /// Whether the provider's data progress is automatic.
    pub(super) fn ff_auto_progress(f: *const Ff) -> c_int;
    /// Inserts the `k` endpoint names (`namelen` bytes each: the `n` images' main endpoints in
    /// image order, then with counting their counting endpoints) into the address vector.
    pub(super) fn ff_insert(
        f: *mut Ff,
        names: *const c_void,
        namelen: usize,
        n: usize,
        k: usize,
    ) -> c_int;
    /// Remote writes into this image's counting endpoint so far, plus `ff_count_add`'s (0
    /// without one); reading the counter also progresses the counting endpoint.
    pub(super) fn ff_counted(f: *mut Ff) -> u64;
    /// Adds one to this image's own counter (a counted put into its own memory).
    pub(super) fn ff_count_add(f: *mut Ff) -> c_int;
    /// Waits until every posted operation has completed.
    pub(super) fn ff_wait(f: *mut Ff) -> c_int;
    /// Posts one write (`write` != 0) or read between `n` local and `m` remote pieces of image
    /// `peer`'s region (the same total); with `to` = 1 the write's immediate `data` arrives in
    /// the target's receive completion queue, with `to` = 2 the write goes to the target's
    /// counting endpoint, whose counter it increments. Not waited for.
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
    /// Sends the message of `len` bytes (at most [`SLOT`]) at `buf` to `peer` (delivered when
    /// its completion is reaped).
    pub(super) fn ff_send(f: *mut Ff, peer: usize, buf: *const c_void, len: usize) -> c_int;
    /// Whether the provider has every fetching atomic and the compare-and-swap the transport
    /// uses, on 4- and 8-byte unsigned words.
    pub(super) fn ff_atomics_valid(f: *mut Ff) -> c_int;
    /// Fetching atomic `op` (index into the shim's table) on the `width`-byte word at `addr` of
    /// `peer`'s region; the old value is in `*old` when it returns.
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
    /// Compare-and-swap of the `width`-byte word at `addr` of `peer`'s region; the old value is
    /// in `*old` when it returns.
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
    /// Reads one arrival: 1 with a message copied to `msg` ([`SLOT`] writable bytes; its length
    /// in `*len`), 2 with a write's immediate data in `*data`, 0 when none is there.
    pub(super) fn ff_receive(
        f: *mut Ff,
        msg: *mut c_void,
        len: *mut usize,
        data: *mut u64,
    ) -> c_int;
    /// The name of endpoint `k`'s region in /dev/shm (0: main, 1: counting; the shm provider
    /// only), empty where there is none: a NUL-terminated string `f` owns.
    pub(super) fn ff_region(f: *const Ff, k: c_int) -> *const c_char;
    /// Closes everything `ff_open` opened.
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
