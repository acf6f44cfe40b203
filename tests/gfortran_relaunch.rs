//! Checks of the `gfortran` harness's relaunch of runs the launcher did not start
//! (`gfortran/relaunch.rs`), with a shell script as the launcher: it counts its launches in a
//! file beside it, and fails the way Open MPI's mpirun does when a daemon never connects back.
//! The launchers' messages below keep the lines that tell them apart and abridge the rest.

#[path = "gfortran/process.rs"]
mod process;
#[path = "gfortran/relaunch.rs"]
mod relaunch;

use process::{describe, Outcome};
use relaunch::{not_started, run, Launches, RELAUNCHES};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::Duration;

/// Open MPI 4.1's `[failed-daemon]` (help-errmgr-base.txt) as mpirun prints it, its first line
/// (the rest of the message abridged): what the test bed's flaky launch printed.
const FAILED_DAEMON: &str = "\
--------------------------------------------------------------------------
An ORTE daemon has unexpectedly failed after launch and before
(Open MPI's explanation: the daemon could not connect back to mpirun)
--------------------------------------------------------------------------
";

/// What Open MPI 4.1.4's mpirun printed on stderr (exit status 1) when its rsh agent started
/// the daemon with mpirun's port replaced by 1, so that the daemon started but could not
/// connect back: `[failed-daemon-launch]` (help-errmgr-base.txt).
const UNABLE_TO_START: &str = "\
--------------------------------------------------------------------------
ORTE was unable to reliably start one or more daemons.
(Open MPI's list of likely causes)
--------------------------------------------------------------------------
";

/// What the same mpirun printed on stdout: the daemon's own message (its output is mpirun's).
const UNABLE_TO_START_STDOUT: &str = "\
--------------------------------------------------------------------------
A process or daemon was unable to complete a TCP connection
(Open MPI's explanation, the hosts named)
--------------------------------------------------------------------------
";

/// What Open MPI 6.0.0rc2's mpirun (PRRTE; Debian sid) printed on stdout (exit status 1) when
/// its ssh agent failed (`/bin/false`): the daemon never started.
const PRRTE_NOT_SPAWNED_STDOUT: &str = "\
--------------------------------------------------------------------------
A daemon failed to report back after being spawned. This could
(PRRTE's explanation, the hosts and the daemon's exit status named)
--------------------------------------------------------------------------
";

/// What the same mpirun printed on stderr.
const PRRTE_NOT_SPAWNED: &str = "\
hwloc/linux: failed to find sysfs cpu topology directory, aborting linux discovery.
";

/// Open MPI 4.1's `[node-died]` (help-errmgr-base.txt): a daemon lost, maybe while the program
/// ran; never a reason to launch again.
const NODE_DIED: &str = "\
--------------------------------------------------------------------------
ORTE has lost communication with a remote daemon.

  HNP daemon   : [[4711,0],0] on node bed1
  Remote daemon: [[4711,0],1] on node bed2

(Open MPI's explanation)
--------------------------------------------------------------------------
";

/// Longest a launch of the fake launcher may take.
const TIMEOUT: Duration = Duration::from_secs(30);

/// A scratch directory for one test, holding the fake launcher and its launch count.
struct Bed {
    /// The directory.
    dir: PathBuf,
}

impl Bed {
    /// Makes the directory for test `name`, with `launcher.sh`: it counts its launch in
    /// `launches`, then runs `body` (shell), which sees the launch number in `$n` and can print
    /// `$D/failed-daemon.txt` ([`FAILED_DAEMON`]) or `$D/node-died.txt` ([`NODE_DIED`]).
    fn new(name: &str, body: &str) -> Bed {
        let dir =
            std::env::temp_dir().join(format!("ferrocaf-relaunch-{}-{name}", std::process::id()));
        // A leftover from an earlier run with the same pid would hold a launch count.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("failed-daemon.txt"), FAILED_DAEMON).unwrap();
        std::fs::write(dir.join("node-died.txt"), NODE_DIED).unwrap();
        let script = format!(
            "D=$(dirname \"$0\")\n\
             n=$(( $(cat \"$D/launches\" 2>/dev/null || echo 0) + 1 ))\n\
             echo \"$n\" > \"$D/launches\"\n\
             {body}\n"
        );
        std::fs::write(dir.join("launcher.sh"), script).unwrap();
        Bed { dir }
    }

    /// Runs the launcher through [`relaunch::run`] (under a launcher if `launched`), on a
    /// program that prints `PASS` and exits 0: `launcher.sh echo PASS`.
    fn run(&self, launched: bool, timeout: Duration) -> Launches {
        let script = self.dir.join("launcher.sh");
        // Through sh rather than executed: a file just written may not be executable while
        // another test's thread forks (ETXTBSY).
        run(launched, timeout, || command(&script)).unwrap()
    }

    /// How many times the launcher was launched.
    fn launches(&self) -> usize {
        let text = std::fs::read_to_string(self.dir.join("launches")).unwrap_or_default();
        text.trim().parse().unwrap_or(0)
    }
}

impl Drop for Bed {
    fn drop(&mut self) {
        // Best effort: a leftover directory is only clutter.
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `sh launcher.sh echo PASS`.
fn command(script: &Path) -> Command {
    let mut cmd = Command::new("sh");
    cmd.arg(script).args(["echo", "PASS"]);
    cmd
}

/// The exit status of a process that called `exit(code)`.
fn exited(code: i32) -> ExitStatus {
    ExitStatus::from_raw(code << 8)
}

/// How the last launch of `l` ended, in [`describe`]'s words (`timed out` if it did), after
/// checking that it left no process behind.
fn ended(l: &Launches) -> String {
    assert!(!l.outcome.stragglers, "processes left behind");
    l.outcome
        .status
        .map_or_else(|| "timed out".into(), |st| describe(&st))
}

/// An outcome with `status` (`None`: timed out) and the given output.
fn outcome(status: Option<ExitStatus>, stdout: &str, stderr: &str) -> Outcome {
    Outcome {
        status,
        stdout: stdout.into(),
        stderr: stderr.into(),
        elapsed: Duration::from_millis(70),
        stragglers: false,
    }
}

#[test]
fn daemon_failure_once_is_relaunched_and_passes() {
    let bed = Bed::new(
        "once",
        "if [ \"$n\" = 1 ]; then cat \"$D/failed-daemon.txt\" >&2; exit 213; fi\nexec \"$@\"",
    );
    let l = bed.run(true, TIMEOUT);
    assert_eq!(bed.launches(), 2);
    assert_eq!(ended(&l), "exit status 0");
    assert_eq!(l.outcome.stdout, "PASS\n");
    assert_eq!(l.relaunched.len(), 1, "one launch retried");
    let r = &l.relaunched[0];
    assert_eq!(r.attempt, 1);
    assert_eq!(
        r.message,
        "An ORTE daemon has unexpectedly failed after launch and before"
    );
    let line = r.line("component_chase [2 images]");
    assert!(
        line.starts_with("component_chase [2 images] ... "),
        "{line}"
    );
    assert!(line.contains("launch 1 of at most 3"), "{line}");
    assert!(line.ends_with(&r.message), "{line}");
    assert_eq!(l.gave_up(), None);
}

#[test]
fn daemon_failure_every_time_gives_up_after_three_launches() {
    let bed = Bed::new("always", "cat \"$D/failed-daemon.txt\" >&2\nexit 213");
    let l = bed.run(true, TIMEOUT);
    assert_eq!(bed.launches(), RELAUNCHES + 1);
    assert_eq!(RELAUNCHES + 1, 3);
    assert_eq!(ended(&l), "exit status 213");
    let attempts: Vec<usize> = l.relaunched.iter().map(|r| r.attempt).collect();
    assert_eq!(attempts, [1, 2]);
    // What the harness's stderr tail shows: the last launch's message.
    assert_eq!(l.outcome.stderr, FAILED_DAEMON);
    let why = l.gave_up().expect("a failure reason");
    assert!(why.contains("3 launches"), "{why}");
    assert!(
        why.ends_with("An ORTE daemon has unexpectedly failed after launch and before"),
        "{why}"
    );
}

#[test]
fn output_on_stdout_is_never_relaunched() {
    let bed = Bed::new(
        "stdout",
        "echo 'image 1 started'\ncat \"$D/failed-daemon.txt\" >&2\nexit 213",
    );
    let l = bed.run(true, TIMEOUT);
    assert_eq!(bed.launches(), 1);
    assert_eq!(ended(&l), "exit status 213");
    assert_eq!(l.outcome.stdout, "image 1 started\n");
    assert!(l.relaunched.is_empty());
    assert_eq!(l.gave_up(), None);
}

#[test]
fn other_failures_are_never_relaunched() {
    for (name, body, status) in [
        (
            "error-stop",
            "echo 'ERROR STOP 3' >&2\nexit 3",
            "exit status 3",
        ),
        (
            "node-died",
            "cat \"$D/node-died.txt\" >&2\nexit 213",
            "exit status 213",
        ),
        ("silent", "exit 213", "exit status 213"),
    ] {
        let bed = Bed::new(name, body);
        let l = bed.run(true, TIMEOUT);
        assert_eq!(bed.launches(), 1, "{name}");
        assert_eq!(ended(&l), status, "{name}");
        assert!(l.relaunched.is_empty(), "{name}");
        assert_eq!(l.gave_up(), None, "{name}");
    }
}

#[test]
fn a_passing_run_or_a_timeout_is_never_relaunched() {
    let bed = Bed::new("exit0", "cat \"$D/failed-daemon.txt\" >&2\nexit 0");
    let l = bed.run(true, TIMEOUT);
    assert_eq!(bed.launches(), 1);
    assert!(l.relaunched.is_empty());
    let bed = Bed::new("timeout", "cat \"$D/failed-daemon.txt\" >&2\nexec sleep 30");
    let l = bed.run(true, Duration::from_millis(500));
    assert_eq!(bed.launches(), 1);
    assert_eq!(ended(&l), "timed out");
    assert!(l.relaunched.is_empty());
    assert_eq!(l.gave_up(), None);
}

#[test]
fn without_a_launcher_nothing_is_relaunched() {
    let bed = Bed::new(
        "direct",
        "if [ \"$n\" = 1 ]; then cat \"$D/failed-daemon.txt\" >&2; exit 213; fi\nexec \"$@\"",
    );
    let l = bed.run(false, TIMEOUT);
    assert_eq!(bed.launches(), 1);
    assert_eq!(ended(&l), "exit status 213");
    assert!(l.relaunched.is_empty());
    assert_eq!(l.gave_up(), None);
}

#[test]
fn the_launchers_messages_are_recognized() {
    let failed = Some(exited(213));
    // Open MPI 4.1.4's own `[failed-daemon-launch]`, had the daemon printed nothing.
    assert_eq!(
        not_started(&outcome(Some(exited(1)), "", UNABLE_TO_START)),
        Some("ORTE was unable to reliably start one or more daemons.")
    );
    // That run as it was, the daemon's message on stdout: something was printed, so it is not
    // launched again (the rule keeps any run with output from being hidden by a relaunch).
    let printed = outcome(Some(exited(1)), UNABLE_TO_START_STDOUT, UNABLE_TO_START);
    assert_eq!(not_started(&printed), None);
    // Nor is PRRTE's daemon that never started, whose message is on stdout.
    let prrte = outcome(Some(exited(1)), PRRTE_NOT_SPAWNED_STDOUT, PRRTE_NOT_SPAWNED);
    assert_eq!(not_started(&prrte), None);
    // PRRTE (Open MPI 5 and later): the same with PRTE, or the tool's name.
    for line in [
        "An PRTE daemon has unexpectedly failed after launch and before",
        "PRTE was unable to reliably start one or more daemons.",
        "prterun was unable to reliably start one or more daemons.",
    ] {
        let stderr = format!("----\n{line}\nmore text\n");
        assert_eq!(not_started(&outcome(failed, "", &stderr)), Some(line));
    }
    // Not the launcher failing to start the program.
    for stderr in [
        NODE_DIED,
        "ERROR STOP 3\n",
        "Primary job  terminated normally, but 1 process returned\n\
         a non-zero exit code. Per user-direction, the job has been aborted.\n",
        "",
    ] {
        assert_eq!(not_started(&outcome(failed, "", stderr)), None, "{stderr}");
    }
    // Printed something, passed, or timed out.
    assert_eq!(not_started(&outcome(failed, "x\n", FAILED_DAEMON)), None);
    assert_eq!(
        not_started(&outcome(Some(exited(0)), "", FAILED_DAEMON)),
        None
    );
    assert_eq!(not_started(&outcome(None, "", FAILED_DAEMON)), None);
}
