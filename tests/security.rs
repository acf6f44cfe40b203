//! Isolation between jobs. Segments are unnamed memfds: nothing appears in /dev/shm, no other
//! process can open them by name, and after start-up no process of the job even holds a
//! descriptor of them (a same-user process with ptrace rights over an image can still read its
//! memory through /proc/PID/mem, as for any process; see docs/ARCHITECTURE.md). A copied
//! `FERROCAF_JOB` must not let another process attach. The build cache's checks are in
//! security/cache.rs.

#[path = "support/fortran.rs"]
mod fortran;

#[path = "security/cache.rs"]
mod cache;

use fortran::*;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// Every image writes job- and image-specific values into its right neighbour, many rounds, and
/// checks what its left neighbour wrote. The job's tag is the first argument. Image 1 waits for
/// the file named by the second argument (if given) before starting, after printing READY.
const TAGGED: &str = "\
program tagged
  implicit none
  interface
    integer function usleep(us) bind(C, name='usleep')
      integer, value :: us
    end function usleep
  end interface
  integer :: x(64)[*], tag, me, n, r, rc
  character(len=256) :: arg, go
  logical :: there
  call get_command_argument(1, arg)
  read (arg, *) tag
  call get_command_argument(2, go)
  me = this_image(); n = num_images()
  sync all
  if (me == 1) then
    print '(a)', 'READY'
    flush (6)
    do while (len_trim(go) > 0)
      inquire (file=trim(go), exist=there)
      if (there) exit
      rc = usleep(2000)
    end do
  end if
  sync all
  do r = 1, 3000
    x(:)[modulo(me, n) + 1] = tag * 1000000 + me * 10000 + r
    sync all
    if (any(x /= tag * 1000000 + modulo(me - 2, n) * 10000 + 10000 + r)) then
      print '(a,i0,a,i0)', 'FAIL job ', tag, ' image ', me
      error stop 1
    end if
    sync all
  end do
  if (me == 1) print '(a,i0)', 'PASS ', tag
end program tagged
";

/// Entries of /dev/shm.
fn shm() -> BTreeSet<String> {
    std::fs::read_dir("/dev/shm")
        .map(|d| {
            d.filter_map(|e| Some(e.ok()?.file_name().to_string_lossy().into_owned()))
                .collect()
        })
        .unwrap_or_default()
}

/// Checks what process `pid` has of the job's memory: its segment mappings are memfds (never a
/// file in /dev/shm) and it holds no descriptor of them. Returns how many segments it maps.
fn check_process(pid: i32) -> usize {
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap_or_default();
    assert!(
        !maps.contains("/dev/shm/"),
        "process {pid} maps a file of /dev/shm:\n{maps}"
    );
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).unwrap();
    for fd in fds.filter_map(|e| e.ok()) {
        let target = std::fs::read_link(fd.path()).unwrap_or_default();
        assert!(
            !target.to_string_lossy().contains("ferrocaf-image"),
            "process {pid} still holds a segment descriptor: {target:?}"
        );
    }
    maps.lines()
        .filter(|l| l.contains("/memfd:ferrocaf-image-"))
        .count()
}

#[test]
fn concurrent_jobs_keep_their_own_data_and_nothing_reaches_dev_shm() {
    let exe = compile("tagged_pair", TAGGED);
    let before = shm();
    let go = exe.with_file_name("go");
    let jobs: Vec<_> = [11, 22]
        .iter()
        .map(|tag| {
            let mut cmd = command(&exe, 4);
            cmd.arg(tag.to_string()).arg(&go);
            let mut c = cmd.spawn().unwrap();
            let out = wait_for_line(&mut c, "READY", Duration::from_secs(30));
            (c, out)
        })
        .collect();
    for (c, _) in &jobs {
        let pid = c.id() as i32;
        let images = wait_for_children(pid, 4, Duration::from_secs(10));
        assert_eq!(check_process(pid), 4, "the supervisor maps every segment");
        for p in images {
            assert_eq!(check_process(p), 4, "image {p} maps every segment");
        }
    }
    std::fs::write(&go, "").unwrap();
    let start = Instant::now();
    let mut seen = BTreeSet::new();
    for (mut c, out) in jobs {
        while c.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(60) {
            seen.extend(shm().difference(&before).cloned());
            std::thread::sleep(Duration::from_millis(5));
        }
        let text = rest(out);
        let st = c.wait().unwrap();
        assert!(
            st.success(),
            "job failed ({st}): {text}{}",
            rest(c.stderr.take().unwrap())
        );
        assert!(text.contains("PASS"), "no PASS: {text}");
    }
    seen.extend(shm().difference(&before).cloned());
    let ours: Vec<_> = seen.iter().filter(|n| n.contains("ferrocaf")).collect();
    assert!(
        ours.is_empty(),
        "ferrocaf names appeared in /dev/shm: {ours:?}"
    );
}

