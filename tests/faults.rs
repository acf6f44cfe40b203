//! Fault tests that need a process outside the job: the supervisor itself is killed (of a
//! program started directly, and of `ferrocaf run`), and no image may outlive it
//! (`PR_SET_PDEATHSIG`); and a waiting image must end by itself on another's ERROR STOP, before
//! the supervisor's kill, which only watching the images' processes shows. Other faults inside
//! the job are gfortran_tests/fault_*.f90.

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

/// Like [`BLOCKED`], but every image handles SIGTERM (by saying so and ending at once) or, with
/// the argument `ignore`, ignores it. The handler says so with write(2) of a line made
/// beforehand: Fortran I/O in a handler could wait forever on the unit lock of the PRINT the
/// signal interrupted (image 1's READY, just seen by the test).
const TERMINABLE: &str = "\
module term
  use iso_fortran_env, only: event_type
  use iso_c_binding, only: c_char, c_int, c_long, c_size_t
  integer :: me
  character(len=32) :: line
  integer(c_size_t) :: line_len
  interface
    subroutine c_exit(code) bind(C, name='_exit')
      integer, value :: code
    end subroutine c_exit
    function c_write(fd, buf, n) bind(C, name='write') result(written)
      import :: c_char, c_int, c_long, c_size_t
      integer(c_int), value :: fd
      character(kind=c_char) :: buf(*)
      integer(c_size_t), value :: n
      integer(c_long) :: written
    end function c_write
  end interface
contains
  subroutine on_term()
    integer(c_long) :: written
    written = c_write(1, line, line_len)
    call c_exit(0)
  end subroutine on_term
end module term

program terminable
  use term
  type(event_type) :: ev[*]
  character(len=16) :: arg
  me = this_image()
  write (line, '(a,i0,a)') 'TERM ', me, achar(10)
  line_len = len_trim(line)
  call get_command_argument(1, arg)
  if (arg == 'ignore') then
    call signal(15, 1)
  else
    call signal(15, on_term)
  end if
  sync all
  if (me == 1) then
    print '(a)', 'READY'
    flush (6)
  end if
  event wait (ev)
end program terminable
";

/// Sends SIGTERM to the supervisor `cmd` starts once its images run; returns its exit status,
/// how long it took to end, its remaining stdout and stderr.
fn terminate(mut cmd: Command) -> (Option<i32>, Duration, String, String) {
    let mut sup = cmd.spawn().unwrap();
    let pid = sup.id() as i32;
    let out = wait_for_line(&mut sup, "READY", Duration::from_secs(30));
    let images = wait_for_children(pid, IMAGES, Duration::from_secs(10));
    let start = std::time::Instant::now();
    // SAFETY: kill has no memory-safety preconditions.
    unsafe { libc::kill(pid, libc::SIGTERM) };
    let gone = wait_gone(&images, Duration::from_secs(10));
    let st = sup.wait().unwrap();
    let took = start.elapsed();
    for &p in &images {
        sigkill(p);
    }
    assert!(gone.is_some(), "images {images:?} outlived SIGTERM by 10 s");
    let err = rest(sup.stderr.take().unwrap());
    (st.code(), took, rest(out), err)
}

#[test]
fn sigterm_reaches_every_image_of_ferrocaf_run() {
    let exe = compile("terminable_run", TERMINABLE);
    let mut run = Command::new(FERROCAF);
    run.args(["run", "-n", &IMAGES.to_string()]).arg(&exe);
    isolate(&mut run, IMAGES);
    let (code, took, out, err) = terminate(run);
    let mut seen: Vec<&str> = out.lines().filter(|l| l.starts_with("TERM")).collect();
    seen.sort();
    assert_eq!(
        seen,
        ["TERM 1", "TERM 2", "TERM 3"],
        "stdout: {out}\nstderr: {err}"
    );
    assert_eq!(code, Some(128 + 15), "{err}");
    assert!(took < Duration::from_secs(2), "took {took:?}");
    assert!(
        err.lines().count() == 1 && err.contains("received SIGTERM"),
        "stderr: {err}"
    );
}

#[test]
fn images_ignoring_sigterm_are_killed_after_the_grace_period() {
    let exe = compile("terminable_direct", TERMINABLE);
    let mut cmd = command(&exe, IMAGES);
    cmd.arg("ignore");
    let (code, took, _, err) = terminate(cmd);
    assert_eq!(code, Some(128 + 15), "{err}");
    assert!(
        took >= Duration::from_millis(2900) && took < Duration::from_secs(8),
        "ended {took:?} after SIGTERM; the grace period is 3 s"
    );
}

