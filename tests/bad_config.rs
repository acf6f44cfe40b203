//! Invalid configuration: every FERROCAF_* variable with a bad value, and a program started by
//! another (MPI) launcher. Each must give exactly one clear `ferrocaf: ...` line and a non-zero
//! status before any image starts (the program prints `started` on every image it reaches).

#[path = "support/fortran.rs"]
mod fortran;

use fortran::*;
use std::process::Command;

const HELLO: &str = "\
program hello
  print '(a,i0)', 'started ', this_image()
end program hello
";

/// Runs `cmd` and checks it was refused with one line containing every text of `expect`.
fn refused(mut cmd: Command, what: &str, expect: &[&str]) {
    let o = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success(), "{what}: the program ran: {out}{err}");
    assert!(!out.contains("started"), "{what}: an image started: {out}");
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines.len() == 1 && lines[0].starts_with("ferrocaf: "),
        "{what}: expected one `ferrocaf:` line, got:\n{err}"
    );
    for e in expect {
        assert!(err.contains(e), "{what}: the message lacks `{e}`: {err}");
    }
}

#[test]
fn invalid_variables_are_refused_before_any_image_starts() {
    let exe = compile("hello_config", HELLO);
    let cases: &[(&str, &str, &str)] = &[
        ("FERROCAF_NUM_IMAGES", "0", "FERROCAF_NUM_IMAGES=\"0\""),
        ("FERROCAF_NUM_IMAGES", "abc", "FERROCAF_NUM_IMAGES=\"abc\""),
        ("FERROCAF_NUM_IMAGES", "99999", "between 1 and"),
        ("GFORTRAN_NUM_IMAGES", "-2", "GFORTRAN_NUM_IMAGES=\"-2\""),
        ("FERROCAF_HEAP_SIZE", "lots", "FERROCAF_HEAP_SIZE=\"lots\""),
        ("FERROCAF_HEAP_SIZE", "0", "FERROCAF_HEAP_SIZE=\"0\""),
        ("FERROCAF_HEAP_SIZE", "16T", "lower FERROCAF_HEAP_SIZE"),
        ("FERROCAF_SPIN", "-1", "FERROCAF_SPIN=\"-1\""),
        ("FERROCAF_CPUS", "0", "FERROCAF_CPUS=\"0\""),
        ("FERROCAF_CPUS", "two", "FERROCAF_CPUS=\"two\""),
        ("FERROCAF_EVENTS", "bogus", "FERROCAF_EVENTS=\"bogus\""),
        ("FERROCAF_WAIT", "busy", "FERROCAF_WAIT=\"busy\""),
    ];
    for (var, value, expect) in cases {
        let mut cmd = command(&exe, 2);
        if var.starts_with("GFORTRAN") {
            cmd.env_remove("FERROCAF_NUM_IMAGES");
        }
        cmd.env(var, value);
        refused(cmd, &format!("{var}={value}"), &[expect]);
    }
}

#[test]
fn ferrocaf_run_refuses_invalid_variables_too() {
    let exe = compile("hello_run_config", HELLO);
    for (var, value) in [("FERROCAF_SPIN", "-1"), ("FERROCAF_EVENTS", "bogus")] {
        let mut cmd = Command::new(FERROCAF);
        cmd.args(["run", "-n", "2"]).arg(&exe);
        isolate(&mut cmd, 2);
        cmd.env(var, value);
        refused(cmd, &format!("ferrocaf run with {var}={value}"), &[var]);
    }
}

/// Without the `mpi` feature the launcher is refused outright; with it, the program joins MPI,
/// which sees only this process where the launcher announced 4 (as when the launcher belongs to
/// another MPI library than the one ferrocaf was built with), and is refused for that.
#[test]
fn a_foreign_launcher_is_explained() {
    let exe = compile("hello_launcher", HELLO);
    for launcher in ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE"] {
        for transport in [None, Some("mpi")] {
            let mut cmd = command(&exe, 2);
            cmd.env(launcher, "4");
            if let Some(t) = transport {
                cmd.env("FERROCAF_TRANSPORT", t);
            }
            let what = format!("{launcher}=4, FERROCAF_TRANSPORT={transport:?}");
            refused(cmd, &what, &["MPI", "ferrocaf run -n N"]);
        }
    }
}

/// The usual spellings of a size are accepted for FERROCAF_HEAP_SIZE and `--heap`.
#[test]
fn heap_sizes_in_the_usual_spellings_run() {
    let exe = compile("hello_heap_spelling", HELLO);
    for value in ["64MB", "64MiB", "64M", "0.0625GiB", "1.5GB"] {
        let mut cmd = command(&exe, 2);
        cmd.env("FERROCAF_HEAP_SIZE", value);
        let o = cmd.output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success() && out.matches("started").count() == 2,
            "FERROCAF_HEAP_SIZE={value}: {out}{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let mut cmd = Command::new(FERROCAF);
    cmd.args(["run", "-n", "2", "--heap", "32MiB"]).arg(&exe);
    isolate(&mut cmd, 2);
    let o = cmd.output().unwrap();
    assert!(o.status.success(), "--heap 32MiB: {o:?}");
}

/// Under `ulimit -v` too small for the heap, the message names the setting to lower.
#[test]
fn an_address_space_limit_names_the_setting_to_lower() {
    let exe = compile("hello_ulimit", HELLO);
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -v 1000000 && exec \"$0\" run -n 2 \"$1\"")
        .arg(FERROCAF)
        .arg(&exe);
    isolate(&mut cmd, 2);
    cmd.env("FERROCAF_HEAP_SIZE", "2G");
    refused(
        cmd,
        "ulimit -v 1000000 with a 2G heap",
        &["lower FERROCAF_HEAP_SIZE", "ulimit -v"],
    );
}
