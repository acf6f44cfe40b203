//! Comparing a run's outcome with what the test's header expects.

use crate::header::{Exit, Header};
use crate::process::{describe, Outcome};
use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::Duration;

/// Text that must never appear on stderr: a Rust panic inside the runtime.
const PANIC: &str = "panicked";

/// Every reason a run on `images` images failed its header; empty if it passed.
pub fn failures(h: &Header, images: usize, o: &Outcome) -> Vec<String> {
    let mut why = Vec::new();
    match o.status {
        None => why.push(format!(
            "timed out after {}s (process group killed)",
            h.timeout.as_secs()
        )),
        Some(st) => match st.code() {
            Some(c) if h.exit.accepts(c) => {}
            _ => why.push(format!("{}, expected {}", describe(&st), expected(h.exit))),
        },
    }
    if o.stragglers {
        why.push("image processes still running after the program ended".into());
    }
    for t in &h.stdout {
        if !o.stdout.lines().any(|l| l.contains(t.as_str())) {
            why.push(format!("stdout lacks `{t}`"));
        }
    }
    for t in &h.stderr {
        if !o.stderr.lines().any(|l| l.contains(t.as_str())) {
            why.push(format!("stderr lacks `{t}`"));
        }
    }
    for (times, t) in &h.counts {
        let want = times.resolve(images);
        let got = o.stdout.lines().filter(|l| l.contains(t.as_str())).count();
        if got != want {
            why.push(format!("{got} stdout lines contain `{t}`, expected {want}"));
        }
    }
    for t in &h.forbid {
        if o.stdout.contains(t.as_str()) || o.stderr.contains(t.as_str()) {
            why.push(format!("forbidden `{t}` appeared"));
        }
    }
    let lines: Vec<&str> = o.stderr.lines().collect();
    if let Some(i) = lines.iter().position(|l| l.contains(PANIC)) {
        let msg = lines[i..lines.len().min(i + 2)].join("\n");
        why.push(format!("a Rust panic appeared on stderr:\n{msg}"));
    }
    why
}

/// The expected exit status in words.
fn expected(e: Exit) -> String {
    match e {
        Exit::Code(c) => format!("exit status {c}"),
        Exit::Nonzero => "a non-zero exit status".into(),
    }
}

/// The names in /dev/shm a test may have left: those that contain `ferrocaf` (the shm
/// transport's), and with FERROCAF_TEST_REGIONS=1 (scripts/test_fabric.sh sets it) the regions
/// of libfabric's shm provider (`fcaf-fi-<pid>-...`, `src/transport/fabric/shim.c`) whose
/// process has ended. A region of a running process belongs to a job still going, this
/// suite's or another's. The regions are opt-in: CI's passes over shm (the accessor programs
/// of gfortran 16) run without it until the check has a longer record than its first 9 clean
/// passes of the programs that end in error (docs/ARCHITECTURE.md, "Fabric transport").
pub fn shm_names() -> BTreeSet<String> {
    let Ok(dir) = std::fs::read_dir("/dev/shm") else {
        return BTreeSet::new();
    };
    let regions = std::env::var("FERROCAF_TEST_REGIONS").is_ok_and(|v| v == "1");
    dir.filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("ferrocaf") || (regions && orphan_region(n)))
        .collect()
}

/// Whether `name` is a region of libfabric's shm provider named by ferrocaf whose process has
/// ended.
fn orphan_region(name: &str) -> bool {
    name.strip_prefix("fcaf-fi-")
        .and_then(|rest| rest.split('-').next())
        .and_then(|pid| pid.parse::<u32>().ok())
        .is_some_and(|pid| !std::path::Path::new(&format!("/proc/{pid}")).exists())
}

/// A failure if /dev/shm holds names of [`shm_names`] not in `known`, which then learns them.
///
/// Another test may be starting at this moment, or losing an image (mpirun ends the other
/// images about a second after one is killed, and they then remove its regions), so new names
/// get a second look 3 s later and only those still present count.
pub fn shm_leftovers(known: &Mutex<BTreeSet<String>>) -> Option<String> {
    let new = |s: BTreeSet<String>| -> Vec<String> {
        s.difference(&known.lock().unwrap()).cloned().collect()
    };
    if new(shm_names()).is_empty() {
        return None;
    }
    std::thread::sleep(Duration::from_secs(3));
    let left = new(shm_names());
    known.lock().unwrap().extend(left.iter().cloned());
    (!left.is_empty()).then(|| format!("left in /dev/shm: {}", left.join(" ")))
}
