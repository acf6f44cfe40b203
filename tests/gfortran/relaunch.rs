//! Launching a run again when the external launcher (FERROCAF_TEST_LAUNCHER) never started it.
//!
//! On the test bed (scripts/test_testbed.sh) Open MPI's mpirun now and then loses one of its
//! daemons before the daemon has connected back: the job ends at once, with mpirun's own
//! message on stderr and nothing on stdout, and the program never ran. Such a run is launched
//! again, at most [`RELAUNCHES`] more times, and every relaunch is reported. Only under a
//! launcher, and only when the run failed (an exit status other than 0), printed nothing on
//! stdout and carries one of [`NOT_STARTED`] on stderr: a run that printed anything, ended for
//! any other reason or timed out is never run again.

use crate::process::{self, Outcome};
use std::process::Command;
use std::time::Duration;

/// How many more times a run the launcher did not start is launched.
pub const RELAUNCHES: usize = 2;

/// Phrases of the launcher's own messages that mean its daemons did not start, or never
/// connected back, before the program ran (each is matched within one line of stderr), from
/// Open MPI's `help-errmgr-base.txt`:
///
/// - `[failed-daemon]`: "An ORTE daemon has unexpectedly failed after launch and before /
///   communicating back to mpirun." (Open MPI 4.1; "An PRTE daemon ..." in PRRTE, the runtime of
///   Open MPI 5 and later), printed when the daemon job aborted before every daemon reported;
/// - `[failed-daemon-launch]`: "ORTE was unable to reliably start one or more daemons."
///   (Open MPI 4.1; PRRTE puts "PRTE" or its tool's name in front), printed when a daemon
///   failed to start.
///
/// Not matched: `[node-died]`, "ORTE has lost communication with a remote daemon.", which a
/// host lost while the program runs prints too (tests/testbed_faults.rs). Messages a daemon
/// prints itself reach mpirun's stdout, so a run showing one has printed something and is not
/// launched again: Open MPI 4.1's daemon that could not connect back ("A process or daemon was
/// unable to complete a TCP connection to another process"), PRRTE's daemon that did not start
/// ("A daemon failed to report back after being spawned", Open MPI 6.0.0rc2).
pub const NOT_STARTED: [&str; 2] = [
    "daemon has unexpectedly failed after launch and before",
    "was unable to reliably start one or more daemons",
];

/// One launch the launcher failed to start, after which the run was launched again.
pub struct Relaunch {
    /// Which launch failed: 1 for the first.
    pub attempt: usize,
    /// Its run time.
    pub elapsed: Duration,
    /// The first line of stderr holding one of [`NOT_STARTED`], trimmed.
    pub message: String,
}

impl Relaunch {
    /// The harness's line for this relaunch, naming the run `label`.
    pub fn line(&self, label: &str) -> String {
        format!(
            "{label} ... not started by the launcher ({:.2}s, launch {} of at most {}), \
             launching again: {}",
            self.elapsed.as_secs_f64(),
            self.attempt,
            RELAUNCHES + 1,
            self.message
        )
    }
}

/// The outcome of a run's last launch, and the launches before it that the launcher failed
/// to start.
pub struct Launches {
    /// What the last launch did: the one reported.
    pub outcome: Outcome,
    /// The earlier launches, in order.
    pub relaunched: Vec<Relaunch>,
}

impl Launches {
    /// A failure reason when every launch was spent and the last one too was not started by
    /// the launcher, naming its message.
    pub fn gave_up(&self) -> Option<String> {
        if self.relaunched.len() < RELAUNCHES {
            return None;
        }
        not_started(&self.outcome).map(|m| {
            format!(
                "not started by the launcher in {} launches: {m}",
                self.relaunched.len() + 1
            )
        })
    }
}

/// The line of stderr saying the launcher did not start `o`'s program, if `o` failed, printed
/// nothing on stdout and has one of [`NOT_STARTED`] on stderr.
pub fn not_started(o: &Outcome) -> Option<&str> {
    let failed = o.status.is_some_and(|st| !st.success());
    if !failed || !o.stdout.is_empty() {
        return None;
    }
    o.stderr
        .lines()
        .find(|l| NOT_STARTED.iter().any(|p| l.contains(p)))
        .map(str::trim)
}

/// Runs the command `make` builds with `timeout` ([`process::run`]); when `launched` (it goes
/// through a launcher), again while [`not_started`] says the launcher did not start it, at most
/// [`RELAUNCHES`] more times.
pub fn run(
    launched: bool,
    timeout: Duration,
    mut make: impl FnMut() -> Command,
) -> std::io::Result<Launches> {
    let mut relaunched = Vec::new();
    loop {
        let outcome = process::run(make(), timeout)?;
        let message = match not_started(&outcome) {
            Some(m) if launched && relaunched.len() < RELAUNCHES => m.to_string(),
            _ => {
                return Ok(Launches {
                    outcome,
                    relaunched,
                })
            }
        };
        relaunched.push(Relaunch {
            attempt: relaunched.len() + 1,
            elapsed: outcome.elapsed,
            message,
        });
    }
}
