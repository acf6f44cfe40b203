//! The build cache of `ferrocaf run prog.f90`, which executes what it finds: private per-user
//! location (never a shared temporary directory), mode 0700, refusal of what another user owns
//! or can write, and a size limit with least-recently-used pruning.

use super::fortran::*;
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PROGRAM: &str = "\
program cached
  print '(a,i0)', 'cached ', this_image()
end program cached
";

/// A scratch directory (removed at the end) holding `prog.f90` and the cache base `cache/`.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("ferrocaf-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(d.join("cache")).unwrap();
        fs::set_permissions(&d, fs::Permissions::from_mode(0o700)).unwrap();
        fs::write(d.join("prog.f90"), PROGRAM).unwrap();
        Scratch(d)
    }

    fn cache(&self) -> PathBuf {
        self.0.join("cache")
    }

    /// `ferrocaf run -n 1 <source>` with the cache under `cache/` (or `xdg` if given).
    fn run(&self, source: &Path, xdg: Option<&Path>) -> Output {
        let mut cmd = Command::new(FERROCAF);
        cmd.args(["run", "-n", "1"]).arg(source);
        isolate(&mut cmd, 1);
        cmd.env("XDG_CACHE_HOME", xdg.unwrap_or(&self.cache()));
        cmd.output().unwrap()
    }

    /// The program entries of the cache (16 hex digits).
    fn entries(&self) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = fs::read_dir(self.cache().join("ferrocaf"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().unwrap().len() == 16)
            .collect();
        v.sort();
        v
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn mode(p: &Path) -> u32 {
    fs::symlink_metadata(p).unwrap().mode() & 0o7777
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Checks `o` was refused with one line naming `path` and containing `why`, and ran nothing.
fn refused(o: &Output, path: &Path, why: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "ran although {why}: {err}");
    assert!(
        !String::from_utf8_lossy(&o.stdout).contains("cached"),
        "the program ran"
    );
    assert!(
        err.lines().count() == 1 && err.contains(why) && err.contains(&*path.to_string_lossy()),
        "expected one line naming {path:?} with `{why}`, got: {err}"
    );
}

#[test]
fn without_home_the_cache_is_in_the_passwd_home_never_in_tmp() {
    let o = Command::new("env")
        .args(["-u", "HOME", "-u", "XDG_CACHE_HOME", FERROCAF, "info"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("cache:"))
        .unwrap_or_else(|| panic!("ferrocaf info shows no cache line:\n{text}"));
    let home = std::env::var("HOME").unwrap_or_default();
    // The passwd entry's home (the tests' HOME is normally the same directory).
    assert!(
        line.contains("/.cache/ferrocaf") && !line.contains("/tmp"),
        "cache without HOME: {line}"
    );
    if !home.is_empty() {
        assert!(line.contains(&home), "not under {home}: {line}");
    }
}

#[test]
fn the_cache_is_created_private() {
    let s = Scratch::new("cache_private");
    let o = s.run(&s.0.join("prog.f90"), None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let root = s.cache().join("ferrocaf");
    assert_eq!(mode(&root), 0o700, "cache directory");
    let entries = s.entries();
    assert_eq!(entries.len(), 1);
    assert_eq!(mode(&entries[0]), 0o700, "cache entry");
    // A cache left readable by an older ferrocaf is made private.
    fs::set_permissions(&root, fs::Permissions::from_mode(0o755)).unwrap();
    assert!(s.run(&s.0.join("prog.f90"), None).status.success());
    assert_eq!(mode(&root), 0o700, "cache directory after a run");
}

#[test]
fn a_cache_writable_by_others_is_refused() {
    let s = Scratch::new("cache_writable");
    let src = s.0.join("prog.f90");
    assert!(s.run(&src, None).status.success());
    let root = s.cache().join("ferrocaf");
    let entry = s.entries().remove(0);
    fs::set_permissions(&entry, fs::Permissions::from_mode(0o777)).unwrap();
    refused(&s.run(&src, None), &entry, "writable by other users");
    fs::set_permissions(&entry, fs::Permissions::from_mode(0o700)).unwrap();
    fs::set_permissions(&root, fs::Permissions::from_mode(0o770)).unwrap();
    refused(&s.run(&src, None), &root, "writable by other users");
    fs::set_permissions(&root, fs::Permissions::from_mode(0o700)).unwrap();
    // A shared base directory that is not sticky: anyone could swap the cache.
    fs::set_permissions(s.cache(), fs::Permissions::from_mode(0o777)).unwrap();
    refused(&s.run(&src, None), &s.cache(), "writable by other users");
    // A sticky one (like /tmp) is fine: the cache inside it is checked itself.
    fs::set_permissions(s.cache(), fs::Permissions::from_mode(0o1777)).unwrap();
    assert!(s.run(&src, None).status.success());
}

/// Another user plants the cache (or an entry, or an executable in an entry): never used. The
/// planted executable would leave a marker file if it ran.
#[test]
fn what_another_user_owns_is_refused() {
    if !is_root() {
        eprintln!("skipped: planting files of another user needs root (CI runs as root)");
        return;
    }
    let s = Scratch::new("cache_other_user");
    let src = s.0.join("prog.f90");
    let chown = |p: &Path| std::os::unix::fs::lchown(p, Some(65534), Some(65534)).unwrap();
    // The whole cache directory, made before the victim's first run.
    let shared = s.0.join("shared");
    fs::create_dir_all(shared.join("ferrocaf")).unwrap();
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o1777)).unwrap();
    chown(&shared.join("ferrocaf"));
    refused(
        &s.run(&src, Some(&shared)),
        &shared.join("ferrocaf"),
        "belongs to user 65534",
    );
    // An entry and its executable replaced by another user's program.
    assert!(s.run(&src, None).status.success());
    let entry = s.entries().remove(0);
    let exe = entry.join("prog");
    let marker = s.0.join("planted-ran");
    fs::write(&exe, format!("#!/bin/sh\ntouch {}\n", marker.display())).unwrap();
    fs::set_permissions(&exe, fs::Permissions::from_mode(0o755)).unwrap();
    chown(&exe);
    refused(&s.run(&src, None), &exe, "belongs to user 65534");
    chown(&entry);
    refused(&s.run(&src, None), &entry, "belongs to user 65534");
    assert!(!marker.exists(), "the planted program ran");
}

#[test]
fn the_cache_keeps_under_its_size_limit_dropping_the_least_recently_used() {
    let s = Scratch::new("cache_prune");
    let sources: Vec<PathBuf> = ["a", "b", "c"]
        .iter()
        .map(|n| {
            let p = s.0.join(format!("{n}.f90"));
            fs::write(&p, PROGRAM.replace("'cached '", &format!("'cached {n} '"))).unwrap();
            p
        })
        .collect();
    let run = |src: &Path, limit: u64| {
        let mut cmd = Command::new(FERROCAF);
        cmd.args(["run", "-n", "1"]).arg(src);
        isolate(&mut cmd, 1);
        cmd.env("XDG_CACHE_HOME", s.cache())
            .env("FERROCAF_CACHE_SIZE", limit.to_string());
        let o = cmd.output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    let big = 1u64 << 40;
    run(&sources[0], big);
    let one: u64 = du(&s.entries()[0]);
    run(&sources[1], big);
    run(&sources[0], big); // a hit: a is now used more recently than b
    assert_eq!(s.entries().len(), 2);
    let before: Vec<PathBuf> = s.entries();
    run(&sources[2], one * 5 / 2);
    let after = s.entries();
    assert_eq!(after.len(), 2, "limit of 2.5 entries: {after:?}");
    let dropped: Vec<_> = before.iter().filter(|e| !after.contains(e)).collect();
    assert_eq!(dropped.len(), 1, "{before:?} -> {after:?}");
    // b was the least recently used: running a again is a hit (no rebuild).
    let a_entry = after.iter().find(|e| before.contains(e)).unwrap().clone();
    let stamp = fs::metadata(a_entry.join("a")).unwrap().modified().unwrap();
    run(&sources[0], one * 5 / 2);
    assert_eq!(
        fs::metadata(a_entry.join("a")).unwrap().modified().unwrap(),
        stamp,
        "a was rebuilt: the recently used entry was pruned"
    );
}

/// Bytes of the files under `p`.
fn du(p: &Path) -> u64 {
    fs::read_dir(p)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                du(&e.path())
            } else {
                e.metadata().unwrap().len()
            }
        })
        .sum()
}
