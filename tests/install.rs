//! Packaging end to end, as a new user would do it: scripts/install.sh into an empty temporary
//! prefix (twice: it must be idempotent), then, in a directory outside the repository with the
//! prefix's `bin` and the system tools' directories as the only PATH and no variable naming the
//! repository, build and run on 2 and 3 images: the CMake example (configure, build, ctest),
//! the pkg-config example (make check), the fpm example, and a program using `ferrocaf_ext`
//! built by the installed `ferrocaf build` (which must use the installed module, not compile
//! one). Finally scripts/uninstall.sh must leave the prefix empty. Needs gfortran, cmake,
//! pkg-config, make and fpm (scripts/test.sh installs them); fails, never skips, without them
//! — except the fpm example when scripts/setup.sh could not install fpm and said why in
//! `FPM_SKIP_REASON`: then the test says it skipped that example.

mod common;

use common::{expect_code, fortran_ready, run, text, Scratch, FERROCAF};
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository, which nothing built from the installed files may refer to.
const REPO: &str = env!("CARGO_MANIFEST_DIR");
/// The tools the examples are built with, found on the caller's PATH.
const TOOLS: &[&str] = &["gfortran", "cmake", "ctest", "make", "pkg-config"];

/// Why the fpm example is skipped (scripts/setup.sh could not install fpm), if it is.
fn fpm_skipped() -> Option<String> {
    std::env::var("FPM_SKIP_REASON").ok()
}
/// What install.sh puts under the prefix.
const INSTALLED: &[&str] = &[
    "bin/ferrocaf",
    "include/ferrocaf/ferrocaf.h",
    "include/ferrocaf/ferrocaf_ext.mod",
    "include/ferrocaf/ferrocaf_ext.stamp",
    "lib/cmake/ferrocaf/ferrocafConfig.cmake",
    "lib/cmake/ferrocaf/ferrocafConfigVersion.cmake",
    "lib/libferrocaf.a",
    "lib/libferrocaf.so",
    "lib/pkgconfig/ferrocaf.pc",
];
/// Where install.sh records what it installed.
const MANIFEST: &str = "share/ferrocaf/install_manifest.txt";

/// The scratch layout: the prefix, a copy of the examples, and the ferrocaf cache.
struct Setup {
    /// Removed at the end.
    scratch: Scratch,
    /// The installation prefix.
    prefix: PathBuf,
    /// PATH for the user's commands: the prefix's bin, then the tools' directories.
    path: OsString,
}

impl Setup {
    fn new() -> Self {
        let scratch = Scratch::new("install");
        let prefix = scratch.0.join("prefix");
        fs::create_dir(&prefix).unwrap();
        let mut dirs = vec![prefix.join("bin")];
        let fpm = fpm_skipped().is_none().then_some("fpm");
        for tool in TOOLS.iter().chain(&fpm) {
            let dir = tool_dir(tool);
            assert!(
                !dir.starts_with(REPO),
                "{tool} is inside the repository: {dir:?}"
            );
            if !dirs.contains(&dir) {
                dirs.push(dir);
            }
        }
        let path = std::env::join_paths(&dirs).unwrap();
        Setup {
            scratch,
            prefix,
            path,
        }
    }

    /// A command run as a user of the installed ferrocaf: in `dir`, with the restricted PATH,
    /// the prefix's pkg-config directory, a fresh ferrocaf cache, and none of the variables that
    /// name the repository (cargo sets several, LD_LIBRARY_PATH among them).
    fn user(&self, dir: &Path, program: &str, args: &[&str]) -> Command {
        let mut cmd = Command::new(program);
        cmd.args(args).current_dir(dir);
        for (name, value) in std::env::vars_os() {
            let named = name.to_string_lossy();
            if value.to_string_lossy().contains(REPO) || named.starts_with("FERROCAF_") {
                cmd.env_remove(name);
            }
        }
        cmd.env("PATH", &self.path)
            .env("PKG_CONFIG_PATH", self.prefix.join("lib/pkgconfig"))
            .env("XDG_CACHE_HOME", self.scratch.0.join("cache"));
        cmd
    }

    /// Runs a user command in `dir` and returns its output, failing unless it exits with 0.
    fn ok(&self, dir: &Path, program: &str, args: &[&str]) -> String {
        let out = run(&mut self.user(dir, program, args));
        assert!(
            out.status.success(),
            "`{program} {}` in {dir:?} failed: {}\n--- stdout\n{}--- stderr\n{}",
            args.join(" "),
            out.status,
            text(&out.stdout),
            text(&out.stderr)
        );
        text(&out.stdout)
    }

    /// Copies `examples_caf/<name>` out of the repository; returns the copy.
    fn example(&self, name: &str) -> PathBuf {
        let to = self.scratch.0.join(name);
        let status = Command::new("cp")
            .arg("-r")
            .arg(Path::new(REPO).join("examples_caf").join(name))
            .arg(&to)
            .status()
            .unwrap();
        assert!(status.success(), "cannot copy the {name} example");
        to
    }

    /// Runs scripts/install.sh or scripts/uninstall.sh on the prefix.
    fn script(&self, name: &str, extra: &[&str]) -> Output {
        let mut cmd = Command::new("bash");
        cmd.arg(Path::new(REPO).join("scripts").join(name))
            .arg("--prefix")
            .arg(&self.prefix)
            .args(extra);
        run(&mut cmd)
    }
}

