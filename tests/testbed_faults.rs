//! A host lost in the middle of an MPI job spread over the test bed (scripts/testbed.sh): every
//! process of the job on host 2 is killed while the images synchronise in a loop. The job must
//! end within [`LIMIT`] with a non-zero status, Open MPI's report naming a killed rank of host
//! 2, and no process of the program left on any host. Runs only where `TESTBED` names the bed's
//! script and the bed is up with at least 2 hosts (scripts/test_testbed.sh does both); says so
//! and passes otherwise.
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

/// How long the job may take to end once the host's processes are killed.
const LIMIT: Duration = Duration::from_secs(30);
/// Images of the job, round-robin over the first 2 hosts: images 2 and 4 run on host 2.
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

#[test]
fn killed_host_ends_the_job() {
    let Some(bed) = std::env::var_os("TESTBED") else {
        eprintln!("skipped: TESTBED (scripts/testbed.sh, bed up) is not set");
        return;
    };
    lib_dir();
    let exe = compile("looping", LOOPING);
    let mut cmd = Command::new(&bed);
    cmd.args(["mpirun", "--oversubscribe", "--map-by", "node", "-n"])
        .arg(IMAGES.to_string())
        .arg(&exe)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("FERROCAF_HEAP_SIZE", "16M")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut job = cmd.spawn().unwrap();
    let out = wait_for_line(&mut job, "READY", Duration::from_secs(60));
    let victims = on_host(2, &exe);
    assert_eq!(victims.len(), IMAGES / 2, "images on host 2: {victims:?}");
    let start = Instant::now();
    for &p in &victims {
        sigkill(p);
    }
    let status = loop {
        if let Some(st) = job.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > LIMIT {
            let _ = job.kill();
            for p in anywhere(&exe) {
                sigkill(p);
            }
            panic!("the job still ran {LIMIT:?} after host 2's images were killed");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let took = start.elapsed();
    let err = rest(job.stderr.take().unwrap());
    let text = format!("{}{err}", rest(out));
    let left = anywhere(&exe);
    for &p in &left {
        sigkill(p);
    }
    assert!(left.is_empty(), "processes left after the job: {left:?}");
    assert!(!status.success(), "the job succeeded: {text}");
    assert!(
        ["rank 1 ", "rank 3 "].iter().any(|r| text.contains(r)) && text.contains("bed2"),
        "no report names a killed rank of host 2:\n{text}"
    );
    eprintln!("job ended {took:?} after host 2's images were killed");
}
