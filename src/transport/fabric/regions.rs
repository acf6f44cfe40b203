//! The shm provider's regions of this process in /dev/shm, and their removal when the process
//! ends without closing its endpoints. Each endpoint of the shm provider is a named
//! shared-memory region (`fcaf-fi-<pid>-<start>-<k>`, `shim.c`'s `name_endpoint`) that closing
//! the endpoint unlinks. Error termination closes nothing: the caller asks the launcher to end
//! every process of the job (`PMIx_Abort`), itself first; and a process that ends through
//! `exit` elsewhere (libgfortran's runtime errors, following another image's error termination)
//! skips the close too. Either would leave its regions (16 MiB each, two per image with counted
//! puts) in /dev/shm for good. So the names are unlinked before `PMIx_Abort` ([`unlink`]) and at
//! `exit` (an `atexit` handler, [`keep`]); after a normal close they are gone already. A peer
//! that mapped a region keeps it until it ends, so nothing the other images still do breaks.
//! Images the launcher ends with a signal are the provider's to clean up (its signal handler
//! unlinks their regions); one killed by SIGKILL leaves its regions. Unlinking every name once
//! all images have started would cover that too, but only libfabric 1.x maps a peer's region
//! when its address is inserted; 2.x opens it by name at the first contact, which may come
//! at any time.

use super::ffi::{self, Ff};
use std::ffi::{c_int, CStr, CString};
use std::sync::OnceLock;

/// The names of this process's regions (none with other providers), and this process's id: a
/// child forked from it inherits the `atexit` handler, and must not unlink its parent's names.
static REGIONS: OnceLock<(u32, Vec<CString>)> = OnceLock::new();

/// Records the regions of the endpoints `ff` opened and has them unlinked at `exit`.
///
/// # Safety
/// `ff` is open (`ff_open` succeeded).
pub(super) unsafe fn keep(ff: *const Ff) {
    let names: Vec<CString> = (0..2)
        .filter_map(|k: c_int| {
            // SAFETY: `ff` is open (caller's guarantee); the name is a NUL-terminated string
            // it owns, copied here before anything closes it.
            let name = unsafe { CStr::from_ptr(ffi::ff_region(ff, k)) };
            (!name.is_empty()).then(|| name.to_owned())
        })
        .collect();
    if names.is_empty() || REGIONS.set((std::process::id(), names)).is_err() {
        return;
    }
    // SAFETY: registers a function that takes no arguments and only unlinks names.
    unsafe { libc::atexit(unlink_at_exit) };
}

/// Removes this process's region names from /dev/shm (a name already gone is no error: it is
/// what is wanted); nothing in a forked child.
pub(super) fn unlink() {
    let Some((owner, names)) = REGIONS.get() else {
        return;
    };
    if *owner == std::process::id() {
        names.iter().for_each(|n| unlink_name(n));
    }
}

/// [`unlink`], as an `atexit` handler.
extern "C" fn unlink_at_exit() {
    unlink();
}

/// Removes `name` from /dev/shm.
fn unlink_name(name: &CStr) {
    // SAFETY: a NUL-terminated name; shm_unlink only removes a directory entry.
    unsafe { libc::shm_unlink(name.as_ptr()) };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A region of this process's own in /dev/shm, named as the shim names them.
    fn region(k: u32) -> CString {
        let name = format!("fcaf-fi-{}-test{k}-{k}", std::process::id());
        let c = CString::new(name).expect("no NUL");
        // SAFETY: a NUL-terminated name; the descriptor is closed at once.
        let fd = unsafe { libc::shm_open(c.as_ptr(), libc::O_CREAT | libc::O_RDWR, 0o600) };
        assert!(fd >= 0, "shm_open: {}", std::io::Error::last_os_error());
        // SAFETY: a descriptor this function opened.
        unsafe { libc::close(fd) };
        c
    }

    fn exists(name: &CString) -> bool {
        std::path::Path::new("/dev/shm")
            .join(name.to_str().expect("ASCII"))
            .exists()
    }

    #[test]
    fn unlinking_removes_the_name_and_tolerates_one_already_gone() {
        let names = [region(0), region(1)];
        assert!(names.iter().all(exists));
        names.iter().for_each(|n| unlink_name(n));
        assert!(names.iter().all(|n| !exists(n)), "a region is left");
        names.iter().for_each(|n| unlink_name(n));
    }

    #[test]
    fn a_forked_child_leaves_its_parents_names() {
        let name = region(2);
        REGIONS
            .set((std::process::id(), vec![name.clone()]))
            .expect("no other test records regions");
        // SAFETY: the child only unlinks (or not) and ends with _exit, touching no lock the
        // test harness's other threads may hold.
        let child = unsafe { libc::fork() };
        assert!(child >= 0, "fork: {}", std::io::Error::last_os_error());
        if child == 0 {
            unlink();
            // SAFETY: ends the forked child at once.
            unsafe { libc::_exit(0) };
        }
        let mut status = 0;
        // SAFETY: waits for the child forked above.
        assert_eq!(unsafe { libc::waitpid(child, &mut status, 0) }, child);
        assert!(exists(&name), "the child unlinked its parent's region");
        unlink();
        assert!(!exists(&name), "the owner did not unlink its region");
    }
}
