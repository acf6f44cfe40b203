//! End-to-end tests of the `ferrocaf` command line: help and errors, `info`, `build` + `run`,
//! and `run prog.f90`. The Fortran tests need gfortran and fail (never skip) without it.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The `ferrocaf` executable under test.
const FERROCAF: &str = env!("CARGO_BIN_EXE_ferrocaf");
/// Longest any one command may take.
const TIMEOUT: Duration = Duration::from_secs(120);

/// A `ferrocaf` command with none of the configuration variables of the calling environment.
fn ferrocaf(args: &[&str]) -> Command {
    let mut cmd = Command::new(FERROCAF);
    cmd.args(args);
    for var in [
        "FERROCAF_NUM_IMAGES",
        "GFORTRAN_NUM_IMAGES",
        "FERROCAF_HEAP_SIZE",
        "FERROCAF_SPIN",
        "FERROCAF_EVENTS",
        "FERROCAF_STATS",
        "FERROCAF_JOB",
        "FERROCAF_IMAGE",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// Runs `cmd` to completion, killing it (and failing the test) after [`TIMEOUT`].
fn run(cmd: &mut Command) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.read_to_end(&mut buf);
            buf
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let deadline = Instant::now() + TIMEOUT;
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} did not finish within {TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// Text of a captured stream.
fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Fails with an explanation unless the command exited with `code`.
fn expect_code(out: &Output, code: i32) {
    assert_eq!(
        out.status.code(),
        Some(code),
        "unexpected exit status\n--- stdout\n{}--- stderr\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// Makes sure gfortran and an up-to-date libferrocaf.so (next to the binary) are there.
/// `cargo test` builds the library only as an rlib, so the shared library is built here once.
fn fortran_ready() {
    static READY: OnceLock<()> = OnceLock::new();
    READY.get_or_init(|| {
        if Command::new("gfortran").arg("--version").output().is_err() {
            panic!(
                "gfortran not found: this test compiles Fortran. Install it with \
                 `sudo apt-get install gfortran`, or run scripts/test.sh, which does"
            );
        }
        let dir = Path::new(FERROCAF).parent().unwrap();
        let profile = match dir.file_name().and_then(|p| p.to_str()) {
            Some("debug") => "dev",
            Some(other) => other,
            None => panic!("unexpected location of {FERROCAF}"),
        };
        let mut build = Command::new(env!("CARGO"));
        build.args(["build", "--lib", "--quiet", "--profile", profile]);
        build.args([
            "--manifest-path",
            concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"),
        ]);
        expect_code(&run(&mut build), 0);
        assert!(
            dir.join("libferrocaf.so").is_file(),
            "no libferrocaf.so in {dir:?}"
        );
    });
}

/// A scratch directory, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    /// Creates a fresh directory for test `name`.
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("ferrocaf-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A program printing one line per image.
const TINY: &str = "\
program tiny
  write (*, '(a, i0, a, i0)') 'image ', this_image(), ' of ', num_images()
end program tiny
";

/// The sorted lines `image i of n` that [`TINY`] prints on `n` images.
fn tiny_lines(n: usize) -> Vec<String> {
    (1..=n).map(|i| format!("image {i} of {n}")).collect()
}

/// Sorted lines of a captured stream.
fn sorted_lines(bytes: &[u8]) -> Vec<String> {
    let mut lines: Vec<String> = text(bytes).lines().map(str::to_string).collect();
    lines.sort();
    lines
}

#[test]
fn help_describes_every_command() {
    let out = run(&mut ferrocaf(&["--help"]));
    expect_code(&out, 0);
    let top = text(&out.stdout);
    for word in ["Usage: ferrocaf", "build", "run", "info", "Examples"] {
        assert!(top.contains(word), "--help lacks {word:?}:\n{top}");
    }
    for (cmd, word) in [
        ("build", "-fcoarray=lib"),
        ("run", "-np N"),
        ("info", "environment"),
    ] {
        let out = run(&mut ferrocaf(&[cmd, "--help"]));
        expect_code(&out, 0);
        assert!(
            text(&out.stdout).contains(word),
            "{cmd} --help lacks {word:?}"
        );
    }
}

#[test]
fn invalid_image_counts_name_the_option() {
    for (opt, value) in [
        ("-n", "0"),
        ("-n", "-2"),
        ("-np", "many"),
        ("--images", "100000"),
    ] {
        let out = run(&mut ferrocaf(&["run", opt, value, "./prog"]));
        expect_code(&out, 2);
        let err = text(&out.stderr);
        assert!(
            err.contains(&format!("{opt} expects")),
            "{opt} {value}: {err}"
        );
        assert!(err.contains("--help"), "no hint to --help: {err}");
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["frobnicate"][..],
        &["run", "--frobnicate", "x"],
        &["run", "-n", "2"],
        &["build"],
    ] {
        let out = run(&mut ferrocaf(args));
        expect_code(&out, 2);
        assert!(text(&out.stderr).contains("--help"), "{args:?}");
    }
}

#[test]
fn missing_gfortran_is_explained() {
    let out = run(ferrocaf(&["build", "prog.f90"]).env("PATH", "/nonexistent"));
    expect_code(&out, 127);
    assert!(text(&out.stderr)
        .contains("gfortran not found; install it with: sudo apt-get install gfortran"));
}

#[test]
fn info_lists_the_variables() {
    let out = run(&mut ferrocaf(&["info"]));
    expect_code(&out, 0);
    let info = text(&out.stdout);
    for word in [
        "FERROCAF_NUM_IMAGES",
        "FERROCAF_HEAP_SIZE",
        "shm",
        "library dir",
    ] {
        assert!(info.contains(word), "info lacks {word:?}:\n{info}");
    }
}

#[test]
fn build_then_run_on_three_images() {
    fortran_ready();
    let dir = Scratch::new("build");
    std::fs::write(dir.0.join("tiny.f90"), TINY).unwrap();
    let built = run(ferrocaf(&["build", "tiny.f90", "-o", "tiny"]).current_dir(&dir.0));
    expect_code(&built, 0);
    let out = run(ferrocaf(&["run", "-n", "3", "./tiny"]).current_dir(&dir.0));
    expect_code(&out, 0);
    assert_eq!(sorted_lines(&out.stdout), tiny_lines(3));
}

#[test]
fn run_builds_a_source_file_once() {
    fortran_ready();
    let dir = Scratch::new("source");
    let src = dir.0.join("tiny.f90");
    std::fs::write(&src, TINY).unwrap();
    let cache = dir.0.join("cache");
    for _ in 0..2 {
        let mut cmd = ferrocaf(&["run", "-n", "2", src.to_str().unwrap()]);
        let out = run(cmd.env("XDG_CACHE_HOME", &cache));
        expect_code(&out, 0);
        assert_eq!(sorted_lines(&out.stdout), tiny_lines(2));
    }
    let builds = std::fs::read_dir(cache.join("ferrocaf"))
        .unwrap()
        .filter(|e| {
            !e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("module-")
        })
        .count();
    assert_eq!(builds, 1, "the second run should reuse the first build");
}

#[test]
fn examples_verify_their_results() {
    fortran_ready();
    let dir = Scratch::new("examples");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples_caf");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&examples)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "f90"))
        .collect();
    sources.sort();
    assert!(sources.len() >= 9, "examples missing: {sources:?}");
    for src in &sources {
        let name = src.file_name().unwrap().to_str().unwrap();
        let (images, args) = example_plan(name);
        for n in images {
            let mut cmd = ferrocaf(&["run", "-n", n, src.to_str().unwrap()]);
            let out = run(cmd.args(args).env("XDG_CACHE_HOME", &dir.0));
            expect_code(&out, 0);
            assert!(
                text(&out.stdout).contains("Success"),
                "{name} on {n} images: {}",
                text(&out.stdout)
            );
        }
    }
}

/// Image counts and (small) iteration-count argument for one example; 2 and 4 images with the
/// example's defaults unless it needs otherwise.
fn example_plan(name: &str) -> (&'static [&'static str], &'static [&'static str]) {
    match name {
        "pingpong.f90" => (&["2"], &["500"]),
        "p2p_sync_images.f90" | "p2p_events.f90" | "p2p_attach.f90" | "transpose.f90" => {
            (&["2", "4"], &["3"])
        }
        "stencil_events.f90" | "stencil_attach.f90" | "hydro.f90" => (&["2", "4"], &["10"]),
        _ => (&["2", "4"], &[]),
    }
}

#[test]
fn stats_lines_come_in_image_order() {
    fortran_ready();
    let dir = Scratch::new("stats");
    let hello = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples_caf/hello.f90");
    let mut cmd = ferrocaf(&["run", "-n", "4", hello.to_str().unwrap()]);
    let out = run(cmd.env("FERROCAF_STATS", "1").env("XDG_CACHE_HOME", &dir.0));
    expect_code(&out, 0);
    let images: Vec<String> = text(&out.stderr)
        .lines()
        .filter_map(|l| l.strip_prefix("ferrocaf stats: image "))
        .map(|l| l.split(':').next().unwrap().to_string())
        .collect();
    assert_eq!(images, ["1", "2", "3", "4"], "{}", text(&out.stderr));
}
