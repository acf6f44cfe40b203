//! The shm provider's regions of this job in /dev/shm, and their removal when a process ends
//! without closing its endpoints. Each endpoint of the shm provider is a named shared-memory
//! region (`fcaf-fi-<pid>-<start>-<k>`, `shim.c`'s `name_endpoint`) that closing the endpoint
//! unlinks. Error termination closes nothing: the caller asks the launcher to end every process
//! of the job (`PMIx_Abort`), itself first; a process that ends through `exit` elsewhere
//! (libgfortran's runtime errors, following another image's error termination) skips the close
//! too; and an image killed by SIGKILL (the out-of-memory killer, a user) runs nothing at all.
//! Each would leave its regions (16 MiB each, two per image with counted puts) in /dev/shm for
//! good. So an image unlinks its own names, and those of every peer whose process no longer
//! exists, at `exit` (an `atexit` handler) and when a signal ends it ([`SIGNALS`]: the
//! launcher's SIGTERM, SIGPIPE, ...; before the provider's own handler, which unlinks only the
//! image's own regions, on SIGTERM and SIGINT) ([`unlink`]); and before `PMIx_Abort`, which
//! ends every image, it unlinks every name of the job ([`unlink_job`]). A peer that mapped a
//! region keeps it until it ends; only the name goes. Unlinking every name once all images
//! have started would be simpler, but only libfabric 1.x maps a peer's region when its address
//! is inserted; 2.x opens it by name at the first contact, which may come at any time.

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

/// The actions of [`SIGNALS`] before [`on_signal`] was installed.
static PREVIOUS: OnceLock<[libc::sigaction; SIGNALS.len()]> = OnceLock::new();

/// The signals whose default action ends the process and that a job's processes meet: a
/// launcher ends them with SIGTERM (SIGINT, SIGHUP, SIGQUIT from a terminal), a write to
/// output the launcher no longer reads raises SIGPIPE, `abort` SIGABRT.
const SIGNALS: [c_int; 6] = [
    libc::SIGTERM,
    libc::SIGINT,
    libc::SIGHUP,
    libc::SIGQUIT,
    libc::SIGPIPE,
    libc::SIGABRT,
];

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
/// `shim.c`'s form count) and installs the handler of [`SIGNALS`]; nothing when this
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
    install();
}

/// Installs [`on_signal`] for every signal of [`SIGNALS`] that is not ignored (once).
fn install() {
    PREVIOUS.get_or_init(|| {
        // SAFETY: sigaction structs are plain data; all-zero is a valid value to fill.
        let mut prev: [libc::sigaction; SIGNALS.len()] = unsafe { std::mem::zeroed() };
        for (k, &sig) in SIGNALS.iter().enumerate() {
            // SAFETY: reads the current action; then, unless the signal is ignored (a process
            // that goes on must keep its names), installs a handler that only unlinks names and
            // re-raises the signal under the action it replaced, which `prev` keeps.
            unsafe {
                libc::sigaction(sig, std::ptr::null(), &mut prev[k]);
                if prev[k].sa_sigaction == libc::SIG_IGN {
                    continue;
                }
                let mut act: libc::sigaction = std::mem::zeroed();
                act.sa_sigaction = on_signal as extern "C" fn(c_int) as libc::sighandler_t;
                act.sa_flags = libc::SA_RESTART | libc::SA_ONSTACK;
                libc::sigemptyset(&mut act.sa_mask);
                libc::sigaction(sig, &act, std::ptr::null_mut());
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

/// Removes every region name of the job from /dev/shm, the live images' too: for error
/// termination, which ends every image (`PMIx_Abort`). The launcher follows SIGTERM with
/// SIGKILL within about a millisecond (Open MPI 4.1, traced), often before a loaded image
/// has run its handler, so the image that ends the job removes all names first; nothing in a
/// forked child.
pub(super) fn unlink_job() {
    if REGIONS
        .get()
        .is_some_and(|(owner, _)| *owner == std::process::id())
    {
        unlink();
        PEERS
            .get()
            .into_iter()
            .flatten()
            .for_each(|(_, n)| unlink_name(n));
    }
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

/// [`unlink`], as the handler of [`SIGNALS`]; then the signal again, under the action this one
/// replaced (the default, or for SIGTERM and SIGINT the shm provider's, which unlinks this
/// process's regions and re-raises it under the default action).
extern "C" fn on_signal(sig: c_int) {
    unlink();
    let k = SIGNALS.iter().position(|&s| s == sig).unwrap_or(0);
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

    /// The handler of `sig` now.
    fn action(sig: c_int) -> libc::sighandler_t {
        // SAFETY: sigaction structs are plain data; reading the action changes nothing.
        unsafe {
            let mut a: libc::sigaction = std::mem::zeroed();
            libc::sigaction(sig, std::ptr::null(), &mut a);
            a.sa_sigaction
        }
    }

    #[test]
    fn the_handler_leaves_ignored_signals_ignored() {
        let before: Vec<libc::sighandler_t> = SIGNALS.iter().map(|&s| action(s)).collect();
        // The Rust runtime ignores SIGPIPE in this test process, as a launcher may (and nohup
        // SIGHUP): the ignored case is always exercised.
        assert_eq!(action(libc::SIGPIPE), libc::SIG_IGN);
        install();
        let ours = on_signal as extern "C" fn(c_int) as libc::sighandler_t;
        for (&sig, &was) in SIGNALS.iter().zip(&before) {
            let want = if was == libc::SIG_IGN { was } else { ours };
            assert_eq!(action(sig), want, "signal {sig}");
        }
    }
}
