//! A host lost in the middle of a job spread over the test bed (scripts/testbed.sh) by Open
//! MPI's mpirun, while the images synchronise in a loop: every process of the job on host 2 is
//! killed, or host 2's link to the bridge is cut. The job must end within [`LIMIT`] with a
//! non-zero status, Open MPI's report naming host 2 (and, for the kill, a killed rank of it:
//! rank r is image r+1), and no process of the program left on any host. The transport is the
//! one the environment chooses: MPI, or libfabric with `FERROCAF_TRANSPORT=fabric`
//! (scripts/test_testbed.sh --fabric), where the launcher itself is also killed: the images
//! that were its children must end too. Runs only where `TESTBED` names the bed's script and
//! the bed is up with at least 2 hosts (scripts/test_testbed.sh does both); says so and passes
//! otherwise.
#![cfg(feature = "mpi")]

#[path = "support/fortran.rs"]
mod fortran;

use fortran::*;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Images synchronise forever after image 1 says they all run.
const LOOPING: &str = "\
program looping
  integer :: k
  sync all
  if (this_image() == 1) then
    print '(a)', 'READY'
    flush (6)
  end if
  k = 0
  do
    sync all
    k = k + 1
  end do
end program looping
";

/// How long the job may take to end once the host is lost (the bed's mpirun declares a silent
/// host lost after about 8 s).
const LIMIT: Duration = Duration::from_secs(30);
/// Images of the job, round-robin over the first 2 hosts (`--host`, whatever the bed's size):
/// images 2 and 4 run on host 2.
const IMAGES: usize = 4;

/// The processes running `exe` in the test bed's host `k` (its network namespace).
fn on_host(k: usize, exe: &Path) -> Vec<i32> {
    let o = Command::new("ip")
        .args(["netns", "pids", &format!("ferrocaf-bed{k}")])
        .output()
        .unwrap();
    String::from_utf8_lossy(&o.stdout)
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .filter(|p| std::fs::read_link(format!("/proc/{p}/exe")).is_ok_and(|e| e == exe))
        .collect()
}

/// Every live process running `exe`, on any host.
fn anywhere(exe: &Path) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|p| std::fs::read_link(format!("/proc/{p}/exe")).is_ok_and(|e| e == exe))
        .filter(|&p| alive(p))
        .collect()
}

/// How host 2 is lost.
#[derive(Clone, Copy, Debug)]
enum Loss {
    /// SIGKILL to each of its images.
    Killed,
    /// Its veth on the bridge set down (restored afterwards).
    LinkCut,
    /// Not a host: SIGKILL to mpirun, whose daemon on host 2 then ends its images; those on
    /// host 1 were mpirun's children and must notice by themselves.
    Launcher,
}

/// Runs the looping job on [`IMAGES`] images, loses host 2 once every image runs, and checks
/// how the job ends.
fn lose_host_2(bed: &std::ffi::OsStr, exe: &Path, how: Loss) {
    let mut cmd = Command::new(bed);
    cmd.args([
        "mpirun",
        "--oversubscribe",
        "--host",
        "bed1:2,bed2:2",
        "--map-by",
        "node",
    ])
    .arg("-n")
    .arg(IMAGES.to_string())
    .arg(exe)
    .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
    .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    .env("FERROCAF_HEAP_SIZE", "16M")
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    // testbed.sh and `ip netns exec`/`nsenter` exec mpirun: the child is mpirun itself.
    let mut job = cmd.spawn().unwrap();
    let out = wait_for_line(&mut job, "READY", Duration::from_secs(60));
    let victims = on_host(2, exe);
    assert_eq!(victims.len(), IMAGES / 2, "images on host 2: {victims:?}");
    let link = |state: &str| {
        let st = Command::new("ip")
            .args(["link", "set", "fcbed2-v", state])
            .status()
            .unwrap();
        assert!(st.success(), "ip link set fcbed2-v {state} failed");
    };
    let start = Instant::now();
    match how {
        Loss::Killed => victims.iter().for_each(|&p| sigkill(p)),
        Loss::LinkCut => link("down"),
        Loss::Launcher => sigkill(job.id() as i32),
    }
    let status = loop {
        if let Some(st) = job.try_wait().unwrap() {
            break Some(st);
        }
        if start.elapsed() > LIMIT {
            let _ = job.kill();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let took = start.elapsed();
    if let Loss::LinkCut = how {
        link("up");
    }
    // Processes on host 2 may outlive mpirun briefly: their daemon ends them when it notices.
    let mut left = anywhere(exe);
    let grace = Instant::now();
    while !left.is_empty() && grace.elapsed() < LIMIT {
        std::thread::sleep(Duration::from_millis(100));
        left = anywhere(exe);
    }
    let gone = start.elapsed();
    left.iter().for_each(|&p| sigkill(p));
    let err = rest(job.stderr.take().unwrap());
    let text = format!("{}{err}", rest(out));
    let status = status.unwrap_or_else(|| panic!("{how:?}: the job still ran after {LIMIT:?}"));
    assert!(
        left.is_empty(),
        "{how:?}: processes left after the job: {left:?}"
    );
    assert!(!status.success(), "{how:?}: the job succeeded: {text}");
    if let Loss::Launcher = how {
        eprintln!("{how:?}: every image had ended {gone:?} after mpirun was killed");
        return;
    }
    assert!(
        text.contains("bed2"),
        "{how:?}: no report names host 2:\n{text}"
    );
    if let Loss::Killed = how {
        assert!(
            ["rank 1 ", "rank 3 "].iter().any(|r| text.contains(r)),
            "no report names a killed rank of host 2:\n{text}"
        );
    }
    eprintln!("{how:?}: the job ended {took:?} after host 2 was lost");
}

#[test]
fn a_lost_host_ends_the_job() {
    let Some(bed) = std::env::var_os("TESTBED") else {
        eprintln!("skipped: TESTBED (scripts/testbed.sh, bed up) is not set");
        return;
    };
    lib_dir();
    let exe = compile("looping", LOOPING);
    lose_host_2(&bed, &exe, Loss::Killed);
    if std::env::var("FERROCAF_TRANSPORT").is_ok_and(|t| t == "fabric") {
        lose_host_2(&bed, &exe, Loss::Launcher);
    }
    lose_host_2(&bed, &exe, Loss::LinkCut);
}
