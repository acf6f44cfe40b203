//! Anonymous shared-memory files and fixed-address mappings.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

/// Creates an unnamed shared-memory file of `size` bytes (sparse: pages cost memory only when
/// touched). It has no name in any file system, so no other job can open it and nothing is left
/// behind when the job ends, however it ends.
pub fn memfd(name: &str, size: usize) -> io::Result<OwnedFd> {
    let cname = std::ffi::CString::new(name).expect("memfd name has no NUL");
    // SAFETY: `cname` is a valid NUL-terminated string for the duration of the call.
    let fd = unsafe { libc::memfd_create(cname.as_ptr(), 0) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just returned by memfd_create and is owned by nobody else.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    // SAFETY: plain syscall on an fd we own.
    if unsafe { libc::ftruncate(fd.as_raw_fd(), size as libc::off_t) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(fd)
}

/// Clears or sets close-on-exec on `fd`.
pub fn set_cloexec(fd: RawFd, on: bool) -> io::Result<()> {
    // SAFETY: fcntl on an integer fd has no memory-safety preconditions.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    let new = if on {
        flags | libc::FD_CLOEXEC
    } else {
        flags & !libc::FD_CLOEXEC
    };
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFD, new) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Maps `len` bytes of `fd` read-write and shared at exactly `addr`, failing (instead of
/// replacing anything) if any page of the range is already in use.
pub fn map_fixed(fd: RawFd, addr: usize, len: usize) -> io::Result<()> {
    // SAFETY: MAP_FIXED_NOREPLACE never clobbers an existing mapping, so no live Rust object can
    // be invalidated; the result is checked against the requested address.
    let p = unsafe {
        libc::mmap(
            addr as *mut libc::c_void,
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED | libc::MAP_FIXED_NOREPLACE | libc::MAP_NORESERVE,
            fd,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    if p as usize != addr {
        // An old kernel ignored MAP_FIXED_NOREPLACE and placed the mapping elsewhere.
        // SAFETY: `p` is the mapping just created, of length `len`, referenced by nothing.
        unsafe { libc::munmap(p, len) };
        return Err(io::Error::from_raw_os_error(libc::EEXIST));
    }
    Ok(())
}

/// Maps `len` bytes of `fd` shared at an address of the kernel's choice.
pub fn map_anywhere(fd: RawFd, len: usize) -> io::Result<*mut u8> {
    // SAFETY: a fresh mapping at a kernel-chosen address cannot alias existing objects.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED | libc::MAP_NORESERVE,
            fd,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    Ok(p as *mut u8)
}

/// Returns the pages of `[addr, addr+len)` to the kernel; they read back as zero.
///
/// # Safety
/// The range must lie inside a shared mapping created by this module and must not hold data
/// any image still needs.
pub unsafe fn discard(addr: usize, len: usize) {
    // SAFETY: guaranteed by the caller; MADV_REMOVE frees the backing pages of a shmem file.
    unsafe { libc::madvise(addr as *mut libc::c_void, len, libc::MADV_REMOVE) };
}

/// The address range `[low, high)` of the calling thread's stack, if the C library reports it.
pub fn thread_stack() -> Option<(usize, usize)> {
    let mut attr = std::mem::MaybeUninit::<libc::pthread_attr_t>::uninit();
    // SAFETY: pthread_getattr_np initialises `attr` for the calling thread when it returns 0.
    if unsafe { libc::pthread_getattr_np(libc::pthread_self(), attr.as_mut_ptr()) } != 0 {
        return None;
    }
    let mut base = std::ptr::null_mut();
    let mut size = 0usize;
    // SAFETY: `attr` was initialised above; the out-pointers are valid locals; the attribute
    // object is destroyed exactly once.
    let ok = unsafe {
        let ok = libc::pthread_attr_getstack(attr.as_ptr(), &mut base, &mut size) == 0;
        libc::pthread_attr_destroy(attr.as_mut_ptr());
        ok
    };
    ok.then(|| (base as usize, base as usize + size))
}

/// Reserves `len` bytes of address space (no access, no memory) at an address of the kernel's
/// choice, or exactly at `at` when given (failing if any page of that range is in use).
pub fn reserve(at: Option<usize>, len: usize) -> io::Result<usize> {
    let (addr, fixed) = match at {
        Some(a) => (a as *mut libc::c_void, libc::MAP_FIXED_NOREPLACE),
        None => (std::ptr::null_mut(), 0),
    };
    // SAFETY: an inaccessible anonymous mapping that never replaces an existing one.
    let p = unsafe {
        libc::mmap(
            addr,
            len,
            libc::PROT_NONE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | fixed,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    if at.is_some_and(|a| a != p as usize) {
        // SAFETY: `p` is the mapping just created, referenced by nothing.
        unsafe { libc::munmap(p, len) };
        return Err(io::Error::from_raw_os_error(libc::EEXIST));
    }
    Ok(p as usize)
}

/// The page size (at least 4096).
pub fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(n).unwrap_or(4096).max(4096)
}

/// Makes `[addr, addr+len)` readable and writable, or inaccessible (async-signal-safe: one
/// system call).
///
/// # Safety
/// The range is page-aligned and lies in a private mapping made by [`reserve`] that nothing
/// else uses.
pub unsafe fn protect(addr: usize, len: usize, access: bool) -> io::Result<()> {
    let prot = match access {
        true => libc::PROT_READ | libc::PROT_WRITE,
        false => libc::PROT_NONE,
    };
    // SAFETY: guaranteed by the caller.
    if unsafe { libc::mprotect(addr as *mut libc::c_void, len, prot) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Unmaps `[addr, addr+len)`.
///
/// # Safety
/// Nothing may use the range afterwards: it must be a reservation or alias made by this module.
pub unsafe fn unmap(addr: usize, len: usize) {
    // SAFETY: guaranteed by the caller.
    unsafe { libc::munmap(addr as *mut libc::c_void, len) };
}

/// Maps the `len` bytes of the shared mapping at `from` a second time at exactly `to` (the same
/// pages, both views stay valid: `mremap` with an old size of 0).
///
/// The system call is made directly, not through the C library's `mremap`: UCX before 1.14
/// (MPICH's ch4:ucx, Open MPI's pml/ucx) intercepts that function with a four-argument
/// signature, so the fifth, `to`, reached the kernel as whatever the register held and
/// `MREMAP_FIXED` put the alias there, over any mapping of the process (every program crashed
/// at start under Debian 12's MPICH 4.0 with UCX 1.13; UCX issue 8820, fixed by its PR 8822).
///
/// # Safety
/// `from` is page-aligned inside a shared mapping whose file has `len` bytes from there on;
/// `[to, to+len)` is a reservation made by [`reserve`] (it is replaced).
pub unsafe fn alias_at(from: usize, len: usize, to: usize) -> io::Result<()> {
    // SAFETY: guaranteed by the caller; MREMAP_FIXED replaces only the caller's reservation.
    let p = unsafe {
        libc::syscall(
            libc::SYS_mremap,
            from,
            0usize,
            len,
            libc::MREMAP_MAYMOVE | libc::MREMAP_FIXED,
            to,
        )
    };
    if p == -1 {
        return Err(io::Error::last_os_error());
    }
    debug_assert_eq!(p as usize, to, "MREMAP_FIXED maps at the given address");
    Ok(())
}