/// The directory of `tool` on this process's PATH, with symbolic links in the directory's path
/// resolved (not the tool's own link: `gfortran` may be a link to `gfortran-16` in a directory
/// without a `gfortran`).
fn tool_dir(tool: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join(tool))
        .find(|p| p.is_file())
        .map(|p| p.parent().unwrap().canonicalize().unwrap())
        .unwrap_or_else(|| {
            panic!("{tool} not found: the packaging test needs it; scripts/test.sh installs it")
        })
}

/// Fails if the file at `p` names the repository (e.g. an rpath or include path into it).
fn no_repository_path(p: &Path) {
    let bytes = fs::read(p).unwrap_or_else(|e| panic!("cannot read {p:?}: {e}"));
    let repo = REPO.as_bytes();
    assert!(
        !bytes.windows(repo.len()).any(|w| w == repo),
        "{p:?} refers to the repository {REPO}"
    );
}

/// How many lines of `out` report `Success:` (ctest -V puts the test number before them).
fn successes(out: &str) -> usize {
    out.lines().filter(|l| l.contains("Success:")).count()
}

#[test]
fn install_use_and_uninstall() {
    fortran_ready();
    let s = Setup::new();
    let from = Path::new(FERROCAF).parent().unwrap().to_str().unwrap();

    // Install twice: the second run replaces the first and records the same files.
    expect_code(&s.script("install.sh", &["--from", from]), 0);
    let first = fs::read_to_string(s.prefix.join(MANIFEST)).unwrap();
    expect_code(&s.script("install.sh", &["--from", from]), 0);
    let manifest = fs::read_to_string(s.prefix.join(MANIFEST)).unwrap();
    assert_eq!(first, manifest, "a second install recorded other things");
    let files: Vec<&str> = manifest
        .lines()
        .filter_map(|l| l.strip_prefix("file "))
        .collect();
    assert_eq!(files, INSTALLED, "install.sh installed other files");

    let home = s.scratch.0.clone();
    let info = s.ok(&home, "ferrocaf", &["info"]);
    let include = s.prefix.join("include/ferrocaf");
    let expected = format!("modules:     {} (installed)", include.display());
    assert!(info.contains(&expected), "{expected:?} not in:\n{info}");
    let pc = s.ok(&home, "pkg-config", &["--cflags", "--libs", "ferrocaf"]);
    let lib = s.prefix.join("lib");
    let expected = format!(
        "-fcoarray=lib -I{} -L{lib} -lferrocaf -Wl,-rpath,{lib}",
        include.display(),
        lib = lib.display()
    );
    assert_eq!(pc.trim(), expected);

    // CMake: configure, build, and ctest (the example registers runs on 2 and 3 images).
    let cmake = s.example("cmake");
    let prefix_arg = format!("-DCMAKE_PREFIX_PATH={}", s.prefix.display());
    s.ok(&cmake, "cmake", &["-S", ".", "-B", "build", &prefix_arg]);
    s.ok(&cmake, "cmake", &["--build", "build"]);
    let ctest = s.ok(&cmake, "ctest", &["--test-dir", "build", "-V"]);
    assert!(ctest.contains("100% tests passed"), "{ctest}");
    assert_eq!(successes(&ctest), 2, "{ctest}");
    no_repository_path(&cmake.join("build/CMakeCache.txt"));
    no_repository_path(&cmake.join("build/attach_ring"));

    // pkg-config: make, then run on 2 and 3 images.
    let pkgconfig = s.example("pkgconfig");
    let out = s.ok(&pkgconfig, "make", &["check"]);
    assert_eq!(successes(&out), 2, "{out}");
    no_repository_path(&pkgconfig.join("notify_sum"));

    // fpm, with the flags from pkg-config as the README gives them.
    if let Some(why) = fpm_skipped() {
        eprintln!("SKIPPED: the fpm example, as fpm is not available: {why}");
    } else {
        let fpm = s.example("fpm");
        let cflags = s.ok(&fpm, "pkg-config", &["--cflags", "ferrocaf"]);
        let libs = s.ok(&fpm, "pkg-config", &["--libs", "ferrocaf"]);
        let out = run(s
            .user(&fpm, "fpm", &["run", "--runner", "ferrocaf run -n 3"])
            .env("FPM_FFLAGS", cflags.trim())
            .env("FPM_LDFLAGS", libs.trim()));
        expect_code(&out, 0);
        assert_eq!(successes(&text(&out.stdout)), 1, "{}", text(&out.stdout));
    }

    // ferrocaf build uses the installed module: nothing compiled into the cache.
    let out = s.ok(
        &cmake,
        "ferrocaf",
        &["build", "attach_ring.f90", "-o", "direct"],
    );
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        successes(&s.ok(&cmake, "ferrocaf", &["run", "-n", "2", "./direct"])),
        1
    );
    assert!(
        !s.scratch.0.join("cache/ferrocaf").exists(),
        "ferrocaf build compiled ferrocaf_ext although an installed one fits"
    );
    no_repository_path(&cmake.join("direct"));

    expect_code(&s.script("uninstall.sh", &[]), 0);
    let left: Vec<_> = fs::read_dir(&s.prefix).unwrap().collect();
    assert!(left.is_empty(), "uninstall left {left:?}");
}
