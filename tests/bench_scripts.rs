//! The benchmark driver's report logic (bench/test_report.py, Python unit tests from synthetic
//! measurements): which ferrocaf column each peer is compared with, the columns and legends of
//! docs/PERFORMANCE.md and its chart, the loaded rounds won, the run plan (rotation, run
//! counts, the extra rounds of a spread row, run counts below one refused), the fast-mode medians
//! of a row's two-mode cells, the extra loaded rounds of a row with an unsettled verdict and its
//! marks and counts, the saved runs and a report re-read from them (a missing file
//! refused); the host's hand-over probe (bench/raw/handover.c): its output and its errors; and
//! ab.py's (bench/test_ab.py): the turns of builds and peers, their rotation, the
//! round-by-round comparison, the job CPU of a run. Needs python3; fails, never skips, without
//! it.

#[allow(dead_code)] // only the command helpers: nothing here compiles Fortran
mod common;

use common::{expect_code, run, text, Scratch};
use std::process::Command;

#[test]
fn compare_py_report_pairs_each_peer_with_its_compilers_column() {
    let out = run(Command::new("python3")
        .arg("bench/test_report.py")
        .current_dir(env!("CARGO_MANIFEST_DIR")));
    expect_code(&out, 0);
}

#[test]
fn ab_py_pairs_rounds_and_counts_the_jobs_cpu() {
    let out = run(Command::new("python3")
        .arg("bench/test_ab.py")
        .current_dir(env!("CARGO_MANIFEST_DIR")));
    expect_code(&out, 0);
}

#[test]
fn compare_py_refuses_run_counts_below_one_before_building_anything() {
    for bad in [
        ["--repeat", "0"],
        ["--load-repeat", "0"],
        ["--spread-runs", "0"],
    ] {
        let out = run(Command::new("python3")
            .arg("bench/compare.py")
            .args(bad)
            .current_dir(env!("CARGO_MANIFEST_DIR")));
        expect_code(&out, 1);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--repeat, --load-repeat and --spread-runs must be at least 1"),
            "{bad:?}: {err}"
        );
    }
}

#[test]
fn compare_py_refuses_a_missing_saved_runs_file_in_one_line() {
    let out = run(Command::new("python3")
        .args(["bench/compare.py", "--from-runs", "/nonexistent/runs.json"])
        .current_dir(env!("CARGO_MANIFEST_DIR")));
    expect_code(&out, 1);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("/nonexistent/runs.json: cannot read saved runs"),
        "{err}"
    );
}

#[test]
fn handover_probe_prints_one_reading_or_says_in_one_line_why_not() {
    let dir = Scratch::new("handover");
    let exe = dir.0.join("handover");
    let out = run(Command::new("cc")
        .args(["-O2", "-std=c11", "-pthread", "-Wall", "-Wextra", "-Werror"])
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/bench/raw/handover.c"))
        .arg("-o")
        .arg(&exe));
    expect_code(&out, 0);
    for (args, why) in [
        (&["1"][..], "usage: handover [cpu_a cpu_b]"),
        (
            &["1", "1"][..],
            "the CPUs must be two different numbers, got 1 and 1",
        ),
        (
            &["0", "x"][..],
            "the CPUs must be two different numbers, got 0 and x",
        ),
        (
            &["0", "100000"][..],
            "two different numbers, got 0 and 100000",
        ),
        (&["0", "1000"][..], "cannot run on CPU 1000"),
    ] {
        let out = run(Command::new(&exe).args(args));
        expect_code(&out, 1);
        let err = text(&out.stderr);
        assert!(
            err.contains(why) && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
    // On a busy machine (the suite runs beside it) a batch may outlast the limit: then the
    // probe says so; otherwise it prints one positive reading.
    let out = run(&mut Command::new(&exe));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    if out.status.success() {
        let ns: f64 = stdout
            .strip_prefix("HANDOVER ")
            .and_then(|v| v.trim_end().parse().ok())
            .unwrap_or_else(|| panic!("not a reading: {stdout:?}"));
        assert!(ns > 0.0 && stdout.lines().count() == 1, "{stdout:?}");
    } else {
        expect_code(&out, 1);
        assert!(stderr.contains("CPU 0 or 1 is busy"), "{stderr}");
    }
}