/// Images started through a wrapper that stays their parent (`sh -c 'prog; true'`) die with a
/// killed supervisor too: the wrapper dies with the supervisor, the image with the wrapper.
#[test]
fn images_under_a_wrapper_die_with_a_killed_ferrocaf_run() {
    let exe = compile("blocked_wrapped", BLOCKED);
    let mut run = Command::new(FERROCAF);
    run.args(["run", "-n", &IMAGES.to_string(), "sh", "-c"])
        .arg(format!("{}; true", exe.display()));
    isolate(&mut run, IMAGES);
    let mut sup = run.spawn().unwrap();
    let pid = sup.id() as i32;
    let _out = wait_for_line(&mut sup, "READY", Duration::from_secs(30));
    let shells = wait_for_children(pid, IMAGES, Duration::from_secs(10));
    let images: Vec<i32> = shells
        .iter()
        .flat_map(|s| wait_for_children(*s, 1, Duration::from_secs(10)))
        .collect();
    sigkill(pid);
    let took = wait_gone(&images, LIMIT);
    let _ = sup.wait();
    for &p in images.iter().chain(&shells) {
        sigkill(p);
    }
    assert!(
        took.is_some(),
        "images {images:?} under sh still alive {LIMIT:?} after the supervisor was killed"
    );
}

/// Image 1 waits in SYNC IMAGES for image 2, which sleeps in `usleep` and never comes; image 3
/// starts error termination. Nothing in image 1's poll changes (image 2 has not terminated):
/// only its wait's check of the job's abort word ends it.
const ABORT_UNSEEN_BY_POLL: &str = "\
program abort_unseen_by_poll
  use iso_c_binding, only: c_int
  implicit none
  interface
    integer(c_int) function getpid() bind(C, name='getpid')
      import :: c_int
    end function getpid
    integer(c_int) function usleep(us) bind(C, name='usleep')
      import :: c_int
      integer(c_int), value :: us
    end function usleep
  end interface
  integer :: x
  print '(a,i0,a,i0)', 'PID ', this_image(), ' ', getpid()
  flush (6)
  sync all
  select case (this_image())
  case (1)
    sync images (2)
  case (2)
    x = usleep(20000000_c_int)
  case (3)
    x = usleep(300000_c_int)
    error stop 7
  end select
end program abort_unseen_by_poll
";

/// Under every FERROCAF_WAIT policy a waiting image ends by itself soon after another image's
/// ERROR STOP, well before the supervisor kills what is left at its grace period (500 ms):
/// a sleeping wait is woken by the supervisor's ring, an active one checks the abort word on
/// the clock (every 100 ms). The image that never waits (image 2, in `usleep`) is killed at
/// the grace period, so image 1 must be gone at least 100 ms before it.
#[test]
fn a_waiting_image_ends_by_itself_on_error_termination_under_every_policy() {
    let exe = compile("abort_unseen_by_poll", ABORT_UNSEEN_BY_POLL);
    for policy in ["auto", "passive", "active"] {
        let mut cmd = command(&exe, IMAGES);
        cmd.env("FERROCAF_WAIT", policy);
        let mut sup = cmd.spawn().unwrap();
        let mut out = std::io::BufReader::new(sup.stdout.take().unwrap());
        let mut pids = [0i32; IMAGES];
        for _ in 0..IMAGES {
            let mut line = String::new();
            std::io::BufRead::read_line(&mut out, &mut line).unwrap();
            let w: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(
                w.first(),
                Some(&"PID"),
                "{policy}: unexpected line {line:?}"
            );
            pids[w[1].parse::<usize>().unwrap() - 1] = w[2].parse().unwrap();
        }
        let first = wait_gone(&pids[..1], Duration::from_secs(10));
        let second = wait_gone(&pids[1..2], Duration::from_secs(10));
        let st = sup.wait().unwrap();
        for &p in &pids {
            sigkill(p);
        }
        let (first, second) = (first.unwrap(), second.unwrap());
        assert_eq!(st.code(), Some(7), "{policy}");
        assert!(
            second >= Duration::from_millis(100),
            "{policy}: the waiting image lasted until the grace period's kill ({second:?} \
             before the sleeping one, after {first:?})"
        );
    }
}