#[test]
fn a_copied_job_environment_cannot_attach() {
    let exe = compile("tagged_copy", TAGGED);
    let go = exe.with_file_name("go");
    let mut cmd = command(&exe, 2);
    cmd.arg("33").arg(&go);
    let mut job = cmd.spawn().unwrap();
    let out = wait_for_line(&mut job, "READY", Duration::from_secs(30));
    let images = wait_for_children(job.id() as i32, 2, Duration::from_secs(10));
    let environ = std::fs::read(format!("/proc/{}/environ", images[0])).unwrap();
    let mut intruder = command(&exe, 2);
    intruder.arg("44");
    for var in environ.split(|b| *b == 0) {
        let var = String::from_utf8_lossy(var);
        if let Some((k, v)) = var.split_once('=') {
            if k == "FERROCAF_JOB" || k == "FERROCAF_IMAGE" {
                intruder.env(k, v);
            }
        }
    }
    let o = intruder.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "the intruder ran: {err}");
    assert!(
        err.contains("was not given to it by a ferrocaf launcher") && err.lines().count() == 1,
        "unclear message: {err}"
    );
    assert!(o.stdout.is_empty(), "the intruder ran Fortran code");
    std::fs::write(&go, "").unwrap();
    let st = job.wait().unwrap();
    let text = rest(out);
    assert!(
        st.success() && text.contains("PASS 33"),
        "the job was disturbed: {text}"
    );
}

/// Each image sums its number with the last image's (checks the images really share memory).
const SUM: &str = "\
program wrapped
  integer :: x[*]
  x = this_image()
  sync all
  if (this_image() == 1) print '(a,i0)', 'sum ', x + x[num_images()]
end program wrapped
";

/// Debuggers, tracers and wrapper scripts between the launcher and the program are allowed:
/// the image descends from the launcher's child and holds the job's descriptors. (The tools
/// come with scripts/setup.sh's test tools; the small heap is for valgrind, which takes 80 s
/// to start two images with the default 1G.)
#[test]
fn images_may_run_under_wrappers() {
    let exe = compile("wrapped", SUM);
    let dir = exe.parent().unwrap();
    let script = dir.join("wrapper.sh");
    std::fs::write(&script, "#!/bin/sh\necho wrapped >&2\nexec \"$@\"\n").unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let prog = exe.to_str().unwrap();
    let wrappers: Vec<Vec<String>> = [
        vec!["sh", "-c", prog],
        vec![script.to_str().unwrap(), prog],
        vec!["strace", "-f", "-o", "/dev/null", prog],
        vec!["/usr/bin/time", prog],
        vec!["gdb", "-q", "-batch", "-ex", "run", prog],
        vec!["valgrind", "-q", prog],
    ]
    .into_iter()
    .map(|v| v.into_iter().map(String::from).collect())
    .collect();
    for w in wrappers {
        let mut cmd = std::process::Command::new(FERROCAF);
        cmd.args(["run", "-n", "2", "--heap", "16M"]).args(&w);
        isolate(&mut cmd, 2);
        let o = cmd.output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            o.status.success() && out.contains("sum 3"),
            "under {w:?}: {}\n{out}{err}",
            o.status
        );
        assert!(!err.contains("FERROCAF_JOB"), "under {w:?}: {err}");
    }
}
