//! The supervisor's wait: for a child to end, for a deadline, or for a signal asking the job to
//! end (SIGTERM, SIGINT, SIGHUP), which it forwards to the images. Those signals and SIGCHLD
//! are blocked in the supervisor and taken with `sigtimedwait`, so nothing runs in a signal
//! handler and a child's end between two checks is never missed (its SIGCHLD stays pending).

use std::time::{Duration, Instant};

/// Signals that ask the job to end; the supervisor forwards them to every image.
pub const FORWARDED: [i32; 3] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP];

/// What [`wait_any`] saw.
pub enum Waited {
    /// A child ended.
    Exited(u32, std::process::ExitStatus),
    /// One of [`FORWARDED`] arrived.
    Signal(i32),
    /// The deadline passed first.
    Deadline,
    /// No child is left to wait for.
    NoChildren,
}

/// The set of [`FORWARDED`] signals and SIGCHLD.
fn watched() -> libc::sigset_t {
    // SAFETY: sigemptyset/sigaddset initialise and fill the local set.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in FORWARDED.iter().chain(&[libc::SIGCHLD]) {
            libc::sigaddset(&mut set, *sig);
        }
        set
    }
}

/// Blocks the watched signals in this thread (before the images are started), so they wait
/// for [`wait_any`] instead of ending the supervisor at once.
pub fn block() {
    let set = watched();
    // SAFETY: pthread_sigmask reads the local set; a null old set is allowed.
    unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
}

/// Unblocks the watched signals; for an image between fork and exec (async-signal-safe:
/// sigemptyset, sigaddset and sigprocmask only), so the program starts with the usual mask.
pub fn unblock_in_child() {
    let set = watched();
    // SAFETY: sigprocmask reads the local set; a null old set is allowed.
    unsafe { libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut()) };
}

/// Reaps one ended child without blocking.
fn reap() -> Option<Waited> {
    let mut ws: libc::c_int = 0;
    // SAFETY: waitpid writes the status into a local integer.
    let pid = unsafe { libc::waitpid(-1, &mut ws, libc::WNOHANG) };
    if pid > 0 {
        use std::os::unix::process::ExitStatusExt;
        return Some(Waited::Exited(
            pid as u32,
            std::process::ExitStatus::from_raw(ws),
        ));
    }
    (pid < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ECHILD))
        .then_some(Waited::NoChildren)
}

/// Waits for a child to end, a forwarded signal, or the deadline.
pub fn wait_any(deadline: Option<Instant>) -> Waited {
    let set = watched();
    loop {
        if let Some(w) = reap() {
            return w;
        }
        let left = match deadline {
            Some(d) => match d.checked_duration_since(Instant::now()) {
                Some(left) => left,
                None => return Waited::Deadline,
            },
            None => Duration::from_secs(3600),
        };
        let ts = libc::timespec {
            tv_sec: left.as_secs() as libc::time_t,
            tv_nsec: left.subsec_nanos() as libc::c_long,
        };
        // SAFETY: sigtimedwait reads the local set and timeout; a null info pointer is allowed.
        let sig = unsafe { libc::sigtimedwait(&set, std::ptr::null_mut(), &ts) };
        if FORWARDED.contains(&sig) {
            return Waited::Signal(sig);
        }
    }
}
