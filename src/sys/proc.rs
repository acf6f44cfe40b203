//! Process control: parent-death signal, signals, exit without unwinding.

/// Asks the kernel to SIGKILL this process when its parent (the supervisor) dies, and returns
/// whether the parent is still `expected_parent` afterwards (if not, it already died).
pub fn die_with_parent(expected_parent: i32) -> bool {
    // SAFETY: prctl(PR_SET_PDEATHSIG) and getppid have no memory-safety preconditions.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        libc::getppid() == expected_parent
    }
}

/// Sends `sig` to process `pid` (errors such as "no such process" are ignored).
pub fn kill(pid: i32, sig: i32) {
    // SAFETY: kill has no memory-safety preconditions.
    unsafe { libc::kill(pid, sig) };
}

/// Processors online on this machine (not only those this process is bound to).
pub fn online_cpus() -> usize {
    // SAFETY: sysconf only reads system configuration.
    let n = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    usize::try_from(n).unwrap_or(1).max(1)
}

/// Asks the kernel to end this thread's timed sleeps within 1 µs of their deadline (default
/// 50 µs), for the short naps of polling waits.
pub fn tight_timer_slack() {
    // SAFETY: PR_SET_TIMERSLACK only changes this thread's timer slack.
    unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1000, 0, 0, 0) };
}

/// Writes `line` and a newline to stderr in a single write. A launcher that forwards output
/// (MPICH's Hydra) may deliver the first write of a message and drop the rest when the job is
/// aborted right after, which is what error termination does.
pub fn say(line: impl std::fmt::Display) {
    use std::io::Write;
    let text = format!("{line}\n");
    // Best effort: a failed write to stderr has nowhere to be reported.
    let _ = std::io::stderr().write_all(text.as_bytes());
}

/// Ends this process at once with `code`, after flushing C stdio (which gfortran's units do
/// not use; they are flushed by the caller through libgfortran when needed).
pub fn exit(code: i32) -> ! {
    // SAFETY: exit runs atexit handlers (including libgfortran's unit flushing) and never returns.
    unsafe { libc::exit(code) }
}

/// Ends this process at once without running atexit handlers.
pub fn exit_now(code: i32) -> ! {
    // SAFETY: _exit never returns and touches no user memory.
    unsafe { libc::_exit(code) }
}

/// Name of a signal number, e.g. "SIGKILL".
pub fn signal_name(sig: i32) -> String {
    let name = match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        _ => return format!("signal {sig}"),
    };
    name.to_string()
}
