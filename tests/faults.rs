//! Fault tests that need a process outside the job: the supervisor itself is killed (of a
//! program started directly, and of `ferrocaf run`), and no image may outlive it
//! (`PR_SET_PDEATHSIG`). Faults inside the job are gfortran_tests/fault_*.f90.

#[path = "support/fortran.rs"]
mod fortran;

use fortran::*;
use std::process::Command;
use std::time::Duration;

/// Images block forever (in EVENT WAIT) after image 1 says they are all running.
const BLOCKED: &str = "\
program blocked
  use iso_fortran_env, only: event_type
  type(event_type) :: ev[*]
  sync all
  if (this_image() == 1) then
    print '(a)', 'READY'
    flush (6)
  end if
  event wait (ev)
end program blocked
";

/// How long images may outlive their killed supervisor.
const LIMIT: Duration = Duration::from_secs(2);
/// Images of each job.
const IMAGES: usize = 3;

/// Starts `cmd` (whose process is the supervisor), kills the supervisor with SIGKILL once the
/// images run, and checks the images are gone within [`LIMIT`]; returns the teardown time.
fn kill_supervisor(mut cmd: Command) -> Duration {
    let mut sup = cmd.spawn().unwrap();
    let pid = sup.id() as i32;
    let _out = wait_for_line(&mut sup, "READY", Duration::from_secs(30));
    let images = wait_for_children(pid, IMAGES, Duration::from_secs(10));
    sigkill(pid);
    let took = wait_gone(&images, LIMIT);
    let _ = sup.wait();
    for &p in &images {
        sigkill(p); // only if the test is about to fail: never leave them behind
    }
    let took = took.unwrap_or_else(|| {
        panic!("images {images:?} still alive {LIMIT:?} after the supervisor was killed")
    });
    eprintln!("images gone {took:?} after SIGKILL of the supervisor");
    took
}

#[test]
fn images_die_with_a_killed_direct_supervisor() {
    let exe = compile("blocked_direct", BLOCKED);
    kill_supervisor(command(&exe, IMAGES));
}

#[test]
fn images_die_with_a_killed_ferrocaf_run() {
    let exe = compile("blocked_run", BLOCKED);
    let mut run = Command::new(FERROCAF);
    run.args(["run", "-n", &IMAGES.to_string()]).arg(&exe);
    isolate(&mut run, IMAGES);
    kill_supervisor(run);
}
