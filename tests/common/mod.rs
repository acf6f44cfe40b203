//! Helpers shared by the end-to-end tests: running commands with a time limit, checking their
//! exit status, making sure gfortran and libferrocaf.so are there, scratch directories.
//! (Each test crate uses all of them.)

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The `ferrocaf` executable under test.
pub const FERROCAF: &str = env!("CARGO_BIN_EXE_ferrocaf");
/// Longest any one command may take.
pub const TIMEOUT: Duration = Duration::from_secs(120);

/// Runs `cmd` to completion, killing it (and failing the test) after [`TIMEOUT`].
pub fn run(cmd: &mut Command) -> Output {
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
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Fails with an explanation unless the command exited with `code`.
pub fn expect_code(out: &Output, code: i32) {
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
pub fn fortran_ready() {
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
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// Creates a fresh directory for test `name`.
    pub fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("ferrocaf-test-{}-{name}", std::process::id()));
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
