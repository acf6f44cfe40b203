//! scripts/setup.sh, which the README's test command and CI run first: it checks the gfortran
//! version, and it gets fpm on a stock system, where pip may not install into the system's
//! Python (PEP 668), from a clean environment (`env -i`) — or says clearly why not.

#[allow(dead_code)] // only the command helpers: nothing here compiles Fortran
mod common;

use common::{run, text, Scratch};
use std::path::Path;
use std::process::Command;

/// The PATH of a clean login environment (no pyenv, no ~/.cargo/bin).
const CLEAN_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// `bash -c 'source scripts/setup.sh; SCRIPT'` in a clean environment with `home` as HOME.
fn setup(script: &str, home: &Path, path: &str) -> Command {
    let mut cmd = Command::new("env");
    cmd.arg("-i")
        .arg(format!("PATH={path}"))
        .arg(format!("HOME={}", home.display()))
        .args(["bash", "-c"])
        .arg(format!("source scripts/setup.sh && {script}"))
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

#[test]
fn setup_refuses_a_gfortran_older_than_12() {
    let dir = Scratch::new("old_gfortran");
    let fake = dir.0.join("gfortran");
    std::fs::write(&fake, "#!/bin/sh\necho 11.4.0\n").unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!("{}:{CLEAN_PATH}", dir.0.display());
    let out = run(&mut setup("ensure_gfortran", &dir.0, &path));
    let err = text(&out.stderr);
    assert!(
        out.status.code() == Some(1)
            && err.contains("gfortran 11.4.0")
            && err.contains("12 or later"),
        "{:?}: {err}",
        out.status
    );
    let out = run(&mut setup("ensure_gfortran", &dir.0, CLEAN_PATH));
    assert!(
        out.status.success(),
        "the real gfortran: {}",
        text(&out.stderr)
    );
}

/// fpm comes into a virtual environment of its own (kept in cargo's target directory, so only
/// the first run of a fresh checkout installs it), or is skipped with a reason, never a failure.
#[test]
fn setup_gets_fpm_in_a_clean_environment_or_says_why_not() {
    let home = Scratch::new("fpm_home");
    let data = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fpm-data");
    let script = format!(
        "export XDG_DATA_HOME={} && FPM_VENV=$XDG_DATA_HOME/ferrocaf/fpm-venv && ensure_fpm && \
         echo \"fpm=$(command -v fpm)\" && echo \"skip=${{FPM_SKIP_REASON:-}}\" && \
         {{ [ -n \"${{FPM_SKIP_REASON:-}}\" ] || fpm --version; }}",
        data.display()
    );
    let out = run(&mut setup(&script, &home.0, CLEAN_PATH));
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "ensure_fpm failed:\n{stdout}{stderr}");
    let skipped = stdout
        .lines()
        .any(|l| l.starts_with("skip=") && l.len() > 5);
    if skipped {
        assert!(stderr.contains("warning: no fpm: "), "{stderr}");
        eprintln!("fpm could not be installed here, and setup.sh said so:\n{stderr}");
    } else {
        assert!(
            stdout.contains("Fortran Package Manager") || stdout.contains("Version:"),
            "fpm does not run:\n{stdout}{stderr}"
        );
        assert!(
            !stderr.contains("externally-managed-environment"),
            "{stderr}"
        );
    }
}
