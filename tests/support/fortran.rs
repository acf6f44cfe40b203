//! Shared by the fault and security tests: compiling a Fortran program against the
//! `libferrocaf.so` of this build, starting it, and finding its image processes in /proc.

#![allow(dead_code)] // each test binary uses a different subset

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read};
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The `ferrocaf` executable of this build (the library sits next to it).
pub const FERROCAF: &str = env!("CARGO_BIN_EXE_ferrocaf");

/// Builds `libferrocaf.so` next to the `ferrocaf` binary once (`cargo test` may build the
/// library only as an rlib), with the features of this test build (`mpi`, `fabric`: without
/// them, a `--features mpi` test run would replace the MPI library by one without MPI), and
/// checks gfortran is there; returns the library's directory.
pub fn lib_dir() -> &'static Path {
    static READY: OnceLock<PathBuf> = OnceLock::new();
    READY.get_or_init(|| {
        let dir = Path::new(FERROCAF).parent().unwrap().to_path_buf();
        let profile = match dir.file_name().and_then(|p| p.to_str()) {
            Some("debug") => "dev",
            Some(other) => other,
            None => panic!("unexpected location of {FERROCAF}"),
        };
        let mut cargo = Command::new(env!("CARGO"));
        cargo.args(["build", "--lib", "--quiet", "--profile", profile]);
        let features: Vec<&str> = [
            ("mpi", cfg!(feature = "mpi")),
            ("fabric", cfg!(feature = "fabric")),
        ]
        .into_iter()
        .filter_map(|(f, on)| on.then_some(f))
        .collect();
        if !features.is_empty() {
            cargo.args(["--features", &features.join(",")]);
        }
        let st = cargo
            .args([
                "--manifest-path",
                concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"),
            ])
            .status()
            .expect("cannot run cargo");
        assert!(st.success(), "cargo build --lib failed");
        assert!(
            dir.join("libferrocaf.so").is_file(),
            "no libferrocaf.so in {dir:?}"
        );
        dir
    })
}

/// A compiled program: its executable, in a scratch directory of its own that is removed when
/// the program is dropped.
pub struct Program(PathBuf);

impl Deref for Program {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<OsStr> for Program {
    fn as_ref(&self) -> &OsStr {
        self.0.as_os_str()
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Compiles `source` (Fortran) as `name` into a fresh scratch directory; returns the program.
pub fn compile(name: &str, source: &str) -> Program {
    let lib = lib_dir();
    let dir = std::env::temp_dir().join(format!("ferrocaf-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join(format!("{name}.f90"));
    std::fs::write(&src, source).unwrap();
    let exe = dir.join(name);
    let out = Command::new("gfortran")
        .current_dir(&dir)
        .args(["-fcoarray=lib", "-O1"])
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .arg(format!("-L{}", lib.display()))
        .arg("-lferrocaf")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .output()
        .expect("gfortran not found: these tests compile Fortran (apt-get install gfortran)");
    assert!(
        out.status.success(),
        "gfortran failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Program(exe)
}

/// A command for a compiled program with none of the caller's ferrocaf variables.
pub fn command(exe: &Path, images: usize) -> Command {
    let mut cmd = Command::new(exe);
    isolate(&mut cmd, images);
    cmd
}

/// Removes the caller's ferrocaf variables from `cmd`, asks for `images` images and pipes its
/// output.
pub fn isolate(cmd: &mut Command, images: usize) {
    for (k, _) in std::env::vars() {
        if k.starts_with("FERROCAF_") || k == "GFORTRAN_NUM_IMAGES" {
            cmd.env_remove(k);
        }
    }
    cmd.env_remove("LD_LIBRARY_PATH")
        .env("FERROCAF_NUM_IMAGES", images.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
}

/// Reads `child`'s stdout until a line contains `text` (panics after `limit`); returns the
/// reader so the caller can keep reading.
pub fn wait_for_line(child: &mut Child, text: &str, limit: Duration) -> BufReader<ChildStdout> {
    let mut r = BufReader::new(child.stdout.take().unwrap());
    let start = Instant::now();
    let mut line = String::new();
    loop {
        line.clear();
        let k = r.read_line(&mut line).unwrap();
        assert!(k > 0, "the program ended before printing `{text}`");
        if line.contains(text) {
            return r;
        }
        assert!(start.elapsed() < limit, "no `{text}` within {limit:?}");
    }
}

/// The rest of a reader's text.
pub fn rest(mut r: impl Read) -> String {
    let mut s = String::new();
    let _ = r.read_to_string(&mut s);
    s
}

/// Field `k` (0-based, counting from the state) after the command name in /proc/pid/stat.
fn stat_field(pid: i32, k: usize) -> Option<String> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &s[s.rfind(')')? + 2..];
    after.split_whitespace().nth(k).map(str::to_string)
}

/// Whether process `pid` is alive: it exists and is not a zombie.
pub fn alive(pid: i32) -> bool {
    stat_field(pid, 0).is_some_and(|state| state != "Z" && state != "X")
}

/// The live children of process `parent`, found through /proc.
pub fn children(parent: i32) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&p| stat_field(p, 1).as_deref() == Some(parent.to_string().as_str()) && alive(p))
        .collect()
}

/// Waits until `parent` has `n` live children (panics after `limit`); returns their pids.
pub fn wait_for_children(parent: i32, n: usize, limit: Duration) -> Vec<i32> {
    let start = Instant::now();
    loop {
        let c = children(parent);
        if c.len() == n {
            return c;
        }
        assert!(
            start.elapsed() < limit,
            "{} of {n} images after {limit:?}",
            c.len()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Waits until none of `pids` is alive; returns how long that took, or `None` after `limit`.
pub fn wait_gone(pids: &[i32], limit: Duration) -> Option<Duration> {
    let start = Instant::now();
    loop {
        if !pids.iter().any(|&p| alive(p)) {
            return Some(start.elapsed());
        }
        if start.elapsed() >= limit {
            return None;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Sends SIGKILL to `pid`.
pub fn sigkill(pid: i32) {
    // SAFETY: kill(2) has no memory-safety preconditions.
    unsafe { libc::kill(pid, libc::SIGKILL) };
}
