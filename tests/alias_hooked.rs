//! The second mapping of a shared segment (`sys::mem::alias_at`, used by the MPI transport to
//! map the node's window at one address in every process) must land exactly where asked even
//! when a library intercepts `mremap` the way UCX before 1.14 does: with a four-argument
//! signature, so the fifth (the new address) is lost. This test binary defines such an
//! `mremap` (it wins over the C library's for every caller in the binary) that, losing the
//! address, lets the kernel choose one; an `alias_at` that called `mremap` would map the alias
//! elsewhere and the checks below would fail (under MPICH with UCX 1.13 every program crashed).

use ferrocaf::sys::mem;
use std::os::fd::AsRawFd;

/// How many calls reached the interposed `mremap` (none must, from `alias_at`).
static HOOKED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// UCX 1.13's `ucm_override_mremap` in effect: four arguments; the address `MREMAP_FIXED`
/// asks for never reaches the kernel, which places the mapping where it likes.
///
/// # Safety
/// As the C library's `mremap`: `old` and the sizes describe a mapping the caller owns.
#[no_mangle]
pub unsafe extern "C" fn mremap(
    old: *mut libc::c_void,
    old_size: usize,
    new_size: usize,
    flags: libc::c_int,
) -> *mut libc::c_void {
    HOOKED.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    // SAFETY: forwards the caller's own arguments, minus MREMAP_FIXED (no address is known).
    let p = unsafe {
        libc::syscall(
            libc::SYS_mremap,
            old,
            old_size,
            new_size,
            flags & !libc::MREMAP_FIXED,
        )
    };
    p as *mut libc::c_void
}

#[test]
fn alias_lands_at_the_asked_address_despite_an_mremap_hook() {
    let len = 4 * 4096;
    let fd = mem::memfd("alias-test", len).unwrap();
    let first = mem::map_anywhere(fd.as_raw_fd(), len).unwrap() as usize;
    let to = mem::reserve(None, len).unwrap();
    // SAFETY: `first` is the page-aligned start of a shared mapping of `len` bytes of a file of
    // `len` bytes; `[to, to+len)` is a reservation of this test.
    unsafe { mem::alias_at(first, len, to) }.unwrap();
    assert_eq!(
        HOOKED.load(std::sync::atomic::Ordering::SeqCst),
        0,
        "alias_at went through mremap"
    );
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
    let at = format!("{to:x}-");
    let line = maps.lines().find(|l| l.starts_with(&at));
    assert!(
        line.is_some_and(|l| l.contains("rw-s")),
        "no shared read-write mapping at {to:#x}:\n{maps}"
    );
    // SAFETY: both ranges are mappings of the same `len` bytes, owned by this test.
    unsafe {
        (first as *mut u64).add(1000).write_volatile(0x5eed);
        assert_eq!((to as *const u64).add(1000).read_volatile(), 0x5eed);
        mem::unmap(to, len);
        mem::unmap(first, len);
    }
}
