//! Running one program in its own process group, with a timeout that kills the whole group.

use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// How long the images of a finished run may take to disappear before they count as left over.
const STRAGGLER_GRACE: Duration = Duration::from_secs(2);

/// What happened to one run.
pub struct Outcome {
    /// The exit status, or `None` if the run was killed at its timeout.
    pub status: Option<ExitStatus>,
    /// Everything written to stdout (lossily decoded).
    pub stdout: String,
    /// Everything written to stderr (lossily decoded).
    pub stderr: String,
    /// Wall-clock time until the program ended (or was killed).
    pub elapsed: Duration,
    /// Some process of the group was still alive after the program itself had ended.
    pub stragglers: bool,
}

/// Describes an exit status the way a shell user thinks of it.
pub fn describe(status: &ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(c), _) => format!("exit status {c}"),
        (None, Some(s)) => format!("killed by signal {s}"),
        _ => format!("{status}"),
    }
}

/// Runs `cmd` in a new process group, killing the group at `timeout`.
pub fn run(mut cmd: Command, timeout: Duration) -> std::io::Result<Outcome> {
    cmd.process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd.spawn()?;
    let group = child.id() as i32;
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let status = loop {
        if let Some(st) = child.try_wait()? {
            break Some(st);
        }
        if start.elapsed() >= timeout {
            kill_group(group);
            child.wait()?;
            break None;
        }
        thread::sleep(Duration::from_millis(5));
    };
    let elapsed = start.elapsed();
    let stragglers = status.is_some() && !group_gone(group, STRAGGLER_GRACE);
    if stragglers {
        kill_group(group);
    }
    Ok(Outcome {
        status,
        stdout: join(out),
        stderr: join(err),
        elapsed,
        stragglers,
    })
}

/// Reads a pipe to its end on a thread.
fn drain(pipe: Option<impl Read + Send + 'static>) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            // A read error just ends the capture; what was read so far is kept.
            let _ = p.read_to_end(&mut buf);
        }
        buf
    })
}

/// The text a [`drain`] thread collected.
fn join(h: thread::JoinHandle<Vec<u8>>) -> String {
    String::from_utf8_lossy(&h.join().unwrap_or_default()).into_owned()
}

/// Sends SIGKILL to every process of group `group`.
fn kill_group(group: i32) {
    // SAFETY: kill(2) with a negative pid only sends a signal; no memory is involved.
    unsafe { libc::kill(-group, libc::SIGKILL) };
}

/// Waits up to `grace` for process group `group` to have no members left.
fn group_gone(group: i32, grace: Duration) -> bool {
    let start = Instant::now();
    loop {
        // SAFETY: signal 0 only checks whether the group exists; nothing is delivered.
        if unsafe { libc::kill(-group, 0) } != 0 {
            return true;
        }
        if start.elapsed() >= grace {
            return false;
        }
        thread::sleep(Duration::from_millis(10));
    }
}
