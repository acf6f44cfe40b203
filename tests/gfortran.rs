//! End-to-end tests: compiles every `gfortran_tests/*.f90` with `gfortran -fcoarray=lib` against
//! the `libferrocaf.so` cargo built for this test run, runs it on the image counts its header asks
//! for, and checks exit status and output (see `gfortran/header.rs` for the header format).
//!
//! `cargo test --test gfortran -- sync` runs only the tests whose name contains `sync`. The last
//! line is always `N passed, N failed`, followed under a launcher (FERROCAF_TEST_LAUNCHER) by
//! `, K launches retried`: the runs the launcher did not start and that were launched again
//! (`gfortran/relaunch.rs`). The exit code is 1 if any run failed.

#[path = "gfortran/check.rs"]
mod check;
#[path = "gfortran/header.rs"]
mod header;
#[path = "gfortran/launcher.rs"]
mod launcher;
#[path = "gfortran/process.rs"]
mod process;
#[path = "gfortran/relaunch.rs"]
mod relaunch;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// How many tests run at the same time.
const WORKERS: usize = 2;
/// How many trailing lines of stdout/stderr a failure shows.
const TAIL: usize = 15;
/// Longest a compilation may take.
const COMPILE_TIMEOUT: Duration = Duration::from_secs(120);

/// What the whole suite shares.
struct Suite {
    /// Directory holding `libferrocaf.so`.
    lib: PathBuf,
    /// Scratch directory for binaries, one subdirectory per test; it also holds
    /// `ferrocaf_ext.mod`, compiled once from `caf_abi/ferrocaf_ext.f90`.
    scratch: PathBuf,
    /// Names in /dev/shm a test may have left (`check::shm_names`) that are known: there
    /// before the suite started, or already reported (each leak fails one run, not all after).
    shm_known: Mutex<BTreeSet<String>>,
    /// FERROCAF_TEST_LAUNCHER's words (`{n}` = image count), if set.
    launcher: Option<Vec<String>>,
    /// Major version of the gfortran on PATH (`gfortran -dumpversion`).
    gfortran: u32,
    /// FERROCAF_TEST_MAX_IMAGES: runs on more images are skipped.
    max_images: Option<usize>,
}

/// The result of one (test, image count) run, or of a test that could not run at all.
struct Report {
    /// `name [N images]` or just `name`.
    label: String,
    /// Failure reasons and output tails; empty when the run passed.
    failures: Vec<String>,
    /// Run time (of the last launch).
    elapsed: Duration,
    /// One line per launch the launcher did not start before the reported one.
    relaunches: Vec<String>,
}

