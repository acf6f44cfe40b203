//! The shm provider's regions of this job in /dev/shm, and their removal when a process ends
//! without closing its endpoints. Each endpoint of the shm provider is a named shared-memory
//! region (`fcaf-fi-<pid>-<start>-<k>`, `shim.c`'s `name_endpoint`) that closing the endpoint
//! unlinks. Error termination closes nothing: the caller asks the launcher to end every process
//! of the job (`PMIx_Abort`), itself first; a process that ends through `exit` elsewhere
//! (libgfortran's runtime errors, following another image's error termination) skips the close
//! too; and an image killed by SIGKILL (the out-of-memory killer, a user) runs nothing at all.
//! Each would leave its regions (16 MiB each, two per image with counted puts) in /dev/shm for
//! good. So an image unlinks its own names before `PMIx_Abort` and at `exit` (an `atexit`
//! handler), and with them the names of every peer whose process no longer exists ([`unlink`]);
//! it does the same when the launcher ends it with SIGTERM or SIGINT, before the provider's own
//! handler (which unlinks only the image's own regions) runs. A peer that mapped a region keeps
//! it until it ends; only the name goes, and only once its process is gone or going. Unlinking
//! every name once all images have started would be simpler, but only libfabric 1.x maps a
//! peer's region when its address is inserted; 2.x opens it by name at the first contact, which
//! may come at any time.

use super::ffi::{self, Ff};
use std::ffi::{c_int, CStr, CString};
use std::sync::OnceLock;

/// The prefix of the names `shim.c` gives the regions: only names with it are ever unlinked.
const PREFIX: &[u8] = b"fcaf-fi-";

/// The names of this process's regions (none with other providers), and this process's id: a
/// child forked from it inherits the `atexit` handler, and must not unlink its parent's names.
static REGIONS: OnceLock<(u32, Vec<CString>)> = OnceLock::new();

/// Every image's regions, each with the id of the process that made it (from its name).
static PEERS: OnceLock<Vec<(u32, CString)>> = OnceLock::new();

/// The actions of SIGTERM and SIGINT before [`on_signal`] was installed.
static PREVIOUS: OnceLock<[libc::sigaction; 2]> = OnceLock::new();

/// The signals a launcher ends a job's processes with.
const SIGNALS: [c_int; 2] = [libc::SIGTERM, libc::SIGINT];

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

/// Records the job's endpoint names (`len` bytes each, as exchanged; only region names of
/// `shim.c`'s form count) and installs the SIGTERM and SIGINT handler; nothing when this
/// process has no regions (another provider).
pub(super) fn know_peers(names: &[u8], len: usize) {
    if REGIONS.get().is_none() || len == 0 {
        return;
    }
    if PEERS
        .set(names.chunks(len).filter_map(region_of).collect())
        .is_err()
    {
        return;
    }
    PREVIOUS.get_or_init(|| {
        // SAFETY: sigaction structs are plain data; all-zero is a valid value to fill.
        let mut prev: [libc::sigaction; 2] = unsafe { std::mem::zeroed() };
        for (k, &sig) in SIGNALS.iter().enumerate() {
            // SAFETY: installs a handler that only unlinks names and re-raises the signal under
            // the action it replaced, which `prev` keeps.
            unsafe {
                let mut act: libc::sigaction = std::mem::zeroed();
                act.sa_sigaction = on_signal as extern "C" fn(c_int) as libc::sighandler_t;
                act.sa_flags = libc::SA_RESTART | libc::SA_ONSTACK;
                libc::sigemptyset(&mut act.sa_mask);
                libc::sigaction(sig, &act, &mut prev[k]);
            }
        }
        prev
    });
}

/// The process id and name of a region name of `shim.c`'s form (NUL-padded), if it is one.
fn region_of(address: &[u8]) -> Option<(u32, CString)> {
    let name = address.split(|&b| b == 0).next()?;
    let pid = name.strip_prefix(PREFIX)?.split(|&b| b == b'-').next()?;
    let pid = std::str::from_utf8(pid).ok()?.parse().ok()?;
    Some((pid, CString::new(name).ok()?))
}

/// Removes this process's region names from /dev/shm, and those of peers whose process no
/// longer exists (a name already gone is no error: it is what is wanted); nothing in a forked
/// child. Async-signal-safe: `getpid`, `kill` and `shm_unlink` on names prepared before.
pub(super) fn unlink() {
    let Some((owner, names)) = REGIONS.get() else {
        return;
    };
    if *owner != std::process::id() {
        return;
    }
    names.iter().for_each(|n| unlink_name(n));
    sweep(PEERS.get().map_or(&[], Vec::as_slice));
}

/// Unlinks the regions in `peers` whose process no longer exists.
fn sweep(peers: &[(u32, CString)]) {
    for (pid, name) in peers {
        if !alive(*pid) {
            unlink_name(name);
        }
    }
}

/// Whether process `pid` exists (a process of another user exists too).
fn alive(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists; errno is this thread's.
    unsafe { libc::kill(pid, 0) == 0 || *libc::__errno_location() != libc::ESRCH }
}

/// [`unlink`], as an `atexit` handler.
extern "C" fn unlink_at_exit() {
    unlink();
}

/// [`unlink`], as the SIGTERM and SIGINT handler; then the signal again, under the action this
/// one replaced (the shm provider's, which unlinks this process's regions and re-raises it
/// under the default action).
extern "C" fn on_signal(sig: c_int) {
    unlink();
    let k = usize::from(sig == libc::SIGINT);
    if let Some(prev) = PREVIOUS.get() {
        // SAFETY: restores an action read from the kernel, then raises the signal, which is
        // delivered under it once this handler returns.
        unsafe {
            libc::sigaction(sig, &prev[k], std::ptr::null_mut());
            libc::raise(sig);
        }
    }
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
        create(format!("fcaf-fi-{}-test{k}-{k}", std::process::id()))
    }

    /// A region named `name` in /dev/shm.
    fn create(name: String) -> CString {
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

    #[test]
    fn only_names_of_the_shims_form_are_regions() {
        let mut addr = b"fcaf-fi-4242-18ec5f129c160b7f-1".to_vec();
        addr.resize(64, 0);
        let (pid, name) = region_of(&addr).expect("a region name");
        assert_eq!(pid, 4242);
        assert_eq!(name.to_bytes(), b"fcaf-fi-4242-18ec5f129c160b7f-1");
        assert!(region_of(b"4242:0:1\0\0").is_none());
        assert!(region_of(b"fcaf-fi-x-1-0").is_none());
        assert!(region_of(&[2, 0, 0x1f, 0x90, 127, 0, 0, 1]).is_none());
    }

    #[test]
    fn the_sweep_unlinks_only_regions_of_ended_processes() {
        // SAFETY: the child ends at once with _exit.
        let child = unsafe { libc::fork() };
        assert!(child >= 0, "fork: {}", std::io::Error::last_os_error());
        if child == 0 {
            // SAFETY: ends the forked child at once.
            unsafe { libc::_exit(0) };
        }
        let mut status = 0;
        // SAFETY: reaps the child forked above, so that its process id no longer exists.
        assert_eq!(unsafe { libc::waitpid(child, &mut status, 0) }, child);
        let ended = create(format!("fcaf-fi-{child}-sweep-0"));
        let live = region(3);
        let peers = [
            (child as u32, ended.clone()),
            (std::process::id(), live.clone()),
        ];
        sweep(&peers);
        assert!(!exists(&ended), "the ended process's region is left");
        assert!(exists(&live), "a live process's region was unlinked");
        unlink_name(&live);
    }
}