fn main() -> ExitCode {
    let filters = filters(std::env::args().skip(1));
    if let Err(e) = Command::new("gfortran").arg("--version").output() {
        eprintln!("gfortran not found ({e}); install it: apt-get install gfortran");
        println!("0 passed, 1 failed");
        return ExitCode::FAILURE;
    }
    let suite = match setup() {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!("{e}");
            println!("0 passed, 1 failed");
            return ExitCode::FAILURE;
        }
    };
    let tests = discover(&filters);
    println!("running {} gfortran test programs", tests.len());
    let (passed, failed, retried) = run_all(&suite, tests);
    if failed == 0 {
        // Best effort: a leftover scratch directory is only clutter.
        let _ = std::fs::remove_dir_all(&suite.scratch);
    } else {
        println!("binaries kept in {}", suite.scratch.display());
    }
    if suite.launcher.is_some() {
        println!("{passed} passed, {failed} failed, {retried} launches retried");
    } else {
        println!("{passed} passed, {failed} failed");
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Name filters from the command line; libtest flags (and the values of those taking one) are
/// ignored so that `cargo test` options pass through harmlessly.
fn filters(args: impl Iterator<Item = String>) -> Vec<String> {
    const WITH_VALUE: [&str; 6] = [
        "--test-threads",
        "--skip",
        "--format",
        "--color",
        "--logfile",
        "-Z",
    ];
    let mut out = Vec::new();
    let mut args = args.peekable();
    while let Some(a) = args.next() {
        if WITH_VALUE.contains(&a.as_str()) {
            args.next();
        } else if !a.starts_with('-') {
            out.push(a);
        }
    }
    out
}

/// Finds the library and creates the scratch directory.
fn setup() -> Result<Suite, String> {
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let deps = exe.parent().ok_or("test executable has no directory")?;
    let lib = [Some(deps), deps.parent()]
        .into_iter()
        .flatten()
        .find(|d| d.join("libferrocaf.so").exists())
        .ok_or_else(|| format!("no libferrocaf.so in {} or its parent", deps.display()))?
        .to_path_buf();
    let gfortran = gfortran_major()?;
    let scratch = std::env::temp_dir().join(format!("ferrocaf-gfortran-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).map_err(|e| format!("{}: {e}", scratch.display()))?;
    let module = Path::new(env!("CARGO_MANIFEST_DIR")).join("caf_abi/ferrocaf_ext.f90");
    let mut cmd = Command::new("gfortran");
    cmd.args(["-fcoarray=lib", "-c"])
        .arg(&module)
        .arg("-J")
        .arg(&scratch)
        .arg("-o")
        .arg(scratch.join("ferrocaf_ext.o"));
    match process::run(cmd, COMPILE_TIMEOUT) {
        Ok(o) if o.status.is_some_and(|st| st.success()) => {}
        Ok(o) => {
            return Err(format!(
                "compiling {}: {}",
                module.display(),
                o.stderr.trim_end()
            ))
        }
        Err(e) => return Err(format!("compiling {}: {e}", module.display())),
    }
    Ok(Suite {
        lib,
        scratch,
        shm_known: Mutex::new(check::shm_names()),
        launcher: launcher::from_env(),
        gfortran,
        max_images: launcher::max_images()?,
    })
}

/// The major version `gfortran -dumpversion` prints (`12` or `16.2.0`).
fn gfortran_major() -> Result<u32, String> {
    let mut cmd = Command::new("gfortran");
    cmd.arg("-dumpversion");
    let o = process::run(cmd, COMPILE_TIMEOUT).map_err(|e| format!("gfortran: {e}"))?;
    let text = o.stdout.trim();
    text.split('.')
        .next()
        .and_then(|m| m.parse().ok())
        .ok_or_else(|| format!("gfortran -dumpversion printed `{text}`"))
}

/// The test programs whose name matches one of `filters` (all if there are none), sorted.
fn discover(filters: &[String]) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("gfortran_tests");
    let mut tests: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    tests.retain(|p| {
        p.extension().is_some_and(|e| e == "f90")
            && (filters.is_empty() || filters.iter().any(|f| name(p).contains(f.as_str())))
    });
    tests.sort();
    tests
}

/// A test's name: its file stem.
fn name(p: &Path) -> String {
    p.file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

/// Runs the tests on [`WORKERS`] threads, printing each report as it arrives; returns the counts
/// of runs passed and failed, and of launches retried.
fn run_all(suite: &Arc<Suite>, tests: Vec<PathBuf>) -> (usize, usize, usize) {
    let queue = Arc::new(Mutex::new(tests.into_iter()));
    let (tx, rx) = mpsc::channel();
    for _ in 0..WORKERS {
        let (suite, queue, tx) = (suite.clone(), queue.clone(), tx.clone());
        std::thread::spawn(move || loop {
            let Some(t) = queue.lock().unwrap().next() else {
                break;
            };
            run_test(&suite, &t, &tx);
        });
    }
    drop(tx);
    let (mut passed, mut failed, mut retried) = (0, 0, 0);
    for r in rx {
        for line in &r.relaunches {
            retried += 1;
            println!("{line}");
        }
        let secs = r.elapsed.as_secs_f64();
        if r.failures.is_empty() {
            passed += 1;
            println!("{} ... ok ({secs:.2}s)", r.label);
        } else {
            failed += 1;
            println!("{} ... FAILED ({secs:.2}s)", r.label);
            for f in &r.failures {
                println!("    {}", f.replace('\n', "\n    "));
            }
        }
    }
    (passed, failed, retried)
}

/// Compiles one test and runs it for each image count of its header, sending one report per run.
fn run_test(suite: &Suite, src: &Path, tx: &mpsc::Sender<Report>) {
    let name = name(src);
    let fail = |label: String, why: String| Report {
        label,
        failures: vec![why],
        elapsed: Duration::ZERO,
        relaunches: Vec::new(),
    };
    let header = match std::fs::read_to_string(src)
        .map_err(|e| e.to_string())
        .and_then(|s| header::parse(&s))
    {
        Ok(h) => h,
        Err(e) => return drop(tx.send(fail(name, format!("bad header: {e}")))),
    };
    let missing = header
        .requires
        .iter()
        .find(|c| launcher::missing(c, suite.launcher.is_some()));
    if let Some(cap) = missing {
        println!("{name} ... skipped: requires {cap}, which this run lacks");
        return;
    }
    if let Some(cond) = header.compiler_excluded(suite.gfortran) {
        println!(
            "{name} ... skipped: needs gfortran {cond}, this is {}",
            suite.gfortran
        );
        return;
    }
    let dir = suite.scratch.join(&name);
    let exe = match compile(suite, src, &dir, &header.flags) {
        Ok(exe) => exe,
        Err(e) => {
            for &n in &header.images {
                for (suffix, _) in header.variants() {
                    let why = format!("compilation failed:\n{e}");
                    // The receiver lives until every worker has finished.
                    let _ = tx.send(fail(format!("{name} [{n} images{suffix}]"), why));
                }
            }
            return;
        }
    };
    let (images, over): (Vec<usize>, Vec<usize>) = header
        .images
        .iter()
        .partition(|&&n| suite.max_images.is_none_or(|m| n <= m));
    for n in over {
        println!("{name} [{n} images] ... skipped: more than FERROCAF_TEST_MAX_IMAGES");
    }
    let runs = images
        .iter()
        .flat_map(|&n| header.variants().into_iter().map(move |v| (n, v)));
    for (n, (suffix, var)) in runs {
        let label = format!("{name} [{n} images{suffix}]");
        let command = || {
            let mut cmd = launcher::command(suite.launcher.as_deref(), &exe, n);
            // Cargo's LD_LIBRARY_PATH would take precedence over the rpath and could load a
            // stale copy of the library from target/<profile>.
            cmd.current_dir(&dir)
                .env_remove("LD_LIBRARY_PATH")
                .env("FERROCAF_NUM_IMAGES", n.to_string());
            cmd.envs(header.env.iter().map(|(k, v)| (k, v)));
            cmd.envs(var.iter().map(|(k, v)| (k, v)));
            cmd
        };
        let report = match relaunch::run(suite.launcher.is_some(), header.timeout, command) {
            Ok(launches) => {
                let o = &launches.outcome;
                let mut failures = check::failures(&header, n, o);
                failures.extend(check::shm_leftovers(&suite.shm_known));
                if !failures.is_empty() {
                    failures.extend(launches.gave_up());
                    failures.push(tail("stdout", &o.stdout));
                    failures.push(tail("stderr", &o.stderr));
                }
                Report {
                    relaunches: launches.relaunched.iter().map(|r| r.line(&label)).collect(),
                    label,
                    failures,
                    elapsed: o.elapsed,
                }
            }
            Err(e) => fail(label, format!("cannot run {}: {e}", exe.display())),
        };
        // The receiver lives until every worker has finished.
        let _ = tx.send(report);
    }
}

/// Compiles `src` into `dir`, returning the executable's path or the compiler's complaint.
fn compile(suite: &Suite, src: &Path, dir: &Path, flags: &[String]) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let exe = dir.join(name(src));
    let mut cmd = Command::new("gfortran");
    cmd.current_dir(dir)
        .args(["-fcoarray=lib", "-O1", "-g"])
        .arg(format!("-I{}", suite.scratch.display()))
        .args(flags)
        .arg(src)
        .arg("-o")
        .arg(&exe)
        .arg(format!("-L{}", suite.lib.display()))
        .arg("-lferrocaf")
        .arg(format!("-Wl,-rpath,{}", suite.lib.display()));
    let o = process::run(cmd, COMPILE_TIMEOUT).map_err(|e| format!("gfortran: {e}"))?;
    match o.status {
        Some(st) if st.success() => Ok(exe),
        Some(st) => Err(format!(
            "{}\n{}",
            process::describe(&st),
            o.stderr.trim_end()
        )),
        None => Err("gfortran timed out".into()),
    }
}

/// The last [`TAIL`] lines of a stream, labelled.
fn tail(what: &str, text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let from = lines.len().saturating_sub(TAIL);
    if lines.is_empty() {
        return format!("--- {what}: (empty)");
    }
    format!(
        "--- {what} (last {} lines):\n{}",
        lines.len() - from,
        lines[from..].join("\n")
    )
}
